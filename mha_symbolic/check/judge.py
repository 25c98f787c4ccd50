"""check(d, claims): exact verdicts on printed numbers, and the likely mistake behind wrong ones."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.core.evalf import PrecisionExhausted
from sympy.printing.str import StrPrinter

from mha_symbolic.check.claims import Claim, Printed, Side, read_claims
from mha_symbolic.errors import SpecError
from mha_symbolic.exact import ops
from mha_symbolic.exact.derivation import KINDS, Derivation, derive, unknown_key_message
from mha_symbolic.spec.attention import AttentionSpec
from mha_symbolic.text import decimal_text as shared_decimal_text

VERDICTS = ("exact", "rounded", "undecided", "wrong", "shape")  # best to worst
HOLDS = frozenset({"exact", "rounded"})
INCONSISTENT = "inconsistent with the given inputs and weights"
_DIGITS = 30  # significant digits a sign is decided with (evalf raises precision as needed)
_MAX_PRECISION = 2000  # bits evalf may use before an exact zero test takes over
_MIN_PLACES = 4  # decimal places shown for a value claimed exactly
_TEXT_WIDTH = 80  # characters of an exact value shown in the text table
SYMBOLIC = "(symbolic)"  # the decimal column of a value with free symbols
SYMBOLIC_NOTE = "the exact value depends on symbolic weights; no number holds for all of them"
_SYMBOLS_LISTED = 6  # symbols named when a claim uses one the derivation does not have
_HEAD_KEY = re.compile(r"head(\d+)\.(.+)")


def worst(verdicts: Iterable[str]) -> str:
    return max(verdicts, key=VERDICTS.index, default="exact")


# ------------------------------------------------------------------ one entry
def judge(value: sp.Expr, printed: Printed) -> str:
    """The verdict on one printed number against the exact ``value``.

    ``exact`` when equal; ``rounded`` when printed with n decimals and within half a unit of
    the last digit; ``undecided`` when neither equality nor inequality can be proved
    (symbolic entries only, in practice); otherwise ``wrong``.
    """
    claimed = printed.value
    if value == claimed:
        return "exact"
    if value.has(sp.oo, -sp.oo) or claimed.has(sp.oo, -sp.oo):
        return "wrong"
    difference = value - claimed
    if difference.free_symbols:
        return _judge_symbolic(difference)
    sign = _sign(difference)
    if sign is None:
        return "undecided"
    if sign == 0:
        return "exact"
    if printed.unit is None:
        return "wrong"
    margin = _sign(sign * difference - printed.unit / 2)
    if margin is None:
        return "undecided"
    return "rounded" if margin <= 0 else "wrong"


def _sign(number: sp.Expr) -> int | None:
    """-1, 0 or 1 for a real constant, proved by high-precision evaluation; None if unknown."""
    if number.is_Rational:
        return int(sp.sign(number))
    try:
        value = number.evalf(_DIGITS, strict=True, maxn=_MAX_PRECISION)
    except PrecisionExhausted:  # no accuracy relative to an exact zero: prove it instead
        return 0 if number.equals(0) else None
    if not value.is_real:
        return None
    if value == 0:
        return 0 if number.equals(0) else None
    return 1 if value > 0 else -1


def _judge_symbolic(difference: sp.Expr) -> str:
    """Equal as expressions in the free symbols (exact), or not (wrong): proved both ways."""
    if sp.expand(difference) == 0:
        return "exact"
    symbols = sorted(difference.free_symbols, key=str)
    points = (
        {s: sp.Rational(1, k + 2) for k, s in enumerate(symbols)},
        {s: sp.Rational(k + 3, 5) for k, s in enumerate(symbols)},
    )
    for point in points:
        if _sign(difference.xreplace(point)) in (-1, 1):
            return "wrong"
    return "exact" if sp.simplify(difference) == 0 else "undecided"


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

    @property
    def holds(self) -> bool:
        return self.verdict in HOLDS

    @property
    def decimal(self) -> str | None:
        return decimal_text(self.exact, _places(self.claimed))

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": list(self.index),
            "claimed": self.claimed.text,
            "exact": sp.latex(self.exact),
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
        return _grid(self.exact, lambda v: decimal_text(v, places) or "")

    @property
    def exact_latex(self) -> str:
        if self.exact.shape == (1, 1):
            return sp.latex(self.exact[0, 0])
        return sp.latex(self.exact, mat_str="bmatrix", mat_delim="")

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "claimed": self.claim.text,
            "verdict": self.verdict,
            "exact": self.exact_latex,
            "decimal": self.decimal,
            "diagnosis": self.diagnosis,
            "entries": [entry.to_dict() for entry in self.entries],
        }


def _judge_side(claim: Claim, side: Side, target: Matrix) -> tuple[EntryVerdict, ...] | None:
    """Entry verdicts of one side of the claim, or None when its shape differs."""
    if side.shape != target.shape:
        return None
    return tuple(
        EntryVerdict(claim.position(i, j), printed, target[i, j], judge(target[i, j], printed))
        for i, row in enumerate(side.rows)
        for j, printed in enumerate(row)
    )


def _holds_for(claim: Claim, value: Matrix) -> bool:
    """Whether every side of the claim holds for ``value`` (a step's value, whole)."""
    target = claim.target(value)
    for side in claim.sides:
        entries = _judge_side(claim, side, target)
        if entries is None or not all(e.holds for e in entries):
            return False
    return True


def _judge_claim(claim: Claim, d: Derivation, mistakes: _Mistakes) -> ClaimVerdict:
    target = claim.target(d[claim.step])
    judged = [(side, _judge_side(claim, side, target)) for side in claim.sides]
    entries = tuple(e for _, side_entries in judged if side_entries for e in side_entries)
    misfits = [side for side, side_entries in judged if side_entries is None]
    verdict = "shape" if misfits else worst(e.verdict for e in entries)
    if verdict not in ("wrong", "shape"):
        return ClaimVerdict(claim, target, verdict, entries, None, ())
    strangers = _unknown_symbols(claim, d)
    if strangers:
        return ClaimVerdict(claim, target, verdict, entries, strangers, ())
    found = mistakes.matching(claim)
    notes = [_shape_note(claim, misfits[0], target)] if misfits else []
    if found:
        notes.append(_likely(found))
    elif not misfits:
        notes.append(INCONSISTENT)
        if target.free_symbols and not any(e.claimed.value.free_symbols for e in entries):
            notes.append(SYMBOLIC_NOTE)
    return ClaimVerdict(claim, target, verdict, entries, "; ".join(notes), found)


def _unknown_symbols(claim: Claim, d: Derivation) -> str | None:
    """A note naming claimed symbols that the derivation does not have, if any."""
    claimed = {
        symbol
        for side in claim.sides
        for row in side.rows
        for printed in row
        for symbol in printed.value.free_symbols
    }
    if not claimed:
        return None
    known = d.free_symbols
    strangers = sorted(map(str, claimed - known))
    if not strangers:
        return None
    names = sorted(map(str, known))
    listed = ", ".join(names[:_SYMBOLS_LISTED]) + (", ..." if len(names) > _SYMBOLS_LISTED else "")
    verb = "does" if len(strangers) == 1 else "do"
    where = f"its symbols are {listed}" if names else "it has no symbols"
    return f"{', '.join(strangers)} {verb} not occur in the derivation ({where})"


def _shape_note(claim: Claim, side: Side, target: Matrix) -> str:
    fits = "; its transpose fits" if side.shape == (target.cols, target.rows) else ""
    return f"claimed shape {side.shape} but {claim.key} has shape {target.shape}{fits}"


def _likely(mistakes: tuple[str, ...]) -> str:
    if len(mistakes) == 1:
        return f"likely mistake: {mistakes[0]}"
    return "likely mistake, one of: " + "; ".join(mistakes)


# ------------------------------------------------------------------ common mistakes
Variant = Callable[[], Mapping[str, Matrix]]


class _Mistakes:
    """The common mistakes of one derivation, each derived lazily and at most once."""

    def __init__(self, d: Derivation) -> None:
        self.d = d
        self._candidates: list[tuple[str, Variant, str]] | None = None
        self._values: dict[str, Mapping[str, Matrix]] = {}

    def candidates(self) -> list[tuple[str, Variant, str]]:
        """(label, lazy values, first kind of step changed) of every mistake that applies."""
        if self._candidates is None:
            self._candidates = []
            for rule, first in MISTAKES:
                found = rule(self.d)
                if found is not None:
                    self._candidates.append((*found, first))
        return self._candidates

    def values(self, label: str, variant: Variant) -> Mapping[str, Matrix]:
        if label not in self._values:
            self._values[label] = variant()
        return self._values[label]

    def matching(self, claim: Claim) -> tuple[str, ...]:
        """Labels of the mistakes whose value for the claim's step matches the claim."""
        stage = KINDS.index(self.d.step(claim.step).kind)
        found = []
        for label, variant, first in self.candidates():
            if stage < KINDS.index(first):
                continue
            values = self.values(label, variant)
            if claim.step in values and _holds_for(claim, values[claim.step]):
                found.append(label)
        return (*found, *self._other_heads(claim))

    def _other_heads(self, claim: Claim) -> list[str]:
        match = _HEAD_KEY.fullmatch(claim.step)
        if not match:
            return []
        head, stage = int(match.group(1)), match.group(2)
        found = []
        for other in range(1, self.d.spec.heads + 1):
            key = f"head{other}.{stage}"
            if other != head and key in self.d and _holds_for(claim, self.d[key]):
                found.append(f"head {other}'s values ({key})")
        return found


def _unscaled(d: Derivation) -> tuple[str, Variant] | None:
    spec = d.spec
    if spec.scale == "none":
        return None
    factor = "1/sqrt(d_k)" if spec.scale == "sqrt_dk" else sp.sstr(spec.scale)
    return f"scores not scaled by {factor}", lambda: derive(spec.evolve(scale="none"))


def _scaled_again(d: Derivation) -> tuple[str, Variant] | None:
    spec = d.spec
    if spec.scale == "none":
        label = "scores scaled by 1/sqrt(d_k), which this attention does not do"
        return label, lambda: derive(spec.evolve(scale="sqrt_dk"))
    widths = {d[f"head{i}.q"].cols for i in range(1, spec.heads + 1)}
    if len(widths) != 1:
        return None
    d_k = widths.pop()
    if spec.scale == "sqrt_dk":
        label, factor = "scores scaled by 1/sqrt(d_k) twice (divided by d_k)", sp.Rational(1, d_k)
    else:
        label, factor = (
            f"scores scaled by 1/sqrt(d_k) as well as by {spec.scale}",
            (spec.scale / sp.sqrt(d_k)),
        )
    return label, lambda: derive(spec.evolve(scale=factor))


def _transposed(d: Derivation) -> tuple[str, Variant] | None:
    """Square weights read the other way round; others fit only one way, so they stay."""
    spec = d.spec
    if not any(m.is_square for name, ms in spec.weights.items() if name[0] == "w" for m in ms):
        return None
    kept = {
        name: tuple(m.T if name[0] == "w" and not m.is_square else m for m in ms)
        for name, ms in spec.weights.items()
    }
    if spec.convention == "xW":
        label, other = "weights transposed (X W^T instead of X W)", "xWT"
    else:
        label, other = "weights transposed (X W instead of X W^T)", "xW"
    return label, lambda: derive(spec.evolve(convention=other, weights=kept))


def _column_softmax(d: Derivation) -> tuple[str, Variant] | None:
    spec = d.spec
    stage = "masked" if spec.mask is not None else "scaled"
    logits = [d[f"head{i}.{stage}"] for i in range(1, spec.heads + 1)]
    blocked = any(
        all(m[r, c] == -sp.oo for r in range(m.rows)) for m in logits for c in range(m.cols)
    )
    if blocked:  # a key no query may see: its column has nothing to normalise
        return None

    def values() -> Mapping[str, Matrix]:
        out: dict[str, Matrix] = {}
        for i, scores in enumerate(logits, start=1):
            weights = ops.row_softmax(scores.T).weights.T
            out[f"head{i}.weights"] = Matrix(weights)
            out[f"head{i}.output"] = Matrix(weights * d[f"head{i}.v"])
        out["concat"] = ops.concat([out[f"head{i}.output"] for i in range(1, spec.heads + 1)])
        out["output"] = out["concat"]
        if spec.has_output_projection:
            bias = spec.weights["b_o"][0] if "b_o" in spec.weights else None
            out["output"] = ops.project(out["concat"], spec.effective("w_o"), bias)
        return out

    return "softmax over columns instead of rows", values


def _swapped_weights(
    spec: AttentionSpec, target: str, source: str
) -> dict[str, tuple[Matrix, ...]]:
    """The weights with projection ``target`` (and its bias) replaced by ``source``'s."""
    weights = dict(spec.weights)
    weights[f"w_{target}"] = spec.weights[f"w_{source}"]
    weights.pop(f"b_{target}", None)
    if f"b_{source}" in spec.weights:
        weights[f"b_{target}"] = spec.weights[f"b_{source}"]
    return weights


def _same_shapes(spec: AttentionSpec, first: str, second: str) -> bool:
    pairs = zip(spec.weights[f"w_{first}"], spec.weights[f"w_{second}"])
    return all(a.shape == b.shape for a, b in pairs)


def _k_for_v(d: Derivation) -> tuple[str, Variant] | None:
    spec = d.spec
    if spec.key.shape != spec.value.shape or not _same_shapes(spec, "k", "v"):
        return None
    changed = spec.evolve(value=spec.key, weights=_swapped_weights(spec, "v", "k"))
    return "K used in place of V", lambda: derive(changed)


def _q_for_k(d: Derivation) -> tuple[str, Variant] | None:
    spec = d.spec
    if spec.query.shape != spec.key.shape or not _same_shapes(spec, "q", "k"):
        return None
    changed = spec.evolve(key=spec.query, weights=_swapped_weights(spec, "k", "q"))
    return "Q used in place of K", lambda: derive(changed)


def _no_output_projection(d: Derivation) -> tuple[str, Variant] | None:
    spec = d.spec
    if not spec.has_output_projection:
        return None
    weights = {k: v for k, v in spec.weights.items() if k not in ("w_o", "b_o")}
    # A [loss] target has the output's shape, which the concat need not have: no gradients.
    return "W_O missing (the concat taken as the output)", lambda: derive(
        spec.evolve(weights=weights, loss=None)
    )


def _mask_ignored(d: Derivation) -> tuple[str, Variant] | None:
    spec = d.spec
    if spec.mask is None:
        return None
    return "mask ignored", lambda: derive(spec.evolve(mask_kind="none", mask=None))


Rule = Callable[[Derivation], tuple[str, Variant] | None]

# Each rule gives (label, lazy values) of one mistake, or None when it does not apply to the
# spec; beside it, the first kind of step the mistake can change (earlier steps skip it).
MISTAKES: tuple[tuple[Rule, str], ...] = (
    (_unscaled, "scale"),
    (_scaled_again, "scale"),
    (_transposed, "project"),
    (_column_softmax, "softmax"),
    (_k_for_v, "input"),  # cross-attention: the value input becomes the key input
    (_q_for_k, "input"),
    (_no_output_projection, "output"),
    (_mask_ignored, "softmax"),
)


# ------------------------------------------------------------------ report
class _Plain(StrPrinter):
    """Compact one-line values for the text table: ``e/(1 + e)``."""

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_exp(self, expr: Any) -> str:
        return f"e^({self._print(expr.args[0])})"


def _plain(value: sp.Expr) -> str:
    return _Plain().doprint(value)


def _clip(text: str) -> str:
    """Long symbolic values cut short in the text table (JSON and Markdown keep them whole)."""
    return text if len(text) <= _TEXT_WIDTH else text[: _TEXT_WIDTH - 1] + "…"


def _grid(matrix: Matrix, show: Callable[[sp.Expr], str]) -> str:
    """A value as a scalar, a row ``[a, b]`` or rows ``[[a, b], [c, d]]``."""
    rows = ["[" + ", ".join(show(v) for v in matrix.row(i)) + "]" for i in range(matrix.rows)]
    if matrix.shape == (1, 1):
        return show(matrix[0, 0])
    return rows[0] if matrix.rows == 1 else "[" + ", ".join(rows) + "]"


@dataclass(frozen=True)
class Report:
    """Verdicts on every claim, in the order given."""

    source: str
    claims: tuple[ClaimVerdict, ...]

    @property
    def ok(self) -> bool:
        """True when every claim holds (exact or rounded)."""
        return all(claim.holds for claim in self.claims)

    def by_step(self) -> dict[str, tuple[ClaimVerdict, ...]]:
        """Step key -> the claims about that step (whole, a row or an entry), for renderers."""
        out: dict[str, tuple[ClaimVerdict, ...]] = {}
        for claim in self.claims:
            out[claim.step] = (*out.get(claim.step, ()), claim)
        return out

    def marks(self) -> dict[str, tuple[dict[str, Any], ...]]:
        """Step key -> the claims about it that do not hold, as plain data for a renderer.

        Each mark: ``key`` (the claim's key), ``claimed`` (the printed numbers, plain text),
        ``verdict``, ``exact`` (the exact value of what was claimed, a SymPy matrix) and
        ``diagnosis`` (text or None). Renderers take these without importing the checker.
        """
        out: dict[str, tuple[dict[str, Any], ...]] = {}
        for claim in self.claims:
            if claim.holds:
                continue
            mark = {
                "key": claim.key,
                "claimed": claim.claim.display,
                "verdict": claim.verdict,
                "exact": claim.exact,
                "diagnosis": claim.diagnosis,
            }
            out[claim.step] = (*out.get(claim.step, ()), mark)
        return out

    def summary(self) -> str:
        if not self.claims:
            return f"{self.source}: no claims to check"
        counts = {v: sum(c.verdict == v for c in self.claims) for v in VERDICTS}
        held = counts["exact"] + counts["rounded"]
        noun = "claim" if len(self.claims) == 1 else "claims"
        parts = [f"{held} hold ({counts['exact']} exact, {counts['rounded']} rounded)"]
        parts += [f"{counts[v]} {v}" for v in VERDICTS[2:] if counts[v]]
        return f"{self.source}: {len(self.claims)} {noun}: " + ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "claims": [claim.to_dict() for claim in self.claims]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def to_text(self) -> str:
        if not self.claims:
            return self.summary() + "\n"
        header = ("key", "claimed", "exact", "decimal", "verdict", "diagnosis")
        rows = [header] + [
            (
                c.key,
                c.claim.display,
                _clip(_grid(c.exact, _plain)),
                c.decimal or SYMBOLIC,
                c.verdict,
                c.diagnosis or "",
            )
            for c in self.claims
        ]
        widths = [max(len(row[k]) for row in rows) for k in range(len(header) - 1)]
        lines = [
            "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[-1]]).rstrip()
            for row in rows
        ]
        for claim in self.claims:
            lines += _entry_lines(claim)
        return "\n".join([*lines, self.summary()]) + "\n"

    def to_markdown(self) -> str:
        lines = [
            "| key | claimed | exact | decimal | verdict | diagnosis |",
            "|---|---|---|---|---|---|",
        ]
        for c in self.claims:
            cells = (
                f"`{c.key}`",
                f"`{' '.join(c.claim.text.split())}`",
                f"${c.exact_latex}$",
                c.decimal or SYMBOLIC,
                f"**{c.verdict}**" if not c.holds else c.verdict,
                c.diagnosis or "",
            )
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
        return "\n".join([*lines, "", self.summary()]) + "\n"


def _entry_lines(claim: ClaimVerdict) -> list[str]:
    """The entries of a failing claim that do not hold, one line each."""
    if claim.holds:
        return []
    lines = []
    for entry in claim.entries:
        if not entry.holds:
            (i, j), exact = entry.index, _clip(_plain(entry.exact))
            decimal = entry.decimal
            shown = exact if decimal in (None, exact) else f"{exact} = {decimal}"
            lines.append(
                f"  {claim.key} [{i},{j}]: claimed {entry.claimed.text}, exact {shown}: "
                f"{entry.verdict}"
            )
    return lines


def check(d: Derivation | AttentionSpec, claims: Mapping[str, Any] | None = None) -> Report:
    """Judge ``claims`` (step key -> printed value), or the spec's own ``[claims]`` table."""
    if isinstance(d, AttentionSpec):
        d = derive(d)
    shapes = {step.key: step.shape for step in d.steps}
    table = d.spec.claims if claims is None else claims
    if not isinstance(table, Mapping):
        raise SpecError(f"claims must be a table of step keys, got {table!r}")
    try:
        parsed = read_claims(table, shapes, lambda key: unknown_key_message(key, list(shapes)))
    except SpecError as error:
        raise error.located(d.spec.source) if claims is None else error from None
    mistakes = _Mistakes(d)
    return Report(d.spec.source, tuple(_judge_claim(claim, d, mistakes) for claim in parsed))
