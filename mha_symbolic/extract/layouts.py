"""Numbers printed in layouts the bracket finder does not see: single entries
(``scores[0][1] = ... = 0.0``) and matrices printed side by side
(``Wq = [[1, 0], Wk = [[1, 1],`` over ``[0, 1]] [0, 1]]``)."""

from __future__ import annotations

import re

from mha_symbolic.extract.items import Item, Text, entry

# name[i][j] = ... = number   |   name[i, j] = ... = number   (the last number is the value)
_ENTRY = re.compile(
    r"^\s*(?P<name>[A-Za-z_][\w']*)\s*\[\s*(?P<i>\d+)\s*(?:\]\s*\[|,)\s*(?P<j>\d+)\s*\]\s*=.*?"
    r"=?\s*(?P<value>[+\-−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+\-]?\d+)?)\s*$"
)
_LONGEST = 2_000  # characters of a line read as "name[i][j] = ... = value"
# "A = [[1, 0]," opens a matrix closed by "]]" below; "A = [1, 0]" opens one whose rows follow.
# The name starts where no name character stands before it: a line of 100,000 letters is tried
# once, not once per letter (which took minutes).
_OPENING = re.compile(r"(?<![\w^{}])([A-Za-z_][\w^{}]*)\s*=\s*\[\s*(\[)?([^\[\]]*)\]\s*,?")
_ROW = re.compile(r"\[([^\[\]]*)\]\s*(\]?)\s*,?")


def indexed_entries(text: Text, lines: list[str]) -> list[tuple[str, int, int, Item]]:
    """(name, row, column, item) of each printed entry, 1-based (0-based documents shifted)."""
    found = []
    for number, line in enumerate(lines):
        match = _ENTRY.match(line) if len(line) <= _LONGEST else None
        if match and entry(match.group("value")) is not None:
            start = text.starts[number] + match.start("value")
            item = Item(
                ((match.group("value"),),),
                start,
                start + len(match.group("value")),
                number,
                "entry",
                line[: match.start("value")],
                "",
            )
            found.append((match.group("name"), int(match.group("i")), int(match.group("j")), item))
    shift = 1 if any(i == 0 or j == 0 for _, i, j, _ in found) else 0
    return [(name, i + shift, j + shift, item) for name, i, j, item in found]


def side_by_side(text: Text, lines: list[str]) -> tuple[list[Item], list[tuple[int, int]]]:
    """Matrices opened on one line ("A = [[1, 0], B = [[1, 1],") and continued below in as
    many columns ("[0, 1]] [0, 1]]"): one Item per matrix, and the spans they cover."""
    out: list[Item] = []
    spans: list[tuple[int, int]] = []
    for number, line in enumerate(lines):
        openings = list(_OPENING.finditer(line))
        if len(openings) < 2 or _OPENING.sub("", line).strip():
            continue
        rows: list[list[tuple[str, ...]]] = [[_cells(m.group(3))] for m in openings]
        nested = [bool(m.group(2)) for m in openings]
        if len(set(nested)) != 1:
            continue
        closed = _continue(lines, number + 1, rows, closing=nested[0])
        if closed is None or any(len({len(r) for r in matrix}) != 1 for matrix in rows):
            continue
        spans.append((text.starts[number], text.starts[closed - 1] + len(lines[closed - 1])))
        for opening, matrix in zip(openings, rows):
            start = text.starts[number] + opening.start(3) - 2
            statement = f"{opening.group(1)} = "
            item = Item(tuple(matrix), start, start + 1, number, "list", statement, "")
            out.append(item)
    return out, spans


def _continue(
    lines: list[str], start: int, rows: list[list[tuple[str, ...]]], closing: bool
) -> int | None:
    """Read the continuation lines into ``rows``; the index after the last one, or None.
    Nested matrices end at their "]]"; flat ones at the first line that is not a row each."""
    for number in range(start, min(len(lines), start + 64)):
        groups = list(_ROW.finditer(lines[number]))
        if len(groups) != len(rows) or _ROW.sub("", lines[number]).strip():
            return None if closing or number == start else number
        for matrix, group in zip(rows, groups):
            matrix.append(_cells(group.group(1)))
        if closing and all(group.group(2) for group in groups):
            return number + 1
    return None if closing else min(len(lines), start + 64)


def _cells(text: str) -> tuple[str, ...]:
    cells = tuple(entry(cell) for cell in text.split(","))
    return tuple(c for c in cells if c is not None) if all(cells) else ()
