"""The drafts of a page's examples, in three steps: the groups of arrays worth a draft (a test
case nothing places is left alone), each built through its best reading; a copy of an example
for each step it prints again with other digits; and the groups that built nothing, left out
with a note or refusing the page (other_readings.with_failed)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.extract.by_numbers import Example
from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.example_groups import once, printed_again
from mha_symbolic.extract.facts import Facts
from mha_symbolic.extract.other_readings import Build, Fit, best_draft
from mha_symbolic.extract.place import drop_undecidable
from mha_symbolic.extract.reading import Seen

Group = tuple[list[Seen], Example | None]  # the arrays of one example, with the example found
Failed = list[tuple[SpecError, list[Seen]]]
Values = Callable[[Draft, list[Seen]], Mapping[str, Any]]  # a draft's derived step values


def placed_groups(groups: list[Group], examples: Sequence[Example]) -> list[Group]:
    """The groups a name places or a relation ties; all of them when none is. A test case whose
    arrays no name places and no relation ties (its expected output wrong, its inputs passed
    unnamed) is left alone, not the page refused for it."""
    placed = [
        (g, own)
        for g, own in groups
        if own is not None or found_in(examples, g) or any(s.role != "unnamed" for s in g)
    ]
    return placed or groups


def built_drafts(
    groups: list[Group],
    examples: Sequence[Example],
    facts: Facts,
    build: Callable[[int, int], Build],
    fit: Fit,
) -> tuple[list[tuple[Draft, list[Seen]]], Failed]:
    """Each group's draft under its best reading (``build(number, count)`` builds the
    numbered example's), with the lines of what the numbers found; the groups that built
    none, with why."""
    out: list[tuple[Draft, list[Seen]]] = []
    failed: Failed = []
    for number, (group, own) in enumerate(groups, start=1):
        found = [own] if own is not None else found_in(examples, group)
        try:
            draft = best_draft(build(number, len(groups)), fit, group, facts, found)
        except SpecError as error:
            failed.append((error, group))
            continue
        drop_undecidable(draft)
        draft.inferred = [line for example in found for line in example.said]
        out.append((draft, group))
    return out, failed


def with_reprints(built: list[tuple[Draft, list[Seen]]], values: Values) -> list[Draft]:
    """The drafts (a print two examples share claimed once), each followed by its copies for
    the steps it prints again with other digits."""
    once([draft for draft, _ in built])
    return [again for draft, group in built for again in (draft, *_again(draft, group, values))]


def _again(draft: Draft, seen: list[Seen], values: Values) -> list[Draft]:
    if not any(getattr(p, "key", "") == "placing.again" for p in draft.placing):
        return []
    return printed_again(draft, values(draft, seen))


def found_in(examples: Sequence[Example], seen: Sequence[Seen]) -> list[Example]:
    """The examples the numbers found among these arrays' lines."""
    lines = [s.item.line for s in seen]
    if not lines:
        return []
    first, last = min(lines), max(lines)
    return [e for e in examples if e.first <= last and e.last >= first]
