"""SymPy numbers (rationals, +, *, rational powers, exp, log, cos, sin, e, pi) as arb balls."""

from __future__ import annotations

from typing import Any

import flint
import sympy as sp

from mha_symbolic.text import rounded


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


_MAX_SHIFT = 1 << 16  # bits: a ball like e^{-10^25}'s is left to the exact value


def _dyadic(number: Any) -> tuple[int, int] | None:
    """An exact arb (a midpoint or a radius) as (numerator, denominator); None when its
    binary exponent is too far out to write as integers."""
    mantissa, exponent = (int(n) for n in number.man_exp())
    if abs(exponent) > _MAX_SHIFT:
        return None
    return (mantissa << exponent, 1) if exponent >= 0 else (mantissa, 1 << -exponent)


def decimal_of(ball: flint.arb, places: int) -> str | None:
    """The ball's value rounded to ``places`` when both its ends round alike and no integer
    lies in it (an integer prints without a point), else None: the exact entry decides."""
    if not ball.is_finite() or ball.rad() == 0:
        return None
    mid, rad = _dyadic(ball.mid()), _dyadic(ball.rad())
    if mid is None or rad is None:
        return None
    (m, q), (r, s) = mid, rad
    low, high, den = m * s - r * q, m * s + r * q, q * s
    if low // den != high // den or low % den == 0:
        return None
    text = rounded(low, den, places)
    return text if text == rounded(high, den, places) else None
