"""Matrices printed as blocks of bare rows by Rust and C++ libraries: nalgebra's boxed
matrices (``┌ ┐`` / ``│ 0.1 0.2 │`` / ``└ ┘``) and libtorch's prints (tch-rs ``Tensor::print``,
C++ ``std::cout << t``): rows of bare numbers ending at a footer ``[ CPUFloatType{2,3} ]``; and
rows a program prints by hand (``print!("{:8.4}", x)``) under a label line ("weights:")."""

from __future__ import annotations

import re
from collections.abc import Callable

from mha_symbolic.extract.items import Item, Text, entry

MAX_ROWS = 1_000  # rows of one block; a printed example has a few
_TOP = re.compile(r"^\s*┌.*┐\s*$")
_BOTTOM = re.compile(r"^\s*└.*┘\s*$")
_SIDE = re.compile(r"^\s*│(.*)│\s*$")
# "[ CPUFloatType{2,3} ]", "[ CUDAFloatType{3} ]", "[ CPUDoubleType{2,2} ]"
_LABEL = re.compile(r"^\s*[^\s\d\[\]()].*[:=]\s*$")  # "weights:", "Attention output =", not "1:"
_FOOTER = re.compile(r"^\s*\[\s*(?:[A-Za-z]+)Type\{(\d+)(?:,(\d+))?\}\s*\]\s*$")


Statement = Callable[[int], str]  # the statement a block at this offset ends ("scores =")


def boxed_blocks(text: Text, lines: list[str], statement: Statement) -> list[Item]:
    """Every nalgebra box, libtorch block and labelled block of bare rows, as matrices."""
    found = _boxes(text, lines, statement) + _footed(text, lines, statement)
    inside = {n for item in found for n in range(item.line, item.line + len(item.rows) + 2)}
    return found + [b for b in _bare(text, lines, statement) if b.line not in inside]


def _bare(text: Text, lines: list[str], statement: Statement) -> list[Item]:
    """Two or more rows of bare numbers, as many in each, right under a label line ending in
    ":" or "=" ("weights:", "Z ="); a row that is not all numbers ends the block."""
    items = []
    for number, line in enumerate(lines[:-2]):
        if not _LABEL.match(line):
            continue
        body: list[tuple[str, ...]] = []
        for row in lines[number + 1 : number + 1 + MAX_ROWS]:
            cells = tuple(entry(cell) for cell in row.split())
            if not cells or None in cells or (body and len(cells) != len(body[0])):
                break
            body.append(tuple(str(cell) for cell in cells))
        if len(body) >= 2 and len(body[0]) >= 2:
            at = (number + 1, number + len(body))
            items.append(_item(text, lines, tuple(body), at, statement))
    return items


def _boxes(text: Text, lines: list[str], statement: Statement) -> list[Item]:
    items = []
    for number, line in enumerate(lines):
        if not _TOP.match(line):
            continue
        body: list[tuple[str, ...]] = []
        for row in lines[number + 1 : number + 2 + MAX_ROWS]:
            side = _SIDE.match(row)
            if side is None:
                if _BOTTOM.match(row) and body:
                    items.append(
                        _item(text, lines, tuple(body), (number, number + len(body)), statement)
                    )
                break
            cells = tuple(entry(cell) for cell in side.group(1).split())
            if not cells or None in cells or (body and len(cells) != len(body[0])):
                break
            body.append(tuple(str(cell) for cell in cells))
    return items


def _footed(text: Text, lines: list[str], statement: Statement) -> list[Item]:
    """Rows of bare numbers right above a libtorch footer, as many as it says; a vector
    (``{3}``) prints one entry a row and is read as one row."""
    items = []
    for number, line in enumerate(lines):
        footer = _FOOTER.match(line)
        if footer is None:
            continue
        height = int(footer.group(1))  # rows; a vector prints one entry a row
        if not 0 < height <= min(number, MAX_ROWS):
            continue
        body = [
            tuple(entry(cell) for cell in row.split()) for row in lines[number - height : number]
        ]
        width = int(footer.group(2)) if footer.group(2) else 1
        if any(len(row) != width or None in row for row in body):
            continue
        rows = tuple(tuple(str(cell) for cell in row) for row in body)
        if not footer.group(2):
            rows = (tuple(row[0] for row in rows),)
        items.append(_item(text, lines, rows, (number - height, number - 1), statement))
    return items


def _item(
    text: Text,
    lines: list[str],
    rows: tuple[tuple[str, ...], ...],
    at: tuple[int, int],
    statement: Statement,
) -> Item:
    """The block as an Item; ``at`` is its first and last line (a box's top, its last row)."""
    first, last = at
    start = text.starts[first]
    end = text.starts[last] + len(lines[last])
    return Item(rows, start, end, first, "boxed", statement(start), "")
