"""A range written in a sentence is no array: "softmax maps each score into [0, 1]", "归一到
[0,1]", "Werte zwischen [0, 1]". Two whole numbers, the first the smaller, right after a word
that puts a value in a range (in, into, to, between, within, ∈; their kin in the languages the
corpus holds)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# The word before the range, at the end of the text before it (case does not matter).
_INTO = re.compile(
    r"(?:(?<![\w])(?:in|into|to|onto|within|between|range|interval|dans|entre|em|en|zwischen|"
    r"auf|im|nel|tra|trong|khoảng)|∈|\\in|到|在|于|於|区间|區間|範囲|の間|사이|범위)\s*$",
    re.IGNORECASE,
)


def prose_range(before: str, rows: tuple[tuple[str, ...], ...]) -> bool:
    """Whether a bracketed pair read after ``before`` is a range, not a vector."""
    if len(rows) != 1 or len(rows[0]) != 2 or not _INTO.search(before):
        return False
    try:
        low, high = (Decimal(e.replace("−", "-")) for e in rows[0])
    except InvalidOperation:
        return False
    whole = low == low.to_integral_value() and high == high.to_integral_value()
    return whole and "." not in "".join(rows[0]) and low < high
