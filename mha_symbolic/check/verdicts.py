"""Verdicts on printed numbers: one entry against its exact value, and whole claims."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import flint
import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.core.evalf import PrecisionExhausted
from sympy.printing.latex import LatexPrinter

from mha_symbolic.check.claims import Claim, Printed, Side
from mha_symbolic.exact import balls
from mha_symbolic.exact.rounding import decimal_of
from mha_symbolic.language.check_phrases import Voice, phrase, voice
from mha_symbolic.text import decimal_text as shared_decimal_text

# best to worst; "within": holds within the printed precision of the inputs (check/precision)
# "follows": not the exact value, but what the document's own assumed numbers give (a claim
# after an [assumed] value, recomputed from it: check/follow); it does not make a report fail.
VERDICTS = ("exact", "rounded", "within", "follows", "undecided", "wrong", "shape")
HOLDS = frozenset({"exact", "rounded", "within"})
INCONSISTENT = phrase("inconsistent")
_DIGITS = 30  # significant digits a sign is decided with (evalf raises precision as needed)
_MAX_PRECISION = 2000  # bits evalf may use before an exact zero test takes over
_FORMULA_BITS = 256  # a formula's printed parts are far wider than this precision
_MIN_PLACES = 4  # decimal places shown for a value claimed exactly
SYMBOLIC = phrase("symbolic")  # the decimal column of a value with free symbols
SYMBOLIC_NOTE = phrase("symbolic_weights")


def worst(verdicts: Iterable[str]) -> str:
    return max(verdicts, key=VERDICTS.index, default="exact")


# ------------------------------------------------------------------ one entry
def judge(value: sp.Expr, printed: Printed, ball: flint.arb | None = None) -> str:
    """The verdict on one printed number against the exact ``value``.

    ``exact`` when equal; ``rounded`` when printed with n decimals and within half a unit of
    the last digit; ``undecided`` when neither equality nor inequality can be proved
    (symbolic entries only, in practice); otherwise ``wrong``. ``ball``, a certified
    enclosure of ``value`` (``Derivation.enclose``), decides most verdicts without SymPy.
    """
    if ball is not None:
        quick = judge_ball(ball, printed)
        if quick is not None:
            return quick
    claimed = printed.value
    if value == claimed:
        return "exact"
    if value.has(sp.oo, -sp.oo) or claimed.has(sp.oo, -sp.oo):
        return "wrong"
    if printed.formula is not None and not value.free_symbols:
        return _judge_formula(value, printed)
    difference = value - claimed
    if difference.free_symbols:
        return _judge_symbolic(difference)
    sign = _sign(difference)
    if sign is None and printed.unit is not None and balls.beyond_reach(difference):
        # e^{-10^9} away (a -1e9 mask): its sign is out of reach, its size is not
        return "rounded" if balls.smaller_than(difference, printed.unit / 2) else "undecided"
    if sign is None:
        return "undecided"
    if sign == 0:
        return "exact"
    if printed.unit is None:
        return "wrong"
    margin = _sign(sign * difference - printed.unit / 2)
    if margin is None:
        return "undecided"
    if margin > 0:
        return "wrong"
    return _in_decade(value, printed, sign * difference) if printed.significant else "rounded"


def judge_ball(ball: flint.arb, printed: Printed) -> str | None:
    """``wrong`` or ``rounded`` when the enclosure ``ball`` of the exact value proves it;
    None when only the exact value can tell (it may equal the claim, sit near a rounding
    boundary, or the claim is a formula or in scientific notation)."""
    claimed = printed.value
    if printed.formula is not None or not claimed.is_Rational or not ball.is_finite():
        return None
    with balls.precision(max(flint.ctx.prec, 256)):
        difference = ball - flint.arb(int(claimed.p)) / int(claimed.q)
        if difference.contains(0):
            return None
        if printed.unit is None:
            return "wrong"
        distance = abs(difference) - flint.arb(int(printed.unit.p)) / (2 * int(printed.unit.q))
        if distance > 0:
            return "wrong"
        if distance < 0 and not printed.significant:
            return "rounded"
    return None


def _judge_formula(value: sp.Expr, printed: Printed) -> str:
    """A formula of printed decimals holds when some values those digits stand for give
    ``value``: arb encloses the formula over them; outside the enclosure it is wrong."""
    assert printed.formula is not None
    with balls.precision(_FORMULA_BITS):
        leaves = {symbol: _printed_ball(mid, unit) for symbol, mid, unit in printed.parts}
        claimed = balls.to_arb(printed.formula, dict(leaves))
        exact = balls.to_arb(value, {})
    if claimed is None or exact is None:
        return "undecided"
    if not claimed.overlaps(exact):
        return "wrong"
    return "rounded" if claimed.contains(exact) else "undecided"


def _printed_ball(mid: sp.Rational, unit: sp.Rational) -> flint.arb:
    """The numbers a printed decimal stands for: within half a unit of its last digit."""
    return flint.arb(mid.p) / mid.q + flint.arb(0, flint.arb(unit.p) / (2 * unit.q))


def _in_decade(value: sp.Expr, printed: Printed, distance: sp.Expr) -> str:
    """Scientific notation claims its first digit's decade: 0.7311 prints as 7e-1, not 1e0."""
    claimed = printed.value
    if claimed == 0 or printed.unit is None:
        return "rounded"
    decade = _decade(abs(sp.Rational(claimed)))
    # |value| by its proved sign: SymPy's abs() asks the assumptions of every term first,
    # seconds for a softmax entry of twenty exponentials
    sign = _sign(value)
    if sign is None:
        return "undecided"
    below = _sign((value if sign >= 0 else -value) - decade)
    if below is None:
        return "undecided"
    if below >= 0:
        return "rounded"
    # Below the decade the same digits resolve ten times finer.
    finer = _sign(distance - printed.unit / 20)
    if finer is None:
        return "undecided"
    return "rounded" if finer <= 0 else "wrong"


