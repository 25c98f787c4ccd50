"""A key-padding mask read from printed weights: softmax weights printed later with entries
exactly 0 (``0.0000``, ``0.``) where the softmax of the scores would print more than 0 are a
mask that blocked those keys (``masked_fill(mask, -1e9)`` of a padded sequence). The page
never prints that mask, so it is taken from where the weights print zeros, and every other
entry must still be the softmax of the unblocked scores."""

from __future__ import annotations

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Node

_ZERO = 5e-3  # half a unit of the last digit at most: zeros printed to 2 decimals or more


def padding_masks(printed: list[Printed], scores: Node) -> list[np.ndarray]:
    """Each distinct pattern of zeros (the same keys in every row, printed to 2 decimals or
    more) of the probabilities of the scores' shape printed after them that the softmax of
    the unmasked scores does not give; none when masked scores of that shape are printed (the
    mask is read from them) or the scores are already masked."""
    if any(p.has_mask for p in printed) or not scores.finite:
        return []
    unmasked: np.ndarray | None = None  # the softmax, once a print could need it
    out: list[np.ndarray] = []
    for p in printed:
        if p.index <= scores.last or p.item.columns_at or not rel.is_distribution(p):
            continue
        allowed = p.mid != 0
        if allowed.all() or not (allowed == allowed[:1]).all() or not allowed[0].any():
            continue  # the same keys blocked for every query: padding, not a pattern
        if (p.rad[~allowed] > _ZERO).any():
            continue  # a zero to one or no decimal ("0.0") may be a small weight rounded
        if unmasked is None:
            unmasked = rel.softmax(scores).mid
        if (unmasked[~allowed] <= p.rad[~allowed]).all():
            continue  # zeros the softmax of the scores prints as they are need no mask
        if not any((allowed == seen).all() for seen in out):
            out.append(allowed)
    return out
