"""The numbers first: the arrays a document prints (token rows stacked into their matrix) go
through the relation search, and every array the numbers explain takes the role and head the
numbers give it, whatever its name; names only break ties and label. Arrays that belong to no
example are left alone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.infer import Inference, inferred, where_of
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.mapping import capped, said_lines, spec_scale
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.role_tables import AFTER, ATTENTION, NO_STEP
from mha_symbolic.extract.infer.scalings import stated_roots
from mha_symbolic.extract.infer.softmax_parts import unclaimed_parts
from mha_symbolic.extract.infer.uniform import zero_sizes
from mha_symbolic.extract.infer.variants import split_variants
from mha_symbolic.extract.items import Item
from mha_symbolic.extract.more_roles import also_as, projecting
from mha_symbolic.extract.named_keys import query_of_named_keys
from mha_symbolic.extract.other_settings import other_setting
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.single_precision import single_precision
from mha_symbolic.extract.softmax_arguments import (
    PROJECTED,
    as_identity,
    given_scores,
    printed_floats,
)
from mha_symbolic.extract.weight_sums import weight_sums
from mha_symbolic.extract.weights_after import Setting, after_softmax
from mha_symbolic.extract.weights_plausible import no_weights, not_weights
from mha_symbolic.language.extract_phrases import Phrase

_CLAIMS = {
    "head.x", "q", "k", "v", "scores", "scaled", "softmax_argument", "masked", "weights",
    "head.output", "concat", "output", "exp", "exp_sums", *AFTER,
}  # fmt: skip
_INPUTS = {"x", "w_q", "w_k", "w_v", "w_o"}
_RESULTS = ATTENTION | {"concat", "output"}  # steps no input is printed alike by chance
_NAMED = _CLAIMS | _INPUTS


@dataclass(frozen=True)
class Example:
    """One example the numbers found: the lines it spans, its heads and what was inferred."""

    first: int  # first and last line (0-based) of its arrays
    last: int
    heads: int
    complete: bool  # its weights or head outputs are among its arrays
    said: tuple[Phrase, ...]
    mask: str | list[list[int]] | None = None  # "causal" or the printed 0/1 matrix
    fill: str | None = None  # the printed fill of masked scores when it is not -inf
    scale: str | None = None  # the scale its relations apply, as a spec writes it ("none", "1/2")
    rounded: bool = False  # its relations hold only with the printed inputs taken as rounded
    seen: tuple[int, ...] = ()  # the positions of its arrays among the arrays searched
    parent: int = 0  # the component it was cut from: examples of one are settings of one page
    after: tuple[Setting, Setting] = (None, None)  # weights_mask and dropout (weights_after)
    zeros: int = 0  # the size of the zero scores its weights average over (0: none)
    written: bool = False  # the page writes a product of it out (A B = C) that its numbers miss


def _averaged(inference: Inference, index: int) -> set[int]:
    """The zero scores an array's weights average over (a print of the masked zeros alone, a
    mask, is no average)."""
    match = inference.chosen.get(index)
    return zero_sizes(match.node) if match is not None and match.node.kind != "mask" else set()


def by_numbers(
    document: Document, seen: list[Seen]
) -> tuple[list[Seen], tuple[Example, ...], Phrase | None]:
    """The arrays with the roles their numbers give, the examples found, and the sentence
    saying that the search stopped at its bound (None when it did not)."""
    groups = _arrays(seen)
    items = [_stacked([seen[i] for i in group]) for group in groups]
    names = {n: seen[group[0]].role for n, group in enumerate(groups)}
    names = {n: role for n, role in names.items() if role in _NAMED}
    body = find_items(document)[0].body  # the page's lines joined, read once (and cached)
    inference = inferred(items, names, single_precision(document), stated_roots(body), body)
    _printed_again(inference)
    _first_print_of(inference, names)
    _weighted_values(inference)
    query_of_named_keys(inference, names)
    _scores_again(inference, given_scores(inference, names), names)
    unclaimed_parts(inference)
    parents = split_variants(inference)
    where = where_of(document, items)
    factors = inference.search.factors  # named by the equation's result: no name of theirs
    labels = {n: "" if n in factors else _label(seen[g[0]].name) for n, g in enumerate(groups)}
    examples = []
    for number, members in enumerate(inference.components):
        lines = [items[i].line for i in members]
        said = said_lines(inference, members, labels, where)
        roles = {inference.roles.get(i) for i in members}
        examples.append(
            Example(
                min(lines),
                max(lines),
                inference.head_count[number],
                bool(roles & {"weights", "head.output"}),
                tuple(said),
                *_mask(inference, members),
                _scale(inference, members),
                inference.rounded_in(members),
                tuple(i for n in members for i in groups[n]),
                parents[number],
                after_softmax(inference, members),
                max((size for i in members for size in _averaged(inference, i)), default=0),
                any(i in inference.chosen and inference.chosen[i].fit.written for i in members),
            )
        )
    note = capped(inference)
    if note is not None and examples:
        first = examples[0]
        examples[0] = replace(first, said=(note, *first.said))
    out = _roles(document, seen, groups, inference, examples)
    return _unrelated_input(out, groups, inference), tuple(examples), note


def _roles(
    document: Document,
    seen: list[Seen],
    groups: list[list[int]],
    inference: Inference,
    examples: list[Example],
) -> list[Seen]:
    """Each array with the role the numbers give it (``_decided``), or none: numbers that
    cannot be weights, a first try with another scale, a factor of a product written out
    (whose numbers, not the equation's name, say what it is)."""
    out = list(seen)
    other = _other_scale(inference) | _by_columns(inference) | _printed_masks(inference)
    other |= other_setting(seen, groups, inference)
    factors = inference.search.factors
    masked = _masked_weights(inference)
    for n, group in enumerate(groups):
        for i in group:
            if n in factors:
                out[i] = replace(out[i], role="unnamed", name="", names=(), printed=())
            given = not examples or n not in inference.chosen  # no relation gives it
            before = [out[groups[n - 1][-1]]] if n else []  # the array printed just before
            alone = (given and not_weights(document, out[i])) or no_weights(out[i], before)
            alone = alone and n not in masked
            out[i] = _decided(out[i], n, inference, examples, alone)
            if no_weights(out[i], before) and not (
                (n in inference.chosen and _is_softmax(inference, n)) or n in masked
            ):
                out[i] = replace(out[i], role="unnamed", names=(), printed=())  # [1, 1, 3]
            if n in other:  # a first try with another scale: one spec has one scale
                out[i] = replace(out[i], role="unnamed", names=(), printed=())
    return out


def _other_scale(inference: Inference) -> set[int]:
    """Softmax weights (or masked scores) of one example computed with a scale other than
    that of its last ones ("without the scale" first, then divided by √d_k)."""
    out: set[int] = set()
    for members in inference.components:
        last = inference.scale_in(members)
        for index in members:
            masked = index in inference.chosen and inference.chosen[index].node.kind == "mask"
            weights = index in inference.chosen and _is_softmax(inference, index)
            if (weights or masked) and inference.scaling(index) != last:
                out.add(index)
    return out


def _by_columns(inference: Inference) -> set[int]:
    """A softmax down the columns that nothing multiplies: a softmax function's own example
    (Julia's ``dims = 1``), not attention weights; one that weighs values is a slip to judge."""
    used = {
        operand.printed.index
        for match in inference.chosen.values()
        if match.node.kind in ("product", "product_t")
        for operand in match.node.operands
        if operand.printed is not None
    }
    return {
        index
        for index, match in inference.chosen.items()
        if match.node.kind == "softmax_cols" and index not in used
    }


def _is_softmax(inference: Inference, index: int) -> bool:
    return inference.chosen[index].node.kind.startswith("softmax")


def _masked_weights(inference: Inference) -> set[int]:
    """Weights printed already masked, whose rows a chosen relation divides by their sums:
    rows that no longer sum to 1 are what masking left of a softmax's rows."""
    out: set[int] = set()
    for match in inference.chosen.values():
        node = match.node
        if node.kind == "renormalised" and node.operands[0].kind == "kept":
            printed = node.operands[0].operands[0].printed
            if printed is not None:
                out.add(printed.index)
    return out


def _unrelated_input(seen: list[Seen], groups: list[list[int]], inference: Inference) -> list[Seen]:
    """An X that no relation ties to the printed scores, with no weight and no Q, K or V
    printed (random weights never shown): the example starts at the scores, X is left alone."""
    scores = [
        n
        for n, group in enumerate(groups)
        if seen[group[0]].role == "scores" and inference.component_of(n) is not None
    ]
    if not scores or any(s.role in PROJECTED for s in seen):
        return seen  # no printed scores to start at, or X is projected as printed
    out = list(seen)
    for n, group in enumerate(groups):
        first = seen[group[0]]
        if first.role != "x" or len(first.item.rows) < 2 or inference.component_of(n) is not None:
            continue
        x = printed_floats(seen[group[0]].item.rows)
        if x is None or any(as_identity(x, printed_floats(_rows(seen, groups[m]))) for m in scores):
            continue  # Q = K = V = X: X leads to the scores without weights
        for i in group:
            out[i] = replace(seen[i], role="unnamed", names=(), printed=())
    return out


def _rows(seen: list[Seen], group: list[int]) -> tuple[tuple[str, ...], ...]:
    return tuple(r for i in group for r in seen[i].item.rows)


def _printed_again(inference: Inference) -> None:
    """An array that prints an earlier one's numbers again (rounded again, or as a table
    and then as a tensor) is the same step: it takes that array's role and head, over the
    role its own name says when that only names the scores loosely ("Scores S" over a table
    of the scaled scores) and the numbers gave the first print's."""
    for index in sorted(inference.chosen):
        source = inference.first_print(index)
        if source is None or source not in inference.roles:
            continue
        if index in inference.roles and not _loosely_named(inference, index, source):
            continue
        inference.roles[index] = inference.roles[source]
        if source in inference.heads:
            inference.heads[index] = inference.heads[source]
        if source in inference.strong:
            inference.strong.add(index)


_SCORES = frozenset(("scores", "scaled", "masked"))  # steps a name ("S", "Scores") mixes up
_WEIGHTS = frozenset(("weights", "renormalised"))  # renormalised weights are weights by name


def _scores_again(inference: Inference, given: set[int], names: dict[int, str]) -> None:
    """Prints again of the scores given as printed are the scores, also where a name calls
    them another step ("Scaled scores: [6, 2, -4] / 2 = [3, 1, -2]": the first array is the
    scores)."""
    for index in sorted(inference.chosen):
        named = inference.roles.get(index, names.get(index, "scaled"))
        if inference.first_print(index) in given and named in _SCORES:
            inference.roles[index] = "scores"
            inference.strong.add(index)


def _loosely_named(inference: Inference, index: int, source: int) -> bool:
    named, first = inference.roles[index], inference.roles[source]
    loose = {named, first} <= _SCORES or {named, first} <= _WEIGHTS
    return source in inference.strong and loose


def _first_print_of(inference: Inference, names: dict[int, str]) -> None:
    """A first print no relation explains whose reprint a relation does (weights
    renormalised by hand, then the same numbers from a softmax): the same step, in the same
    example."""
    arrays = inference.search.arrays
    for again, first in ((b.index, a.index) for a in arrays for b in arrays if _alike(a, b)):
        role, match = inference.roles.get(again), inference.chosen.get(again)
        if first in inference.chosen or role not in _RESULTS or match is None:
            continue
        if match.node.kind == "same" or names.get(first, role) != role:
            continue  # a third print of the same numbers, or an input's name says otherwise
        component = inference.component_of(again)
        if component is None or first in inference.roles:
            continue
        inference.roles[first] = inference.roles[again]
        inference.printed_later[first] = again
        inference.strong.add(first)
        if again in inference.heads:
            inference.heads[first] = inference.heads[again]
        inference.components[component] = sorted([*inference.components[component], first])


def _alike(first: Printed, again: Printed) -> bool:
    return (
        first.index < again.index
        and first.decimals > 0  # integers alike are an input's digits as often as a result's
        and first.shape == again.shape
        and first.decimals == again.decimals
        and bool((first.mid == again.mid).all())
    )


def _weighted_values(inference: Inference) -> None:
    """The values a product of the weights multiplies (A V, or A Vᵀ as a slip) are V, even
    when the weights are not rows of probabilities (a softmax down the columns)."""
    for match in inference.chosen.values():
        node = match.node
        if node.kind not in ("product", "product_t") or len(node.operands) != 2:
            continue
        weights, values = (o.printed for o in node.operands)
        if weights is None or values is None or values.index in inference.roles:
            continue
        if inference.roles.get(weights.index) == "weights":
            inference.roles[values.index] = "v"
            if weights.index in inference.heads:
                inference.heads[values.index] = inference.heads[weights.index]


def _mask(
    inference: Inference, members: Sequence[int]
) -> tuple[str | list[list[int]] | None, str | None]:
    """The mask a component's relations apply ("causal" or the printed 0/1 matrix), and the
    number its masked scores print in place of -inf (None: -inf, or none printed)."""
    for index in members:
        match = inference.chosen.get(index)
        step = match is not None and match.node.kind not in NO_STEP
        node = _mask_node(match.node) if match is not None and step else None
        if node is None:
            continue
        fill = _fill(inference, members)
        if node.detail == "causal":
            return "causal", fill
        if node.detail == "padding":
            return [[int(v > float("-inf")) for v in row] for row in node.mid], fill
        shown = node.operands[1].printed
        if shown is None:
            continue
        allowed = ~shown.masked if shown.masked.any() else shown.mid == 1
        return [[int(a) for a in row] for row in allowed], fill
    return None, None


def _scale(inference: Inference, members: list[int]) -> str | None:
    """The scale the example's relations apply, as a spec writes it ("none", "1/2")."""
    found = inference.scale_in(members)
    return spec_scale(found[1]) if found is not None else None


def _printed_masks(inference: Inference) -> set[int]:
    """Printed masks (0 and -inf, or 0/1) a chosen relation applies: given, never a step's claim
    whatever the words around them say ("the mask before the softmax")."""
    out = set()
    for match in inference.chosen.values():
        node = _mask_node(match.node) if match.node.kind not in NO_STEP else None
        shown = node.operands[1].printed if node is not None and len(node.operands) > 1 else None
        if shown is not None:
            out.add(shown.index)
    return out


def _mask_node(node: Node) -> Node | None:
    if node.kind == "mask":
        return node
    return next((m for o in node.operands if (m := _mask_node(o)) is not None), None)


def _fill(inference: Inference, members: Sequence[int]) -> str | None:
    """A finite fill (-1e9) the masked scores print, as printed."""
    for printed in inference.search.arrays:
        if printed.index in members and printed.fill and printed.masked.any():
            text = printed.fill.replace("−", "-")
            if not re.search(r"inf|∞", text):
                return text
    return None


def _label(name: str) -> str:
    """A name short enough to be a name (not a heading's sentence)."""
    return name if len(name) <= 24 else ""


def _arrays(seen: Sequence[Seen]) -> list[list[int]]:
    """Each printed array once: a matrix, or token rows 1..n of one name stacked."""
    groups: list[list[int]] = []
    for index, s in enumerate(seen):
        if s.col is not None or s.role in ("shape", "operand"):
            continue
        last = seen[groups[-1][-1]] if groups else None
        if (
            last is not None
            and s.row is not None
            and last.row == s.row - 1
            and (last.role, last.head) == (s.role, s.head)
            and len(s.item.rows) == 1
            and len(last.item.rows[0]) == len(s.item.rows[0])
        ):
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _stacked(rows: list[Seen]) -> Item:
    first = rows[0].item
    if len(rows) == 1:
        return first
    stacked = tuple(r for s in rows for r in s.item.rows)
    return replace(first, rows=stacked, end=rows[-1].item.end)


def _decided(
    s: Seen, n: int, inference: Inference, examples: list[Example], alone: bool = False
) -> Seen:
    """The role the numbers give, or the name's role inside an example, or none at all
    (``alone``: what the name says, the numbers contradict)."""
    role = inference.roles.get(n)
    component = inference.component_of(n)
    if _no_step(inference, n):
        sums = weight_sums(
            s, n, inference, [e.heads for e in examples]
        )  # "tensor([1., 1., 1.])": a check of A
        return sums or replace(s, role="unnamed", names=(), printed=())
    # Numbers overrule a name with the relation that gives an array; as an operand it keeps
    # the role its name says.
    decisive = n in inference.strong or s.role not in _NAMED
    if len(s.item.rows) == 1 and role in _INPUTS:
        decisive = False  # a weight is a matrix: one row is an input only by its name
    if component is not None and role in _NAMED and decisive:
        heads = examples[component].heads
        if heads == 1 and {role, s.role} <= {"head.output", "concat", "output"}:
            role = s.role  # one head: its output is the layer's (the name says which it is)
        head = inference.heads.get(n) if heads > 1 else None
        if head is None and role not in ("x", "w_o", "concat", "output"):
            head = s.head  # one chain found: the name may still say which head it is
        if heads == 1 and len(s.item.rows) == 1 and s.row_from and _numbered(s):
            # "weights_2 = [...]" read as head 2, and as row 2 from "query_2" a line above: one
            # head, and the row its numbers give
            head, s = None, replace(s, row=None, row_from="")
        also = projecting(inference, n, role)
        if role == s.role and head == s.head:
            return also_as(s, also)
        tags = tuple(f"{r}:{head or ''}" for r in also)
        return replace(s, role=role, head=head, names=tags, printed=(s.name,))
    if s.role in _CLAIMS and (alone or (examples and not _after(s, examples))):
        return replace(s, role="unnamed", names=(), printed=())  # no example's: left alone
    if s.role in _NAMED and s.item.batch_shape and component is None:
        return replace(s, role="unnamed", names=(), printed=())  # a batch is not one sequence
    return also_as(s, projecting(inference, n, s.role)) if component is not None else s


def _numbered(s: Seen) -> bool:
    """The name ends in the head number it was read with, which is also the row a line above
    names ("attention_weights_2" under "omega_2 = query_2 @ keys.T")."""
    return s.row == s.head and s.name.rstrip().endswith(f"_{s.head}")


def _no_step(inference: Inference, n: int) -> bool:
    """Whether the numbers (or those it prints again) are no step of attention: the row sums
    of weights, never to be claimed whatever the name or heading above them says."""
    source = inference.first_print(n)
    match = inference.chosen.get(n if source is None else source)
    return match is not None and match.node.kind in NO_STEP


def _after(s: Seen, examples: Sequence[Example]) -> bool:
    """Whether a named array stands within an example or after it (a result the numbers do
    not explain: a wrong one, to be judged by its name)."""
    return any(e.first <= s.item.line for e in examples)
