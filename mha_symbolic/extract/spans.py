"""The spans of the joined text already read, merged and in order, asked whether a new span
meets one of them by bisection (a page of tens of thousands of prints stays linear)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable


class Taken:
    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for a, b in sorted(spans):
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        self.spans = merged
        self.starts = [a for a, _ in merged]

    def meets(self, start: int, end: int) -> bool:
        """Whether [start, end) overlaps a span read."""
        at = bisect.bisect_right(self.starts, start) - 1
        if at >= 0 and self.spans[at][1] > start:
            return True
        return at + 1 < len(self.spans) and self.spans[at + 1][0] < end
