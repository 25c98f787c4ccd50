"""A matrix too wide for a page, cut into groups of columns one below the other, as the text
format does and as a teacher copies a wide matrix onto a board: each group full size, instead
of the whole matrix shrunk past reading."""

from __future__ import annotations

import re
from collections.abc import Callable

from mha_symbolic.solution import boxes, plain

# Characters of the text format's 2-D layout a group of columns may take: a page holds about
# 90 at full size, and the label ("columns 1–3:") stands beside each group.
LIMIT = 72
SPLIT_PAST = 110  # up to this wide a matrix stays whole (the PDF shrinks it to 80% at most)
_BEGIN, _END = r"\begin{bmatrix}", r"\end{bmatrix}"
_ROW = re.compile(r"\\\\")


def column_groups(tex: str, limit: int = LIMIT) -> list[tuple[int, int, str]]:
    """``[(first, last, group), ...]`` for display maths that is one matrix too wide for a
    page, each group at most ``limit`` wide; ``[]`` for anything else (written as it is)."""
    tex = tex.strip()
    if not (tex.startswith(_BEGIN) and tex.endswith(_END)) or tex.count(_BEGIN) != 1:
        return []
    if plain.drawn_width(tex) <= max(limit, SPLIT_PAST):
        return []
    rows = [row.split("&") for row in _ROW.split(tex[len(_BEGIN) : -len(_END)])]
    count = len(rows[0])
    if count < 2 or any(len(row) != count for row in rows):
        return []
    widths = [max(plain.drawn_width(row[j]) for row in rows) for j in range(count)]
    groups = boxes.column_groups(widths, limit)  # as the text format groups them
    if len(groups) == 1:
        return []
    return [
        (
            g[0] + 1,
            g[-1] + 1,
            _BEGIN + r" \\ ".join("&".join(r[g[0] : g[-1] + 1]) for r in rows) + _END,
        )
        for g in groups
    ]


def label(words: str, first: int, last: int, name: str, escape: Callable[[str], str] = str) -> str:
    r"""A group's label as display maths that reads as words beside the matrix: the locale's
    ``"columns {first}–{last} of {name}:"`` -> ``\text{columns 1–3 of}\ S\text{:}``, the
    words as text (``escape``d for LaTeX), the matrix's name as maths."""
    before, _, after = words.format(first=first, last=last, name="\0").partition("\0")
    parts = [_text(before.rstrip(), escape), r"\ " if before.endswith(" ") else "", name]
    parts += [r"\ " if after.startswith(" ") else "", _text(after.lstrip(), escape)]
    return "".join(parts)


def _text(words: str, escape: Callable[[str], str]) -> str:
    return rf"\text{{{escape(words)}}}" if words else ""
