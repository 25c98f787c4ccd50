"""Scores given directly (``scores``): a document that prints each head's Q K^T but not Q and K.

The softmax, the heads' outputs and what follows are then computed from the given scores and
the values (``x`` projected by ``w_v``, as usual). Q and K are not known, so neither is d_k:
the scale is ``none`` (the scores are the logits) unless a factor is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import exact_numbers as exact


def read_scores(raw: Mapping[str, Any], heads: int, rows: int, cols: int) -> tuple[Any, ...]:
    """One (rows x cols) matrix per head from ``scores``: a list of ``heads`` matrices, or
    one matrix when there is one head."""
    given = raw["scores"]
    if _depth(given) == 2 and heads == 1:
        given = [given]
    if _depth(given) != 3 or len(given) != heads:
        raise SpecError(
            f"scores must be a list of {heads} matrices (one per head), each {rows}x{cols}"
        )
    matrices = tuple(exact.to_matrix(m, f"scores[{n}]") for n, m in enumerate(given, start=1))
    for n, matrix in enumerate(matrices, start=1):
        if matrix.shape != (rows, cols):
            raise SpecError(
                f"scores[{n}] has shape {matrix.shape} but the attention has {rows} queries and "
                f"{cols} keys: ({rows}, {cols})"
            )
    return matrices


def check_scores_spec(raw: Mapping[str, Any]) -> None:
    """What cannot go with given scores: Q's and K's weights, the sqrt(d_k) scale (the
    operations that act on Q and K refuse them in their own readers)."""
    weights = raw.get("weights", {})
    used = [
        name
        for name in ("w_q", "w_k", "b_q", "b_k")
        if isinstance(weights, Mapping) and name in weights
    ]
    if used:
        raise SpecError(f"scores are given, so {used[0]} (for Q and K) is not used; remove it")
    if raw.get("scale") == "sqrt_dk":
        raise SpecError(
            'scores are given without Q and K, so d_k is not known: give scale = "none" (the '
            'scores are the logits) or the factor, e.g. scale = "1/sqrt(64)"'
        )


def _depth(value: Any) -> int:
    if hasattr(value, "ndim"):
        return int(value.ndim)
    return 1 + _depth(value[0]) if isinstance(value, (list, tuple)) and value else 0
