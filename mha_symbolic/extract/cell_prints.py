"""Which print of a notebook cell printed an array of its output: a cell that prints several
arrays (``print(k)`` then ``print(v)``) prints them in order, each starting a line of its own
(their continuation lines are indented), so the n-th print made the n-th of those lines.
Without this, the reading walked up from the output to the cell's last print and named every
array of the cell by it."""

from __future__ import annotations

import bisect

from mha_symbolic.extract.formats import Document


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
    if len(prints) < 2 or len(prints) != len(firsts):
        return None
    order = bisect.bisect_right(firsts, line) - 1
    return prints[order] if order >= 0 else None
