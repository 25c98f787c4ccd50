"""Tensors as PyTorch before 0.4 (and Lua Torch) printed them: rows of bare numbers over a
``[torch.FloatTensor of size 3x4]`` footer, a wide one cut into ``Columns 0 to 2`` blocks
(each with every row, the blocks side by side); a vector is one number per line."""

from __future__ import annotations

import re

from mha_symbolic.extract.items import Item, Rows, Text, entry

MAX_LINES = 2_000  # lines above a footer read as its tensor, at most
_FOOTER = re.compile(r"^\s*\[torch\.(?:cuda\.)?\w*Tensor of size (\d+)(?:x(\d+))?\]\s*$")
_COLUMNS = re.compile(r"^\s*Columns? \d+(?: to \d+)?\s*$")


def legacy_torch_blocks(text: Text, lines: list[str]) -> list[Item]:
    """Every tensor over such a footer whose rows make the size the footer states."""
    items = []
    for number, line in enumerate(lines):
        footer = _FOOTER.match(line)
        if footer is None:
            continue
        first, blocks = _blocks(lines, number)
        rows = _joined(blocks, int(footer.group(1)), int(footer.group(2) or 0))
        if rows is None:
            continue
        end = text.starts[number - 1] + len(lines[number - 1])
        statement = "\n".join(lines[max(0, first - 2) : first])
        items.append(Item(rows, text.starts[first], end, first, "julia", statement, ""))
    return items


def _blocks(lines: list[str], footer: int) -> tuple[int, list[list[tuple[str, ...]]]]:
    """The first line read and the blocks of rows above the footer, top block first: rows
    of numbers, a "Columns" header closing each block (blank lines only just above one)."""
    blocks: list[list[tuple[str, ...]]] = []
    current: list[tuple[str, ...]] = []
    at, first, header = footer - 1, footer, False
    while at >= max(0, footer - MAX_LINES):
        line = lines[at]
        if not line.strip() and header:
            at -= 1
            continue
        read = [entry(cell) for cell in line.split()]
        if _COLUMNS.match(line):
            blocks.insert(0, current)
            current, header, first = [], True, at
        elif read and None not in read:
            current.insert(0, tuple(r for r in read if r is not None))
            header, first = False, at
        else:
            break
        at -= 1
    if current:
        blocks.insert(0, current)
    return first, [b for b in blocks if b]


def _joined(blocks: list[list[tuple[str, ...]]], height: int, width: int) -> Rows | None:
    """The blocks side by side as the footer's size (a vector's one number per line as one
    row); None when they do not make it."""
    if not blocks or any(len(block) != height for block in blocks):
        return None
    rows = tuple(sum((block[i] for block in blocks), ()) for i in range(height))
    if not width:
        return (tuple(row[0] for row in rows),) if all(len(r) == 1 for r in rows) else None
    return rows if all(len(row) == width for row in rows) else None
