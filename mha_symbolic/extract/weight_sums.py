"""The row sums of the weights a page prints to show that each row sums to 1
(``attn.sum(dim=-1)`` -> ``tensor([1., 1., 1.])``): found by the numbers as the sums of an
example's weights, claimed on ``head{n}.weight_sums`` (one row, as such a sum prints); and the
row sums of the weights masked after the softmax, printed to show they no longer do
(``head{n}.kept_sums``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.extract.infer.graph import Inference
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.reading import Seen

ROLE = "weight_sums"
KEPT = "kept_sums"


def weight_sums(s: Seen, n: int, inference: Inference, heads: Sequence[int]) -> Seen | None:
    """``s`` as the row sums of its example's weights (``heads``: each example's head count),
    or None when the numbers do not say whose weights they sum (several heads, a batch, sums
    printed as several rows)."""
    match = inference.chosen.get(n)
    component = inference.component_of(n)
    if match is None or match.node.kind != "sums" or component is None:
        return None
    if match.target.shape[0] != 1 or s.item.batch_shape:
        return None
    weights = match.node.operands[0]
    printed = weights.printed
    said = inference.roles.get(printed.index) if printed is not None else None
    role = KEPT if weights.kind == "kept" or said == "kept" else ROLE
    if printed is not None and said not in ("weights", "kept"):
        return None  # the sums of another distribution than the example's weights
    if printed is None and role == ROLE and not _softmax_of_scores(weights, inference):
        return None
    head = inference.heads.get(printed.index) if printed is not None else None
    if head is None and heads[component] == 1:
        head = 1
    if head is None:
        return None
    return replace(s, role=role, head=head, names=(f"{role}:{head}",), printed=(s.name,))


_SCORES = frozenset({"scores", "scaled", "masked", "softmax_argument"})


def _softmax_of_scores(node: Node, inference: Inference) -> bool:
    """Whether a computed value is a softmax of the example's scores (printed as its scores,
    or Q Kᵀ computed): not a softmax of any other printed matrix (an input, a weight)."""
    if not node.kind.startswith("softmax"):
        return False
    below = node.operands[0]
    while below.printed is None and below.kind in ("scale", "mask", "row") and below.operands:
        below = below.operands[0]
    if below.printed is not None:
        return inference.roles.get(below.printed.index) in _SCORES
    return below.kind == "product_t"
