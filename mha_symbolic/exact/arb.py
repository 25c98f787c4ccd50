"""SymPy numbers (rationals, +, *, rational powers, exp, log, cos, sin, e, pi) as arb balls."""

from __future__ import annotations

from typing import Any

import flint
import sympy as sp


def arb_of(expr: Any) -> flint.arb:
    """``expr`` (rationals, +, *, rational powers, exp, log, cos, sin) as an arb ball."""
    if isinstance(expr, sp.Rational):
        return flint.arb(flint.fmpq(int(expr.p), int(expr.q)))
    if isinstance(expr, sp.Add):
        return _fold(expr.args, lambda a, b: a + b)
    if isinstance(expr, sp.Mul):
        return _fold(expr.args, lambda a, b: a * b)
    if isinstance(expr, sp.exp):
        return arb_of(expr.args[0]).exp()
    if isinstance(expr, sp.cos):
        return arb_of(expr.args[0]).cos()
    if isinstance(expr, sp.sin):
        return arb_of(expr.args[0]).sin()
    if isinstance(expr, sp.log):
        return arb_of(expr.args[0]).log()
    if isinstance(expr, sp.Pow) and isinstance(expr.exp, sp.Rational):
        base = arb_of(expr.base)
        if expr.exp.q == 1:
            return base ** int(expr.exp.p)
        return base ** flint.arb(flint.fmpq(int(expr.exp.p), int(expr.exp.q)))
    if expr is sp.E:
        return flint.arb(1).exp()
    if expr is sp.pi:
        return flint.arb.pi()
    raise ValueError(f"enclose: cannot enclose {type(expr).__name__} {sp.sstr(expr)[:60]}")


def _fold(args: tuple[Any, ...], op: Any) -> flint.arb:
    total = arb_of(args[0])
    for arg in args[1:]:
        total = op(total, arb_of(arg))
    return total
