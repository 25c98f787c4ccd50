"""The model-scale rows of `mha-symbolic bench --only scale`: a GPT-2-small-shaped layer made
exact and enclosed to 50 digits, against mpmath and torch; and exact gradients."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from mha_symbolic.bench.model_scale import (
    DIGITS,
    GPT2,
    GRADIENT_SHAPES,
    megabytes,
    peak_mb,
    rational_spec,
    status_mb,
)
from mha_symbolic.bench.timing import cpu_seconds
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.spec.attention import AttentionSpec


def _seconds(run: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def mpmath_row_seconds(x: Any, w: Any, rows: int = 2) -> tuple[float, int]:
    """Seconds for ``rows`` rows of x @ w done naively with mpmath at 50 digits, and the
    multiply-adds that took (the layer's total is estimated from this rate)."""
    import mpmath

    with mpmath.workdps(DIGITS):
        xs = [[mpmath.mpf(float(v)) for v in x[i]] for i in range(rows)]
        ws = [[mpmath.mpf(float(v)) for v in row] for row in w]
        start = time.perf_counter()
        for row in xs:
            for j in range(len(ws[0])):
                mpmath.fsum(row[k] * ws[k][j] for k in range(len(ws)))
        seconds = time.perf_counter() - start
    return seconds, rows * len(ws) * len(ws[0])


def layer_multiply_adds(length: int, width: int, heads: int) -> int:
    """Multiply-adds of one attention layer done naively: 4 projections, scores, A V."""
    return 4 * length * width * width + 2 * length * length * width


def _torch_layer(length: int, width: int, heads: int) -> tuple[Any, Any]:
    import torch

    torch.manual_seed(0)
    module = torch.nn.MultiheadAttention(width, heads, batch_first=True)
    return module, torch.randn(1, length, width)


def bench_layer(quick: bool = False) -> Iterator[str]:
    length, width, heads = (32, 768, 12) if quick else GPT2
    yield (
        f"GPT-2-small layer: nn.MultiheadAttention({width}, {heads}), float32 weights, "
        f"L = {length}; all {length * width:,} outputs to {DIGITS} digits"
    )
    try:
        module, x = _torch_layer(length, width, heads)
    except ImportError:
        yield "  (torch is not installed: pip install 'mha-symbolic[torch]')"
        return
    import torch

    read, spec = _seconds(lambda: AttentionSpec.from_torch(module, x, floats="binary"))
    cpu = cpu_seconds()
    made, d = _seconds(lambda: derive(spec))
    enclosed, balls = _seconds(lambda: d.enclose("output", DIGITS))
    cpu = cpu_seconds() - cpu  # the enclosure's worker processes included
    memory = peak_mb(lambda: derive(spec).enclose("output", DIGITS))
    widest = max(float(ball.rad()) for row in balls for ball in row)
    rate, done = mpmath_row_seconds(x[0].numpy(), module.in_proj_weight[:width].T.detach())
    mpmath_total = rate / done * layer_multiply_adds(length, width, heads)
    double = module.double()
    with torch.no_grad():
        wide, _ = _seconds(lambda: double(x.double(), x.double(), x.double(), need_weights=False))
    exact = made + enclosed
    label = "  {:<36}".format  # one column of labels, whatever DIGITS is
    yield f"{label('read from torch (floats in binary)')}{read:8.2f} s"
    yield f"{label('derive (exact structure)')}{made:8.2f} s"
    enclose = label(f"enclose every output, {DIGITS} digits")
    yield f"{enclose}{enclosed:8.2f} s   widest radius {widest:.1e}"
    yield (
        f"{label('derive + enclose')}{exact:8.2f} s   (CPU {cpu:.2f} s)   "
        f"peak +{megabytes(memory)} over the "
        f"{_process_mb():,.0f} MB the process holds (torch, the module, the exact spec)"
    )
    yield (
        f"{label(f'mpmath, {DIGITS} digits, naive')}{mpmath_total:8.0f} s   (estimated from "
        f"{done:,} multiply-adds timed)   {mpmath_total / exact:,.0f}x slower"
    )
    yield f"{label('torch float64 forward')}{wide:8.4f} s"


def _process_mb() -> float:
    try:
        return status_mb("VmRSS")
    except OSError:  # no /proc: the peak so far instead
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def gradients_enclosed(spec: AttentionSpec) -> int:
    """Exact gradients of ``spec`` (loss: the sum of the output), every entry of every
    ``grad.*`` step enclosed to 50 digits; returns how many entries."""
    d = derive(spec, gradients=True, large=True)
    keys = [key for key in d if key.startswith("grad.")]
    return sum(len(row) for key in keys for row in d.enclose(key, DIGITS))


def bench_gradients(quick: bool = False) -> Iterator[str]:
    yield (
        f"exact gradients (loss = sum of the output), rational inputs: derive, then every "
        f"gradient entry to {DIGITS} digits"
    )
    yield f"{'(L, E, h)':>14}  {'entries':>8}  {'seconds':>8}  {'peak':>8}  as SymPy values"
    for shape in GRADIENT_SHAPES[:1] if quick else GRADIENT_SHAPES:
        spec = rational_spec(*shape)
        seconds, entries = _seconds(partial(gradients_enclosed, spec))
        memory = megabytes(peak_mb(partial(gradients_enclosed, spec)))
        sympy = ""
        if shape == GRADIENT_SHAPES[0] and not quick:  # the path before the structure
            made, _ = _seconds(partial(_sympy_gradients, spec))
            sympy = f"{made:8.2f} s"
        yield f"{shape!s:>14}  {entries:8,}  {seconds:8.2f}  {memory:>8}  {sympy}"


def _sympy_gradients(spec: AttentionSpec) -> None:
    d = derive(spec, gradients=True, large=True)
    for key in d:
        d[key]  # made on demand: this is the work timed