def _decade(number: sp.Rational) -> sp.Rational:
    """The power of ten 10^k with 10^k <= number < 10^(k+1) (number > 0)."""
    k = len(str(number.p)) - len(str(number.q))
    power = sp.Rational(10) ** k
    while power > number:
        power /= 10
    while power * 10 <= number:
        power *= 10
    return power


def _proved_zero(number: sp.Expr) -> int | None:
    """0 if SymPy proves ``number`` zero; None if it cannot (or its numbers overflow, as
    e^{10^{25}} does inside its simplification)."""
    try:
        return 0 if number.equals(0) else None
    except (OverflowError, MemoryError, RecursionError, ValueError):
        return None


def _sign(number: sp.Expr) -> int | None:
    """-1, 0 or 1 for a real constant, proved by high-precision evaluation; None if unknown."""
    if number.is_Rational:
        return int(sp.sign(number))
    proved = balls.sign(number)  # arb at the precision needed: e^{-10^6} in a fraction of a s
    if proved is not None:
        return proved
    try:
        value = number.evalf(_DIGITS, strict=True, maxn=_MAX_PRECISION)
    except PrecisionExhausted:  # no accuracy relative to an exact zero: prove it instead
        return None if balls.beyond_reach(number) else _proved_zero(number)
    if not value.is_real:
        return None
    if value == 0:
        return _proved_zero(number)
    return 1 if value > 0 else -1


_SYMBOLIC_OPS = 400  # operations past which expand/simplify can take minutes


def _judge_symbolic(difference: sp.Expr) -> str:
    """Equal as expressions in the free symbols (exact), or not (wrong): proved both ways.

    Inequality is proved first, at two points (arb: fast at any size); expanding and
    simplifying are tried only on expressions small enough for them (a softmax of symbolic
    scores expanded takes many minutes), else the verdict is ``undecided``.
    """
    symbols = sorted(difference.free_symbols, key=str)
    points = (
        {s: sp.Rational(1, k + 2) for k, s in enumerate(symbols)},
        {s: sp.Rational(k + 3, 5) for k, s in enumerate(symbols)},
    )
    for point in points:
        if _sign(difference.xreplace(point)) in (-1, 1):
            return "wrong"
    if sp.count_ops(difference) > _SYMBOLIC_OPS:
        return "undecided"
    if sp.expand(difference) == 0:
        return "exact"
    return "exact" if sp.simplify(difference) == 0 else "undecided"


def _decimal(value: sp.Expr, ball: Any, places: int) -> str | None:
    """``value`` in decimals, from its enclosure when it has one (an exponential sum of
    thousands of terms evaluates slowly); a rational's own decimals keep their short form.
    A finite enclosure proves the value finite: SymPy is not asked (its inference over a
    large exact entry takes longer than the rest of the report)."""
    finite = ball is not None and ball.is_finite()
    if not finite and value.is_infinite:
        return "-∞" if value.is_extended_negative else "∞"  # a masked score, as readers write it
    if ball is not None and not value.is_Rational:
        quick = decimal_of(ball, places)
        if quick is not None:
            return quick
    return decimal_text(value, places)


def decimal_text(value: sp.Expr, places: int) -> str | None:
    """``value`` as a decimal rounded to ``places`` (terminating fractions in full)."""
    return shared_decimal_text(value, places, shortest=True)


def _places(printed: Printed) -> int:
    return max(_MIN_PLACES, printed.decimals + 2)


