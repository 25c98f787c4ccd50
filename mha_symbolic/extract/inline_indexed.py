"""Numbers of one indexed name given one after another on a line (``z_1 = 30, z_2 = -20``,
``\\sigma_1 \\approx 1.0, \\quad \\sigma_2 \\approx 0.0``, ``s₁ = 2.0, s₂ = 1.0, s₃ = 0.1``): the
values of that name's indices 1, 2, ... (or 0, 1, ...) in order are one vector, named by the
name. Each value must end its clause (no arithmetic after it); a run of other names, indices
out of order, or a single value is left to the prose reader."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mha_symbolic.extract.items import Item, Text, entry
from mha_symbolic.extract.spans import Taken

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_GIVEN = re.compile(
    r"(?<![\w\\])(?P<name>\\?[A-Za-z]+)\s*(?:_\s*\{?\s*(?P<index>\d)\s*\}?|(?P<sub>[₀-₉]))"
    r"\s*(?:=|≈|\\approx)\s*(?P<value>[-−]?(?:\d+\.\d*|\.\d+|\d+))"
    r"(?=\s*(?:$|[,;)$]|\\quad|\\,|\\text|\\;|\s(?![-+*/×·^]|\\cdot|\\times)))"
)
_LONGEST = 2_000  # characters of a line read
_GAP = 40  # characters between two values of one run


@dataclass(frozen=True)
class _Given:
    name: str
    index: int
    value: str
    start: int
    end: int


def inline_indexed(text: Text, lines: list[str], taken: list[tuple[int, int]]) -> list[Item]:
    """One vector for each run on a line (see the module's docstring)."""
    items: list[Item] = []
    read = Taken(taken)
    for number, line in enumerate(lines):
        if len(line) > _LONGEST or ("=" not in line and "≈" not in line and "approx" not in line):
            continue
        given = [_given(text.starts[number], m) for m in _GIVEN.finditer(line)]
        for run in _runs([g for g in given if g is not None]):
            if read.meets(run[0].start, run[-1].end):
                continue
            rows = (tuple(g.value for g in run),)
            statement = line[: run[0].start - text.starts[number]]
            statement = statement[: statement.rfind(run[0].name)] + f"{run[0].name} = "
            items.append(Item(rows, run[0].start, run[-1].end, number, "lines", statement, ""))
    return items


def _given(offset: int, match: re.Match[str]) -> _Given | None:
    value = entry(match.group("value"))
    if value is None:
        return None
    index = int((match.group("index") or match.group("sub")).translate(_SUBSCRIPTS))
    start = offset + match.start("value")
    return _Given(match.group("name"), index, value, start, start + len(match.group("value")))


def _runs(given: list[_Given]) -> list[list[_Given]]:
    out: list[list[_Given]] = []
    run: list[_Given] = []
    for g in [*given, None]:
        if g is not None and run and _next(run[-1], g):
            run.append(g)
            continue
        if len(run) >= 2 and run[0].index in (0, 1):
            out.append(run)
        run = [g] if g is not None else []
    return out


def _next(last: _Given, g: _Given) -> bool:
    return g.name == last.name and g.index == last.index + 1 and g.start - last.end <= _GAP
