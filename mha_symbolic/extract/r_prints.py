"""Matrices as R prints them: a header of column indices ``[,1] [,2]`` over rows labelled
``[1,]``, ``[2,]``; a wide matrix in blocks of columns one under another (each block with every
row, the blocks side by side). knitr and reprex put ``## `` or ``#> `` before each line of
output; that prefix is dropped."""

from __future__ import annotations

import re

from mha_symbolic.extract.items import Item, Rows, Text, entry

MAX_ROWS = 1_000  # rows of one printed matrix read, at most
_PREFIX = r"^\s*(?:#>|##)?\s*"
_HEADER = re.compile(_PREFIX + r"((?:\[,\d+\]\s*)+)$")
_ROW = re.compile(_PREFIX + r"\[(\d+),\]\s+(.*?)\s*$")
_COLUMN = re.compile(r"\[,(\d+)\]")


def r_blocks(text: Text, lines: list[str]) -> list[Item]:
    """Every matrix printed the R way whose blocks make one rectangle of numbers."""
    items = []
    number = 0
    while number < len(lines):
        if _HEADER.match(lines[number]) is None:
            number += 1
            continue
        first = number
        rows, number = _matrix(lines, number)
        if rows is None:
            number = max(number, first + 1)
            continue
        last = number - 1
        statement = "\n".join(lines[max(0, first - 2) : first])  # "print(weights)" above
        end = text.starts[last] + len(lines[last])
        items.append(Item(rows, text.starts[first], end, first, "julia", statement, ""))
    return items


def _matrix(lines: list[str], number: int) -> tuple[Rows | None, int]:
    """The blocks from the header at ``number`` on, joined; and the line after them."""
    blocks: list[list[tuple[str, ...]]] = []
    expected = 1  # the first column the next block's header must name
    while number < len(lines):
        header = _HEADER.match(lines[number])
        if header is None:
            break
        columns = [int(c) for c in _COLUMN.findall(header.group(1))]
        if columns != list(range(expected, expected + len(columns))):
            return None, number + 1
        block, number = _block(lines, number + 1, len(columns))
        if block is None:
            return None, number
        blocks.append(block)
        expected += len(columns)
    if not blocks or len({len(b) for b in blocks}) != 1:
        return None, number
    return tuple(sum((b[i] for b in blocks), ()) for i in range(len(blocks[0]))), number


def _block(lines: list[str], number: int, width: int) -> tuple[list[tuple[str, ...]] | None, int]:
    """The rows ``[1,] ...``, ``[2,] ...`` of one block, each of ``width`` numbers."""
    rows: list[tuple[str, ...]] = []
    while number < len(lines) and len(rows) < MAX_ROWS:
        row = _ROW.match(lines[number])
        if row is None:
            break
        if int(row.group(1)) != len(rows) + 1:
            return None, number + 1
        read = [entry(cell) for cell in row.group(2).split()]
        if len(read) != width or None in read:
            return None, number + 1
        rows.append(tuple(r for r in read if r is not None))
        number += 1
    return (rows or None), number
