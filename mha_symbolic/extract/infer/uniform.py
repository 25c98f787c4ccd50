"""Weights that are a plain average over the keys a causal mask leaves (the running mean of
``torch.tril(torch.ones(T, T))`` divided by its row sums, or the softmax of zero scores under the
mask): attention with no scores at all. Tried for every size the page prints square weights or
a square mask of; a weighted sum of them (each row the mean of the rows of V up to it) is then
found like any other."""

from __future__ import annotations

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.state import Search

MAX_SIZE = 64  # the largest sequence tried: a page prints no bigger running mean


def uniform_weights(found: Search) -> list[Node]:
    """The causal plain averages of the sizes of the page's square weights and masks."""
    sizes = sorted(
        {
            p.shape[0]
            for p in found.arrays
            if p.shape[0] == p.shape[1] and 2 <= p.shape[0] <= MAX_SIZE and p.index in found.results
        }
    )
    out = []
    for n in sizes:
        if not found.spend(2):
            break
        masked = rel.mask(rel.zeros(n), rel.causal(n, n))
        weights = rel.softmax(masked)
        if found.test(weights, probabilities=True):
            found.test(masked)  # 0 and -inf: the masked zeros, once the average is printed
        out.append(weights)
    return out


def zero_sizes(node: Node) -> set[int]:
    """The sizes of the zero scores a value is computed from (none: a value of printed arrays)."""
    if node.kind == "zeros":
        return {node.shape[0]}
    return {size for o in node.operands for size in zero_sizes(o)}
