"""Whether printed numbers can be attention weights at all: each weight lies in [0, 1] and each
row sums to 1, both at the precision the entries are printed to. A print that cannot be a row
of weights (a count vector [1, 1, 3] beside the word softmax, a row of logits) is never claimed
as one, whatever its name or its section says."""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

_MINUS = str.maketrans({"−": "-", "–": "-"})
_INFINITE = re.compile(r"[-+−–]?(?:inf(?:inity)?|∞|\\infty)", re.IGNORECASE)


def cannot_be_weights(rows: Sequence[Sequence[str]]) -> bool:
    """True when some entry lies outside [0, 1] beyond its rounding, or some row's sum misses 1
    by more than its entries' rounding; False when every row can be weights or an entry is not
    a plain number (a symbol: nothing to say). An infinite entry (a mask's -inf) is no weight."""
    if any(_INFINITE.fullmatch(entry.strip()) for row in rows for entry in row):
        return True
    parsed = [[_number(e) for e in row] for row in rows]
    if not parsed or any(entry is None for row in parsed for entry in row):
        return False
    for row in parsed:
        values = [entry for entry in row if entry is not None]
        slack = sum((half for _, half in values), Fraction(0))
        if any(value + half < 0 or value - half > 1 for value, half in values):
            return True
        if abs(sum((value for value, _ in values), Fraction(0)) - 1) > slack:
            return True
    return False


def _number(entry: str) -> tuple[Fraction, Fraction] | None:
    """The printed value and half a unit of its last digit (0 for an integer: exact)."""
    text = entry.strip().translate(_MINUS)
    try:
        if "/" in text:
            return Fraction(text), Fraction(0)
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    places = decimals - (int(exponent) if exponent else 0)
    half = Fraction(1, 2) * Fraction(10) ** -places if decimals or exponent else Fraction(0)
    return value, half
