"""What the finders return: a printed matrix with where it stands, the document's joined text,
and the reading of one printed number."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mha_symbolic.extract.formats import Document

_NUMBER = re.compile(r"[+\-−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+\-]?\d+)?")
_FRACTION = re.compile(r"[+\-−]?\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\}|[+\-−]?\d+/\d+")
_INFINITY = re.compile(r"-\\infty|-inf|−∞|-∞")
_SPACING = re.compile(r"\\[,;:! ]|\\q?quad|\\left|\\right|\\phantom\{[^{}]*\}|~")


@dataclass(frozen=True)
class Item:
    """One matrix or vector as printed: entries as text (their digits are the precision)."""

    rows: tuple[tuple[str, ...], ...]
    start: int  # offset in the document's joined text
    end: int
    line: int  # index of the line it starts on
    kind: str  # "latex", "list" or "tuple"
    statement: str  # the text from the statement's start up to the item
    after: str  # the rest of its line

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.rows), len(self.rows[0]))


@dataclass(frozen=True)
class Text:
    """The document's lines joined, with the offset each line starts at."""

    body: str
    starts: tuple[int, ...]

    def line_of(self, offset: int) -> int:
        low, high = 0, len(self.starts) - 1
        while low < high:
            mid = (low + high + 1) // 2
            if self.starts[mid] <= offset:
                low = mid
            else:
                high = mid - 1
        return low


def joined(document: Document) -> Text:
    starts, offset = [], 0
    for line in document.lines:
        starts.append(offset)
        offset += len(line.text) + 1
    return Text("\n".join(line.text for line in document.lines), tuple(starts or [0]))


def entry(text: str) -> str | None:
    """A printed number as written (−0.4 keeps its sign), or None if it is not a number."""
    cleaned = _SPACING.sub(" ", text).strip().strip("{}").strip().rstrip(".").strip()
    if not cleaned:
        return None
    if _NUMBER.fullmatch(cleaned) or _FRACTION.fullmatch(cleaned) or _INFINITY.fullmatch(cleaned):
        return cleaned
    return None
