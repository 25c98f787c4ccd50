"""Numbers worked out in LaTeX alignments, one a row: the rows of an ``align`` (or ``aligned``,
``eqnarray``) that name the same symbol with another subscript or exponent, each ending in its
value, are one vector::

    \\begin{align*} e^{0.7842} &= 2.1902 \\\\ e^{1.3569} &= 3.8839 \\\\
                    e^{1.2487} &= 3.4858 \\end{align*}

is ``e^{...} = [2.1902, 3.8839, 3.4858]``, and ``\\alpha_{\\text{Hello}} &= \\frac{2.1902}{9.5599}
= 0.2291 \\\\ \\alpha_{\\text{shiny}} &= ...`` the weights. A row that goes on with ``&= ...``
works out the row above it: the chain's value is its last row's. Alignments that each hold one
chain, one after another with a line or two of words between them (a score per display, under
its own heading), are read as one. Rows whose symbols differ, or a symbol with one row only,
are left to the prose reader."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mha_symbolic.extract.items import Item, Text, entry
from mha_symbolic.extract.spans import Taken

# Each \begin paired with the next \end of its kind in one pass (never a search to the page's
# end from every \begin: a page of unclosed alignments takes linear time)
_MARK = re.compile(r"\\(begin|end)\{(align\*?|aligned|eqnarray\*?|split)\}")
_LONGEST = 20_000  # characters of one alignment
_ROW = re.compile(r"\\\\(?:\[[^\]]*\])?")
_VALUE = re.compile(
    r"(?:=|\\approx|≈)\s*(?P<value>[-−]?(?:\d+\.\d*|\.\d+|\d+))(?:\s|\\[,;!]|\\quad|[.,])*$"
)
# The symbol a row names: what is left of its left side without its subscripts and powers
_SCRIPT = re.compile(r"[_^](?:\{(?:[^{}]|\{[^{}]*\})*\}|\\?\w)")
_LONGEST_GAP = 240  # characters of words between two alignments read as one
_MAX_ROWS = 64


@dataclass(frozen=True)
class _Chain:
    symbol: str  # the left side without its scripts: "\\alpha", "e", "\\text{score}"
    label: str  # the left side as written
    value: str
    start: int  # the value's offsets in the joined text
    end: int


def align_rows(text: Text, taken: list[tuple[int, int]]) -> list[Item]:
    """One vector for each run of chains of one symbol (see the module's docstring)."""
    chains: list[list[_Chain]] = []
    for start, inner, end in _environments(text.body):
        own = _chains(text.body[inner:end], inner)
        if not own:
            continue
        previous = chains[-1][-1] if chains else None
        between = text.body[previous.end : start] if previous else ""
        if previous is not None and len(own) == 1 and _joins(previous, own[0], between):
            chains[-1].append(own[0])
        else:
            chains.append(own)
    items = []
    read = Taken(taken)
    for group in chains:
        for run in _runs(group):
            if read.meets(run[0].start, run[-1].end):
                continue
            rows = (tuple(c.value for c in run),)
            line = text.line_of(run[0].start)
            statement = f"{run[0].symbol} = "
            items.append(Item(rows, run[0].start, run[-1].end, line, "lines", statement, ""))
    return items


def _environments(body: str) -> list[tuple[int, int, int]]:
    """(start, inner start, inner end) of each alignment, in order."""
    out: list[tuple[int, int, int]] = []
    opened: re.Match[str] | None = None
    for mark in _MARK.finditer(body):
        if mark.group(1) == "begin":
            opened = opened or mark
        elif opened is not None and mark.group(2) == opened.group(2):
            if mark.start() - opened.end() <= _LONGEST:
                out.append((opened.start(), opened.end(), mark.start()))
            opened = None
    return out


def _chains(body: str, offset: int) -> list[_Chain]:
    out: list[_Chain] = []
    at = 0
    rows: list[tuple[str, int]] = []
    for separator in _ROW.finditer(body):
        rows.append((body[at : separator.start()], offset + at))
        at = separator.end()
    rows.append((body[at:], offset + at))
    label = ""
    for row, start in rows[:_MAX_ROWS]:
        left, _, right = row.partition("&")
        if not right:  # no alignment point: the whole row is its own chain
            left, right = row.split("=", 1) if "=" in row else (row, "")
            right = "=" + right
        if left.strip():
            label = left.strip()
        if not label:
            continue
        found = _VALUE.search(right)
        value = entry(found.group("value")) if found else None
        if found is None or value is None:
            continue
        begin = start + len(row) - len(right) + found.start("value")
        symbol = _SCRIPT.sub("", label).strip()
        chain = _Chain(symbol, label, value, begin, begin + len(found.group("value")))
        if out and out[-1].label == label:
            out[-1] = chain  # the same chain, one step further: its last value
        else:
            out.append(chain)
    return out


def _joins(previous: _Chain, chain: _Chain, between: str) -> bool:
    """Whether an alignment of one chain goes on the run before it: the same symbol, another
    label, and only a few words (no number, no other display) between them."""
    if chain.symbol != previous.symbol or chain.label == previous.label:
        return False
    words = re.sub(r"\$\$|\\\[|\\\]", " ", between)
    return len(between) <= _LONGEST_GAP and not re.search(r"\d|\$", words)


def _runs(chains: list[_Chain]) -> list[list[_Chain]]:
    """Runs of two or more chains of one symbol, each a label of its own."""
    out: list[list[_Chain]] = []
    run: list[_Chain] = []
    for chain in [*chains, None]:
        same = chain is not None and run and chain.symbol == run[0].symbol
        if same and chain is not None and chain.label not in {c.label for c in run}:
            run.append(chain)
            continue
        if len(run) >= 2 and run[0].symbol:
            out.append(run)
        run = [chain] if chain is not None else []
    return out
