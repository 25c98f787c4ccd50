"""Benchmarks (run by `mha-symbolic bench`): medians of interleaved repeats, ratios in one run."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from functools import partial
from typing import Any

import sympy as sp

from mha_symbolic.bench.baselines import fused_spec, numpy_mha
from mha_symbolic.bench.timing import (
    WIDE,
    calls_per_sample,
    machine,
    one_thread,
    timed_interleaved,
    too_wide,
)
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.numeric.function import compile
from mha_symbolic.spec.attention import AttentionSpec

DERIVE_SHAPES = ((2, 4, 2), (8, 8, 2), (16, 16, 4))  # (L, E, h)
COMPILE_SHAPES = ((1, 2, 2, 2), (1, 8, 4, 2), (32, 128, 64, 8), (8, 512, 512, 8))  # (B, L, E, h)
GRAD_SHAPES = ((32, 128, 64, 8),)  # (B, L, E, h)


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


def _derived_output(spec: AttentionSpec) -> sp.MatrixBase:
    return derive(spec)["output"]  # made as a SymPy value, as the baseline makes it


def _scale(quick: bool = False, full_context: bool = False) -> Iterator[str]:
    from mha_symbolic.bench import gpt2, llama, model_scale, scale_targets

    yield from scale_targets.bench_targets(quick, full_context)
    yield ""
    yield from model_scale.bench_forward(quick)
    yield ""
    yield from gpt2.bench_layer(quick)
    yield ""
    yield from llama.bench_llama(quick)
    yield ""
    yield from gpt2.bench_gradients(quick)


def bench_derive(quick: bool = False) -> Iterator[str]:
    """Exact derivation vs plain SymPy arithmetic, rational inputs, fused layout with W_O."""
    yield (
        "exact derivation to SymPy values, rational inputs (median seconds; "
        "ratio = plain SymPy / derive)"
    )
    yield f"{'(L, E, h)':>14}  {'derive':>9}  {'plain SymPy':>11}  {'ratio':>6}"
    shapes = DERIVE_SHAPES[:2] if quick else DERIVE_SHAPES
    for length, width, heads in shapes:
        spec = random_spec(length, width, heads)
        repeats = 3 if quick or length >= 16 else 5
        contenders = {
            "derive": partial(_derived_output, spec),
            "plain": partial(plain_sympy, spec),
        }
        timings = timed_interleaved(contenders, repeats)
        ratio = timings["plain"].median / timings["derive"].median
        yield (
            f"{(length, width, heads)!s:>14}  {timings['derive'].median:9.4f}  "
            f"{timings['plain'].median:11.4f}  {ratio:5.1f}x{too_wide(timings)}"
        )


def torch_sdpa_mha(x: Any, w_q: Any, w_k: Any, w_v: Any, w_o: Any, heads: int) -> Any:
    """The same attention in torch, through ``F.scaled_dot_product_attention``."""
    from torch.nn.functional import scaled_dot_product_attention

    def split(t: Any) -> Any:
        return t.unflatten(-1, (heads, -1)).transpose(-2, -3)

    q, k, v = (split(x @ w.T) for w in (w_q, w_k, w_v))
    merged = scaled_dot_product_attention(q, k, v).transpose(-2, -3).flatten(-2)
    return merged @ w_o.T


def _unordered_printer() -> Any:
    from sympy.printing.numpy import NumPyPrinter

    class Unordered(NumPyPrinter):
        """NumPyPrinter that prints terms as stored: sorting them dominates lambdify here."""

        def __init__(self, settings: dict | None = None) -> None:
            super().__init__({**(settings or {}), "order": "none"})

    return Unordered


def plain_lambdify(length: int, width: int, heads: int, weights: Mapping[str, Any]) -> Callable:
    """SymPy's plain ``lambdify`` of the attention expanded entry by entry in the inputs."""
    import numpy as np

    x = sp.Matrix(length, width, lambda i, j: sp.Symbol(f"x{i}_{j}"))
    exact = {
        n: sp.Matrix(np.asarray(w, dtype=float)).applyfunc(sp.nsimplify) for n, w in weights.items()
    }
    q, k, v = (x * exact[n].T for n in ("w_q", "w_k", "w_v"))
    d = width // heads
    outputs = []
    for i in range(heads):
        cols = slice(i * d, (i + 1) * d)
        exps = (q[:, cols] * k[:, cols].T / sp.sqrt(d)).applyfunc(sp.exp)
        rows = [[e / sum(exps.row(r)) for e in exps.row(r)] for r in range(length)]
        outputs.append(sp.Matrix(rows) * v[:, cols])
    expr = sp.Matrix.hstack(*outputs) * exact["w_o"].T
    function = sp.lambdify(list(x), list(expr), "numpy", printer=_unordered_printer())

    def call(batch: Any) -> Any:
        flat = batch.reshape(-1, length * width)
        entries = function(*flat.T)
        return np.stack(entries, axis=-1).reshape(*batch.shape[:-1], width)

    return call


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        return None
    return torch


