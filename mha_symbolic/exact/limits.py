"""Exact limits of every step as a declared parameter goes to a point (temperature to 0 or oo)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.exact import ops
from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.spec import numbers as exact
from mha_symbolic.spec import parameters

_INFINITY = {"oo": sp.oo, "+oo": sp.oo, "-oo": -sp.oo, "inf": sp.oo, "+inf": sp.oo, "-inf": -sp.oo}
_SIDED = re.compile(r"(.*?)([+-])")
_SIDES = {"+": "from the right", "-": "from the left"}


@dataclass(frozen=True)
class Limit:
    """``symbol -> point``, from the right (``+``), the left (``-``) or both sides (``+-``)."""

    symbol: sp.Symbol
    point: sp.Expr
    direction: str

    @property
    def text(self) -> str:
        point = {sp.oo: "oo", -sp.oo: "-oo"}.get(self.point, str(self.point))
        side = "" if self.direction == "+-" or not self.point.is_finite else self.direction
        return f"{self.symbol.name} -> {point}{side}"

    @property
    def latex(self) -> str:
        point = sp.latex(self.point)
        if self.point.is_finite and self.direction != "+-":
            point = f"{point}^{{{self.direction}}}"
        return rf"{sp.latex(self.symbol)} \to {point}"


@dataclass(frozen=True, kw_only=True)
class LimitDerivation(Derivation):
    """A derivation whose every value is the exact limit of the original step's value."""

    taken: Limit
    original: Derivation


def parse_limit(text: str) -> tuple[str, str]:
    """``"tau=0+"`` -> ("tau", "0+") (the CLI's --limit)."""
    name, sep, point = text.partition("=")
    if not sep or not name.strip() or not point.strip():
        raise SpecError(f"--limit: expected NAME=POINT such as tau=0+ or tau=oo, got {text!r}")
    return name.strip(), point.strip()


def parameter(d: Derivation, name: str) -> sp.Symbol:
    """The spec's declared parameter called ``name``."""
    declared = d.spec.parameters
    if name in declared:
        return declared[name]
    if not declared:
        raise SpecError(f"{name!r} is not a parameter: this spec declares none ([parameters])")
    close = difflib.get_close_matches(name, list(declared), n=1, cutoff=0.5)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise SpecError(
        f"{name!r} is not a parameter of this spec{hint}; its parameters: {', '.join(declared)}"
    )


def point_of(symbol: sp.Symbol, point: Any) -> Limit:
    """The limit ``symbol -> point``: a number, ``oo``/``-oo``, or text with ``+``/``-`` after it.

    Without a side, a positive or nonnegative parameter goes to 0 from the right, a negative
    one from the left, any other limit at a finite point is two-sided.
    """
    side = None
    if isinstance(point, str):
        text = point.strip()
        if text in _INFINITY:
            return _checked(Limit(symbol, _INFINITY[text], "+-"))
        sided = _SIDED.fullmatch(text) if not exact._INTEGER.fullmatch(text) else None
        if sided and sided.group(1):
            text, side = sided.group(1), sided.group(2)
        value = exact.from_text(text, "limit point")
    else:
        value = point if point in (sp.oo, -sp.oo) else exact.to_number(point, "limit point")
    if value.free_symbols:
        raise SpecError(f"limit point {point!r} must be a number, oo or -oo")
    if not value.is_finite:
        return _checked(Limit(symbol, value, "+-"))
    if side is None:
        side = "+-"
        if value == 0 and symbol.is_nonnegative:
            side = "+"
        elif value == 0 and symbol.is_nonpositive:
            side = "-"
    return _checked(Limit(symbol, value, side))


def _checked(limit: Limit) -> Limit:
    """Refuse a side the parameter cannot come from (a positive tau never reaches 0-)."""
    symbol, point = limit.symbol, limit.point
    below = point == -sp.oo or (limit.direction == "-" and point == 0)
    above = point == sp.oo or (limit.direction == "+" and point == 0)
    if (symbol.is_nonnegative and (below or point.is_negative)) or (
        symbol.is_nonpositive and (above or point.is_positive)
    ):
        kind = parameters.kind_of(symbol)
        raise SpecError(f"{symbol.name} is {kind}: it cannot approach {limit.text.split()[-1]}")
    return limit


