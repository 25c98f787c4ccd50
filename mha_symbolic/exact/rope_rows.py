"""RoPE's steps entry by entry from the structure: the rotated queries and keys, their scores,
the logits and each softmax row, as the evaluator writes them, one entry or row at a time.

A rotated matrix is held as its rational matrix and the exact angle of each feature pair at
position 1 (:class:`~mha_symbolic.exact.rope_arb.Rotated`); its entry (p, a) is the pair
turned by p times that angle, and a score of rotated queries and keys is read by the
distance between the tokens (:func:`relative_score`). The evaluator
(:mod:`mha_symbolic.operations.rope`) makes its whole matrices with these same two
functions, so an entry made here is the entry ``d[key]`` holds, with SymPy's ``cos`` and
``sin`` of the exact angles in it (``cos(1/100)``), never a float. The softmax of such logits
is made by the evaluator's own ``ops.row_softmax`` on the one row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import flint
import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.core.basic import Basic

from mha_symbolic.exact import ops
from mha_symbolic.exact.arb import arb_of
from mha_symbolic.exact.canonical_order import (
    Unordered,
    compare_key,
    rank,
    rational_key,
    remember,
)
from mha_symbolic.exact.rope_arb import Rotated, RotatedScores

EntryMaker = Callable[[int, int], sp.Expr]
_ONE_ARGUMENT = sp.FiniteSet(1)  # what SymPy's Function sets as a cos's, sin's or exp's nargs
_MUL, _ADD = rank("Mul"), rank("Add")


def turned(x_a: sp.Expr, x_b: sp.Expr, turn: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """The pair (x_a, x_b) turned by the exact angle ``turn``: one entry of a rotated matrix
    is one of these, so an entry is made alone exactly as the whole matrix makes it."""
    cos, sin = sp.cos(turn), sp.sin(turn)
    return ops.tidy(x_a * cos - x_b * sin), ops.tidy(x_a * sin + x_b * cos)


def relative_score(
    q: Any, k: Any, trig: Sequence[tuple[sp.Expr, sp.Expr]], pairs: Sequence[tuple[int, int]]
) -> sp.Expr:
    """One score of rotated queries and keys from the unrotated rows ``q`` and ``k``: each
    pair (a, b) gives (q_a k_a + q_b k_b) cos(phi) + (q_b k_a - q_a k_b) sin(phi) at its
    angle phi of the distance between the tokens (``trig``: each pair's cos and sin). The
    terms are added at once: one Add of 2 x 64 terms, not 64 ever longer ones."""
    terms: list[sp.Expr] = []
    for (cos, sin), (a, b) in zip(trig, pairs):
        same = q[a] * k[a] + q[b] * k[b]
        cross = q[b] * k[a] - q[a] * k[b]
        terms += (same * cos, cross * sin)
    return ops.tidy(sp.Add(*terms))


@lru_cache(maxsize=4096)
def trig_of(steps: tuple[sp.Expr, ...], distance: int) -> tuple[tuple[sp.Expr, sp.Expr], ...]:
    """cos and sin of each pair's angle at ``distance`` (``steps``: the angles at 1), made
    once for every head and row that meets it (SymPy's own cache holds a thousand)."""
    turns = [sp.Integer(distance) * step for step in steps]
    return tuple((sp.cos(phi), sp.sin(phi)) for phi in turns)


# A number c * atom as (c, atom, the atom's sort key); atom None: the number c.
Split = tuple[flint.fmpq, Any, Any]


@lru_cache(maxsize=4096)
def split_trig(steps: tuple[sp.Expr, ...], distance: int) -> tuple[Split, ...] | None:
    """:func:`trig_of` as (coefficient, cos or sin, its key in SymPy's order) triples, cos
    then sin of each pair (sin(-t) is -1 times sin(t)); None if one is another form or
    unordered (then SymPy multiplies and adds)."""
    made = _turns(steps, distance) if _plain(steps) else _split(trig_of(steps, distance))
    if made is None:
        return None
    try:
        return tuple((c, atom, None if atom is None else compare_key(atom)) for c, atom in made)
    except Unordered:
        return None


def _split(trig: Sequence[tuple[sp.Expr, sp.Expr]]) -> list[tuple[flint.fmpq, Any]] | None:
    out = []
    for value in (v for pair in trig for v in pair):
        c, atom = value.as_coeff_Mul()
        if not c.is_Rational or not (atom is sp.S.One or isinstance(atom, (sp.cos, sp.sin))):
            return None
        out.append((flint.fmpq(int(c.p), int(c.q)), None if atom is sp.S.One else atom))
    return out


@lru_cache(maxsize=64)
def _plain(steps: tuple[sp.Expr, ...]) -> bool:
    """Positive real angles with no pi or i in them (a rational, or a rational times a root
    of the base): SymPy's cos and sin of a positive multiple are left as they are."""
    return all(s.is_positive and not s.has(sp.pi, sp.I) for s in steps)


def _turns(steps: tuple[sp.Expr, ...], distance: int) -> list[tuple[flint.fmpq, Any]]:
    """:func:`split_trig` of plain angles, each cos and sin built as SymPy's Function builds
    it once its ``eval`` has nothing to change (SymPy's asks of each angle whether it is 0,
    a multiple of pi or of i: a few milliseconds each, 16,000 of them at model scale)."""
    if distance == 0:
        return [(flint.fmpq(1), None), (flint.fmpq(0), None)] * len(steps)
    sign = flint.fmpq(1 if distance > 0 else -1)
    out: list[tuple[flint.fmpq, Any]] = []
    for step in steps:
        phi = sp.Integer(abs(distance)) * step
        out += ((flint.fmpq(1), _applied(sp.cos, phi)), (sign, _applied(sp.sin, phi)))
    return out


def _applied(function: Any, argument: sp.Expr) -> sp.Expr:
    made = Basic.__new__(function, argument)
    made.nargs = _ONE_ARGUMENT
    return made


def rational_score(
    q: Sequence[flint.fmpq], k: Sequence[flint.fmpq], trig: Sequence[Split], pairs: Any
) -> sp.Expr:
    """:func:`relative_score` of rational rows, its coefficients in FLINT and its Add put
    together as SymPy's would be (``ops.canonical_add``): the numbers summed into one first,
    then each cos and sin once times its coefficient, in SymPy's order, each term's key
    made from its atom's, which is made once; no SymPy arithmetic."""
    number, keyed = flint.fmpq(0), []
    for j, (a, b) in enumerate(pairs):
        same, cross = q[a] * k[a] + q[b] * k[b], q[b] * k[a] - q[a] * k[b]
        for coefficient, (c, atom, key) in ((same, trig[2 * j]), (cross, trig[2 * j + 1])):
            value = coefficient * c
            if value == 0:
                continue
            if atom is None:
                number += value
            elif value == 1:
                keyed.append((key, atom))
            else:
                made = _number(value)
                term = sp.Mul._from_args((made, atom), True)
                keyed.append(((_MUL, 2, (rational_key(made), key)), term))
    keyed.sort(key=lambda item: item[0])  # (no two keys alike: each atom is there once)
    terms = [term for _, term in keyed]
    keys = [key for key, _ in keyed]
    if number != 0:
        terms.insert(0, _number(number))
        keys.insert(0, rational_key(terms[0]))
    if len(terms) < 2:
        return terms[0] if terms else sp.Integer(0)
    made = sp.Add._from_args(terms, True)
    remember(made, (_ADD, len(terms), tuple(keys)))  # its compare key, from its terms'
    return made


def _number(value: flint.fmpq) -> sp.Rational:
    """SymPy's number of ``value``, made without SymPy's checks (``softmax_rows.number_of``:
    imported here, as it imports the walker, whose operations import this module)."""
    from mha_symbolic.exact.softmax_rows import number_of

    return number_of(int(value.p), int(value.q))


def _row(matrix: flint.fmpq_mat, i: int) -> list[sp.Rational]:
    return [sp.Rational(int(r.p), int(r.q)) for r in (matrix[i, j] for j in range(matrix.ncols()))]


def rotated_entries(rotated: Rotated) -> EntryMaker:
    """Entry (p, c) of the rotated matrix (a step's value: never transposed)."""
    partner = {a: (b, j, True) for j, (a, b) in enumerate(rotated.pairs)}
    partner.update({b: (a, j, False) for j, (a, b) in enumerate(rotated.pairs)})
    matrix = rotated.matrix

    def entry(p: int, c: int) -> sp.Expr:
        if c not in partner:  # (an odd width has none: RoPE refuses it, every column pairs)
            return sp.Rational(int(matrix[p, c].p), int(matrix[p, c].q))
        other, j, first = partner[c]
        a, b = (c, other) if first else (other, c)
        x = _row(matrix, p)
        made = turned(x[a], x[b], sp.Integer(p) * rotated.steps[j])
        return made[0] if first else made[1]

    return entry


class ScoreEntries:
    """Entry (p, r) of ``RoPE(Q) RoPE(K)^T``, by the distance r - p, from the rational rows
    of Q and K (each row read once)."""

    def __init__(self, scores: RotatedScores) -> None:
        self.scores = scores
        self.rows: dict[tuple[str, int], list[flint.fmpq]] = {}

    def row(self, which: str, i: int) -> list[flint.fmpq]:
        if (which, i) not in self.rows:
            matrix = (self.scores.q if which == "q" else self.scores.k).matrix
            self.rows[which, i] = [matrix[i, j] for j in range(matrix.ncols())]
        return self.rows[which, i]

    def __call__(self, p: int, r: int) -> sp.Expr:
        q, k = self.row("q", p), self.row("k", r)
        steps, pairs = self.scores.q.steps, self.scores.q.pairs
        split = split_trig(steps, r - p)
        if split is not None:
            return rational_score(q, k, split, pairs)
        q_row, k_row = ([_number(v) for v in row] for row in (q, k))
        return relative_score(q_row, k_row, trig_of(steps, r - p), pairs)

    def ball(self, p: int, r: int) -> flint.arb:
        """Score (p, r) as an arb ball at the context's precision, from the same parts."""
        q, k = self.row("q", p), self.row("k", r)
        total = flint.arb(0)
        turns = _trig_balls(self.scores.q.steps, r - p, flint.ctx.prec)
        for (cos, sin), (a, b) in zip(turns, self.scores.q.pairs):
            total += (q[a] * k[a] + q[b] * k[b]) * cos + (q[b] * k[a] - q[a] * k[b]) * sin
        return total


@lru_cache(maxsize=4096)
def _trig_balls(
    steps: tuple[sp.Expr, ...], distance: int, bits: int
) -> tuple[tuple[flint.arb, flint.arb], ...]:
    """cos and sin of each pair's angle at ``distance`` as arb balls at ``bits``."""
    out = []
    for step in steps:
        sin, cos = (arb_of(step) * distance).sin_cos()
        out.append((cos, sin))
    return tuple(out)


def logits_softmax(logits: Any, i: int) -> ops.Softmax:
    """Row i of the softmax of RoPE's logits (``factor * scores``, -oo where ``allowed``
    blocks), each logit enclosed from the structure as it is made."""
    scores, factor, allowed = ScoreEntries(logits.matrix), logits.factor, logits.allowed
    row: list[sp.Expr] = []
    balls: list[flint.arb | None] = []
    saved, flint.ctx.prec = flint.ctx.prec, _BITS
    try:
        scale = arb_of(factor)
        for j in range(scores.scores.ncols()):
            if allowed is not None and not allowed[i][j]:
                row.append(-sp.oo)
                balls.append(None)
                continue
            score = scores(i, j)
            row.append(score if factor == 1 else factor * score)
            balls.append(scale * scores.ball(i, j))
    finally:
        flint.ctx.prec = saved
    return softmax_row(row, balls)


def softmax_row(
    row: Sequence[sp.Expr], given: Sequence[flint.arb | None] | None = None
) -> ops.Softmax:
    """The softmax of one row of logits as ``ops.row_softmax`` makes it, without SymPy's
    assumptions: those ask each logit, a sum of 64 cosines and sines at model size, for its
    30-digit value several times over (seconds per row). Here each logit is enclosed in arb
    (``given``, in the row's places, or from its tree), which decides the row's shift and
    that no exponent is 0; a row it cannot decide at once (logits equal, or within 10^-25
    of each other) is made by ``ops.row_softmax``."""
    finite = [a for a in row if a != -sp.oo]
    if not finite or all(a.is_Rational for a in finite):
        return ops.row_softmax(Matrix([list(row)]))
    saved, flint.ctx.prec = flint.ctx.prec, _BITS
    try:
        if given is None:
            balls = [arb_of(a) for a in finite]
        else:
            balls = [b for a, b in zip(row, given) if a != -sp.oo]  # type: ignore[misc]
        shift = _shift(finite, balls)
        if shift is None:
            exps = None
        else:
            at = balls[finite.index(shift)]
            exps = [_exp(a - shift, b - at) for a, b in zip(finite, balls)]
    finally:
        flint.ctx.prec = saved
    if exps is None or any(e is None for e in exps):
        return ops.row_softmax(Matrix([list(row)]))
    made = iter(exps)
    terms = tuple(sp.Integer(0) if a == -sp.oo else next(made) for a in row)
    total = ops.linear_sum((e, sp.Integer(1)) for e in terms if e != 0)
    return ops.Softmax((terms,), (total,))


_BITS = 256  # about 77 digits: logits 10^-25 apart are told apart
_CLOSE = flint.arb("1e-25")


def _shift(finite: Sequence[sp.Expr], balls: Sequence[flint.arb]) -> sp.Expr | None:
    """``ops._row_shift`` of irrational logits: the smallest (the largest when they spread
    over more than 10^5), or None when the balls cannot tell it for certain as SymPy's
    30-digit values order them."""
    low = min(range(len(balls)), key=lambda g: balls[g].mid())
    high = max(range(len(balls)), key=lambda g: balls[g].mid())
    spread = balls[high] - balls[low]
    wide = ops._SPREAD
    if not (spread > wide or spread < wide):
        return None
    pick = high if spread > wide else low
    for g, ball in enumerate(balls):
        if g == pick or finite[g] == finite[pick]:
            continue
        gap = (ball - balls[pick]) if pick == low else (balls[pick] - ball)
        size = max(abs(ball).upper(), abs(balls[pick]).upper())
        if not gap > _CLOSE * size:
            return None
    return finite[pick]


def _exp(argument: sp.Expr, ball: flint.arb) -> sp.Expr | None:
    """``sp.exp(argument)`` for a real number that is not 0 (``ball`` encloses it): its
    ``eval`` changes nothing (no log, no multiple of pi i in it), so it is built as Function
    builds it then; 1 for an exact 0; None when the ball holds 0 (``ops.row_softmax``
    decides)."""
    if argument is sp.S.Zero:
        return sp.S.One
    if argument.is_Rational:
        return sp.exp(argument)
    if ball.contains(0):
        return None
    made = Basic.__new__(sp.exp, argument)
    made.nargs = _ONE_ARGUMENT
    return made
