"""The LLaMA-style row of `mha-symbolic bench --only scale`: a layer with rotary embeddings,
grouped-query attention, a causal mask and no biases (float32 weights read in binary), derived
and every output enclosed to 50 digits, beside its target (judged on CPU time, which a loaded
machine disturbs less than wall-clock time; FLINT works in this process, on one thread)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from mha_symbolic.bench.model_scale import DIGITS
from mha_symbolic.bench.timing import cpu_seconds
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.spec.attention import AttentionSpec

LLAMA = (256, 4096, 32, 8)  # (L, E, query heads, key/value heads): a LLaMA-7B-wide layer
QUICK = (16, 256, 8, 2)
TARGET = 60.0  # seconds for derive and enclose, the target at full size


def llama_arrays(length: int, width: int, heads: int, kv: int, seed: int = 0) -> dict[str, Any]:
    """float32 input and weights in torch's (out x in) layout, entries about 1/sqrt(fan-in)
    like trained ones; the key and value projections have ``kv`` heads' rows."""
    import numpy as np

    rng = np.random.default_rng(seed)
    shared = kv * (width // heads)

    def f(*shape: int) -> Any:
        return (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)

    return {
        "x": f(length, width),
        "w_q": f(width, width),
        "w_k": f(shared, width),
        "w_v": f(shared, width),
        "w_o": f(width, width),
    }


def llama_spec(arrays: dict[str, Any], heads: int, kv: int) -> AttentionSpec:
    """The layer as a user writes it: RoPE (base 10000, rotate-half), ``kv`` key/value heads,
    causal, torch's weight layout, no biases, every float its exact binary value."""
    weights = {name: arrays[name] for name in ("w_q", "w_k", "w_v", "w_o")}
    return AttentionSpec(
        x=arrays["x"],
        heads=heads,
        kv_heads=kv,
        layout="fused",
        convention="xWT",
        mask="causal",
        rope=True,
        floats="binary",
        weights=weights,
    )


def _seconds(run: Callable[[], Any]) -> tuple[tuple[float, float], Any]:
    """(wall-clock, CPU) seconds of ``run()``, and its result; CPU counts the worker
    processes the enclosure forks (see :mod:`mha_symbolic.exact.head_pool`) too."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = run()
    return (time.perf_counter() - wall, cpu_seconds() - cpu), result


def bench_llama(quick: bool = False) -> Iterator[str]:
    length, width, heads, kv = QUICK if quick else LLAMA
    yield (
        f"LLaMA-style layer: RoPE, {heads} query heads sharing {kv} key/value heads, causal, "
        f"no biases, E = {width}, L = {length}; all {length * width:,} outputs to {DIGITS} digits"
    )
    arrays = llama_arrays(length, width, heads, kv)
    read, spec = _seconds(lambda: llama_spec(arrays, heads, kv))
    made, d = _seconds(lambda: derive(spec))
    enclosed, balls = _seconds(lambda: d.enclose("output", DIGITS))
    widest = max(float(ball.rad()) for row in balls for ball in row)
    exact = (made[0] + enclosed[0], made[1] + enclosed[1])
    verdict = "met" if exact[1] < TARGET else "NOT met"
    label = "  {:<36}".format

    def both(seconds: tuple[float, float]) -> str:
        return f"{seconds[0]:8.2f} s (CPU {seconds[1]:.2f} s)"

    yield f"{label('read the spec (floats in binary)')}{both(read)}"
    yield f"{label('derive (exact structure)')}{both(made)}"
    enclose = label(f"enclose every output, {DIGITS} digits")
    yield f"{enclose}{both(enclosed)}   widest radius {widest:.1e}"
    target = "" if quick else f"   target < {TARGET:.0f} s CPU: {verdict}"
    yield f"{label('derive + enclose')}{both(exact)}{target}"
