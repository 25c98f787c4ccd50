"""Tables printed side by side in one Markdown table: ``| S | a | b | | A | a | b |``, the
blocks parted by a column that is empty in every row. Each block is a table of its own, named
by its corner cell when that is a symbol (``$S_1$``, ``concat``, ``$\\text{head}_2$``)."""

from __future__ import annotations

from mha_symbolic.extract.aliases import resolve


def blocks(rows: list[list[str]]) -> list[slice]:
    """The column ranges of the tables side by side (one range, all columns, when no column
    is empty throughout or the rows are ragged)."""
    widths = {len(cells) for cells in rows}
    if len(rows) < 2 or len(widths) != 1:
        return [slice(None)]
    width = widths.pop()
    empty = [c for c in range(width) if all(not cells[c].strip() for cells in rows)]
    if not empty:
        return [slice(None)]
    out, start = [], 0
    for cut in [*empty, width]:
        if cut - start >= 2:  # a block is a label column and a column of numbers at least
            out.append(slice(start, cut))
        start = cut + 1
    return out or [slice(None)]


def corner_statement(corner: str, caption: str, first: bool) -> str:
    """The statement a block is read with: its corner symbol's (``S_1 =``) when the corner
    names a step, else the table's caption for the first block and nothing for the others
    (the caption names what opens the row)."""
    if corner.strip() and resolve(corner.strip()) is not None:
        return f"{corner.strip()} ="
    return caption if first else ""
