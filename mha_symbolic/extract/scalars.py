"""Single numbers a page computes in its prose: the value ending a chain (``√d_k = √2 ≈ 1.414``,
``Q1·K1 = 1*1 + 0*0 = 1``, ``1.78 / 4.56 = 0.39``), each a 1x1 Item of kind "scalar" whose
statement is its line up to the value (the working) and whose ``after`` is the rest."""

from __future__ import annotations

import bisect
import re

from mha_symbolic.extract.items import Item, Text, entry

# "= 0.39" or "≈ 1.414" ending its clause: not followed by more arithmetic or a bracket.
_VALUE = re.compile(
    r"(?:=|≈|\\approx)\s*(?P<value>[-+−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)"
    r"(?=\s*$|\s*[,;)]|\.(?:\s|$)|\s+(?![-+*/×·^(\[]|\\cdot|\\times)\S)"
)
_LONGEST = 2_000  # characters of a line read for scalars
MAX_SCALARS = 5_000  # of one page; a tutorial prints tens


def scalars(text: Text, lines: list[str], taken: list[tuple[int, int]]) -> list[Item]:
    """Every chain's final value outside the spans already read as matrices."""
    spans = sorted(taken)
    starts = [span[0] for span in spans]
    out: list[Item] = []
    for number, line in enumerate(lines):
        if len(line) > _LONGEST or ("=" not in line and "≈" not in line and "approx" not in line):
            continue
        for match in _VALUE.finditer(line):
            value = entry(match.group("value"))
            start = text.starts[number] + match.start("value")
            if value is None or _inside(spans, starts, start):
                continue
            end = text.starts[number] + match.end("value")
            statement, after = line[: match.start("value")], line[match.end("value") :]
            out.append(Item(((value,),), start, end, number, "scalar", statement, after))
            if len(out) >= MAX_SCALARS:
                return out
    return out


def _inside(spans: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    index = bisect.bisect_right(starts, offset) - 1
    return index >= 0 and spans[index][0] <= offset < spans[index][1]
