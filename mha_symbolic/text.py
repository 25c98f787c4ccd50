"""Small text helpers every layer shares: "did you mean", and user text made safe for one line."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from mha_symbolic.spec import bounds

_SHOWN = 60  # characters of user text quoted in a message


def closest(word: str, options: Iterable[str], n: int = 1, cutoff: float = 0.5) -> list[str]:
    """The options nearest to ``word`` (at most ``n``), best first."""
    return difflib.get_close_matches(word, list(options), n=n, cutoff=cutoff)


def did_you_mean(word: str, options: Iterable[str], cutoff: float = 0.5) -> str:
    """`` (did you mean 'x'?)`` for the nearest option, or an empty string."""
    match = closest(word, options, cutoff=cutoff)
    return f" (did you mean '{match[0]}'?)" if match else ""


def one_line(text: str, limit: int = _SHOWN) -> str:
    """User text as it may appear inside a message: control characters escaped (no ANSI
    escape or newline reaches the terminal) and cut to ``limit`` characters."""
    escaped = "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )
    return escaped if len(escaped) <= limit else escaped[: limit - 1] + "…"


# ------------------------------------------------------------------ decimals
MAX_DECIMALS = bounds.MAX_DECIMALS  # the most places any printer or the command line gives
_DIGITS_FALLBACK = 30  # SymPy's evaluation of what arb cannot evaluate: this many digits more


def decimal_text(value: Any, places: int, *, shortest: bool = False) -> str | None:
    """``value`` correctly rounded to ``places`` after the point, half to even, at any
    magnitude (see :mod:`mha_symbolic.exact.rounding`: the side of a rounding boundary is
    proved with arb balls, never read off a float).

    Integers print without a point; ``shortest`` prints a fraction whose decimal ends within
    ``places`` in full (1/2 -> ``0.5``). ``inf``/``-inf`` for infinities, ``nan`` for an
    undefined value; None when ``value`` has free symbols, is not real, or has more than
    10,000 digits before the point.
    """
    import sympy as sp

    from mha_symbolic.exact.rounding import proved_decimal, rounded

    if places < 0:
        raise ValueError(f"decimal places must be 0 or more, got {places}")
    value = sp.sympify(value)
    if value.free_symbols:
        return None
    if value in (sp.oo, -sp.oo):
        return "inf" if value == sp.oo else "-inf"
    if value is sp.nan:
        return "nan"
    if value.is_Integer:
        return str(int(value))
    if not value.is_Rational:
        return proved_decimal(value, places) or _evaluated(value, places)
    numerator, denominator = int(value.p), int(value.q)
    if shortest:
        ends = _terminating_places(denominator)
        if ends is not None and ends <= places:
            places = ends
    return rounded(numerator, denominator, places)


def _evaluated(value: Any, places: int) -> str | None:
    """What arb cannot evaluate (a function it does not know): SymPy's evaluation, with
    ``_DIGITS_FALLBACK`` digits beyond the last place; None if it is not a finite real."""
    import sympy as sp

    from mha_symbolic.exact.rounding import rounded

    try:
        fine = value.evalf(places + _DIGITS_FALLBACK, maxn=4 * places + 200)
    except (ArithmeticError, ValueError, TypeError):
        return None
    if not isinstance(fine, sp.Float) or not fine.is_finite:
        return None
    sign, mantissa, exponent, bits = fine._mpf_  # the binary float, exactly
    if exponent + bits < -(places + 1) * 3.33:  # below 10^-(places+1): however far below
        return rounded(0, 1, places)
    if exponent + bits > 10_000 * 3.33:  # more digits before the point than are printed
        return None
    numerator = -int(mantissa) if sign else int(mantissa)
    if exponent >= 0:
        return rounded(numerator << int(exponent), 1, places)
    return rounded(numerator, 1 << -int(exponent), places)


def _terminating_places(denominator: int) -> int | None:
    """k with 10**k divisible by ``denominator``, or None if its decimal does not end."""
    twos = fives = 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    return max(twos, fives) if denominator == 1 else None
