"""A line that labels a query's work and then does it: ``Q1: softmax([0.707, 0]) = [...] ≈
[0.668, 0.332]``, ``Q2: 0.332*V1 + 0.668*V2 = ... ≈ [1.668, 0.668]``. The label names the
query (row 1, row 2), not the numbers: the result is that row of the weights (a softmax) or of
the output (a sum of weighted value vectors)."""

from __future__ import annotations

import re

_LABEL = re.compile(r"\s*([A-Za-z]{1,2})_?\{?(\d{1,3})\}?\s*[:：]\s*(\S.*)$", re.DOTALL)
_RESULT = re.compile(r"(?:=|≈|\\approx)\s*$")
_SOFTMAX = re.compile(r"^softmax\s*\(", re.IGNORECASE)
_WEIGHTED = re.compile(
    r"^\d*\.?\d+\s*(?:\*|·|×|\\cdot|\\times)\s*([A-Za-z])_?\{?\d+\}?"
    r"(?:\s*\+\s*\d*\.?\d+\s*(?:\*|·|×|\\cdot|\\times)\s*\1_?\{?\d+\}?)+"
)


def label_row(statement: str) -> int | None:
    """The query a line's label names (``Q1: softmax(`` -> 1), or None without one."""
    found = _LABEL.match(statement)
    if found is None or int(found.group(2)) < 1:
        return None
    return int(found.group(2))


def labelled_work(statement: str) -> tuple[str, int] | None:
    """The role and row of a result its line's label and working give (``weights``, 1), or
    None when the line is not a query's label followed by its working."""
    found = _LABEL.match(statement)
    if found is None or not _RESULT.search(found.group(3)):
        return None  # the result is the array after the last = or ≈, not an operand before
    work, row = found.group(3), int(found.group(2))
    if row < 1:
        return None
    if _SOFTMAX.match(work):
        return "weights", row
    if _WEIGHTED.match(work):
        return "output", row
    return None
