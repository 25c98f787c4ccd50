"""The same numbers printed again elsewhere (code and its output, a recap, a summary table):
each such print is judged too, against the step its first print was claimed on, in a copy of
that example, so that both prints get the same verdict. Taken are the prints the reading itself
placed on a claimed step (a block of Query rows after each row's product), and prints of the
very same entries (the same digits, in the same order) that nothing else claims or gives, with
a fractional entry among them (integers alike are as often an input's digits as a result's)."""

from __future__ import annotations

from collections.abc import Sequence

from mha_symbolic.extract.draft import Draft, Value
from mha_symbolic.extract.example_groups import again_copies
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.word_rows import word_tables

Entries = tuple[str, ...]


def reprint_drafts(document: Document, drafts: Sequence[Draft]) -> list[Draft]:
    """A copy of each draft whose claimed numbers the page prints again, claiming the reprints."""
    prints = _prints(document)
    given = {_entries(v.value) for d in drafts for v in d.values if isinstance(v.value, list)}
    placed = {
        (w, _entries(c.value)) for d in drafts for c in (*d.claims, *d.assumed) for w in c.where
    }
    out: list[Draft] = []
    for draft in drafts:
        again = _repeats(draft)
        placed |= {(v.where[0], _entries(v.value)) for v in again}
        for claim in draft.claims:
            entries = _entries(claim.value)
            if entries in given or not _fractional(entries):
                continue
            for where, printed in prints:
                if printed == entries and not _claimed(placed, where, entries):
                    again.append(
                        Value(claim.key, claim.value, f"{where}: printed again", where=(where,))
                    )
                    placed.add((where, entries))
        again += rows_again(draft, prints, placed)
        out.extend(again_copies(draft, again))
    return out


def rows_again(
    draft: Draft, prints: list[tuple[str, Entries]], placed: set[tuple[str, Entries]]
) -> list[Value]:
    """A step worked out row by row and then printed whole (a results table): each of its
    rows judged again, where the table stands."""
    rows: dict[str, dict[int, Value]] = {}
    for claim in draft.claims:
        step, _, index = claim.key.partition("[")
        if index.rstrip("]").isdigit():
            rows.setdefault(step, {})[int(index.rstrip("]"))] = claim
    out = []
    for claimed in rows.values():
        if len(claimed) < 2 or sorted(claimed) != list(range(1, len(claimed) + 1)):
            continue
        ordered = [claimed[n] for n in sorted(claimed)]
        whole = tuple(e for c in ordered for e in _entries(c.value))
        if not _fractional(whole):
            continue
        for where, printed in prints:
            if printed == whole and not _claimed(placed, where, whole):
                out += [
                    Value(c.key, c.value, f"{where}: printed again", where=(where,))
                    for c in ordered
                ]
                placed.add((where, whole))
    return out


def _prints(document: Document) -> list[tuple[str, Entries]]:
    """Every print's entries where it stands; lines of rows labelled by words, as the reading
    takes them, one table there, and each of its rows a print at the table's place too."""
    _, items = find_items(document)
    tables = word_tables(items, [line.text for line in document.lines])
    out = []
    for item in tables:
        where = document.lines[item.line].where
        out.append((where, _flat(item.rows)))
        if not any(item is i for i in items):
            out.extend((where, _flat((row,))) for row in item.rows)
    return out


def _repeats(draft: Draft) -> list[Value]:
    """The prints the placing found on a step already claimed, with the same digits, on the
    key that claim has now (the numbers may have moved it); none if it is no longer claimed."""
    out = []
    for first, value in draft.repeats:
        entries = _entries(value.value)
        claim = next(
            (c for c in draft.claims if first in c.where and _entries(c.value) == entries), None
        )
        if claim is not None:
            out.append(Value(claim.key, value.value, value.source, where=value.where))
    return out


def _claimed(placed: set[tuple[str, Entries]], where: str, entries: Entries) -> bool:
    """Whether a claim stands at ``where`` on these entries or on a row of them."""
    return any(
        _inside(e, entries) and (w == where or w.startswith(f"{where} (")) for w, e in placed
    )


def _inside(part: Entries, whole: Entries) -> bool:
    return any(whole[i : i + len(part)] == part for i in range(len(whole) - len(part) + 1))


def _flat(rows: tuple[tuple[str, ...], ...]) -> Entries:
    return tuple(e.strip() for row in rows for e in row)


def _entries(value: object) -> Entries:
    """The printed entries of a claimed value ("[[0.5, 0.25], ...]", or nested lists)."""
    if isinstance(value, list):
        return tuple(e for v in value for e in _entries(v))
    text = str(value).replace("[", " ").replace("]", " ")
    return tuple(e.strip() for e in text.split(",") if e.strip())


def _fractional(entries: Entries) -> bool:
    return len(entries) > 1 and any("." in e or "/" in e or "e" in e.lower() for e in entries)
