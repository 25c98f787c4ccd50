"""Where a document's worked examples start, by the names it prints them under: a new X (a
matrix named X whose numbers differ from the X before it), or, on a page that prints no X at
all, a new Q (lecture notes that set Q, K and V by hand, example after example). The numbers
of one example are searched for relations among themselves only: a coincidence between two
examples (one's identity K times another's weights) never ties them into one."""

from __future__ import annotations

from collections.abc import Sequence

from mha_symbolic.extract.reading import Seen

Rows = list[list[str]]


def parts(seen: Sequence[Seen]) -> list[list[int]]:
    """The indices of ``seen`` cut before each array that starts another example."""
    starter = "x" if any(_whole(s, "x") for s in seen) else "q"
    out: list[list[int]] = [[]]
    current: Rows | None = None
    for index, s in enumerate(seen):
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


def _plain(s: Seen) -> Rows:
    return [[e.replace("−", "-") for e in row] for row in s.item.rows]
