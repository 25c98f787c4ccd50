"""Matrices printed as tables and blocks of bare rows: Markdown tables (``| 0.2 | 0.8 |``, and
HTML tables, whose cells the page reader separates the same way) and Julia's
``3×4 Matrix{Float64}:`` / ``3-element Vector{Float64}:`` blocks.

A table's header row (column names, tokens) and a first column of labels are left out of the
matrix and kept as its ``labels``; a table whose cells are words is no matrix. A data row with a
cell meant as a number that cannot be read ("⁻1.0", "50%") leaves the whole table unread."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.column_groups import column_groups
from mha_symbolic.extract.items import Item, Rows, Text, Unread, entry
from mha_symbolic.extract.lists import Parsed, as_rows, number_like, parse
from mha_symbolic.extract.table_blocks import blocks, corner_statement
from mha_symbolic.extract.table_sums import without_totals

_SEPARATOR = re.compile(r"\s*:?-{2,}:?\s*")
_THOUSANDS = re.compile(r"[-+−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_MARKUP = re.compile(r"[*`$]|\\\(|\\\)")
_JULIA = re.compile(
    r"^\s*(?:(\d+)×(\d+)\s+(?:Matrix|Array|Adjoint|Transpose|LinearAlgebra\.\w+|adjoint\(|transpose\()"
    r"|(\d+)-element\s+(?:Vector|Array|Adjoint))(?!\w).*:\s*$"
)
_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^{}]*\})")
MAX_ROWS = 1_000  # rows of one table or block read as a matrix

Statement = Callable[[int], str]  # the statement before an offset of the joined text


def tables(text: Text, lines: list[str], before: Statement) -> tuple[list[Item], list[Unread]]:
    """Every table of numbers, and the tables left unread."""
    items: list[Item] = []
    unread: list[Unread] = []
    number = 0
    while number < len(lines):
        if not _is_row(lines[number]):
            number += 1
            continue
        first = number
        while number < len(lines) and number - first < MAX_ROWS and _is_row(lines[number]):
            number += 1
        rows = [_cells(lines[n]) for n in range(first, number)]
        parts = blocks([cells for cells in rows if not all(_SEPARATOR.fullmatch(c) for c in cells)])
        for part in parts:
            _table(text, lines, (first, number), before, (items, unread), (part, len(parts) > 1))
        items.extend(_list_columns(text, lines, first, number, before))
    return items, unread


def _is_row(line: str) -> bool:
    """A table row: "| a | b |", or a printed row closed by its last bar ("0.1 | 0.2 | 0.7 |",
    an f-string table a notebook prints)."""
    stripped = line.strip()
    if stripped.startswith("|"):
        return stripped.count("|") >= 2
    return stripped.endswith("|") and stripped.count("|") >= 3


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    stripped = stripped[1:] if stripped.startswith("|") else stripped
    stripped = stripped[:-1] if stripped.endswith("|") else stripped
    cells = [_MARKUP.sub("", cell).strip() for cell in stripped.split("|")]
    # "10,000" in a cell is ten thousand (a table's cells hold one number each)
    return [cell.replace(",", "") if _THOUSANDS.fullmatch(cell) else cell for cell in cells]


def _table(
    text: Text,
    lines: list[str],
    span: tuple[int, int],
    before: Statement,
    found: tuple[list[Item], list[Unread]],
    block: tuple[slice, bool] = (slice(None), False),
) -> None:
    """The table of lines ``span`` (first, stop), or the block of its columns ``block`` (its
    columns, and whether other blocks stand beside it)."""
    (first, stop), (items, unread), (part, beside) = span, found, block
    rows = [(n, _cells(lines[n])[part]) for n in range(first, stop)]
    rows = [(n, cells) for n, cells in rows if not all(_SEPARATOR.fullmatch(c) for c in cells)]
    body = next((i for i, (_, cells) in enumerate(rows) if _numeric(cells[1:])), None)
    if body is None:
        return
    body, indexed = _index_header(rows, body)
    data = rows[body:]
    labelled = indexed or any(entry(cells[0]) is None for _, cells in data)
    width = len(data[0][1])
    header = rows[body - 1][1][1 if labelled else 0 :] if body else []
    statement = _caption(lines, first, before(text.starts[first]))
    if beside:
        corner = rows[body - 1][1][0] if body and labelled else ""
        statement = corner_statement(corner, statement, part.start == 0)
    out = []
    bad: list[tuple[int, str]] = []  # (row, cell) of each cell that is no number
    for index, (_, cells) in enumerate(data, start=1):
        values = cells[1:] if labelled else cells
        read = [entry(c) for c in values]
        bad.extend((index, c) for c, r in zip(values, read) if r is None)
        if len(cells) != width:
            return
        out.append(tuple(r for r in read if r is not None))
    if bad:  # unread when every such cell was meant as a number; a table of words otherwise
        if all(number_like(cell) for _, cell in bad):
            unread.append(Unread(text.starts[first], first, bad[0][0], bad[0][1], statement))
        return
    labels = tuple(cells[0] for _, cells in data) if labelled else ()
    start = text.starts[data[0][0]] + _offset(lines[data[0][0]], part.start or 0)
    end = text.starts[data[-1][0]] + len(lines[data[-1][0]])
    item = Item(tuple(out), start, end, data[0][0], "table", statement, "")
    item = replace(item, columns=tuple(header), labels=labels)
    items.extend(
        _step_columns(item) or _vector_columns(item) or column_groups(item) or without_totals(item)
    )


def _index_header(rows: list[tuple[int, list[str]]], body: int) -> tuple[int, bool]:
    """Where a table's data starts, and whether its first column is a row index: positions
    counted 0, 1, 2, ... (or from 1) under a word ("Token", "#", "Position"), not numbers of
    the matrix; a header of counted positions under that word names the columns (``| Token
    | 0 | 1 | 2 |``) and is no row of data."""
    first = rows[body][1]
    if body + 1 < len(rows) and _word(first[0]) and _counted(first[1:]):
        index = [cells[0] for _, cells in rows[body + 1 :]]
        if _counted(index):
            return body + 1, True
    if body and _word(rows[body - 1][1][0]) and _counted([cells[0] for _, cells in rows[body:]]):
        return body, True
    return body, False


def _word(cell: str) -> bool:
    return entry(cell) is None and not number_like(cell)


def _counted(cells: list[str]) -> bool:
    """Two or more cells counting 0, 1, 2, ... or 1, 2, 3, ... as plain integers."""
    if len(cells) < 2 or not all(c.isdigit() for c in cells):
        return False
    return [int(c) for c in cells] in (list(range(len(cells))), list(range(1, len(cells) + 1)))


def _offset(line: str, column: int) -> int:
    """Where a column's cell starts in a table's line (a block beside others starts there)."""
    at = line.find("|")
    for _ in range(column):
        at = line.find("|", at + 1)
    return max(0, at)


def _step_columns(item: Item) -> list[Item]:
    """A table whose column headers name steps of one computation ("Dot Product Score",
    "After Scaling", "Attention Weight" over a column of words): each column is its own
    vector, one query's row of that step, named by its header."""
    roles = [resolve(h) for h in item.columns]
    if not item.labels or len(item.columns) < 2 or any(h in item.labels for h in item.columns):
        return []
    if len({r.role for r in roles if r is not None}) < 2:
        return []
    out = []
    for column, header in enumerate(item.columns):
        vector = (tuple(row[column] for row in item.rows),)
        out.append(replace(item, rows=vector, statement=f"{header} =", columns=(), labels=()))
    return out


