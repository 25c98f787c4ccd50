"""Exact limits of every step as a declared parameter goes to a point (temperature to 0 or oo)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.exact.evaluate import Evaluator
from mha_symbolic.model.program import Node, build
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.spec import parameters
from mha_symbolic.text import did_you_mean

_INFINITY = {"oo": sp.oo, "+oo": sp.oo, "-oo": -sp.oo, "inf": sp.oo, "+inf": sp.oo, "-inf": -sp.oo}
_SIDED = re.compile(r"(.*?)([+-])")


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
        raise SpecError(f"limit: expected NAME=POINT such as tau=0+ or tau=oo, got {text!r}")
    return name.strip(), point.strip()


def parameter(d: Derivation, name: str) -> sp.Symbol:
    """The spec's declared parameter called ``name``."""
    declared = d.spec.parameters
    if name in declared:
        return declared[name]
    if not declared:
        raise SpecError(f"{name!r} is not a parameter: this spec declares none ([parameters])")
    hint = did_you_mean(name, declared)
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


class _Walk(Evaluator):
    """The program walked again, each value replaced by its limit: by an operation's limit
    rule where it has one (the softmax from the limits of its logits' gaps, the attention and
    output projection kept compact where their parts are finite), else entry by entry from
    the original exact value."""

    rule = "limit"

    def __init__(self, d: Derivation, limit: Limit) -> None:
        super().__init__(d.program or build(d.spec))
        self.d = d
        self.take = _Taker(limit)
        self.values = {
            symbol: self.take.matrix(value) if isinstance(value, sp.MatrixBase) else value
            for symbol, value in self.program.bindings.items()
        }

    def original(self, node: Node) -> Matrix:
        return self.take.matrix(self.d[node.key])

    def generic(self, node: Node) -> Matrix:
        return self.original(node)


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
    forward = walk.run()
    backward = [replace(s, value=walk.take.matrix(s.value)) for s in d.steps[len(forward) :]]
    steps = forward + backward
    bindings = {
        symbol: walk.take.matrix(value) if isinstance(value, sp.MatrixBase) else value
        for symbol, value in d.bindings.items()
    }
    return LimitDerivation(
        d.spec, tuple(steps), bindings, program=d.program, taken=taken, original=d
    )
