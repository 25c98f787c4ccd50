"""``softmax(large_scores) ≈ [0.88, 0.06, 0.06]`` after ``large_scores = [20, 18, 19]``: the
call names its argument, a vector the page printed; the result is that vector's softmax, an
example of its own (scores given, weights claimed), judged even when its numbers are wrong
(which is why the numbers alone did not tie the two together)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.extract.by_numbers import Example
from mha_symbolic.extract.reading import Seen

_CALL = re.compile(r"softmax\s*\(\s*([A-Za-z_]\w*)\s*\)\s*(?:≈|=|->|→|~|:)\s*$", re.IGNORECASE)
_ASSIGNED = re.compile(r"(?:^|[\s;])([A-Za-z_]\w*)\s*=\s*$")

Group = tuple[list[Seen], Example | None]


def called_softmax(groups: list[Group]) -> list[Group]:
    """The groups with each wrong ``softmax(name) ≈ [...]`` and the vector ``name`` printed
    before it taken out into a group of their own."""
    seen = [s for members, _ in groups for s in members]
    pairs = _pairs(seen)
    if not pairs:
        return groups
    taken = {id(s.item) for pair in pairs for s in pair}
    out: list[Group] = []
    for members, example in groups:
        kept = [s for s in members if id(s.item) not in taken]
        if kept:
            out.append((kept, example if len(kept) == len(members) else None))
    for number, (argument, result) in enumerate(pairs, start=1):
        name = _assigned(argument) or argument.name
        scores = replace(argument, role="scores", head=None, row=None, name=name)
        scores = replace(scores, names=("scores:",), printed=(name,))
        weights = replace(result, role="weights", head=None, row=None, name=f"softmax({name})")
        weights = replace(weights, names=("weights:",), printed=(weights.name,))
        lines = (argument.item.line, result.item.line)
        own = Example(*lines, heads=1, complete=True, said=(), scale="none", parent=-number)
        out.append(([scores, weights], own))
    return out


def _pairs(seen: Sequence[Seen]) -> list[tuple[Seen, Seen]]:
    """(argument, result) of every call whose result is no softmax of its argument at the
    printed precision; a right one the numbers have placed already."""
    out = []
    for index, s in enumerate(seen):
        call = _CALL.search(s.item.statement.split("\n")[-1])
        if call is None or len(s.item.rows) != 1:
            continue
        argument = next((a for a in reversed(seen[:index]) if _assigned(a) == call.group(1)), None)
        if argument is None or len(argument.item.rows) != 1:
            continue
        if len(argument.item.rows[0]) != len(s.item.rows[0]) or _holds(argument, s):
            continue
        out.append((argument, s))
    return out


def _assigned(s: Seen) -> str | None:
    found = _ASSIGNED.search(s.item.statement.split("\n")[-1])
    return found.group(1) if found else None


def _holds(argument: Seen, result: Seen) -> bool:
    """Whether the printed result is the softmax of the printed argument to its digits."""
    try:
        x = [float(e.replace("−", "-")) for e in argument.item.rows[0]]
        return softmax_holds(x, result.item.rows[0])
    except ValueError:
        return True  # symbols: nothing to say here


def softmax_holds(logits: Sequence[float], printed: Sequence[str]) -> bool:
    """Whether ``printed`` is the softmax of ``logits`` to its printed digits (ValueError when
    an entry is no number)."""
    values = [float(e.replace("−", "-")) for e in printed]
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    total = sum(exps)
    return all(
        abs(e / total - v) <= 0.5 * 10 ** -decimals(t) + 1e-12
        for e, v, t in zip(exps, values, printed)
    )


def decimals(text: str) -> int:
    """The decimals a printed entry shows."""
    return len(text.split(".")[1]) if "." in text else 0
