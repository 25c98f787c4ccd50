"""Summarised prints: numpy and torch print an array of more than 1000 entries with ``...`` in
place of its middle columns (``tensor([[ 0.61,  0.28, -1.45,  ...,  0.19, -0.62,  0.86], ...``).
The visible entries are read with their positions (the first and the last columns), so that
a claim on them is checked against those columns of the full array, never shifted."""

from __future__ import annotations

ELISIONS = frozenset(("...", "…"))


def is_elision(token: str) -> bool:
    """Whether a printed entry stands for the columns left out (``...``, ``…``)."""
    return token.strip() in ELISIONS


def summarised(value: list) -> tuple[list, tuple[int, ...]] | None:
    """The visible entries of a summarised vector or matrix and their column positions
    (0-based from the left; negative from the right: ``(0, 1, 2, -3, -2, -1)``); None when the
    ellipsis does not stand where a summarised print puts it: the same place in every row,
    as many columns before it as after it (rows left out, a trailing "...": not read)."""
    while len(value) == 1 and isinstance(value[0], list) and _nested(value[0]):
        value = value[0]  # tensor([[...]]) read from its "(", or a batch of one
    rows = value if value and all(isinstance(row, list) for row in value) else [value]
    places = {_place(row) for row in rows}
    if len(places) != 1:
        return None
    place = places.pop()
    if place is None:
        return None
    visible = [row[:place] + row[place + 1 :] for row in rows]
    positions = (*range(place), *range(-place, 0))
    return (visible if rows is value else visible[0]), positions


def _place(row: object) -> int | None:
    """Where the one ellipsis of a row stands, with as many entries on each side of it."""
    if not isinstance(row, list) or any(isinstance(e, list) for e in row):
        return None
    found = [i for i, e in enumerate(row) if isinstance(e, str) and is_elision(e)]
    if len(found) != 1 or found[0] == 0 or 2 * found[0] + 1 != len(row):
        return None
    return found[0]


def _nested(value: list) -> bool:
    return bool(value) and isinstance(value[0], list)
