"""enclose(d, key, digits): certified arb balls around a step's exact entries (python-flint)."""

from __future__ import annotations

import math
from typing import Any

import flint
import sympy as sp

from mha_symbolic.exact.derivation import Derivation


def enclose(d: Derivation, key: str = "output", digits: int = 50) -> list[list[flint.arb]]:
    """Every entry of step ``key`` as an arb ball that contains its exact value, radius below
    ``10**-digits``; the working precision doubles until every radius is small enough."""
    value = d[key]
    if value.free_symbols:
        raise ValueError(f"enclose: step {key!r} has free symbols; give them values first")
    bits = int(digits * math.log2(10)) + 32
    while True:
        balls = _at(value, bits)
        if all(_tight(ball, digits) for row in balls for ball in row):
            return balls
        bits *= 2


def _tight(ball: flint.arb, digits: int) -> bool:
    return bool(ball.is_finite() and ball.rad() < flint.arb(10) ** -digits)


def _at(value: sp.MatrixBase, bits: int) -> list[list[flint.arb]]:
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        return [[_arb(value[i, j]) for j in range(value.cols)] for i in range(value.rows)]
    finally:
        flint.ctx.prec = old


def _arb(expr: Any) -> flint.arb:
    """``expr`` (rationals, +, *, rational powers, exp, log, cos, sin) as an arb ball."""
    if isinstance(expr, sp.Rational):
        return flint.arb(flint.fmpq(int(expr.p), int(expr.q)))
    if isinstance(expr, sp.Add):
        return _fold(expr.args, lambda a, b: a + b)
    if isinstance(expr, sp.Mul):
        return _fold(expr.args, lambda a, b: a * b)
    if isinstance(expr, sp.exp):
        return _arb(expr.args[0]).exp()
    if isinstance(expr, sp.cos):
        return _arb(expr.args[0]).cos()
    if isinstance(expr, sp.sin):
        return _arb(expr.args[0]).sin()
    if isinstance(expr, sp.log):
        return _arb(expr.args[0]).log()
    if isinstance(expr, sp.Pow) and isinstance(expr.exp, sp.Rational):
        base = _arb(expr.base)
        if expr.exp.q == 1:
            return base ** int(expr.exp.p)
        return base ** flint.arb(flint.fmpq(int(expr.exp.p), int(expr.exp.q)))
    if expr is sp.E:
        return flint.arb(1).exp()
    if expr is sp.pi:
        return flint.arb.pi()
    raise ValueError(f"enclose: cannot enclose {type(expr).__name__} {sp.sstr(expr)[:60]}")


def _fold(args: tuple[Any, ...], op: Any) -> flint.arb:
    total = _arb(args[0])
    for arg in args[1:]:
        total = op(total, _arb(arg))
    return total
