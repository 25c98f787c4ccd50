"""A draft of a batched example: X printed as (B, L, E) with W_Q, W_K and W_V that its
numbers explain (see infer/batched.py). The draft's x is the whole batch; each claim names
its batch element (``b2.head1.weights``), a print of the whole batch one claim per row, so
that every printed row is judged where it stands."""

from __future__ import annotations

from collections.abc import Sequence

from mha_symbolic.extract.assemble import plain
from mha_symbolic.extract.draft import Draft, Value, rows_text
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.infer.batched import Fit, Step, batched_fit, sequences
from mha_symbolic.extract.infer.batched_given import weighed_batch
from mha_symbolic.extract.infer.intervals import printed_array
from mha_symbolic.extract.items import Item
from mha_symbolic.extract.reading import Reading, Seen
from mha_symbolic.language.extract_phrases import Phrase, code, joined, phrase

_WEIGHTS = ("w_q", "w_k", "w_v")


def batched_draft(document: Document, reading: Reading, title: str) -> Draft | None:
    """The draft of a page whose input is a batch its numbers explain, else None."""
    seen = list(reading.seen)
    fit = batched_fit([s.item for s in seen], [s.role for s in seen])
    if fit is None:
        return None
    draft = Draft(document.name, title)
    x = seen[fit.x]
    batch, length, width = x.item.full_shape
    draft.set(
        "x",
        [plain(matrix) for matrix in x.item.matrices],
        f"{x.where}: a batch of {batch} sequences of {length} tokens, E = {width}",
        name=x.name or "X",
        where=(x.where,),
    )
    _layout(draft, fit)
    for role, index in zip(_WEIGHTS, fit.weights):
        w = seen[index]
        said = f"{w.where}: the printed numbers use it as {role.upper()}"
        draft.set(
            f"weights.{role}", plain(w.item.rows), said, name=w.name or role, where=(w.where,)
        )
    draft.claims = _claims(fit.steps, seen)
    draft.inferred = _said(fit.steps, seen, (fit.x, *fit.weights))
    return draft


def weighed_draft(document: Document, reading: Reading, title: str) -> Draft | None:
    """The draft of a batch of values weighed by printed weights (``wei @ x``), else None."""
    seen = list(reading.seen)
    x = next((i for i, s in enumerate(seen) if sequences(s.item)), None)
    found = weighed_batch([s.item for s in seen], x) if x is not None else None
    if found is None:
        return None
    draft = Draft(document.name, title)
    a, v = seen[found.weights], seen[found.v]
    said = f"{a.where}: printed weights; the later prints are these weights times each element"
    draft.set("attention_weights", plain(a.item.rows), said, name=a.name, where=(a.where,))
    batch = f"{v.where}: a batch of {v.item.full_shape[0]} sequences, the values weighed"
    values = [plain(matrix) for matrix in v.item.matrices]
    draft.set("v", values, batch, name=v.name, where=(v.where,))
    draft.claims = _claims(found.steps, seen)
    draft.inferred = _said(found.steps, seen, (found.v, found.weights))
    return draft


def _layout(draft: Draft, fit: Fit) -> None:
    how = f"the printed results follow {fit.heads} head{'s' if fit.heads > 1 else ''}"
    draft.set("heads", fit.heads, how)
    draft.set("layout", "fused", "Q, K and V are cut into heads column-wise")
    draft.set("convention", fit.convention, f"the printed products follow {fit.convention}")
    scale = "sqrt_dk" if fit.scaled else "none"
    draft.set("scale", scale, f"the printed results follow scale {scale}")


def _claims(steps: Sequence[Step], seen: list[Seen]) -> list[Value]:
    """One claim per step key (a row printed twice is claimed where it is printed first)."""
    out: dict[str, Value] = {}
    for step in steps:
        s = seen[step.item]
        value = rows_text(step.rows)
        source = f"{s.where}: {s.name}"
        out.setdefault(step.key, Value(step.key, value, source, name=s.name, where=(s.where,)))
    return list(out.values())


def _said(steps: Sequence[Step], seen: list[Seen], inputs: Sequence[int]) -> list[Phrase]:
    """One line per array: the inputs, then each print and its step."""
    lines = [phrase("infer.input", array=_head(seen[i])) for i in inputs]
    by_item: dict[int, list[Step]] = {}
    for step in steps:
        by_item.setdefault(step.item, []).append(step)
    for index, steps in by_item.items():
        key = _batch_key(steps[0])
        printed = seen[index].item
        slips = tuple(f"[{i},{j}]" for step in steps for i, j in step.slips)
        verdict = (
            phrase("infer.slips", entries=joined("infer.entries", slips))
            if slips
            else phrase("infer.holds", digits=_decimals(printed))
        )
        lines.append(
            phrase("infer.batched", array=_head(seen[index]), key=code(key), verdict=verdict)
        )
    return lines


def _batch_key(step: Step) -> str:
    """The step a print is: ``b1.head1.scores`` for one element's, ``head{i}.scores`` for a
    print of the whole batch (every element and head)."""
    if not step.whole:
        return step.key
    step_key = step.key.split("[")[0].split(".", 1)[1]
    if step_key.startswith("head"):
        return "head{i}." + step_key.split(".", 1)[1]
    return step_key


def _head(s: Seen) -> Phrase:
    shape = s.item.full_shape
    rows, cols = "x".join(str(n) for n in shape[:-1]), shape[-1]
    where = phrase("infer.at", where=s.where)
    if s.name and len(s.name) <= 24:
        return phrase("infer.named", where=where, name=code(s.name), rows=rows, cols=cols)
    return phrase("infer.unnamed", where=where, rows=rows, cols=cols)


def _decimals(item: Item) -> int:
    """The digits after the point the print shows (of the mantissa: 1.27e+00 shows 2)."""
    array = printed_array(0, item)
    return array.decimals if array is not None else 0
