"""A table that prints several matrices side by side, its columns named by matrix
(``Q1 Q2 K1 K2 V1 V2``; ``ohne_c1 ohne_c2 causal_c1 causal_c2``, a pandas frame of
``np.hstack([C_no_mask, C_causal])``): one matrix per group of columns that share a name,
each named by it, its rows keeping the table's labels. Groups named by one name and a number
(``h1_c1 h1_c2 h2_c1 h2_c2``: the heads of a concatenation) stay one matrix."""

from __future__ import annotations

import re
from dataclasses import replace

from mha_symbolic.extract.items import Item

_NUMBERED = re.compile(r"(.*?[^\d_\s-])[_\s-]*(\d+|[₀-₉]+)")


def column_groups(item: Item) -> list[Item]:
    """The matrices of a table whose column names group its columns (two or more groups of
    at least two adjacent columns each, every column in one); none when they do not."""
    names = [_group_name(header) for header in item.columns]
    if len(names) < 4 or any(name is None for name in names):
        return []
    spans: list[tuple[str, int, int]] = []
    for column, name in enumerate(names):
        assert name is not None
        if spans and spans[-1][0] == name:
            spans[-1] = (name, spans[-1][1], column + 1)
        elif any(name == other for other, _, _ in spans):
            return []  # a name again after another's columns: no grouping of the table
        else:
            spans.append((name, column, column + 1))
    if len(spans) < 2 or any(end - start < 2 for _, start, end in spans):
        return []
    numbered = [_NUMBERED.fullmatch(name) for name, _, _ in spans]
    if all(numbered) and len({m.group(1) for m in numbered if m is not None}) == 1:
        return []  # h1_c1 .. h2_c2: the heads of one concatenation, one matrix
    return [
        replace(
            item,
            rows=tuple(row[start:end] for row in item.rows),
            statement=f"{name} =",
            columns=item.columns[start:end],
            start=item.start + number,  # apart, in the table's place and order
        )
        for number, (name, start, end) in enumerate(spans)
    ]


def _group_name(header: str) -> str | None:
    """The matrix a column belongs to: the name before the last ``_`` (``ohne_c1``), or
    before the column's number (``Q1``, ``K_2``)."""
    header = header.strip()
    if "_" in header:
        name = header.rsplit("_", 1)[0].strip()
        return name or None
    found = _NUMBERED.fullmatch(header)
    return found.group(1) if found else None
