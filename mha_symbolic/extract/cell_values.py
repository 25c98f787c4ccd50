"""A vector worked out one entry a notebook cell: cells alike that each show one number, the
value of the same expression at the next index, are one vector named by that expression::

    In [5]: exp(z[0])          Out[5]: 0.36787944117144233
    In [6]: exp(z[1])          Out[6]: 2.718281828459045
    In [7]: exp(z[2])          Out[7]: 148.4131591025766

is ``exp(z) = [0.3679, 2.718, 148.4]`` and ``exp(z[0])/total``, ... is ``exp(z)/total``. A cell
shows what its ``print(...)`` lines print, in order, then the value of its last line when that
is an expression; each must be one number on its own output line. The indices run 0, 1, 2, ...
(or 1, 2, 3, ...) with nothing else shown between them; a cell with a loop or a definition in
it is left out (its lines do not say which index printed what)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mha_symbolic.extract.formats import Line
from mha_symbolic.extract.items import Item, Text, entry

_RUN_MIN = 2
_MAX_RUN = 64
_INDEX = re.compile(r"\[\s*(\d+)\s*\]")
_PRINT = re.compile(r"^print\((?P<expression>.*)\)\s*(?:#.*)?$")
# A line that is no expression whose value is shown: a statement, a loop, a definition
_STATEMENT = re.compile(
    r"^(?:for|while|if|elif|else|def|class|with|try|except|import|from|return|assert|del|"
    r"global|raise|pass|lambda)\b|^[A-Za-z_][\w.\[\], ]*(?<![=!<>])=(?!=)|^@|^%|^!"
)


@dataclass(frozen=True)
class _Shown:
    template: str  # the expression with its one integer index left as "#"
    index: int
    value: str
    start: int  # offsets of the value in the joined text
    end: int
    line: int


def cell_values(text: Text, lines: Sequence[Line]) -> list[Item]:
    """One vector for every run of cells alike (see the module's docstring)."""
    shown: list[_Shown] = []
    for code, output in _cells(lines):
        own = _shown(text, lines, code, output)
        if not own and any(lines[k].text.strip() for k in output):  # another print between
            own = [_Shown(f"#{output[0]}", -1, "", 0, 0, output[0])]
        shown.extend(own)
    items: list[Item] = []
    index = 0
    while index < len(shown):
        run = [shown[index]]
        while (
            index + len(run) < len(shown)
            and len(run) < _MAX_RUN
            and shown[index + len(run)].template == run[0].template
            and shown[index + len(run)].index == run[-1].index + 1
        ):
            run.append(shown[index + len(run)])
        if len(run) >= _RUN_MIN and run[0].index in (0, 1):
            name = run[0].template.replace("[#]", "")
            rows = (tuple(s.value for s in run),)
            items.append(
                Item(rows, run[0].start, run[-1].end, run[0].line, "lines", f"{name} = ", "")
            )
        index += len(run)
    return items


def _cells(lines: Sequence[Line]) -> list[tuple[list[int], list[int]]]:
    """(code line numbers, output line numbers) of each notebook code cell, in order."""
    out: list[tuple[list[int], list[int]]] = []
    for number, line in enumerate(lines):
        if not (line.code or line.output) or not line.cell:
            continue
        if not out or lines[out[-1][0][0] if out[-1][0] else out[-1][1][0]].cell != line.cell:
            out.append(([], []))
        out[-1][1 if line.output else 0].append(number)
    return out


def _shown(text: Text, lines: Sequence[Line], code: list[int], output: list[int]) -> list[_Shown]:
    source = [lines[k].text.strip() for k in code]
    source = [s for s in source if s and not s.startswith("#")]
    shown = [k for k in output if lines[k].text.strip()]
    if not source or not shown or any(lines[k].text.startswith((" ", "\t")) for k in code):
        return []
    expressions = []
    for number, statement in enumerate(source):
        printed = _PRINT.match(statement)
        if printed:
            expressions.append(printed.group("expression").strip())
        elif number == len(source) - 1 and not _STATEMENT.match(statement):
            expressions.append(statement)
        elif not _STATEMENT.match(statement):
            return []  # an expression shown by no one: the outputs say nothing of it
    if len(expressions) != len(shown):
        return []
    out = []
    for expression, k in zip(expressions, shown, strict=True):
        value_text = lines[k].text.strip()
        indices = _INDEX.findall(expression)
        value = entry(value_text)
        if value is None or len(indices) != 1 or '"' in expression or "'" in expression:
            return []
        offset = text.starts[k] + lines[k].text.index(value_text)
        template = _INDEX.sub("[#]", expression)
        template = re.sub(r"\s+", "", template)
        out.append(_Shown(template, int(indices[0]), value, offset, offset + len(value_text), k))
    return out
