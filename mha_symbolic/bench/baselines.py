"""The hand-written attention the compiled functions are timed against."""

from __future__ import annotations

import math
from typing import Any


def numpy_mha(x: Any, w_q: Any, w_k: Any, w_v: Any, w_o: Any, heads: int) -> Any:
    """Multi-head self-attention written directly in NumPy: the baseline of the compile
    benchmark. Batched heads, stable softmax, PyTorch's (out x in) weights, dtype kept."""
    import numpy as np

    *batch, length, width = x.shape
    d = width // heads

    def split(t: Any) -> Any:  # (..., L, E) -> (..., h, L, d)
        return t.reshape(*batch, length, heads, d).swapaxes(-2, -3)

    q, k, v = (split(x @ w.T) for w in (w_q, w_k, w_v))
    scores = q @ k.swapaxes(-1, -2) * (1 / math.sqrt(d))  # (..., h, L, L)
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = exps / exps.sum(axis=-1, keepdims=True)
    merged = (weights @ v).swapaxes(-2, -3).reshape(*batch, length, width)
    return merged @ w_o.T


def fused_spec(width: int, heads: int) -> Any:
    """The compile benchmarks' spec: PyTorch's fused layout of ``width``, weights given at
    call time (W_O zero here: only its shape matters)."""
    import numpy as np

    from mha_symbolic.spec.attention import AttentionSpec

    return AttentionSpec(
        x=[[0] * width],
        heads=heads,
        layout="fused",
        convention="xWT",
        weights={"w_o": np.zeros((width, width), dtype=int)},
    )
