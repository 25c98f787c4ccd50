"""Small text helpers every layer shares: "did you mean", and user text made safe for one line."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

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
MAX_DECIMALS = 50  # the most places any printer or the command line gives
_GUARD = 12  # extra significant digits evaluated beyond the last printed place


def decimal_text(value: Any, places: int, *, shortest: bool = False) -> str | None:
    """``value`` rounded to ``places`` after the point (half to even), exact at any magnitude.

    Integers print without a point; ``shortest`` prints a fraction whose decimal ends within
    ``places`` in full (1/2 -> ``0.5``). ``inf``/``-inf`` for infinities, ``nan`` for an
    undefined value; None when ``value`` has free symbols or is not real.
    """
    import sympy as sp

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
    exact = value if value.is_Rational else _approximation(value, places)
    if exact is None:
        return None
    numerator, denominator = int(exact.p), int(exact.q)
    if shortest and value.is_Rational:
        ends = _terminating_places(denominator)
        if ends is not None and ends <= places:
            places = ends
    return rounded(numerator, denominator, places)


def _approximation(value: Any, places: int) -> Any:
    """A rational within half a unit of the ``places + _GUARD``-th place of ``value``."""
    import sympy as sp

    rough = value.evalf(15)
    if not isinstance(rough, sp.Float):  # an imaginary part, infinite, or irreducible
        return None
    if rough == 0:
        before = 1
    else:
        _, _, exponent, bits = rough._mpf_
        if (exponent + bits) * 0.30103 < -(places + _GUARD):
            # Far below the last place (say e^{-10^{25}}): it rounds to 0, and evaluating it
            # further would make SymPy shift integers by as many bits as the exponent has.
            return sp.Integer(0)
        before = max(1, int((exponent + bits) * 0.30103) + 2)  # digits before the point
    digits = before + places + _GUARD
    try:
        fine = value.evalf(digits, strict=True, maxn=4 * digits + 100)
    except sp.core.evalf.PrecisionExhausted:  # an exact zero in disguise: no relative accuracy
        fine = value.evalf(digits)
    if not isinstance(fine, sp.Float):
        return None
    return sp.Rational(fine)  # the binary float exactly


def _terminating_places(denominator: int) -> int | None:
    """k with 10**k divisible by ``denominator``, or None if its decimal does not end."""
    twos = fives = 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    return max(twos, fives) if denominator == 1 else None


def rounded(numerator: int, denominator: int, places: int) -> str:
    """numerator/denominator to ``places`` places with integer arithmetic, half to even."""
    negative = numerator < 0
    units, rest = divmod(abs(numerator) * 10**places, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and units % 2 == 1):
        units += 1
    digits = str(units).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    return f"-{text}" if negative and units else text  # no "-0.00"
