"""The arrays of each example the numbers found: a page with several examples (a worked
(8x8) one and a two-number softmax; scores softmaxed as they are, then scaled) gives one
group of arrays per example, each its own spec and claims, whatever example comes first.
And a step printed again (rounded, as a table) is judged again, in a copy of its example."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mha_symbolic.extract.by_numbers import Example
from mha_symbolic.extract.draft import Draft, Value
from mha_symbolic.extract.place import agreeing, placed_again
from mha_symbolic.extract.reading import Seen
from mha_symbolic.language.extract_phrases import Phrase, joined, phrase

_WEIGHTED = re.compile(r"head\d+\.weighted\[")  # a_ij v_j rows: no step of the derivation


def by_example(seen: list[Seen], found: Sequence[Example]) -> list[tuple[list[Seen], Example]]:
    """One group per example (its own arrays, in the page's order; an array of several, such
    as inputs two settings share, in each); an array no example holds goes with the example
    whose arrays stand nearest before it. Empty when the numbers found fewer than two, or
    when the examples may be views of one (no two settings of one computation, no two sizes
    of attention with one of several rows): the page's inputs then tie them together."""
    if len(found) < 2 or not all(e.seen for e in found) or not _apart(seen, found):
        return []
    taken = [set(e.seen) for e in found]
    for position, s in enumerate(seen):
        if not any(position in t for t in taken):
            taken[_nearest(seen, found, s.item.line)].add(position)
    return [
        ([s for position, s in enumerate(seen) if position in t], e) for t, e in zip(taken, found)
    ]


_ATTENTION = ("scores", "scaled", "masked", "weights", "softmax_argument")


def _apart(seen: list[Seen], found: Sequence[Example]) -> bool:
    """Whether the examples are different computations: settings of one (a scale, a mask)
    or attention over different numbers of keys, one of them over several queries."""
    if len({e.parent for e in found}) < len(found) or _own_inputs(seen, found):
        return True
    sizes = [
        {(len(seen[p].item.rows), len(seen[p].item.rows[0])) for p in e.seen if _steps(seen[p])}
        for e in found
    ]
    keys = {cols for shapes in sizes for _, cols in shapes}
    return len(keys) > 1 and any(rows > 1 for shapes in sizes for rows, _ in shapes)


def _own_inputs(seen: list[Seen], found: Sequence[Example]) -> bool:
    """Whether each example starts from inputs of its own (an X, a Q or scores no other
    example holds) and no two share a print: the same steps run again on new numbers (a notebook's
    numpy run, then its torch run with new random weights)."""
    held = [set(e.seen) for e in found]
    if sum(len(h) for h in held) != len(set().union(*held)) or any(e.heads != 1 for e in found):
        return False
    if any(seen[p].head is not None for h in held for p in h):
        return False  # the heads of one layer, each from its own slice
    return all(any(_own_input(seen[p]) for p in h) for h in held)


def _own_input(s: Seen) -> bool:
    """An X or a Q, or a whole matrix of scores printed (not one query's row of them)."""
    return s.role in ("x", "q") or (s.role == "scores" and s.row is None and len(s.item.rows) > 1)


def _steps(s: Seen) -> bool:
    return s.role in _ATTENTION and s.row is None


def _nearest(seen: list[Seen], found: Sequence[Example], line: int) -> int:
    """The example with an array nearest before ``line`` (the first on a tie or none)."""
    before = [
        max((seen[p].item.line for p in e.seen if seen[p].item.line <= line), default=-1)
        for e in found
    ]
    return before.index(max(before))


def once(drafts: Sequence[Draft]) -> None:
    """A print two examples share (the scores both settings start from) claimed once: in the
    first example that claims it."""
    claimed: set[tuple[str, str, tuple[str, ...]]] = set()
    for draft in drafts:
        draft.claims = [c for c in draft.claims if _seen(c) not in claimed]
        claimed |= {_seen(c) for c in draft.claims}


def _seen(value: Value) -> tuple[str, str, tuple[str, ...]]:
    return (value.key, str(value.value), value.where)


def printed_again(draft: Draft, values: Mapping[str, Any]) -> list[Draft]:
    """Copies of an example that claim the steps it prints again with other digits (each
    copy at most one print per step, and only of steps this example claims); a print most of
    whose numbers differ from the example's is another computation the numbers did not find,
    and is left alone."""
    said = {str(p.numbers["where"]): p.numbers["where"] for p in placed_again(draft)}
    pending = [v for v in _again(draft) if v.key.partition("[")[0] in values]
    float32 = draft.get("dtype") == "float32"
    pending = [v for v in pending if 2 * agreeing([v], values, float32) > len(_entries(v.value))]
    pending += [v for v in _again(draft) if _WEIGHTED.match(v.key)]  # placed by their numbers
    claimed = {c.key for c in draft.claims}  # a first print another example claims: its own
    pending = [v for v in pending if v.key in claimed]
    return again_copies(draft, pending, said.__getitem__)


def again_copies(
    draft: Draft, again: list[Value], shown: Callable[[Any], Any] = lambda where: where
) -> list[Draft]:
    """Copies of the draft claiming ``again`` (prints of steps it has claimed), each copy at
    most one print per step; ``shown`` writes a print's place for the copy's note."""
    out: list[Draft] = []
    while again:
        claims: list[Value] = []
        rest: list[Value] = []
        for value in again:
            (rest if any(c.key == value.key for c in claims) else claims).append(value)
        copy = Draft(draft.document, f"{draft.title} (printed again)")
        copy.values = list(draft.values)
        copy.claims = claims
        copy.assumed = list(draft.assumed)  # what the example works with, its reprints too
        wheres = tuple(dict.fromkeys(shown(c.where[0]) for c in claims))
        copy.notes = [phrase("notes.printed_again", wheres=joined("infer.entries", wheres))]
        out.append(copy)
        again = rest
    return out


def _again(draft: Draft) -> list[Value]:
    """The prints the example's placing left out as a step's second print."""
    out = []
    for said in placed_again(draft):
        numbers = said.numbers
        key, where = str(numbers.get("key", "")).strip("`"), str(numbers.get("where", ""))
        value = str(numbers.get("value", ""))
        out.append(Value(key, value, f"{where}: printed again", where=(where,)))
    return out


def _entries(text: str) -> list[str]:
    return [e for e in text.replace("[", " ").replace("]", " ").split(",") if e.strip()]


def numbered(report_json: str, number: int, count: int, title: str) -> str:
    """A report's JSON saying which example of the page its claims belong to."""
    data = json.loads(report_json)
    data["example"] = {"number": number, "of": count, "title": title}
    return json.dumps(data, indent=2, ensure_ascii=False)


def header(number: int, count: int) -> Phrase:
    """The line above an example's mapping and report: its number, in the reader's language
    (the JSON also gives its title)."""
    return phrase("example_header", number=number, count=count)
