"""What an example does to its weights after the softmax, read from the relations its numbers
follow: a 0/1 mask then each row over its sum (``weights_mask``: "causal" or the printed
matrix), and dropout (``dropout``: its rate and the pattern the printed zeros keep)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.infer import Inference
from mha_symbolic.extract.infer.relations import Node

Setting = Any  # "causal", a 0/1 matrix, or a dropout table; None: not done


def after_softmax(inference: Inference, members: Sequence[int]) -> tuple[Setting, Setting]:
    """(weights_mask, dropout) of a component's chosen relations (None when it has none)."""
    mask: Setting = None
    dropout: Setting = None
    for index in members:
        match = inference.chosen.get(index)
        for node in _below(match.node) if match is not None else ():
            if node.kind == "kept" and mask is None and node.pattern is not None:
                mask = "causal" if _causal(node.pattern) else _zero_one(node.pattern)
            if node.kind == "dropout" and dropout is None and node.pattern is not None:
                dropout = {"p": node.detail, "keep": _zero_one(node.pattern)}
    return mask, dropout


def _below(node: Node) -> list[Node]:
    """The node and every computed node under it."""
    out, pending = [], [node]
    while pending:
        current = pending.pop()
        if current.printed is None:
            out.append(current)
            pending.extend(current.operands)
    return out


def _causal(pattern: Any) -> bool:
    """Whether a 0/1 pattern keeps exactly each query's own and earlier keys (key j for query
    i when j <= i, as the spec's "causal" means)."""
    return bool((pattern == np.tril(np.ones(pattern.shape, dtype=bool))).all())


def _zero_one(pattern: Any) -> list[list[int]]:
    return [[int(bool(v)) for v in row] for row in pattern]


def set_after(draft: Draft, mask: Setting, dropout: Setting) -> None:
    """The draft's ``weights_mask`` and ``dropout`` as the numbers found them."""
    if mask is not None:
        kind = "causal" if mask == "causal" else "a printed 0/1 mask"
        draft.set("weights_mask", mask, f"the printed weights are masked after the softmax: {kind}")
    if dropout is not None:
        said = f"dropout at p = {dropout['p']}: the printed zeros are the dropped weights"
        draft.set("dropout", dropout, said)
