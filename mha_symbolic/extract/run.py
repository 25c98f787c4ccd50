"""From a document to drafts: one per worked example, each validated as a spec, its scale chosen
by the text or by the printed numbers, its claims placed on the derivation's step keys."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.extract import assemble
from mha_symbolic.extract.apart import apart
from mha_symbolic.extract.batch_draft import batched_draft, weighed_draft
from mha_symbolic.extract.by_numbers import Example, by_numbers
from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.example_groups import by_example
from mha_symbolic.extract.facts import Facts, read_facts
from mha_symbolic.extract.foreign_entries import foreign_entries
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.indexed_vectors import stacked_vectors
from mha_symbolic.extract.misfit_words import misfit
from mha_symbolic.extract.other_readings import Build, with_failed
from mha_symbolic.extract.own_scale import other_scale
from mha_symbolic.extract.page_examples import built_drafts, placed_groups, with_reprints
from mha_symbolic.extract.partials import place_partials
from mha_symbolic.extract.parts import numbers, parts
from mha_symbolic.extract.place import (
    agreeing,
    numbers_placed,
    place_claims,
    step_key,
    undecidable,
)
from mha_symbolic.extract.plain_average import zero_stage
from mha_symbolic.extract.reading import Reading, Seen, read
from mha_symbolic.extract.row_lines import row_lines
from mha_symbolic.extract.single_precision import mark_float32
from mha_symbolic.extract.softmax_calls import called_softmax
from mha_symbolic.extract.temperature_tables import temperature_tables
from mha_symbolic.extract.token_lines import token_lines
from mha_symbolic.extract.token_products import token_products
from mha_symbolic.extract.unfit import unfit
from mha_symbolic.extract.weights_after import set_after
from mha_symbolic.extract.word_rows import word_rows
from mha_symbolic.language.extract_phrases import Phrase, phrase
from mha_symbolic.model.program import build as program_of
from mha_symbolic.spec import bounds
from mha_symbolic.spec.attention import AttentionSpec

NO_NUMBERS = "the document prints no numbers: nothing to check"  # [extract.notes] no_numbers
_TITLE = re.compile(r"^\s*#+\s*(.+?)\s*$")
_ATTENTION = re.compile(r"attention|softmax|\bW_?\{?[QKV]|\bQK|query|queries", re.I)


def drafts(document: Document) -> list[Draft]:
    """One draft per worked example of the document (a new, different X starts another)."""
    if not any(_ATTENTION.search(line.text) for line in document.lines):
        raise SpecError(
            "no attention here: no softmax, query/key/value, W_Q or attention is mentioned",
            source=document.name,
        )
    reading = read(document)
    batched = batched_draft(document, reading, _title(document, 1, 1))
    if batched is not None:  # a batch of sequences its numbers explain: one draft for all
        _printed_inputs(batched)
        return [batched]
    weighed = weighed_draft(document, reading, _title(document, 1, 1))
    if weighed is not None:  # a batch weighed by printed weights: an example of its own
        _printed_inputs(weighed)
    try:
        out = _page_drafts(document, reading)
    except SpecError:
        if weighed is None:
            raise
        return [weighed]
    return [*out, weighed] if weighed is not None else out


def _page_drafts(document: Document, reading: Reading) -> list[Draft]:
    """The drafts of the page's examples that the relation search finds; a step an example
    prints again with other digits, judged again in a copy of that example."""
    lines = [line.text for line in document.lines]
    seen = token_products(
        word_rows(stacked_vectors(token_lines(row_lines(reading.seen))), lines), reading.tokens
    )
    reading = replace(reading, seen=tuple(_token_rows(_subscript_rows(seen))))
    seen, examples, groups, stopped = _searched(document, reading)
    reading = replace(reading, seen=tuple(seen))
    groups = placed_groups(groups, examples)

    def build(number: int, count: int) -> Build:
        title = _title(document, number, count)
        return functools.partial(build_draft, document, reading, title=title)

    built, failed = built_drafts(groups, examples, read_facts(document), build, _fit)
    return with_failed(with_reprints(built, _values), failed, stopped)


def _values(draft: Draft, seen: list[Seen]) -> dict[str, object]:
    return {s.key: s.value for s in _derived(draft, seen).steps}


def _searched(
    document: Document, reading: Reading
) -> tuple[list[Seen], list[Example], list[tuple[list[Seen], Example | None]], Phrase | None]:
    """Each part of the page (one printed input and what follows it) searched on its own:
    the arrays with the roles their numbers give, the examples found, the groups of arrays
    one draft each (with its example when the numbers found several), and the sentence
    saying the search stopped at its bound."""
    seen: list[Seen] = []
    examples: list[Example] = []
    groups: list[tuple[list[Seen], Example | None]] = []
    stopped = None
    for part in parts(reading.seen, [line.text for line in document.lines]):
        decided, found, note = by_numbers(document, [reading.seen[i] for i in part])
        decided = _token_rows(decided if found else _unfounded_results(decided))
        seen.extend(decided)
        examples.extend(found)
        cuts: list[tuple[list[Seen], Example | None]] = [*by_example(decided, found)]
        for cut, own in cuts or [(c, None) for c in apart(decided, found)]:
            split = [g for g in split_examples(cut) if g]
            groups.extend((g, own if len(split) == 1 else None) for g in split)
        stopped = stopped or note
    return seen, examples, temperature_tables(called_softmax(groups)) or [([], None)], stopped


_RESULTS = ("head.output", "output", "concat")
_GIVES = ("w_q", "w_k", "w_v", "w_o", "q", "k", "v", "scores", "scaled", "masked", "weights")


def _unfounded_results(seen: list[Seen]) -> list[Seen]:
    """A part where the numbers found no example and nothing that computes a result is printed
    (no weight, no Q, K or V, no scores or weights): a print named "Output" there would be
    judged against its input put through identity stand-ins, a comparison the page never
    made (a decoder's prediction printed next to its hidden state). It is left alone."""
    if any(s.role in _GIVES for s in seen):
        return seen
    return [
        replace(s, role="unnamed", names=(), printed=()) if s.role in _RESULTS else s for s in seen
    ]


def _token_rows(seen: list[Seen]) -> list[Seen]:
    """A one-row X that is a row of the X printed next ("I → [1, 0, 1, 0]" before the matrix),
    or else of the X printed before it (``x_2 = inputs[1]`` printed as 0.5500, 0.8700), is that
    token's row, not an example of one token."""
    out = list(seen)
    wholes = [i for i, t in enumerate(seen) if t.role == "x" and t.row is None]
    wholes = [i for i in wholes if len(seen[i].item.rows) > 1]
    for index, s in enumerate(seen):
        if s.role != "x" or s.row is not None or len(s.item.rows) != 1:
            continue
        after = [i for i in wholes if i > index]
        before = [i for i in wholes if i < index]
        whole = seen[after[0]] if after else seen[before[-1]] if before else None
        rows = [_numbers(r) for r in whole.item.rows] if whole else []
        if _numbers(s.item.rows[0]) in rows:
            out[index] = replace(s, row=rows.index(_numbers(s.item.rows[0])) + 1)
    return out


def _numbers(row: tuple[str, ...]) -> tuple[float, ...] | None:
    try:
        return tuple(float(e.replace("−", "-")) for e in row)
    except ValueError:
        return None


_SEQUENCE = ("x", "q", "k", "v")


def _subscript_rows(seen: Sequence[Seen]) -> list[Seen]:
    """``scores_2 = [0, 1, 1]`` on a page whose every matrix is one head's: the subscript is
    the token (row 2), not a second head. Only where no print of several rows carries a head
    number and a printed sequence (X, Q, K or V) has that many rows."""
    length = max((len(s.item.rows) for s in seen if s.role in _SEQUENCE), default=0)
    rows = [s for s in seen if s.head is not None and s.role not in _SEQUENCE and s.row is None]
    if length < 2 or not rows or any(len(s.item.rows) > 1 and _headed(s) for s in seen):
        return list(seen)
    if any(len(s.item.rows) > 1 or (s.head or 0) > length for s in rows):
        return list(seen)
    return [
        replace(s, head=None, row=s.head, names=tuple(f"{n.split(':')[0]}:" for n in s.names))
        if any(s is r for r in rows)
        else s
        for s in seen
    ]


def _headed(seen: Seen) -> bool:
    """Whether a print carries a head number, as read or in one of its names."""
    return seen.head is not None or any(name.partition(":")[2] for name in seen.names)


def split_examples(seen: Sequence[Seen]) -> list[list[Seen]]:
    """Cut before each printed X that differs from the X before it."""
    groups: list[list[Seen]] = [[]]
    current = None
    for s in seen:
        if s.role == "x" and s.row is None:
            value = numbers(s.item.rows)  # the code's 1.0 and its print's 1. are one X
            if current is not None and value != current:
                groups.append([])
            current = value
        groups[-1].append(s)
    return groups


def _title(document: Document, number: int, count: int) -> str:
    """The document's first heading, else its first line of prose (cut at its first sentence
    or 80 characters), else its file name."""
    heading = next((m.group(1) for line in document.lines if (m := _TITLE.match(line.text))), None)
    heading = heading or next((t for line in document.lines if (t := _prose(line.text))), None)
    base = re.sub(r"[*_`$]", "", heading).strip() if heading else f"From {document.name}"
    return base if count == 1 else f"{base} (example {number} of {count})"


def _prose(text: str) -> str | None:
    """A line of words (not code, a fence, front matter, markup or an equation), shortened."""
    line = text.strip()
    if line.startswith(("```", "---", "{", "<", "|", "$", "\\", "import ", "from ")):
        return None
    words = re.findall(r"[^\W\d_]{2,}", line)
    letters = sum(len(w) for w in words)
    if len(words) < 2 or letters * 2 < len(line.replace(" ", "")) or re.search(r"[=\[\]]", line):
        return None
    sentence = re.split(r"(?<=[.!?:])\s", line, maxsplit=1)[0].rstrip(".:")
    return sentence if len(sentence) <= 80 else sentence[:80].rsplit(" ", 1)[0] + " …"


def build_draft(
    document: Document,
    reading: Reading,
    facts: Facts,
    seen: list[Seen],
    title: str,
    found: Sequence[Example] = (),
) -> Draft:
    draft = Draft(document.name, title)
    mark_float32(draft, document)  # before the numbers place rows: float32's rounding allowed
    set_after(draft, *next((e.after for e in found if e.after != (None, None)), (None, None)))
    averaged = max((e.zeros for e in found), default=0)
    length, width = zero_stage(draft, seen, averaged) or assemble.build_input(draft, seen, facts)
    if reading.tokens and len(reading.tokens) == length:
        draft.set("tokens", list(reading.tokens), "the labels of the token lines")
    complete = [e for e in found if e.complete]
    heads = assemble.build_heads(draft, seen, facts, width, complete[0].heads if complete else None)
    if not assemble.past_inputs(draft):  # no x: nothing is projected
        layout = assemble.build_layout(draft, seen, facts, heads, width)
        assemble.build_convention(draft, seen, facts, width, layout, heads)
        assemble.check_fit(draft, seen, width, heads, layout)
        body = "\n".join(line.text for line in document.lines)
        assemble.build_weights(draft, seen, facts, heads, layout, body)
    _found_mask(draft, found)
    _printed_inputs(draft)
    spec = _spec(draft, seen)
    assemble.output_projection(draft, seen, facts, _concat_width(spec))
    spec = _spec(draft, seen)  # with W_O as placed: it still builds
    _found_scale(draft, found)
    own = None if draft.get("scores") else other_scale(found, lambda: program_of(spec))
    if own is not None:  # the numbers follow another scale than 1/sqrt(d_k): what was computed
        draft.set("scale", own, f"the printed weights follow scale {own}, not 1/sqrt(d_k)")
        _placed(draft, seen, heads, _derived(draft, seen), True)
    else:
        _choose_scale(draft, seen, _numbers_over_words(facts, found), heads)
    place_partials(draft, document, seen, lambda: _derived(draft, seen))
    foreign_entries(draft, lambda: _values(draft, seen))
    unfit(draft)
    _check_shapes(draft, seen, heads)
    if not any(s.role != "shape" for s in seen) and not draft.claims:
        draft.notes.insert(0, phrase("notes.no_numbers"))
    return draft


def _found_mask(draft: Draft, found: Sequence[Example]) -> None:
    """The mask the printed numbers follow, and the number they print for -inf."""
    masked = next((e for e in found if e.mask is not None), None)
    if masked is None or draft.get("attention_weights") is not None:
        return  # no mask found, or the example starts after the softmax
    kind = "causal" if masked.mask == "causal" else "a printed 0/1 mask"
    draft.set("mask", masked.mask, f"the printed masked scores follow {kind}")
    if masked.fill is not None:
        draft.set("mask_fill", masked.fill, f"the masked scores print {masked.fill}, not -inf")


def _found_scale(draft: Draft, found: Sequence[Example]) -> None:
    """Scores given as printed have no d_k: the scale their printed results follow."""
    scaled = next((e for e in found if e.scale not in (None, "none")), None)
    if scaled is not None and draft.get("scores") is not None:
        draft.set("scale", scaled.scale, f"the printed scaled scores follow scale {scaled.scale}")
    if any(e.rounded for e in found) and not any(e.written for e in found):  # a page that
        # multiplies its matrices out by hand takes its inputs as the numbers it writes
        draft.set("inputs", "printed", "the printed results follow the inputs' rounded digits")


_GIVEN_KEYS = (
    *("x", "query", "key", "value", "q", "k", "v", "scores", "attention_weights"),
    *("weights.w_q", "weights.w_k", "weights.w_v", "weights.w_o"),  # random weights printed
)
_COMPUTED_DECIMALS = 4  # digits a hand-made example never sets: the print of a computed array


def _printed_inputs(draft: Draft) -> None:
    """Inputs printed to 4 decimals or more are a program's rounded print (random
    embeddings, computed Q): each stands for the interval its digits do, so that a result the
    page computed from the unrounded values is not called wrong for their rounding."""
    decimals = max((_decimals(draft.get(key)) for key in _GIVEN_KEYS), default=0)
    if decimals >= _COMPUTED_DECIMALS:
        draft.set(
            "inputs",
            "printed",
            f"the inputs are printed to {decimals} decimals: each stands for the interval "
            "its digits do",
        )


def _decimals(value: object) -> int:
    """The most decimals an entry of a (nested) list of printed numbers shows."""
    if isinstance(value, list):
        return max((_decimals(v) for v in value), default=0)
    found = isinstance(value, str) and re.fullmatch(r"-?\d*\.(\d+)(?:[eE][+-]?\d+)?", value.strip())
    return len(found.group(1)) if found else 0  # 3.1348e+01: 4, as a program prints it


def _spec(draft: Draft, seen: Sequence[Seen], with_claims: bool = False) -> AttentionSpec:
    try:
        return AttentionSpec.from_dict(draft.table(with_claims), source=draft.document)
    except SpecError:
        # the spec's own message names fields the page never wrote: say it in the page's terms
        heads = draft.get("heads")
        said = misfit(seen, heads if isinstance(heads, int) else 1)
        raise SpecError(
            f"the printed arrays do not fit together: {said}", source=draft.document
        ) from None


def _fit(draft: Draft, seen: list[Seen]) -> tuple[int, int]:
    """How many claimed entries the draft's derivation gives, and how many are claimed."""
    if not draft.claims:
        return 0, 0
    values = {s.key: s.value for s in _derived(draft, seen).steps}
    draft.undecidable = undecidable(draft, values)
    claims = [c for c in draft.claims if c.key.partition("[")[0] in values]  # not exp, sums
    claimed = sum(len(str(c.value).replace("[", " ").replace("]", " ").split(",")) for c in claims)
    return agreeing(claims, values), claimed


def _concat_width(spec: AttentionSpec) -> int:
    if spec.v is not None:
        return sum(v.cols for v in spec.v)
    count = 1 if spec.layout == "fused" else spec.heads
    return sum(spec.effective("w_v", head).cols for head in range(count))


def _derived(draft: Draft, seen: Sequence[Seen]) -> Derivation:
    spec = _spec(draft, seen)
    if bounds.derivation_cost(spec) > bounds.LARGE_SECONDS:
        raise SpecError(bounds.too_large(spec) or "too large", source=draft.document)
    return derive(spec)


def _numbers_over_words(facts: Facts, found: Sequence[Example]) -> Facts:
    """The text's word on scaling, unless the printed weights say otherwise: the softmax of
    unscaled scores where a remark says "scaled dot products" (or the reverse) is what the
    page computed, and the remark is left out."""
    said = next((e.scale for e in found if e.scale is not None), None)
    if said is None:
        return facts
    if said == "none" and facts.scaled and not facts.unscaled:
        return replace(facts, scaled=None)
    if said != "none" and facts.unscaled and not facts.scaled:
        return replace(facts, unscaled=None)
    return facts


def _choose_scale(draft: Draft, seen: Sequence[Seen], facts: Facts, heads: int) -> None:
    """The text's word on scaling; when it is silent, the scale the printed numbers follow."""
    if draft.get("scores") is not None or draft.get("attention_weights") is not None:
        d = _derived(draft, seen)  # past Q and K: the scores are the logits as printed
        _placed(draft, seen, heads, d, False)
        return
    if facts.unscaled:
        draft.set("scale", "none", f"{facts.unscaled}: the text says there is no scaling")
    elif facts.scaled:
        draft.set("scale", "sqrt_dk", f"{facts.scaled}: the scores are divided by sqrt(d_k)")
    if facts.unscaled or facts.scaled:
        d = _derived(draft, seen)
        _placed(draft, seen, heads, d, not facts.unscaled)
        return
    results = {}
    for scale in ("sqrt_dk", "none"):
        draft.set("scale", scale, "")
        d = _derived(draft, seen)
        place_claims(draft, seen, heads, {s.key: s.shape for s in d.steps}, scale != "none")
        after_scores = [c for c in draft.claims if _after_scores(c.key)]
        results[scale] = (
            agreeing(after_scores, {s.key: s.value for s in d.steps}),
            list(draft.claims),
            list(draft.assumed),
            list(draft.placing),
            list(draft.repeats),
            d,
        )
    best = "none" if results["none"][0] > results["sqrt_dk"][0] else "sqrt_dk"
    other = "sqrt_dk" if best == "none" else "none"
    if results[best][0] > results[other][0]:
        source = (
            f"the text does not say; {results[best][0]} printed numbers hold with scale {best}, "
            f"{results[other][0]} with {other}"
        )
        guess = None
    else:
        source = "the text does not say and the printed numbers do not decide: the usual sqrt(d_k)"
        guess = "none (no scaling) fits the printed numbers as well"
    draft.set("scale", best, source, guess=guess)
    draft.claims, draft.assumed, draft.placing, draft.repeats, chosen = results[best][1:]
    _numbers_placed(draft, seen, chosen)


def _placed(draft: Draft, seen: Sequence[Seen], heads: int, d: Derivation, scaled: bool) -> None:
    """The claims on the steps their names and rows say, then moved where the numbers say."""
    place_claims(draft, seen, heads, {s.key: s.shape for s in d.steps}, scaled)
    _numbers_placed(draft, seen, d)


def _numbers_placed(draft: Draft, seen: Sequence[Seen], d: Derivation) -> None:
    """Where the numbers put what the names could not place (or placed wrong)."""
    numbers_placed(draft, seen, {s.key: s.value for s in d.steps})


def _after_scores(key: str) -> bool:
    step = key.split("[")[0].rsplit(".", 1)[-1]
    return step in ("scaled", "weights", "output", "concat")


def _check_shapes(draft: Draft, seen: Sequence[Seen], heads: int) -> None:
    """Every shape the document states, against the derivation's or the weights'."""
    spec = _spec(draft, seen)
    d = derive(spec) if any(s.role == "shape" for s in seen) else None
    if d is None:
        return
    shapes = {s.key: s.shape for s in d.steps}
    otherwise: dict[str, list[int]] = {}  # weights whose stated shape the products do not use
    said: list[str] = []
    for s in seen:
        if s.role != "shape" or not s.names:
            continue
        stated = tuple(int(e) for e in s.item.rows[0])
        role, head = s.names[0].split(":")
        actual = _weight_shape(spec, role, head) if role.startswith("w_") else None
        if actual is None and not role.startswith("w_"):
            key = step_key(role, int(head) if head else s.head, heads, shapes)
            actual = shapes.get(key) if key else None
        else:
            key = f"weights.{role}"
        if actual is not None:
            mark = "as derived" if tuple(actual) == stated else f"but it is {actual}"
            draft.shapes.append(f"{s.where}: {s.name} {stated} -> {key} {mark}")
            # the first statement of each weight; a transposed print has its own key
            new = role not in otherwise and role not in draft.get("printed_transposed", [])
            if role.startswith("w_") and tuple(actual) != stated and new:
                otherwise[role] = list(stated)
                said.append(f"{s.name} ({s.where}) is stated {stated}, used {tuple(actual)}")
    if otherwise:
        draft.set("printed_shapes", otherwise, "; ".join(said))


def _weight_shape(spec: AttentionSpec, role: str, head: str) -> tuple[int, int] | None:
    if role not in spec.weights:
        return None
    index = int(head) - 1 if head and spec.layout != "fused" else 0
    matrices = spec.weights[role]
    matrix = matrices[min(index, len(matrices) - 1)]
    return (matrix.rows, matrix.cols)