_DIMENSION = re.compile(
    r"(?:dim(?:ension)?|d|feature|feat|f|차원|次元|维度|维)\s*[_-]?\s*\d+", re.IGNORECASE
)
_VECTOR = re.compile(r"([A-Za-z])\s*_?\s*\{?(\d+|[₀-₉]+)\}?")


def _vector_columns(item: Item) -> list[Item]:
    """A table whose columns are vectors (headers ``Q1 | Q2`` over rows labelled ``dim1``,
    ``dim2``: "one column per word"): the matrix of those vectors as rows, named by their
    letter, its rows labelled by the headers."""
    if len(item.columns) < 2 or len(item.labels) != len(item.rows):
        return []
    if not all(_DIMENSION.fullmatch(label.strip()) for label in item.labels):
        return []
    found = [_VECTOR.fullmatch(header.strip()) for header in item.columns]
    letters = {m.group(1) for m in found if m is not None}
    if None in found or len(letters) != 1:
        return []
    rows = tuple(zip(*item.rows))
    return [
        replace(
            item,
            rows=rows,
            statement=f"{letters.pop()} =",
            columns=item.labels,
            labels=item.columns,
        )
    ]


def _list_columns(
    text: Text, lines: list[str], first: int, stop: int, before: Statement
) -> list[Item]:
    """A table whose cells are lists (``| row 1 | [0, 0.5] | [0.2, 0.8] |``): each column of
    lists is a matrix, a list per row, under its header; other columns are left alone."""
    rows = [(n, _cells(lines[n])) for n in range(first, stop)]
    rows = [(n, cells) for n, cells in rows if not all(_SEPARATOR.fullmatch(c) for c in cells)]
    header, data = (rows[0][1], rows[1:]) if rows and not _listed(rows[0][1][-1]) else ([], rows)
    if not data or len({len(cells) for _, cells in data}) != 1:
        return []
    out = []
    for column in range(len(data[0][1])):
        read = [_listed(cells[column]) for _, cells in data]
        if any(r is None for r in read) or len({len(r) for r in read if r}) != 1:
            continue
        line = lines[data[0][0]]
        offset = line.find(data[0][1][column])
        start = text.starts[data[0][0]] + max(0, offset)
        end = text.starts[data[-1][0]] + len(lines[data[-1][0]])
        name = header[column] if column < len(header) else ""
        matrix = tuple(r for r in read if r is not None)
        statement = _caption(lines, first, before(text.starts[first]))
        item = Item(matrix, start, end, data[0][0], "table", statement, "")
        out.append(replace(item, columns=(name,), labels=tuple(cells[0] for _, cells in data)))
    return out