# ------------------------------------------------------------------ verdicts
@dataclass(frozen=True)
class EntryVerdict:
    """One printed entry against the exact entry at ``index`` (1-based, in the step)."""

    index: tuple[int, int]
    claimed: Printed
    exact: sp.Expr
    verdict: str
    ball: Any = field(default=None, compare=False, repr=False)  # its enclosure, if it has one

    @property
    def holds(self) -> bool:
        return self.verdict in HOLDS

    @property
    def decimal(self) -> str | None:
        return _decimal(self.exact, self.ball, _places(self.claimed))

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": list(self.index),
            "claimed": self.claimed.text,
            "exact": _latex(self.exact),
            "decimal": self.decimal,
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class ClaimVerdict:
    """A claim judged: the worst of its entries' verdicts, or ``shape``, with a diagnosis."""

    claim: Claim
    exact: Matrix  # the exact value of what the claim is about (step, row or entry)
    verdict: str
    entries: tuple[EntryVerdict, ...]
    diagnosis: str | None
    mistakes: tuple[str, ...]  # the common mistakes whose values match the claim
    # The diagnosis in a sentence: how the claim follows from (or starts) the document's own
    # slips, the likely mistake, the first wrong entry in words (check/follow).
    explanation: str | None = None

    @property
    def key(self) -> str:
        return self.claim.key

    @property
    def step(self) -> str:
        return self.claim.step

    @property
    def holds(self) -> bool:
        return self.verdict in HOLDS

    @property
    def decimal(self) -> str | None:
        """The exact value in decimals, or None when it has free symbols."""
        if self.exact.free_symbols:
            return None
        places = max((_places(e.claimed) for e in self.entries), default=_MIN_PLACES)
        rows, cols = self.exact.shape
        balls = [e.ball for e in self.entries[: rows * cols]]
        if len(balls) != rows * cols:  # (a claim of another shape: no balls to read)
            balls = [None] * (rows * cols)
        return grid_of(
            [
                [_decimal(self.exact[i, j], balls[i * cols + j], places) or "" for j in range(cols)]
                for i in range(rows)
            ]
        )

    @property
    def exact_latex(self) -> str:
        if self.exact.shape == (1, 1):
            return _latex(self.exact[0, 0])
        return _MatrixLatex({"mat_str": "bmatrix", "mat_delim": ""}).doprint(self.exact)

    def to_dict(self, words: Voice | None = None) -> dict[str, Any]:
        """Plain data (keys and verdicts as they are; sentences in ``words``' language)."""
        words = words or voice()
        return {
            "key": self.key,
            "claimed": self.claim.text,
            "verdict": self.verdict,
            "exact": self.exact_latex,
            "decimal": self.decimal,
            "diagnosis": words.sentence(self.diagnosis),
            # The same sentence the text report prints under "why" (None when it holds).
            "explanation": words.sentence(self.explanation),
            "mistakes": [words.sentence(m) for m in self.mistakes],
            "entries": [entry.to_dict() for entry in self.entries],
        }


@functools.lru_cache(maxsize=4096)
def _latex(value: sp.Expr) -> str:
    """``sp.latex(value)``, kept: the claims on one step print the same entries, in a matrix
    and one by one, and again in the next claim (equal values are equal trees, printed alike)."""
    return str(sp.latex(value))


class _MatrixLatex(LatexPrinter):
    """``sp.latex`` of a matrix, its entries printed by :func:`_latex` (an entry is printed
    on its own, with no context: its text is the same in a matrix and alone)."""

    def _print(self, expr: Any, **kwargs: Any) -> str:
        if self._print_level == 1 and not kwargs:  # an entry of the matrix
            return _latex(expr)
        return str(super()._print(expr, **kwargs))


def judge_side(
    claim: Claim, side: Side, target: Matrix, balls: Any = None
) -> tuple[EntryVerdict, ...] | None:
    """Entry verdicts of one side of the claim, or None when its shape differs; ``balls``:
    the step's enclosure (rows of arb balls), when it has one."""
    if side.shape != target.shape:
        return None

    def ball(i: int, j: int) -> flint.arb | None:
        if balls is None:
            return None
        row, col = claim.position(i, j)
        return balls[row - 1][col - 1]

    return tuple(
        _entry(claim.position(i, j), printed, target[i, j], ball(i, j))
        for i, row in enumerate(side.rows)
        for j, printed in enumerate(row)
    )


def _entry(index: tuple[int, int], printed: Printed, exact: sp.Expr, ball: Any) -> EntryVerdict:
    return EntryVerdict(index, printed, exact, judge(exact, printed, ball), ball)


def holds_for(claim: Claim, value: Matrix) -> bool:
    """Whether every side of the claim holds for ``value`` (a step's value, whole): judged
    entry by entry up to the first that does not hold (a mistake's values seldom match, and
    each entry judged without an enclosure is a SymPy evaluation)."""
    target = claim.target(value)
    for side in claim.sides:
        if side.shape != target.shape:  # (judge_side: None)
            return False
        pairs = (
            (target[i, j], printed)
            for i, row in enumerate(side.rows)
            for j, printed in enumerate(row)
        )
        if not all(judge(exact, printed) in HOLDS for exact, printed in pairs):
            return False
    return True


def grid(matrix: Matrix, show: Callable[[sp.Expr], str]) -> str:
    """A value as a scalar, a row ``[a, b]`` or rows ``[[a, b], [c, d]]``."""
    return grid_of([[show(v) for v in matrix.row(i)] for i in range(matrix.rows)])


def grid_of(cells: list[list[str]]) -> str:
    """Texts as a scalar, a row ``[a, b]`` or rows ``[[a, b], [c, d]]``."""
    if len(cells) == 1 and len(cells[0]) == 1:
        return cells[0][0]
    rows = ["[" + ", ".join(row) + "]" for row in cells]
    return rows[0] if len(rows) == 1 else "[" + ", ".join(rows) + "]"
