"""Signs of exact constants proved with arb balls (python-flint) at the precision they need.

A softmax of logits near 10^6 differs from 1 by about e^{-10^6}: deciding its sign takes about
1.5 million bits, which arb reaches in a fraction of a second. A few cheap precisions come
first, then what the expression can need (its largest exponent, its longest integer) and twice
that; an exact zero is never proved here and falls through to the symbolic test.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import flint
import sympy as sp

_START = 64  # bits of the first attempt
_MARGIN = 192  # bits beyond what the exponents and integers need
_EXPONENTIALS: dict[tuple[sp.Expr, int], flint.arb | None] = {}  # (e^x, bits) -> its ball
_EXPONENTIALS_KEPT = 256
MAX_BITS = 1 << 23  # about 2.5 million decimal digits: logits up to about 2.9 * 10^6


@contextmanager
def precision(bits: int) -> Iterator[None]:
    saved = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = saved


def sign(number: sp.Expr) -> int | None:
    """-1 or 1 when arb proves the sign of ``number`` (a real constant); None otherwise (an
    exact zero, a symbol, a function arb does not evaluate here)."""
    needed = needed_bits(number)
    if needed is None:
        return None
    # A few cheap attempts, then straight to what the exponents need (each attempt
    # recomputes every exponential: doubling all the way would cost them all again).
    ladder = sorted({bits for bits in (_START, 256, 1024, needed, 2 * needed) if bits <= MAX_BITS})
    for bits in ladder:
        with precision(bits):
            ball = to_arb(number, {})
            if ball is None:
                return None
            if ball > 0:
                return 1
            if ball < 0:
                return -1
    return None


def beyond_reach(number: sp.Expr) -> bool:
    """True when separating ``number`` from zero would need more bits than arb is given
    (e^{-10^9}, the weight of a score masked with -1e9): no test can settle its sign."""
    needed = _estimated_bits(number)
    return needed is not None and needed > MAX_BITS


def smaller_than(number: sp.Expr, bound: sp.Rational) -> bool:
    """True when arb proves |number| < bound (a few hundred bits: no sign needed)."""
    with precision(256):
        ball = to_arb(number, {})
    return ball is not None and abs(ball) < flint.arb(bound.p) / bound.q


def needed_bits(number: sp.Expr) -> int | None:
    """Bits that can separate ``number`` from zero if it is not zero (a heuristic estimate);
    at most ``MAX_BITS``. Exponentials beyond reach (e^{-10^9}) ask for nothing: no precision
    arb is given separates them, and asking costs seconds per number (a -1e9 mask's weights
    judged at MAX_BITS took 15 s for nine entries); the terms within reach still ask for theirs."""
    needed = _estimated_bits(number, within_reach=True)
    return None if needed is None else min(MAX_BITS, needed)


def _estimated_bits(number: sp.Expr, within_reach: bool = False) -> int | None:
    """:func:`needed_bits` without the cap. An exponential's argument too large for a float
    (e^{-e^{1000}}) asks for the bits that resolve the argument itself. ``within_reach``: an
    exponential whose argument needs more than ``MAX_BITS`` is left out."""
    largest, argument_bits = 0.0, 0
    for node in sp.preorder_traversal(number):
        if isinstance(node, sp.exp):
            with precision(_START):
                argument = to_arb(node.args[0], {})
            if argument is None:
                return None
            size = abs(float(argument.mid())) + float(argument.rad())
            if within_reach and not size / math.log(2) + _MARGIN <= MAX_BITS:
                continue
            if math.isfinite(size):
                largest = max(largest, size)
            else:
                mantissa, exponent = (int(n) for n in abs(argument).upper().man_exp())
                argument_bits = max(argument_bits, mantissa.bit_length() + exponent)
        elif isinstance(node, sp.Rational):
            largest = max(largest, (node.p.bit_length() + node.q.bit_length()) * math.log(2))
    bits = max(largest / math.log(2), argument_bits)
    return _MARGIN + math.ceil(bits)


def to_arb(
    expr: sp.Expr, seen: dict[sp.Expr, flint.arb | None], roundoff: float = 0.0
) -> flint.arb | None:
    """A ball containing ``expr`` at the context's precision, or None if it cannot be had;
    ``seen`` holds the balls of subexpressions already met (and of symbols, given as balls).
    ``roundoff`` > 0 widens every operation by a floating-point rounding of that unit."""
    if expr in seen:
        return seen[expr]
    ball = _ball(expr, seen, roundoff)
    if ball is not None and roundoff:
        ball = _rounded(expr, ball, seen, roundoff)
    seen[expr] = ball
    return ball


def _ball(
    expr: sp.Expr, seen: dict[sp.Expr, flint.arb | None], roundoff: float
) -> flint.arb | None:
    if isinstance(expr, sp.Rational):
        return flint.arb(expr.p) / expr.q
    if expr is sp.E:
        return flint.arb.const_e()
    if expr is sp.pi:
        return flint.arb.pi()
    if isinstance(expr, sp.exp) and not roundoff and not expr.free_symbols:  # costly, met again
        return _exponential(expr, seen)
    convert = _CONVERSIONS.get(type(expr).__name__)
    if convert is None:
        return None
    args = [to_arb(arg, seen, roundoff) for arg in expr.args]
    known = [arg for arg in args if arg is not None]
    return convert(known) if len(known) == len(args) else None


def _rounded(
    expr: sp.Expr, ball: flint.arb, seen: dict[sp.Expr, flint.arb | None], roundoff: float
) -> flint.arb:
    """``ball`` widened by the rounding of the operation that makes ``expr`` (first order,
    with a 1% allowance): a sum of n terms errs by (n-1) u sum |terms|, a product of n
    factors by (n-1) u |product|, a power by (|k|+1) u, exp by 2u, a constant by u."""
    u = flint.arb(roundoff) * flint.arb("1.01")
    if isinstance(expr, sp.Add):
        terms = [seen.get(arg) for arg in expr.args]
        size = sum((abs(t).upper() for t in terms if t is not None), flint.arb(0))
        error = u * (len(terms) - 1) * size
    elif isinstance(expr, sp.Mul):
        error = u * (len(expr.args) - 1) * abs(ball).upper()
    elif isinstance(expr, sp.Pow):
        k = abs(float(expr.args[1])) if expr.args[1].is_number else 1.0
        error = u * (k + 1) * abs(ball).upper()
    elif isinstance(expr, (sp.exp, sp.Rational)) or expr in (sp.E, sp.pi):
        error = u * 2 * abs(ball).upper()
    else:
        return ball
    return ball + flint.arb(0, error.upper())


def _exponential(expr: sp.exp, seen: dict[sp.Expr, flint.arb | None]) -> flint.arb | None:
    key = (expr, flint.ctx.prec)
    if key in _EXPONENTIALS:
        return _EXPONENTIALS[key]
    argument = to_arb(expr.args[0], seen)
    ball = None if argument is None else argument.exp()
    if len(_EXPONENTIALS) >= _EXPONENTIALS_KEPT:
        _EXPONENTIALS.pop(next(iter(_EXPONENTIALS)))
    _EXPONENTIALS[key] = ball
    return ball


def _sum(args: list[flint.arb]) -> flint.arb:
    total = args[0]
    for arg in args[1:]:
        total = total + arg
    return total


def _product(args: list[flint.arb]) -> flint.arb:
    total = args[0]
    for arg in args[1:]:
        total = total * arg
    return total


def _power(args: list[flint.arb]) -> flint.arb | None:
    base, exponent = args
    whole = exponent.unique_fmpz()
    if whole is not None:
        return base ** int(whole)
    if not base > 0:  # a real power of a base not proved positive: no ball
        return None
    return (exponent * base.log()).exp()


def _log(args: list[flint.arb]) -> flint.arb | None:
    return args[0].log() if args[0] > 0 else None


_CONVERSIONS: dict[str, Callable[[list[flint.arb]], flint.arb | None]] = {
    "Add": _sum,
    "Mul": _product,
    "Pow": _power,
    "log": _log,
    "Abs": lambda args: abs(args[0]),
    "exp": lambda args: args[0].exp(),
    "cos": lambda args: args[0].cos(),
    "sin": lambda args: args[0].sin(),
}
