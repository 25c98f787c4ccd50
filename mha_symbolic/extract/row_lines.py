"""Rows printed one per line (``for i in range(n): print(f"  [{', '.join(row)}]")``): two or
more lines in a row that each hold only one bracketed list, of one width, are the rows of one
matrix, read where the first stands and named as it is (the heading above them), not one-row
arrays each."""

from __future__ import annotations

from collections.abc import Sequence

from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.token_lines import stacked

_ROWS_MIN = 2


def row_lines(seen: Sequence[Seen]) -> list[Seen]:
    """The arrays with each run of bare row lines replaced by their matrix."""
    out: list[Seen] = []
    run: list[Seen] = []
    for s in [*seen, None]:
        if s is not None and _bare_row(s) and run and _continues(run, s):
            run.append(s)
            continue
        out.extend([stacked(run)] if len(run) >= _ROWS_MIN else run)
        run = [s] if s is not None and _bare_row(s) else []
        if s is not None and not run:
            out.append(s)
    return out


def _bare_row(s: Seen) -> bool:
    """One row of two or more entries with nothing before it on its line: ``  [ -0.27, -inf]``."""
    before = s.item.statement.split("\n")[-1].strip()
    plain = s.row is None and s.col is None and s.head is None and len(s.item.rows) == 1
    return plain and len(s.item.rows[0]) >= 2 and before == "" and not s.item.batch_shape


def _continues(run: list[Seen], s: Seen) -> bool:
    last = run[-1]
    return s.item.line == last.item.line + 1 and len(s.item.rows[0]) == len(run[0].item.rows[0])
