"""`mha-symbolic bench --only scale`: exact attention at model scale, each contender in one run.

Forward passes with rational inputs (derive, against plain SymPy and SymEngine doing the same
exact products), a GPT-2-small-shaped layer read from torch in binary and enclosed to 50
digits (against mpmath at 50 digits and torch in float64), and exact gradients. Times are
medians of interleaved repeats; memory is the peak resident size a forked child adds while it
does the work once (FLINT allocates outside Python, so tracemalloc would not see it).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import partial
from typing import Any

import sympy as sp

from mha_symbolic.bench.timing import cpu_seconds, median_interleaved
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.spec.attention import AttentionSpec

FORWARD_SHAPES = ((16, 16, 4), (64, 64, 8), (128, 256, 8))  # (L, E, h)
GRADIENT_SHAPES = ((16, 16, 4), (64, 64, 8))
GPT2 = (128, 768, 12)  # (L, E, h) of a GPT-2-small attention layer over 128 tokens
DIGITS = 50


def rational_spec(length: int, width: int, heads: int, seed: int = 0) -> AttentionSpec:
    """Per-head self-attention with W_O and small random rationals (p/4, |p| <= 4)."""
    rng = random.Random(seed)
    d = width // heads

    def matrix(rows: int, cols: int) -> list[list[Fraction]]:
        return [[Fraction(rng.randint(-4, 4), 4) for _ in range(cols)] for _ in range(rows)]

    per_head = {n: [matrix(width, d) for _ in range(heads)] for n in ("w_q", "w_k", "w_v")}
    return AttentionSpec(
        x=matrix(length, width),
        heads=heads,
        layout="per_head",
        weights={**per_head, "w_o": matrix(width, width)},
    )


def _products(spec: AttentionSpec, to_matrix: Callable[[Any], Any]) -> list[Any]:
    """The exact products derive makes: X W for q, k, v per head, Q_h K_h^T, V_h W_O^h."""
    x = to_matrix(spec.query)
    w_o = to_matrix(spec.weights["w_o"][0])
    out = []
    for head in range(spec.heads):
        q, k, v = (x * to_matrix(spec.weights[n][head]) for n in ("w_q", "w_k", "w_v"))
        d = v.cols
        out += [q * k.T, v * w_o[head * d : (head + 1) * d, :]]
    return out


def plain_sympy_products(spec: AttentionSpec) -> list[Any]:
    return _products(spec, sp.Matrix)


def symengine_products(spec: AttentionSpec) -> list[Any]:
    import symengine

    return _products(spec, lambda m: symengine.DenseMatrix(m.rows, m.cols, list(m)))


def status_mb(field: str) -> float:
    """A memory line of /proc/self/status (VmRSS: resident now, VmHWM: its peak), in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise OSError(f"no {field} in /proc/self/status")


def measured_in_child(run: Callable[[], object]) -> tuple[float, float, float] | None:
    """(wall seconds, CPU seconds, peak MB added) of ``run()`` done once in a forked child: CPU
    counts the child's own workers, the peak is the child's resident high-water mark over
    what it held at the fork. None where there is no fork or /proc."""
    if not hasattr(os, "fork") or not os.path.exists("/proc/self/clear_refs"):
        return None
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: do the work once, report, leave without cleanup
        os.close(read)
        status = 1
        try:
            base = status_mb("VmRSS")
            with open("/proc/self/clear_refs", "w") as clear:
                clear.write("5")  # the peak starts again from here, not from the parent's
            wall, cpu = time.perf_counter(), cpu_seconds()
            run()
            wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
            peak = max(status_mb("VmHWM") - base, 0.0)
            os.write(write, f"{wall} {cpu} {peak}".encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    if not text:
        return None
    wall, cpu, peak = (float(n) for n in text.split())
    return wall, cpu, peak


def peak_mb(run: Callable[[], object]) -> float | None:
    """The peak resident memory (MB) that ``run()`` adds, measured in a forked child; None
    where there is no fork or /proc (the column then says n/a)."""
    measured = measured_in_child(run)
    return None if measured is None else measured[2]


def megabytes(value: float | None) -> str:
    """A peak column's text: whole megabytes, or n/a where it could not be measured."""
    return "n/a" if value is None else f"{value:,.0f} MB"


def _symengine() -> Any:
    try:
        import symengine
    except ImportError:
        return None
    return symengine


def bench_forward(quick: bool = False) -> Iterator[str]:
    yield "exact forward, rational inputs, per-head weights and W_O (median seconds)"
    yield "  derive keeps the exact structure; SymPy and SymEngine do the same exact products"
    se = _symengine()
    if se is None:
        yield "  (SymEngine is not installed: pip install 'mha-symbolic[bench]')"
    yield f"{'(L, E, h)':>14}  {'derive':>8}  {'peak':>8}  {'SymPy':>8}  {'SymEngine':>9}  vs SE"
    for shape in FORWARD_SHAPES[:2] if quick else FORWARD_SHAPES:
        spec = rational_spec(*shape)
        contenders: dict[str, Callable[[], object]] = {
            "derive": partial(derive, spec),
            "sympy": partial(plain_sympy_products, spec),
        }
        if se is not None:
            contenders["symengine"] = partial(symengine_products, spec)
        medians = median_interleaved(contenders, 1 if shape[0] >= 128 else 3)
        engine = medians.get("symengine")
        ratio = "" if engine is None else f"{engine / medians['derive']:5.1f}x"
        peak = megabytes(peak_mb(contenders["derive"]))
        yield (
            f"{shape!s:>14}  {medians['derive']:8.3f}  {peak:>8}  "
            f"{medians['sympy']:8.3f}  {'n/a' if engine is None else f'{engine:9.3f}':>9}  {ratio}"
        )
