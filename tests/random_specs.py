"""Small random integer weights in each layout, for tests that compare a compiled function
with the exact derivation (two heads of width 2 over a model width of 4)."""

from __future__ import annotations

from typing import Any

import numpy as np


def layout_weights(rng: np.random.Generator, layout: str, width: int = 4) -> dict[str, Any]:
    """`w_q`, `w_k`, `w_v` (and `w_o` when fused) with entries in -2..2, as nested lists."""
    if layout == "per_head":
        return {n: rng.integers(-2, 3, (2, width, 4)).tolist() for n in ("w_q", "w_k", "w_v")}
    if layout == "split":
        return {n: rng.integers(-2, 3, (2, 2, 2)).tolist() for n in ("w_q", "w_k", "w_v")}
    return {n: rng.integers(-2, 3, (width, width)).tolist() for n in ("w_q", "w_k", "w_v", "w_o")}
