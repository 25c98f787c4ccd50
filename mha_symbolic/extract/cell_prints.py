"""Which print of a notebook cell printed an array of its output: a cell that prints several
arrays by name (``print(k)`` then ``print(v)``) prints them in order, each starting a line of
its own (their continuation lines are indented), so the n-th print made the n-th of those lines.
Without this, the reading walked up from the output to the cell's last print and named every
array of the cell by it."""

from __future__ import annotations

import bisect
import re

from mha_symbolic.extract.formats import Document

# A print of one array by its name, with or without a label: print(k), print("Keys:", k).
# Anything else (k.T, k[0], np.round(k, 3), k.shape, an f-string) says less of what it prints.
_BARE = re.compile(r"""^print\(\s*(?:(["'])[^"']*\1\s*,\s*)?[A-Za-z_]\w*\s*\)\s*(?:#.*)?$""")


def print_of(document: Document, line: int) -> str | None:
    """The top-level print statement of the cell that printed the output line ``line`` when
    the cell has several prints and its output as many first lines; else None."""
    lines = document.lines
    here = lines[line]
    if not (here.output and here.cell):
        return None
    start = line
    while start > 0 and lines[start - 1].output and lines[start - 1].cell == here.cell:
        start -= 1
    end = line
    while end + 1 < len(lines) and lines[end + 1].output and lines[end + 1].cell == here.cell:
        end += 1
    firsts = [k for k in range(start, end + 1) if lines[k].text and not lines[k].text[0].isspace()]
    code = start
    while code > 0 and not lines[code - 1].output and lines[code - 1].cell == here.cell:
        code -= 1
    prints = [lines[k].text for k in range(code, start) if lines[k].text.startswith("print(")]
    if len(prints) < 2 or len(prints) != len(firsts) or not all(map(_BARE.match, prints)):
        return None
    order = bisect.bisect_right(firsts, line) - 1
    return prints[order] if order >= 0 else None
