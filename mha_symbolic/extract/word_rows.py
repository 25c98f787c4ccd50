"""Rows labelled by words, one a line (``Your    [0.19 0.16 0.17]``, ``journey: [0.55, 0.45]``,
a table retold in text under a header of the same words): lines one after another, each a
word and a vector of one width, are the rows of ONE matrix in line order, its labels the
words, not a vector per line. The words must be tokens, not names of steps ("raw:",
"exp:" over a softmax worked in parts): a header line right above that lists them, each
quoted (``"Your"``), or the tokens of such a table elsewhere on the page. A word that names a
role ("Q:", "scores:") is no label."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.items import Item
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.token_lines import stacked

_QUOTES = "\"'“”‘’"
_QUOTED = re.compile(r"""^\s*(?:[-*•]\s+)?["'“‘][^\W\d][\w'’-]*["'”’]""")
# A line that holds nothing before its vector but one word (quoted or not, a list's bullet
# before it, ":", "→" or "->" after it).
_WORD = re.compile(r"""^\s*(?:[-*•]\s+)?["'“‘]?([^\W\d][\w'’-]*)["'”’]?\s*(?::|→|->)?\s*$""")


T = TypeVar("T")


def word_rows(seen: Sequence[Seen], lines: Sequence[str]) -> list[Seen]:
    """The arrays with each run of token-labelled rows replaced by their matrix (``lines``:
    the document's lines, where a run's header stands)."""
    out = list(seen)
    for run in _token_runs(seen, lambda s: s.item, _same_reading, lines):
        first = run[0]
        stack = stacked(run, row=None, row_from="")
        stack = replace(stack, item=replace(stack.item, labels=_labels([s.item for s in run])))
        out = [stack if s is first else s for s in out if s is first or not _among(s, run)]
    return out


def word_tables(items: Sequence[Item], lines: Sequence[str]) -> list[Item]:
    """The printed items as ``word_rows`` reads them: each run of token-labelled rows one
    matrix (where another reader walks the page's prints again)."""
    out = list(items)
    for run in _token_runs(items, lambda i: i, lambda a, b: True, lines):
        rows = tuple(i.rows[0] for i in run)
        stack = replace(run[0], rows=rows, end=run[-1].end, labels=_labels(run))
        out = [stack if i is run[0] else i for i in out if i is run[0] or not _among(i, run)]
    return out


def _token_runs(
    entries: Sequence[T],
    item: Callable[[T], Item],
    same: Callable[[T, T], bool],
    lines: Sequence[str],
) -> list[list[T]]:
    """Runs of two or more word-labelled one-row vectors on consecutive lines, alone on their
    lines, of one width (and ``same`` of each two in a row), whose words are tokens: by the
    run's own print, or as the tokens of such a table elsewhere. A word may come again (a
    sentence says "the" twice)."""
    count: dict[int, int] = {}
    for e in entries:
        count[item(e).line] = count.get(item(e).line, 0) + 1
    runs: list[list[T]] = [[]]
    for e in entries:
        row = count[item(e).line] == 1 and _row(item(e))
        if (
            row
            and runs[-1]
            and same(runs[-1][-1], e)
            and _continues([item(r) for r in runs[-1]], item(e))
        ):
            runs[-1].append(e)
        else:
            runs.append([e] if row else [])
    runs = [run for run in runs if len(run) >= 2]
    tables = [run for run in runs if _table([item(e) for e in run], lines)]
    tokens = {w for run in tables for w in _labels([item(e) for e in run])}
    return [run for run in runs if run in tables or set(_labels([item(e) for e in run])) <= tokens]


def _same_reading(last: Seen, s: Seen) -> bool:
    """Two rows read alike: one role, head and assumption, no row or column of their own."""
    plain = all(
        r.row is None and r.col is None and r.role not in ("operand", "shape", "softmax_argument")
        for r in (last, s)
    )
    return plain and (s.role, s.head, s.assumed) == (last.role, last.head, last.assumed)


def _labels(run: Sequence[Item]) -> tuple[str, ...]:
    return tuple(_label(i) or "" for i in run)


def _table(run: Sequence[Item], lines: Sequence[str]) -> bool:
    """Whether a run's words are tokens by its own print: a header line right above it that
    lists them, or each label quoted."""
    line = run[0].line
    header = {w.strip(_QUOTES + "|:") for w in lines[line - 1].split()} if line else set()
    quoted = all(_QUOTED.match(i.statement.split("\n")[-1]) for i in run)
    return set(_labels(run)) <= header or quoted


def _row(item: Item) -> bool:
    return len(item.rows) == 1 and not item.batch_shape and _label(item) is not None


def _continues(run: list[Item], item: Item) -> bool:
    last = run[-1]
    return item.line == last.line + 1 and len(item.rows[0]) == len(last.rows[0])


def _label(item: Item) -> str | None:
    found = _WORD.match(item.statement.split("\n")[-1])
    if found is None or resolve(found.group(1)) is not None:
        return None
    return found.group(1)


def _among(e: object, run: Sequence[object]) -> bool:
    return any(e is r for r in run)
