"""Rows labelled by words, one a line (``Your    [0.19 0.16 0.17]``, ``journey: [0.55, 0.45]``,
a table retold in text under a header of the same words): lines one after another, each a
different word and a vector of one width, are the rows of ONE matrix in line order, its labels
the words, not a vector per line. The words must be tokens, not names of steps ("raw:",
"exp:" over a softmax worked in parts): a header line right above that lists them, each
quoted (``"Your"``), or the tokens of such a table elsewhere on the page. A word that names a
role ("Q:", "scores:") is no label."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.token_lines import stacked

_QUOTES = "\"'“”‘’"
_QUOTED = re.compile(r"""^\s*(?:[-*•]\s+)?["'“‘][^\W\d][\w'’-]*["'”’]""")
# A line that holds nothing before its vector but one word (quoted or not, a list's bullet
# before it, ":", "→" or "->" after it).
_WORD = re.compile(r"""^\s*(?:[-*•]\s+)?["'“‘]?([^\W\d][\w'’-]*)["'”’]?\s*(?::|→|->)?\s*$""")


def word_rows(seen: Sequence[Seen], lines: Sequence[str]) -> list[Seen]:
    """The arrays with each run of token-labelled rows replaced by their matrix (``lines``:
    the document's lines, where a run's header stands)."""
    runs = _runs(seen)
    tokens = {w for run in runs if _table(run, lines) for w in _labels(run)}
    out = list(seen)
    for run in runs:
        if not _table(run, lines) and not set(_labels(run)) <= tokens:
            continue
        first = run[0]
        stack = stacked(run, row=None, row_from="")
        stack = replace(stack, item=replace(stack.item, labels=_labels(run)))
        out = [stack if s is first else s for s in out if s is first or not _among(s, run)]
    return out


def _labels(run: Sequence[Seen]) -> tuple[str, ...]:
    return tuple(_label(s) or "" for s in run)


def _table(run: Sequence[Seen], lines: Sequence[str]) -> bool:
    """Whether a run's words are tokens by its own print: a header line right above it that
    lists them, or each label quoted."""
    line = run[0].item.line
    header = {w.strip(_QUOTES + "|:") for w in lines[line - 1].split()} if line else set()
    quoted = all(_QUOTED.match(s.item.statement.split("\n")[-1]) for s in run)
    return set(_labels(run)) <= header or quoted


def _runs(seen: Sequence[Seen]) -> list[list[Seen]]:
    """Runs of two or more labelled one-row vectors on consecutive lines, alone on their
    lines, of one role, head and width, each a different word."""
    lines: dict[int, int] = {}
    for s in seen:
        lines[s.item.line] = lines.get(s.item.line, 0) + 1
    runs: list[list[Seen]] = [[]]
    for s in seen:
        if _row(s, lines) and runs[-1] and _continues(runs[-1], s):
            runs[-1].append(s)
        else:
            runs.append([s] if _row(s, lines) else [])
    return [run for run in runs if len(run) >= 2]


def _row(s: Seen, lines: dict[int, int]) -> bool:
    return (
        len(s.item.rows) == 1
        and not s.item.batch_shape
        and s.row is None
        and s.col is None
        and lines[s.item.line] == 1
        and s.role not in ("operand", "shape", "softmax_argument")
        and _label(s) is not None
    )


def _continues(run: list[Seen], s: Seen) -> bool:
    last = run[-1]
    return (
        s.item.line == last.item.line + 1
        and (s.role, s.head, s.assumed) == (last.role, last.head, last.assumed)
        and len(s.item.rows[0]) == len(last.item.rows[0])
        and _label(s) not in {_label(r) for r in run}
    )


def _label(s: Seen) -> str | None:
    found = _WORD.match(s.item.statement.split("\n")[-1])
    if found is None or resolve(found.group(1)) is not None:
        return None
    return found.group(1)


def _among(s: Seen, run: Sequence[Seen]) -> bool:
    return any(s is r for r in run)