class _Taker:
    """Takes limits entry by entry, remembering each expression's limit."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self.cache: dict[sp.Expr, sp.Expr] = {}

    def entry(self, expr: sp.Expr) -> sp.Expr:
        if self.limit.symbol not in expr.free_symbols:
            return expr
        if expr not in self.cache:
            self.cache[expr] = self._compute(expr)
        return self.cache[expr]

    def _compute(self, expr: sp.Expr) -> sp.Expr:
        symbol, point, direction = self.limit.symbol, self.limit.point, self.limit.direction
        if direction == "+-":
            right = self._one_sided(expr, "+")
            left = self._one_sided(expr, "-")
            if right != left:
                raise SpecError(
                    f"the limit of {sp.sstr(expr)} as {self.limit.text} does not exist "
                    f"(from the right {right}, from the left {left}); give "
                    f"{symbol.name}={point}+ or {symbol.name}={point}-"
                )
            return right
        return self._one_sided(expr, direction)

    def _one_sided(self, expr: sp.Expr, direction: str) -> sp.Expr:
        value = sp.limit(expr, self.limit.symbol, self.limit.point, direction)
        if value.has(sp.AccumBounds, sp.Limit) or value is sp.nan:
            raise SpecError(f"no limit of {sp.sstr(expr)} as {self.limit.text}")
        return value

    def matrix(self, matrix: sp.MatrixBase) -> Matrix:
        return Matrix(matrix.rows, matrix.cols, lambda i, j: self.entry(matrix[i, j]))

    def softmax(self, logits: Matrix) -> ops.Softmax | None:
        """The limit of softmax(logits), from the logits' differences to the row's leader.

        Each weight is 1 / sum_k e^{a_k - a_j}, so only the limits of a_k - a_lead matter:
        keys whose logit falls infinitely behind the largest get exactly 0, the rest share
        e^{lim(a_k - a_lead)}: one-hot at argmax (ties split equally) as a temperature goes
        to 0, uniform over the unmasked keys as it goes to oo. None when a difference has
        no limit in [-oo, oo).
        """
        rows = []
        for i in range(logits.rows):
            row = list(logits.row(i))
            finite = [j for j, a in enumerate(row) if a != -sp.oo]
            lead = finite[0]
            for j in finite[1:]:
                if self.entry(row[j] - row[lead]) == sp.oo:
                    lead = j
            gaps = [a if a == -sp.oo else self.entry(a - row[lead]) for a in row]
            if not all(g == -sp.oo or (g.is_finite and g.is_extended_real) for g in gaps):
                return None
            rows.append(gaps)
        return ops.row_softmax(Matrix(rows))


def _finite(matrix: Matrix) -> bool:
    return all(entry.is_finite for entry in matrix)


def _logits(d: Derivation, head: int | None) -> Matrix:
    key = f"head{head}.masked"
    return d[key] if key in d else d[f"head{head}.scaled"]


class _Walk:
    """The steps in order, each value replaced by its limit (structured where that is exact)."""

    def __init__(self, d: Derivation, limit: Limit) -> None:
        self.d = d
        self.take = _Taker(limit)
        self.values: dict[str, Matrix] = {}
        self.softmaxes: dict[int, ops.Softmax | None] = {}

    def step(self, step: Step) -> Matrix:
        if step.kind == "softmax":
            assert step.head is not None
            softmax = self.take.softmax(_logits(self.d, step.head))
            self.softmaxes[step.head] = softmax
            return softmax.weights if softmax is not None else self.take.matrix(step.value)
        if step.kind == "attend":
            softmax = self.softmaxes[step.head or 0]
            v = self.values[f"head{step.head}.v"]
            if softmax is not None and _finite(v):
                return ops.attend(softmax, v)
        if step.kind == "concat":
            heads = [self.values[f"head{h}.output"] for h in sorted(self.softmaxes)]
            return ops.concat(heads)
        if step.kind == "output" and self.d.spec.has_output_projection:
            return self.output(step)
        if step.kind == "output":
            return self.values["concat"]
        return self.take.matrix(step.value)

    def output(self, step: Step) -> Matrix:
        spec = self.d.spec
        softmaxes = [self.softmaxes[h] for h in sorted(self.softmaxes)]
        values = [self.values[f"head{h}.v"] for h in sorted(self.softmaxes)]
        w_o = self.take.matrix(spec.effective("w_o"))
        b_o = self.take.matrix(spec.weights["b_o"][0]) if "b_o" in spec.weights else None
        parts = [w_o, *values] + ([b_o] if b_o is not None else [])
        if all(s is not None for s in softmaxes) and all(_finite(m) for m in parts):
            return ops.output_projection(softmaxes, values, w_o, b_o)  # type: ignore[arg-type]
        return self.take.matrix(step.value)


def limit(d: Derivation, name: str, point: Any = 0) -> LimitDerivation:
    """Every step of ``d`` as the declared parameter ``name`` goes to ``point``, exactly.

    ``point``: a number, ``oo``/``-oo`` (or ``sympy.oo``), or text such as ``"0+"``/``"0-"``.
    """
    if isinstance(d, LimitDerivation):
        raise SpecError(
            f"this derivation is already a limit ({d.taken.text}); take it from the original"
        )
    taken = point_of(parameter(d, name), point)
    walk = _Walk(d, taken)
    steps = []
    for step in d.steps:
        value = walk.step(step)
        walk.values[step.key] = value
        steps.append(replace(step, value=Matrix(value)))
    bindings = {
        symbol: walk.take.matrix(value) if isinstance(value, sp.MatrixBase) else value
        for symbol, value in d.bindings.items()
    }
    return LimitDerivation(d.spec, tuple(steps), bindings, taken=taken, original=d)
