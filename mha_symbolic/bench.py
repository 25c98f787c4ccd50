"""Benchmarks (run by `mha-symbolic bench`): medians of interleaved repeats, ratios in one run."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from functools import partial

import sympy as sp

from mha_symbolic.derivation import derive
from mha_symbolic.spec import AttentionSpec

DERIVE_SHAPES = ((2, 4, 2), (8, 8, 2), (16, 16, 4))  # (L, E, h)


def random_spec(length: int, width: int, heads: int, seed: int = 0) -> AttentionSpec:
    """A fused self-attention spec with small random rationals (p/4, |p| <= 4) and a W_O."""
    rng = random.Random(seed)

    def matrix(rows: int, cols: int) -> list[list[Fraction]]:
        return [[Fraction(rng.randint(-4, 4), 4) for _ in range(cols)] for _ in range(rows)]

    weights = {name: matrix(width, width) for name in ("w_q", "w_k", "w_v", "w_o")}
    return AttentionSpec(x=matrix(length, width), heads=heads, layout="fused", weights=weights)


def plain_sympy(spec: AttentionSpec) -> sp.Matrix:
    """The same attention written as plain SymPy matrix arithmetic (the baseline)."""
    x = sp.Matrix(spec.query)
    q, k, v = (x * sp.Matrix(spec.effective(n)) for n in ("w_q", "w_k", "w_v"))
    d = q.cols // spec.heads
    heads = []
    for i in range(spec.heads):
        cols = slice(i * d, (i + 1) * d)
        scores = q[:, cols] * k[:, cols].T / sp.sqrt(d)
        exps = scores.applyfunc(sp.exp)
        rows = [list(exps.row(r)) for r in range(exps.rows)]
        weights = sp.Matrix([[e / total for e in row] for row, total in zip(rows, map(sum, rows))])
        heads.append(weights * v[:, cols])
    return sp.Matrix.hstack(*heads) * sp.Matrix(spec.effective("w_o"))


def _median_interleaved(
    contenders: Mapping[str, Callable[[], object]], repeats: int
) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def bench_derive(quick: bool = False) -> Iterator[str]:
    """Exact derivation vs plain SymPy arithmetic, rational inputs, fused layout with W_O."""
    yield "exact derivation, rational inputs (median seconds; ratio = plain SymPy / derive)"
    yield f"{'(L, E, h)':>14}  {'derive':>9}  {'plain SymPy':>11}  {'ratio':>6}"
    shapes = DERIVE_SHAPES[:2] if quick else DERIVE_SHAPES
    for length, width, heads in shapes:
        spec = random_spec(length, width, heads)
        repeats = 3 if quick or length >= 16 else 5
        contenders = {
            "derive": partial(derive, spec),
            "plain": partial(plain_sympy, spec),
        }
        medians = _median_interleaved(contenders, repeats)
        ratio = medians["plain"] / medians["derive"]
        yield (
            f"{(length, width, heads)!s:>14}  {medians['derive']:9.4f}  "
            f"{medians['plain']:11.4f}  {ratio:5.1f}x"
        )


def run(quick: bool = False) -> Iterator[str]:
    yield from bench_derive(quick)