def _listed(cell: str) -> tuple[str, ...] | None:
    """The entries of a cell that is one bracketed list of numbers, else None."""
    if not cell.startswith("["):
        return None
    parsed = parse(cell, 0)
    if not isinstance(parsed, Parsed) or parsed.end != len(cell) or parsed.sums:
        return None
    rows, batch = as_rows(parsed.value, "[")
    return rows[0] if len(rows) == 1 and not batch else None


def _caption(lines: list[str], first: int, statement: str) -> str:
    """The statement before a table; when a blank line parts them, the line above it that
    names the table ("Attention weights:", "### Scores")."""
    if statement.strip():
        return statement
    above = next(
        (lines[n] for n in range(first - 1, max(-1, first - 3), -1) if lines[n].strip()), ""
    )
    return above if above.rstrip().endswith(":") or above.lstrip().startswith("#") else statement


def _numeric(cells: list[str]) -> bool:
    """A data row: some cell a number, or meant as one (a header holds names only)."""
    return any(entry(c) is not None or number_like(c) for c in cells)


def frames(text: Text, lines: list[str]) -> list[Item]:
    """pandas prints: a header of k column names (a line with the index's name may follow),
    then rows of a label and k numbers; the labels and names are kept, the numbers read."""
    items = []
    number = 0
    while number < len(lines) - 1:
        names = lines[number].split()
        first = number + 1 + (len(lines[number + 1].split()) == 1)
        rows, labels, stop = _frame_rows(lines, first, len(names))
        numbered = all(name.isdigit() for name in names)  # pandas' default column names
        julia = _JULIA.match(lines[number]) is not None  # a Julia block's type line, no header
        if not names or not rows or julia or (entry(names[0]) is not None and not numbered):
            number += 1
            continue
        start, end = text.starts[first], text.starts[stop - 1] + len(lines[stop - 1])
        item = Item(tuple(rows), start, end, first, "frame", "", "")  # the header: its columns
        item = replace(item, columns=tuple(names), labels=tuple(labels))
        items.extend(column_groups(item) or [item])
        number = stop
    return items


def _frame_rows(
    lines: list[str], first: int, width: int
) -> tuple[list[tuple[str, ...]], list[str], int]:
    rows: list[tuple[str, ...]] = []
    labels: list[str] = []
    number = first
    while number < len(lines) and len(rows) < MAX_ROWS and width:
        cells = lines[number].split()
        if len(cells) != width + 1:
            break
        read = [entry(cell) for cell in cells[1:]]
        if any(r is None for r in read):
            break
        rows.append(tuple(r for r in read if r is not None))
        labels.append(cells[0])
        number += 1
    return rows, labels, number


def julia_blocks(text: Text, lines: list[str]) -> list[Item]:
    """``3×2 Matrix{Float64}:`` followed by its rows of bare numbers (a vector's are one
    number each, read as one row), as Julia's REPL and notebooks print them."""
    items = []
    for number, line in enumerate(lines):
        header = _JULIA.match(line)
        if header is None:
            continue
        height = int(header.group(1) or header.group(3))
        body = lines[number + 1 : number + 1 + min(height, MAX_ROWS)]
        read = [tuple(entry(cell) for cell in row.split()) for row in body]
        if len(read) != height or any(not row or None in row for row in read):
            continue
        rows = tuple(tuple(str(cell) for cell in row) for row in read)
        if header.group(3):
            rows = (tuple(row[0] for row in rows),) if all(len(r) == 1 for r in rows) else ()
        elif len({len(row) for row in rows}) != 1 or len(rows[0]) != int(header.group(2)):
            continue
        if not rows:
            continue
        start = text.starts[number + 1]
        end = text.starts[number + height] + len(lines[number + height])
        statement = "\n".join(lines[max(0, number - 1) : number + 1])  # "julia> W" and its type
        items.append(Item(rows, start, end, number + 1, "julia", statement, ""))
    return items


def tabular_rows(body: str) -> Rows | None:
    """The numbers of a LaTeX tabular: its rules dropped, a header row of words and a first
    column of labels left out (as in a Markdown table); None when a cell of the numbers is
    not one (a table of words)."""
    text = _RULES.sub("", body)
    lines = [line for line in re.split(r"\\\\(?:\[[^\]]*\])?", text) if line.strip()]
    cells = [[c.strip() for c in line.split("&")] for line in lines]
    data = [row for row in cells if _numeric(row[1:] or row)]
    if not data or len({len(row) for row in data}) != 1:
        return None
    labelled = any(entry(row[0]) is None for row in data)
    out = []
    for row in data:
        read = [entry(c) for c in (row[1:] if labelled else row)]
        if not read or None in read:
            return None
        out.append(tuple(r for r in read if r is not None))
    return tuple(out)
