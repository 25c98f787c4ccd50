"""Single entries printed together that are none of them the example's values (a trace
``score[3,0] → 0.52``, ``score[3,1] → 0.31``, ... with made-up numbers, or the entries of an
example of another size): another computation's, never claims on this one. A slip is one or
two wrong entries among right ones; a run where nothing holds is not this example's numbers."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import sympy as sp

from mha_symbolic.extract.draft import Draft, Value
from mha_symbolic.extract.place import agreeing
from mha_symbolic.language.extract_phrases import phrase

_ENTRY = re.compile(r"\[\d+,\d+\]$")
_LINE = re.compile(r"^(.*?)\bline (\d+)")
MIN_RUN = 3  # entries printed together before "none holds" says another computation
_GAP = 2  # lines between two entries of one run


def foreign_entries(draft: Draft, values: Callable[[], Mapping[str, sp.MatrixBase]]) -> None:
    """Drop the runs of entry claims of which none holds (``values``: the example's steps,
    computed only when there is such a run), with a note naming where they stand."""
    runs = [run for run in _runs(draft.claims) if len(run) >= MIN_RUN]
    if not runs:
        return
    steps = values()
    float32 = draft.get("dtype") == "float32"
    for run in runs:
        if any(c.key.partition("[")[0] not in steps for c in run):
            continue
        if agreeing(run, steps, float32):
            continue
        dropped = {id(c) for c in run}
        draft.claims = [c for c in draft.claims if id(c) not in dropped]
        first, last = run[0].where[0], run[-1].where[0]
        draft.notes.append(phrase("notes.foreign_entries", first=first, last=last, count=len(run)))


def _runs(claims: list[Value]) -> list[list[Value]]:
    """Entry claims printed on nearby lines of one cell, in the order of the page."""
    runs: list[list[Value]] = []
    last: tuple[str, int] | None = None
    for claim in claims:
        at = _at(claim)
        if at is None:
            last = None
            continue
        if last is None or at[0] != last[0] or not 0 < at[1] - last[1] <= _GAP:
            runs.append([])
        runs[-1].append(claim)
        last = at
    return runs


def _at(claim: Value) -> tuple[str, int] | None:
    """The cell and line of a one-entry claim read from one place; None for any other claim."""
    if not _ENTRY.search(claim.key) or len(claim.where) != 1:
        return None
    found = _LINE.match(claim.where[0])
    return (found.group(1), int(found.group(2))) if found else None
