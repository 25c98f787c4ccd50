"""Other readings of one example when the first does not fit its printed numbers: one head
(a head count said elsewhere in the page, for another model), the prints of Q, K and V whose
shapes fit one another, and Q, K and V (or the scores) as given when the X read is an array
no relation ties to the example. The reading under which the most printed numbers hold is
taken; the page is refused only when none builds, with the readings tried named in its one
line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from mha_symbolic.errors import SpecError
from mha_symbolic.extract.by_numbers import Example
from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.facts import Facts
from mha_symbolic.extract.reading import Seen
from mha_symbolic.language.extract_phrases import Phrase, joined, phrase

Build = Callable[..., Draft]  # (facts, seen, found=examples) -> the draft
Fit = Callable[[Draft, list[Seen]], tuple[int, int]]  # (entries that hold, entries claimed)
_GIVEN = ("q", "k", "scores", "weights")


@dataclass(frozen=True)
class Reading:
    """One way to read the example: what it changes, in words, and the changed inputs."""

    said: Phrase | str  # "" for the first reading
    seen: list[Seen]
    facts: Facts
    found: Sequence[Example]


def best_draft(
    build: Build, fit: Fit, seen: list[Seen], facts: Facts, found: Sequence[Example]
) -> Draft:
    """The draft of the first reading when most of its claimed entries hold (the others are
    the page's slips); else (also when it claims nothing) that of the reading under which the
    most hold (the first on a tie)."""
    best: tuple[int, Draft] | None = None
    failure: SpecError | None = None
    readings = [Reading("", seen, facts, found), *_others(seen, facts, found)]
    for reading in readings:
        try:
            draft = build(reading.facts, reading.seen, found=reading.found)
            holding, claimed = fit(draft, reading.seen)
        except SpecError as error:
            failure = failure or error
            continue
        if reading.said:
            draft.notes.append(phrase("notes.other_reading", reading=reading.said))
        if best is None or holding > best[0]:
            best = (holding, draft)
        if not reading.said and claimed and 2 * holding >= claimed:
            break  # the first reading fits most printed numbers: its misfits are the page's
    if best is not None:
        return best[1]
    assert failure is not None
    tried = "; ".join(str(r.said) for r in readings[1:])
    if not tried:
        raise failure
    raise SpecError(f"{failure.detail}; also tried {tried}: none fits", source=failure.source)


def _others(seen: list[Seen], facts: Facts, found: Sequence[Example]) -> list[Reading]:
    """The arrays as read, with the prints of Q, K, V that fit one another, and without an
    unrelated X (on the former); each with the facts as read and with one head."""
    variants: list[tuple[list[Phrase], list[Seen]]] = [([], seen)]
    fitting = _fitting_shapes(seen)
    if fitting is not None:
        variants.append(([phrase("notes.reading_shapes")], fitting))
    bare = _without_unrelated_input(variants[-1][1], found)
    if bare is not None:
        variants.append(([*variants[-1][0], phrase("notes.reading_given")], bare))
    several = any(h > 1 for h, _ in facts.heads) or any(e.heads > 1 for e in found)
    one = (replace(facts, heads=[]), [replace(e, heads=1) for e in found])
    out = [Reading(_listed(said), arrays, facts, found) for said, arrays in variants[1:]]
    if several or any(_numbered_vector(s) for s in seen):
        one_head = phrase("notes.reading_one_head")
        out += [
            Reading(_listed([one_head, *said]), _unnumbered(arrays), *one)
            for said, arrays in variants
        ]
    return out


def _numbered_vector(s: Seen) -> bool:
    """A one-row Q, K, V or X whose name's number was read as a head (``k_2 = [1, 1]``)."""
    return s.head is not None and len(s.item.rows) == 1 and s.role in ("q", "k", "v", "x")


def _unnumbered(seen: list[Seen]) -> list[Seen]:
    """Under one head, a one-row vector's number is its token's, not a head's."""
    return [replace(s, head=None) if _numbered_vector(s) else s for s in seen]


def _listed(said: list[Phrase]) -> Phrase:
    return said[0] if len(said) == 1 else joined("infer.entries", tuple(said))


def _fitting_shapes(seen: list[Seen]) -> list[Seen] | None:
    """The arrays with the prints of Q, K or V whose shape fits no print of the others left
    alone (a query (1, 3) of another cell beside keys (2, 2) and a query (1, 2)); None when
    each role's prints fit or there is nothing to choose between."""
    whole = [s for s in seen if s.role in ("q", "k", "v") and _whole(s)]
    shapes = {role: {_shape(s) for s in whole if s.role == role} for role in ("q", "k", "v")}
    widths = {w for _, w in shapes["q"]} & {w for _, w in shapes["k"]}
    keys = {n for n, _ in shapes["k"]} & (
        {n for n, _ in shapes["v"]} or {n for n, _ in shapes["k"]}
    )
    if len(widths) != 1 or len(keys) != 1:
        return None
    fits = {
        "q": lambda shape: shape[1] in widths,
        "k": lambda shape: shape[1] in widths and shape[0] in keys,
        "v": lambda shape: shape[0] in keys,
    }
    unfit = [s for s in whole if not fits[s.role](_shape(s))]
    if not unfit or len(unfit) == len(whole):
        return None
    return [_alone(s) if any(s is u for u in unfit) else s for s in seen]


def _whole(s: Seen) -> bool:
    return s.row is None and s.col is None and len(s.item.rows) > 0


def _shape(s: Seen) -> tuple[int, int]:
    return (len(s.item.rows), len(s.item.rows[0]))


def _alone(s: Seen) -> Seen:
    return replace(s, role="unnamed", names=(), printed=())


def _without_unrelated_input(seen: list[Seen], found: Sequence[Example]) -> list[Seen] | None:
    """The arrays with every whole X outside the lines of the examples the numbers found (all
    of them when none was found) left alone, when the page gives Q and K (or the scores or
    weights) whole; None when there is no such X."""
    given = {s.role for s in seen if s.row is None and s.col is None and s.role in _GIVEN}
    if not ({"q", "k"} <= given or given & {"scores", "weights"}):
        return None
    apart = [s for s in seen if s.role == "x" and s.row is None and not _within(s, found)]
    if not apart:
        return None
    return [_alone(s) if any(s is a for a in apart) else s for s in seen]


def _within(s: Seen, found: Sequence[Example]) -> bool:
    return any(e.first <= s.item.line <= e.last for e in found)


_RESULTS = ("weights", "head.output", "output", "concat")


def with_failed(
    out: list[Draft], failed: list[tuple[SpecError, list[Seen]]], stopped: Phrase | None
) -> list[Draft]:
    """The drafts built; a part that fits no reading is left out, with a note that says why,
    when another part builds (its numbers are left alone: no claim, no false alarm, and the
    other examples are still checked); when none builds, the page is refused."""
    for error, group in failed:
        if not out:
            if stopped is None or error.detail.endswith(str(stopped)):
                raise error
            raise SpecError(f"{error.detail}; {stopped}", source=error.source) from None
        where = group[0].where if group else ""
        told = next((draft for draft in out if draft.claims), out[0])  # a report prints it
        if any(s.role in _RESULTS for s in group):  # results left unchecked: say why
            told.notes.append(phrase("notes.part_unfit", where=where, why=error.detail))
        else:
            told.notes.append(phrase("notes.part_left", where=where))
    return out
