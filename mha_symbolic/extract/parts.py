"""Where a document's worked examples start, by the names it prints them under: a new X (a
matrix named X whose numbers differ from the X before it), or, on a page that prints no X at
all, a new Q (lecture notes that set Q, K and V by hand, example after example). The numbers
of one example are searched for relations among themselves only: a coincidence between two
examples (one's identity K times another's weights) never ties them into one. An exercise's
numbered test cases ("Test Case 2", "Example 3", "Problem 1", "Aufgabe 2") are examples of their
own, whatever they print (the same numbers again, or arrays passed to a function without
names)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mha_symbolic.extract.reading import Seen

Rows = list[list[str]]
_CASE = re.compile(
    r"^\W*(?:test[\s_-]*case|example|exercise|case|problem|task|aufgabe|beispiel|ejercicio"
    r"|ejemplo|exercice|exemple|esercizio|esempio|exerc[ií]cio|exemplo)\s*#?\s*\d+\b",
    re.IGNORECASE,
)


def parts(seen: Sequence[Seen], lines: Sequence[str] = ()) -> list[list[int]]:
    """The indices of ``seen`` cut before each array that starts another example (``lines``:
    the document's, where a numbered test case starts one)."""
    starter = "x" if any(_whole(s, "x") for s in seen) else "q"
    cases = [n for n, line in enumerate(lines) if _CASE.match(line)]
    out: list[list[int]] = [[]]
    current: list[list[str | float]] | None = None
    for index, s in enumerate(seen):
        before = seen[index - 1].item.line if index else -1
        if out[-1] and any(before < n <= s.item.line for n in cases):
            out.append([])
            current = None
        if _whole(s, starter):
            value = _plain(s)
            if current is not None and value != current and out[-1]:
                out.append([])
            current = value
        out[-1].append(index)
    return out


def _whole(s: Seen, role: str) -> bool:
    """A whole matrix named as ``role`` (not one token's row, not a head's own)."""
    return s.role == role and s.row is None and s.col is None and s.head is None


def _plain(s: Seen) -> list[list[str | float]]:
    return numbers(s.item.rows)


def numbers(rows: Sequence[Sequence[str]]) -> list[list[str | float]]:
    """The entries as numbers where they are ("1.0" in code is the "1." its print shows)."""
    return [[_number(e.replace("−", "-")) for e in row] for row in rows]


def _number(entry: str) -> str | float:
    try:
        return float(entry)
    except ValueError:
        return entry