def bench_compile(quick: bool = False) -> Iterator[str]:
    """compile(spec) against a hand-written NumPy MHA, plain lambdify and torch SDPA."""
    import numpy as np

    torch = _torch()
    yield (
        "compiled attention, fused self-attention with W_O "
        "(median ms per call; in brackets: time / hand-written NumPy)"
    )
    if torch is None:
        yield "  (torch is not installed: no torch columns)"
    names = ["hand NumPy", "numpy backend", "plain lambdify"]
    names += ["torch SDPA", "torch backend"] if torch is not None else []
    yield f"{'(B, L, E, h)':>18} {'dtype':>8} " + " ".join(f"{n:>17}" for n in names)
    shapes = COMPILE_SHAPES[:2] if quick else COMPILE_SHAPES
    for batch, length, width, heads in shapes:
        spec = fused_spec(width, heads)
        numpy_f = compile(spec)
        torch_f = compile(spec, backend="torch") if torch is not None else None
        rng = np.random.default_rng(0)
        # Entries p/(4 round(sqrt E)), |p| <= 4: about the 1/sqrt(E) scale of trained weights.
        # (Larger logits push float32 exps into subnormals, which are slow on any path.)
        scale = 4 * round(math.sqrt(width))
        weights64 = {
            n: rng.integers(-4, 5, (width, width)) / scale for n in ("w_q", "w_k", "w_v", "w_o")
        }
        lambdified = plain_lambdify(length, width, heads, weights64) if length <= 8 else None
        for dtype in ("float32", "float64"):
            x = rng.normal(size=(batch, length, width)).astype(dtype)
            w = {n: a.astype(dtype) for n, a in weights64.items()}
            args = (w["w_q"], w["w_k"], w["w_v"], w["w_o"], heads)
            contenders: dict[str, Callable[[], object]] = {
                "hand NumPy": partial(numpy_mha, x, *args),
                "numpy backend": partial(numpy_f, x, **w),
            }
            if lambdified is not None:
                contenders["plain lambdify"] = partial(lambdified, x)
            if torch is not None and torch_f is not None:
                tx = torch.from_numpy(x)
                tw = {n: torch.from_numpy(a) for n, a in w.items()}
                targs = (tw["w_q"], tw["w_k"], tw["w_v"], tw["w_o"], heads)
                contenders["torch SDPA"] = partial(torch_sdpa_mha, tx, *targs)
                contenders["torch backend"] = partial(torch_f, tx, **tw)
            yield _compile_row((batch, length, width, heads), dtype, names, contenders)


def _compile_row(
    shape: tuple[int, ...],
    dtype: str,
    names: list[str],
    contenders: dict[str, Callable],
    base_name: str = "hand NumPy",
) -> str:
    calibrated = {name: calls_per_sample(run) for name, run in contenders.items()}
    slowest = max(once for _, once in calibrated.values())
    repeats = 3 if slowest > 0.1 else 7
    numbers = {name: number for name, (number, _) in calibrated.items()}
    with one_thread(_torch()):
        timings = timed_interleaved(contenders, repeats, numbers)
    base = timings[base_name].median
    cells = []
    for name in names:
        if name not in timings:
            cells.append(f"{'-':>17}")
            continue
        seconds = timings[name].median
        cells.append(f"{seconds * 1e3:9.3f} ({seconds / base:4.2f}x)")
    return f"{shape!s:>18} {dtype:>8} " + " ".join(cells) + too_wide(timings)


