"""A name a page gives both to an array and to its softmax, each printed under a label of the
same first word, names nothing on that page: a bare label over every print ("Values:" over
the scores, "Values (each row sums to 1.0):" over their softmax, and over the output) says
only that numbers follow, so the numbers decide those arrays' roles."""

from __future__ import annotations

import re
from collections.abc import Mapping

from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.state import Search

_WORD = re.compile(r"[^\W\d_]+")


def distinct_names(search: Search, names: Mapping[int, str]) -> dict[int, str]:
    """``names`` without any name that an array and the softmax of it (each a print of its
    own line under a label of the same first word, found without a slip) both carry: no role
    is its own softmax."""
    generic: set[str] = set()
    for index, matches in search.matches.items():
        name = names.get(index)
        if name is None or name in generic:
            continue
        for match in matches:
            if not match.node.kind.startswith("softmax") or match.fit.slips:
                continue
            argument = match.node.operands[0].printed if match.node.operands else None
            if argument is None or argument.line == match.target.line:
                continue  # "softmax([1, 0]) ≈ [0.73, 0.27]": one statement names both
            label = _label(argument)
            if names.get(argument.index) == name and label and label == _label(match.target):
                generic.add(name)
                break
    return {index: name for index, name in names.items() if name not in generic}


def _label(printed: Printed) -> str:
    """The first word of the line a print stands under ("values" of "Values:")."""
    lines = [line for line in printed.item.statement.split("\n") if line.strip()]
    found = _WORD.search(lines[-1]) if lines else None
    return found.group(0).lower() if found else ""
