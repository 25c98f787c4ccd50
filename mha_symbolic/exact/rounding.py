"""Correctly rounded decimals of exact real constants, half to even.

A constant's decimals come from arb balls (python-flint) at rising precision: the ball, times
10^places, must lie strictly between two rounding boundaries (k - 1/2 and k + 1/2) before k is
printed, so 1/8 + e^{-100} prints 0.13, never 0.12. An exact value on a boundary is rounded
half to even (1/8 -> 0.12, 5/8 -> 0.62). No float is ever made, so e^{1000} or 1e309 cannot
overflow. Precision is bounded (``MAX_BITS``): a constant arb cannot separate from a boundary
within it (an exact boundary that SymPy does not reduce to a fraction, such as
log(2)/log(4) - 1/2 + 1/8) is rounded as if it lay on the boundary.
"""

from __future__ import annotations

import math
from typing import Any

import flint
import sympy as sp

from mha_symbolic.exact import balls

MAX_BITS = balls.MAX_BITS  # the check proves signs up to the same precision: they agree
MAX_INTEGER_DIGITS = 10_000  # digits before the point: a larger value has no decimals
_GUARD = 32  # bits beyond the last printed place
_LOG2_10 = math.log2(10)


def rounded(numerator: int, denominator: int, places: int) -> str:
    """numerator/denominator to ``places`` places with integer arithmetic, half to even."""
    negative = numerator < 0
    units, rest = divmod(abs(numerator) * 10**places, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and units % 2 == 1):
        units += 1
    return _text(-units if negative else units, places)


def _text(units: int, places: int) -> str:
    """The integer ``units`` read as units of 10^-places: ``-125, 2`` -> ``-1.25``."""
    digits = str(abs(units)).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    return f"-{text}" if units < 0 else text  # no "-0.00"


_DYADIC_SHIFT = 1 << 16  # bits: an arb end further out than this is not written as integers


def _dyadic(number: Any) -> tuple[int, int] | None:
    mantissa, exponent = (int(n) for n in number.man_exp())
    if abs(exponent) > _DYADIC_SHIFT:
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


def proved_decimal(value: sp.Expr, places: int) -> str | None:
    """``value`` (a real constant, not a fraction) rounded to ``places``, half to even; None
    when arb cannot evaluate it (then SymPy's evaluation is used), when it is not real, or
    when it has more than ``MAX_INTEGER_DIGITS`` digits before the point."""
    with balls.precision(64):
        rough = balls.to_arb(value, _met(64))
    if rough is None or not rough.is_finite():
        return None
    magnitude = _magnitude_bits(rough)
    if magnitude is None:
        return None
    start = magnitude + math.ceil(places * _LOG2_10) + _GUARD
    for bits in (start, 4 * start, 16 * start):
        with balls.precision(bits):
            ball = balls.to_arb(value, _met(bits))
            if ball is None or not ball.is_finite():
                return None
            units, decided = _nearest(ball * flint.arb(10) ** places)
        if decided:
            return _text(units, places)
    return _text(_by_signs(value, units, places), places)


# The balls of the subterms met so far, by precision: the values printed one after another
# share them (a softmax row's denominator in each of its weights, the exponentials in every
# entry after them). Forgotten all at once past a bound, so a long-running page stays small.
_MET: dict[int, dict[sp.Expr, flint.arb | None]] = {}
_MET_LIMIT = 20_000


def _met(bits: int) -> dict[sp.Expr, flint.arb | None]:
    if sum(len(seen) for seen in _MET.values()) > _MET_LIMIT:
        _MET.clear()
    return _MET.setdefault(bits, {})


def _magnitude_bits(ball: flint.arb) -> int | None:
    """Bits before the binary point of the ball's largest value, or None if it has more
    than ``MAX_INTEGER_DIGITS`` decimal digits there."""
    upper = abs(ball).upper()
    if upper < 1:
        return 0
    mantissa, exponent = (int(n) for n in upper.man_exp())
    bits = mantissa.bit_length() + exponent
    return bits if bits <= MAX_INTEGER_DIGITS * _LOG2_10 + 1 else None


def _nearest(scaled: flint.arb) -> tuple[int, bool]:
    """(k, proved): k the integer nearest to ``scaled``'s midpoint (ties to even), proved
    when the whole ball lies strictly between k - 1/2 and k + 1/2."""
    k = _nearest_integer(scaled.mid())
    half = flint.arb(1) / 2
    return k, bool(scaled > flint.arb(k) - half) and bool(scaled < flint.arb(k) + half)


def _by_signs(value: sp.Expr, k: int, places: int) -> int:
    """The rounded units of ``value`` near the candidate ``k``, from the signs of ``value``
    minus each boundary of k, proved by ``balls.sign``. SymPy cancels the fraction of the
    difference (1/8 + e^{-10^7} - 1/8 is e^{-10^7}), so a value within e^{-10^7} of a
    boundary is decided at low precision. A sign not proved is a value on the boundary:
    rounded half to even."""
    scale = 2 * 10**places
    for _ in range(4):  # the candidate is at most a unit or two off
        below = balls.sign(value - sp.Rational(2 * k - 1, scale))
        if below == -1:
            k -= 1
            continue
        above = balls.sign(value - sp.Rational(2 * k + 1, scale))
        if above == 1:
            k += 1
            continue
        if below is None:
            return k - k % 2
        return k + k % 2 if above is None else k
    return k


def _nearest_integer(mid: flint.arb) -> int:
    """The integer nearest to an exact (dyadic) arb, ties to even; 0 for one below 1/4."""
    mantissa, exponent = (int(n) for n in mid.man_exp())
    if exponent >= 0:
        return mantissa << exponent
    if mantissa.bit_length() + exponent < -1:  # |mid| < 1/4, however far below
        return 0
    units, rest = divmod(abs(mantissa), 1 << -exponent)
    twice = 2 * rest
    if twice > 1 << -exponent or (twice == 1 << -exponent and units % 2 == 1):
        units += 1
    return -units if mantissa < 0 else units