def torch_autograd_mha(x: Any, weights: Mapping[str, Any], heads: int) -> Any:
    """The loss (sum of the output) of :func:`torch_sdpa_mha` and its gradients by autograd."""
    import torch

    leaves = {n: w.detach().requires_grad_(True) for n, w in weights.items()}
    xs = x.detach().requires_grad_(True)
    args = (leaves["w_q"], leaves["w_k"], leaves["w_v"], leaves["w_o"], heads)
    loss = torch_sdpa_mha(xs, *args).sum()
    grads = torch.autograd.grad(loss, [xs, *leaves.values()])
    return loss, grads


def bench_grad(quick: bool = False) -> Iterator[str]:
    """compile(spec, gradients=True) (NumPy, torch) against torch autograd through SDPA."""
    import numpy as np

    torch = _torch()
    yield (
        "compiled backward pass (loss = sum of the output; gradients of x, W_Q, W_K, W_V, W_O), "
        "fused self-attention with W_O (median ms per call; in brackets: time / torch autograd)"
    )
    if torch is None:
        yield "  (torch is not installed: no torch columns)"
    names = ["numpy backward"] + (["torch backward", "torch autograd"] if torch else [])
    yield f"{'(B, L, E, h)':>18} {'dtype':>8} " + " ".join(f"{n:>17}" for n in names)
    shapes = ((2, 16, 8, 2),) if quick else GRAD_SHAPES
    for batch, length, width, heads in shapes:
        spec = fused_spec(width, heads)
        numpy_g = compile(spec, gradients=True)
        torch_g = compile(spec, backend="torch", gradients=True) if torch is not None else None
        rng = np.random.default_rng(0)
        scale = 4 * round(math.sqrt(width))  # as in the compile section
        weights64 = {
            n: rng.integers(-4, 5, (width, width)) / scale for n in ("w_q", "w_k", "w_v", "w_o")
        }
        for dtype in ("float32", "float64"):
            x = rng.normal(size=(batch, length, width)).astype(dtype)
            w = {n: a.astype(dtype) for n, a in weights64.items()}
            contenders: dict[str, Callable[[], object]] = {
                "numpy backward": partial(numpy_g, x, **w)
            }
            if torch is not None and torch_g is not None:
                tx = torch.from_numpy(x)
                tw = {n: torch.from_numpy(a) for n, a in w.items()}
                contenders["torch backward"] = partial(torch_g, tx, **tw)
                contenders["torch autograd"] = partial(torch_autograd_mha, tx, tw, heads)
            base = "torch autograd" if torch is not None else "numpy backward"
            yield _compile_row((batch, length, width, heads), dtype, names, contenders, base)


def bench_exercises(quick: bool = False) -> Iterator[str]:
    """Exercise-bank variants of two-tokens to md, one process (what each worker does)."""
    from mha_symbolic.exercises.bank import ExerciseOptions, load, make_variant

    spec, options = load(example="two-tokens"), ExerciseOptions()
    make_variant(spec, 0, 1, options)  # templates compiled, caches warm, as in a worker
    count = 50 if quick else 300
    start = time.perf_counter()
    for index in range(1, count + 1):
        make_variant(spec, 0, index, options)
    seconds = (time.perf_counter() - start) / count
    yield "exercise bank, two-tokens to md, one process"
    yield f"{count} variants: {seconds * 1e3:.1f} ms per variant, {seconds * 1e3:.1f} s per 1000"


def run(quick: bool = False, only: str | None = None, full_context: bool = False) -> Iterator[str]:
    """The benchmark sections (``derive``, ``compile``, ``grad``, ``exercises``, ``scale``,
    ``page``, ``commands``), or only the one named; ``full_context`` adds the scale
    section's GPT-2 layer at 1024 tokens (about a minute)."""
    from mha_symbolic.bench.commands import bench_commands
    from mha_symbolic.bench.page import bench_page

    sections: dict[str, Callable[[bool], Iterator[str]]] = {
        "derive": bench_derive,
        "compile": bench_compile,
        "grad": bench_grad,
        "exercises": bench_exercises,
        "scale": partial(_scale, full_context=full_context),
        "page": bench_page,
        "commands": bench_commands,
    }
    yield machine("at the start")
    yield "figures: medians of interleaved repeats (each repeat runs every contender in turn);"
    yield f"BLAS and torch on one thread; a row whose repeats spread over {WIDE:.0%} says so"
    yield ""
    for name, section in sections.items():
        if only in (None, name):
            yield from section(quick)
            yield ""
    yield machine("at the end")
