"""A table of softmax(z / T) for several temperatures: one row per T, labelled by it ("T = 0.5",
"τ = 2", "0.5"), its first columns the probabilities of the logits z the page printed or built
before it (more columns, an entropy, are left alone). When the numbers say so (most rows are
softmax(z / T) of their label's T at their printed digits; or the labels say "T =", every row
is a distribution, and one row holds or the vector is named as logits: the rest are the page's
slips), each row is an example of its own:
z given as the scores, scale 1/T, the row claimed as the weights, judged even where it is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from mha_symbolic.extract.by_numbers import Example
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.softmax_calls import decimals, softmax_holds

Group = tuple[list[Seen], Example | None]
_LABEL = re.compile(r"^\s*(?:[A-Za-zτ]\w*\s*=\s*)?([0-9]+(?:\.[0-9]+)?)\s*$")
_NAMED = re.compile(r"^\s*(?:T|τ|t|temp|temperature)\s*=", re.IGNORECASE)
_MIN_ROWS = 2  # rows that must hold before a table is read as temperatures


def temperature_tables(groups: list[Group]) -> list[Group]:
    """The groups with each temperature table taken out into one group per row."""
    seen = [s for members, _ in groups for s in members]
    tables = [(t, [t] * len(t.item.rows)) for t in seen] + _runs(seen)
    found = [(t, lines, *read) for t, lines in tables if (read := _reading(t, seen))]
    if not found:
        return groups
    taken = {id(s.item) for _, lines, *_ in found for s in lines}
    out: list[Group] = [
        (kept, example if len(kept) == len(members) else None)
        for members, example in groups
        if (kept := [s for s in members if id(s.item) not in taken])
    ]
    for number, (table, lines, z, temps, rows) in enumerate(found, start=1):
        scores = replace(z, role="scores", head=None, row=None, names=("scores:",))
        for index, temperature in enumerate(temps):
            row = tuple(rows[index][: len(z.item.rows[0])])
            own_line = lines[index]
            weights = replace(
                own_line,
                item=replace(own_line.item, rows=(row,), labels=(), columns=()),
                role="weights",
                head=None,
                row=None,
                name=f"{table.name or 'softmax'} (T = {temperature})",
                names=("weights:",),
            )
            scale = str(1 / Fraction(temperature))
            span = (z.item.line, own_line.item.line)
            own = Example(*span, heads=1, complete=True, said=(), scale=scale, parent=-number)
            out.append(([scores, weights], own))
    return out


def _runs(seen: Sequence[Seen]) -> list[tuple[Seen, list[Seen]]]:
    """One-row prints on lines one after another, each after its own temperature ("# T=0.5:
    [0.924, 0.071, ...]", a loop's printed lines): read as one table labelled by them."""
    out: list[tuple[Seen, list[Seen]]] = []
    run: list[tuple[str, Seen]] = []
    for s in seen:
        label = _run_label(s)
        if label is not None and run and 0 < s.item.line - run[-1][1].item.line <= 2:
            run.append((label, s))
            continue
        out += _table_of(run)
        run = [(label, s)] if label is not None else []
    return out + _table_of(run)


def _table_of(run: list[tuple[str, Seen]]) -> list[tuple[Seen, list[Seen]]]:
    """The run as one table of its rows and labels, when it has rows enough of one width."""
    if len(run) < _MIN_ROWS or len({len(m.item.rows[0]) for _, m in run}) != 1:
        return []
    first = run[0][1]
    rows = tuple(m.item.rows[0] for _, m in run)
    labels = tuple(label for label, _ in run)
    return [
        (replace(first, item=replace(first.item, rows=rows, labels=labels)), [m for _, m in run])
    ]


def _run_label(s: Seen) -> str | None:
    """ "T=0.5" of a one-row print whose statement's last line is only that label."""
    if len(s.item.rows) != 1:
        return None
    last = s.item.statement.split("\n")[-1]
    label = re.sub(r"^[\s#/*-]*|[\s:,]*$", "", last)
    return label if _NAMED.match(label) and _LABEL.match(label) else None


def _reading(
    table: Seen, seen: Sequence[Seen]
) -> tuple[Seen, list[str], Sequence[Sequence[str]]] | None:
    """(z, the temperatures, the rows of probabilities) when ``table`` is a temperature table
    of a vector printed before it."""
    labels, rows = table.item.labels, table.item.rows
    if not labels and rows and len(rows[0]) > 2:  # "0.5 | 0.0024 | ..." T as the first column
        labels, rows = tuple(row[0] for row in rows), tuple(row[1:] for row in rows)
    if len(rows) < _MIN_ROWS or len(labels) != len(rows):
        return None
    temps = [m.group(1) if (m := _LABEL.match(label)) else "" for label in labels]
    if not all(temps) or any(Fraction(t) == 0 for t in temps):
        return None
    if len({Fraction(t) for t in temps}) < len(temps) or not any("." in e for r in rows for e in r):
        return None  # a table of one T again and again, or of 0s and 1s (a mask): no softmaxes
    named = all(_NAMED.match(label) for label in labels)  # "T = 0.5": the page says so
    before = [s for s in seen if s.item.start < table.item.start and len(s.item.rows) == 1]
    for z in reversed(before):
        width = len(z.item.rows[0])
        if not 2 <= width <= len(rows[0]):
            continue
        holding = _holding(z, rows, temps)
        logits = holding or z.role in ("scores", "softmax_argument")  # named as logits
        if holding >= max(_MIN_ROWS, len(rows) / 2) or (
            named and logits and _probabilities(rows, width)
        ):
            return z, temps, rows
    return None


def _probabilities(rows: Sequence[Sequence[str]], width: int) -> bool:
    """Whether every row's first ``width`` entries sum to 1 at their printed digits."""
    try:
        return all(
            abs(sum(float(e) for e in row[:width]) - 1)
            <= sum(0.5 * 10 ** -decimals(e) for e in row[:width]) + 1e-12
            for row in rows
        )
    except ValueError:
        return False


def _holding(z: Seen, rows: Sequence[Sequence[str]], temps: list[str]) -> int:
    """How many rows are softmax(z / T) of their T at their printed digits."""
    try:
        logits = [float(e.replace("−", "-")) for e in z.item.rows[0]]
    except ValueError:
        return 0
    count = 0
    for row, temperature in zip(rows, temps):
        scaled = [v / float(temperature) for v in logits]
        try:
            count += softmax_holds(scaled, row[: len(logits)])
        except ValueError:
            continue
    return count
