"""Whether printed numbers can be attention weights at all: each weight lies in [0, 1] and each
row sums to 1, both at the precision the entries are printed to. A print that cannot be a row
of weights (a count vector [1, 1, 3] beside the word softmax, a row of logits) is never claimed
as one, whatever its name or its section says."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.reading import Seen

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


_LABEL = 24  # characters: a longer name is a heading's sentence, no name


def not_weights(document: Document, s: Seen) -> bool:
    """Numbers only their section's heading or a sentence calls weights ("## Softmax with and
    without a mask", "3. Softmax of each row: Row 1: [0.71, 0, 0.71]") whose rows are no
    probabilities: the row sums printed there, or the softmax's argument."""
    if s.role != "weights" or not (_by_heading(document, s) or len(s.name) > _LABEL):
        return False
    try:
        rows = [[Decimal(e.replace("−", "-")) for e in row] for row in s.item.rows]
    except InvalidOperation:
        return False
    if not all(e.is_finite() for row in rows for e in row):
        return False
    return not any(abs(sum(row, Decimal(0)) - 1) <= _half_units(row) for row in rows)


def _half_units(row: list[Decimal]) -> Decimal:
    """How far a row's printed sum may be from its exact one: half a unit per decimal entry
    (a weight printed without decimals, 0 or 1, is exact: a one-hot row, a masked entry)."""
    total = Decimal(0)
    for entry in row:
        exponent = int(entry.as_tuple().exponent)
        total += Decimal(5).scaleb(exponent - 1) if exponent < 0 else Decimal(0)
    return total


def no_weights(s: Seen, before: Sequence[Seen] = ()) -> bool:
    """Numbers called weights (by a name, or by the print they repeat) that no row of weights
    can be (entries outside [0, 1], rows not summing to 1 at their printed precision): never
    claimed as weights unless a softmax relation computes them (a slip to judge), or unless
    they are a softmax worked wrong right after its scores (``slipped``)."""
    return s.role == "weights" and cannot_be_weights(s.item.rows) and not slipped(s, before)


def slipped(s: Seen, before: Sequence[Seen]) -> bool:
    """Weights of the scores printed just before them (scaled or masked or not), of their
    shape, worked with slips: every entry in [0, 1] and a row at least that sums to 1 at its
    printed precision (``weights = [[0.42, 0.08, 0.02, 0.48], [0.34, 0.04, 0.68, 0.06]]``
    after ``scores = [[...], [...]]``: the second row sums to 1.12)."""
    last = before[-1] if before else None
    if last is None or last.role not in ("scores", "scaled", "masked") or len(s.item.rows) < 2:
        return False
    shape = (len(s.item.rows), len(s.item.rows[0]))
    if (len(last.item.rows), len(last.item.rows[0])) != shape:
        return False
    parsed = [[_number(e) for e in row] for row in s.item.rows]
    if any(entry is None for row in parsed for entry in row):
        return False
    rows = [[entry for entry in row if entry is not None] for row in parsed]
    if any(value + half < 0 or value - half > 1 for row in rows for value, half in row):
        return False
    zero = Fraction(0)
    return any(
        abs(sum((v for v, _ in row), zero) - 1) <= sum((h for _, h in row), zero) for row in rows
    )


def _by_heading(document: Document, s: Seen) -> bool:
    """Whether the name is its section's heading, not a name the array is printed under."""
    if not s.name:
        return False
    for line in reversed(document.lines[: s.item.line]):
        text = line.text.strip()
        if text.startswith("#"):
            return text.strip("# *") == s.name
    return False
