"""A line per token that names several of its vectors (``"dog": Query = [..], Key = [..],
Value = [..]``): lines one after another, each a different token with the same roles and
widths, are the rows of each role's matrix in line order (Q, K and V of the example, whose
tokens are the labels), not a one-token example per line."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.reading import Seen

_ROLES = ("x", "q", "k", "v")
# The token a line starts with: a word, quoted or not (a list's bullet before it), then ":".
_TOKEN = re.compile(r"""^\s*(?:[-*]\s+)?["'“‘]?([^\W\d][\w'’-]*)["'”’]?\s*:""")


def token_lines(seen: Sequence[Seen]) -> list[Seen]:
    """The arrays with each run of token lines' vectors replaced by one matrix per role."""
    out = list(seen)
    for run in _runs(seen):
        roles = [s.role for s in run[0]]
        tokens = tuple(_line_token(line) or "" for line in run)
        for column, role in enumerate(roles):
            vectors = [line[column] for line in run]
            first = vectors[0]
            stack = stacked(
                vectors,
                role=role,
                head=None,
                name=f"{first.name} ({', '.join(tokens)})",
                names=(f"{role}:",),
                printed=tokens,
            )
            out = [stack if s is first else s for s in out if s is first or not _among(s, vectors)]
    return out


def stacked(vectors: Sequence[Seen], **fields: object) -> Seen:
    """One-row vectors as the rows of one matrix, read where the first of them stands."""
    first = vectors[0]
    rows = tuple(s.item.rows[0] for s in vectors)
    item = replace(first.item, rows=rows, end=vectors[-1].item.end)
    return replace(first, item=item, **fields)  # type: ignore[arg-type]


def _runs(seen: Sequence[Seen]) -> list[list[list[Seen]]]:
    """Runs of two or more token lines in a row: the same roles in the same order and widths,
    a different token each; never when a role is also printed as a matrix of several rows."""
    lines: list[list[Seen]] = []
    for s in seen:
        if lines and lines[-1][0].item.line == s.item.line:
            lines[-1].append(s)
        else:
            lines.append([s])
    runs: list[list[list[Seen]]] = []
    current: list[list[Seen]] = []
    for line in [*lines, []]:
        if line and _token_line(line) and current and _continues(current, line):
            current.append(line)
            continue
        if len(current) >= 2:
            runs.append(current)
        current = [line] if line and _token_line(line) else []
    matrices = {s.role for s in seen if len(s.item.rows) > 1}
    return [run for run in runs if not matrices & {s.role for s in run[0]}]


def _token_line(line: list[Seen]) -> bool:
    """Two or more one-row vectors of different roles (X, Q, K, V), none of a head or a row,
    on a line that starts with a token's name."""
    roles = [s.role for s in line]
    plain = all(
        s.role in _ROLES and s.head is None and s.row is None and len(s.item.rows) == 1
        for s in line
    )
    return plain and len(line) >= 2 and len(set(roles)) == len(roles) and bool(_line_token(line))


def _line_token(line: list[Seen]) -> str | None:
    found = _TOKEN.match(line[0].item.statement)
    if found is None or resolve(found.group(1)) is not None:
        return None  # "Q: [..]" names a role, not a token
    return found.group(1)


def _continues(run: list[list[Seen]], line: list[Seen]) -> bool:
    first = run[0]
    same = [s.role for s in line] == [s.role for s in first] and [
        len(s.item.rows[0]) for s in line
    ] == [len(s.item.rows[0]) for s in first]
    return same and _line_token(line) not in {_line_token(done) for done in run}


def _among(s: Seen, vectors: Sequence[Seen]) -> bool:
    return any(s is v for v in vectors)
