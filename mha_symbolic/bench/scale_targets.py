"""The first block of `mha-symbolic bench --only scale`: each figure the model-scale work set a
target for, beside that target and a baseline timed in the same run (medians of interleaved
repeats, BLAS and torch on one thread; a row whose repeats spread too far says so)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from mha_symbolic.bench.baselines import fused_spec, numpy_mha
from mha_symbolic.bench.model_scale import GPT2
from mha_symbolic.bench.timing import (
    Timing,
    calls_per_sample,
    median_interval,
    one_thread,
    timed_interleaved,
)
from mha_symbolic.bench.timing import too_wide as _too_wide
from mha_symbolic.numeric.function import compile
from mha_symbolic.spec.attention import AttentionSpec

TINY = ((1, 2, 2, 2), (1, 8, 4, 2))  # (B, L, E, h): where a call's own checks show most


def _row(what: str, figure: str, baseline: str, target: str, met: bool, note: str = "") -> str:
    verdict = "met" if met else "NOT met"
    # two spaces between columns: a baseline wider than its column (a slow "before" on a
    # loaded machine) still leaves the target readable as a column of its own
    return f"  {what:<40} {figure:>26}  {baseline:<46}  {target:<16} {verdict}{note}"


def bench_targets(quick: bool = False, full_context: bool = False) -> Iterator[str]:
    yield "targets: each figure beside its target and a baseline timed in the same run;"
    yield "  wall-clock medians (their range); ratios also in CPU time, which a loaded machine"
    yield "  disturbs less; a target is judged on CPU time"
    yield f"  {'':<40} {'figure (wall)':>26}  {'baseline (same run)':<46}  {'target':<16}"
    yield from _read_rows(quick)
    yield from _overhead_rows(quick)
    yield from _entry_rows(quick)
    if full_context:
        from mha_symbolic.bench.gpt2_context import context_rows

        yield from context_rows(quick, _row)
    else:
        yield f"  {'GPT-2 layer L 1024 causal, 50 digits':<40} (about a minute: --full-context)"


def timed_both(
    contenders: dict[str, Callable[[], object]],
    repeats: int,
    numbers: dict[str, int] | None = None,
    interval: bool = False,
) -> tuple[dict[str, Timing], dict[str, Timing]]:
    """Wall-clock and CPU timings per call of each contender (interleaved, as the rest of the
    bench), measured around the same samples; ``interval``: the CPU medians with their 95 %
    confidence interval (:func:`median_interval`) rather than the samples' range."""
    cpu: dict[str, list[float]] = {name: [] for name in contenders}

    def sample(name: str, run: Callable[[], object], number: int) -> Callable[[], None]:
        def timed() -> None:
            start = time.process_time()
            for _ in range(number):
                run()
            cpu[name].append((time.process_time() - start) / number)

        return timed

    counts = numbers or {}
    samples = {n: sample(n, run, counts.get(n, 1)) for n, run in contenders.items()}
    wall = timed_interleaved(samples, repeats)
    per_call = {
        n: Timing(*(v / counts.get(n, 1) for v in (t.median, t.low, t.high)))
        for n, t in wall.items()
    }
    spread = median_interval if interval else lambda v: Timing(statistics.median(v), min(v), max(v))
    return per_call, {n: spread(values) for n, values in cpu.items()}


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        return None
    return torch


# ---------------------------------------------------------------------- reading a layer


def entry_by_entry(fields: dict[str, Any]) -> list[Any]:
    """The baseline: every float array of a layer made an ``fmpq_mat`` by a plain Python loop,
    one ``fmpq`` per float (what reading cost before the arrays were scaled at once)."""
    import flint
    import numpy as np

    arrays = [fields[k] for k in ("x", "query", "key", "value") if k in fields]
    arrays += list(fields["weights"].values())
    out = []
    for array in arrays:
        grid = np.atleast_2d(array)
        ratios = [flint.fmpq(*v.as_integer_ratio()) for v in grid.ravel().tolist()]
        rows, cols = (int(n) for n in grid.shape)
        out.append(flint.fmpq_mat(rows, cols, ratios))
    return out


def _read_rows(quick: bool) -> Iterator[str]:
    torch = _torch()
    length, width, heads = (32, 768, 12) if quick else GPT2
    what = f"read GPT-2 layer L {length}, binary floats"
    if torch is None:
        yield f"  {what:<40} (torch is not installed: pip install 'mha-symbolic[torch]')"
        return
    from mha_symbolic.spec.torch_io import from_torch

    torch.manual_seed(0)
    module = torch.nn.MultiheadAttention(width, heads, batch_first=True)
    x = torch.randn(1, length, width)
    contenders: dict[str, Callable[[], object]] = {
        "from_torch": partial(AttentionSpec.from_torch, module, x, floats="binary"),
        "loop": lambda: entry_by_entry(from_torch(module, x, floats="binary")),
    }
    with one_thread(torch):
        timings, cpu = timed_both(contenders, 1 if quick else 3)
    new, old = timings["from_torch"], timings["loop"]
    yield _row(
        what,
        f"{_spread(new, 1, 's')}",
        f"fmpq per float {old.median:.2f} s: {old.median / new.median:.1f}x wall, "
        f"{cpu['loop'].median / cpu['from_torch'].median:.1f}x CPU; "
        f"CPU {cpu['from_torch'].median:.2f} s",
        "< 0.5 s",
        cpu["from_torch"].median < 0.5,
        _too_wide(timings),
    )


def _spread(timing: Timing, scale: float, unit: str) -> str:
    """The median and the repeats' range, e.g. ``0.41 s (0.39-0.47)``."""
    digits = 2 if unit == "s" else 1
    low, mid, high = (round(t * scale, digits) for t in (timing.low, timing.median, timing.high))
    return f"{mid:.{digits}f} {unit} ({low:.{digits}f}-{high:.{digits}f})"


# ---------------------------------------------------------------------- a call's own checks


def _compiled(batch: int, length: int, width: int, heads: int, dtype: str) -> dict[str, Any]:
    """Hand NumPy, the numpy backend's function, and the code it generated called directly
    (the same arrays, checked once beforehand): the function's own cost is its minus raw."""
    import numpy as np

    spec = fused_spec(width, heads)
    f = compile(spec)
    rng = np.random.default_rng(0)
    w = {n: (rng.integers(-4, 5, (width, width)) / 8).astype(dtype) for n in ("w_q", "w_k", "w_v")}
    w["w_o"] = (rng.integers(-4, 5, (width, width)) / 8).astype(dtype)
    x = rng.normal(size=(batch, length, width)).astype(dtype)
    inputs, additive, args, numbers = f._arguments(x, None, None, None, dict(w))
    order = (w["w_q"], w["w_k"], w["w_v"], w["w_o"], heads)

    def general() -> object:  # every call's checks before the usual one was worked out once
        checked = f._arguments(x, None, None, None, dict(w))
        return f._function(*checked[0], checked[1], *checked[2], *checked[3])

    return {
        "hand": partial(numpy_mha, x, *order),
        "function": partial(f, x, **w),
        "raw": partial(f._function, *inputs, additive, *args, *numbers),
        "general": general,
    }


def _overhead_rows(quick: bool) -> Iterator[str]:
    """A call takes about 20 us here, and a loaded machine moves single samples by half:
    many short samples (5 ms), interleaved, and the spread said is the 95 % interval of the
    CPU medians the target is judged on (of the three contenders it reads), which more
    samples narrow, not the samples' range, which they widen."""
    for shape in TINY[:1] if quick else TINY:
        for dtype in ("float64",) if quick else ("float64", "float32"):
            contenders = _compiled(*shape, dtype)
            numbers = {name: calls_per_sample(run, 0.005)[0] for name, run in contenders.items()}
            with one_thread():
                timings, cpu = timed_both(contenders, 3 if quick else 31, numbers, True)
            hand, own, raw = (timings[n].median for n in ("hand", "function", "raw"))
            overhead, before = own - raw, timings["general"].median - raw
            cpu_overhead = cpu["function"].median - cpu["raw"].median
            cpu_ratio = cpu["function"].median / cpu["hand"].median
            yield _row(
                f"compiled numpy {shape} {dtype}",
                f"{overhead * 1e6:.1f} us over raw, {own / hand:.2f}x",
                f"hand {hand * 1e6:.0f} us; before {before * 1e6:.1f} us; CPU "
                f"{cpu_overhead * 1e6:.1f} us, {cpu_ratio:.2f}x",
                "< 5 us, <= 1.2x",
                cpu_overhead < 5e-6 and cpu_ratio <= 1.2,
                _too_wide({f"{n} CPU median": cpu[n] for n in ("hand", "function", "raw")}),
            )


# ---------------------------------------------------------------------- one exact entry


def symengine_entry(mix: Any, i: int, c: int) -> Any:
    """Entry (i, c) of a mix of heads built by SymEngine from the same FLINT structure: each
    head's exponentials over its row's smallest logit, their sum, and the weighted values."""
    import symengine as se

    def rational(number: Any) -> Any:
        return se.Rational(int(number.p), int(number.q))

    total = se.Integer(0) if mix.rational is None else rational(mix.rational[i, c])
    for term, column in mix.parts(c):
        logits = term.weights.logits
        factor = se.sympify(logits.factor)
        row = [logits.matrix[i, j] for j in range(logits.matrix.ncols())]
        low = min(row)
        exps = [se.exp(factor * rational(r - low)) for r in row]
        top = se.Add(*(e * rational(column[j]) for j, e in enumerate(exps)))
        total = total + top / se.Add(*exps)
    return total


def _entry_rows(quick: bool) -> Iterator[str]:
    from mha_symbolic.bench.model_scale import FORWARD_SHAPES, rational_spec
    from mha_symbolic.exact.evaluate import derive

    try:
        import symengine  # noqa: F401
    except ImportError:
        yield "  one exact entry: SymEngine is not installed (pip install 'mha-symbolic[bench]')"
        return
    for shape in FORWARD_SHAPES[1:2] if quick else FORWARD_SHAPES[1:]:
        structured = derive(rational_spec(*shape)).structured
        assert structured is not None
        contenders = _entry_contenders(structured["output"])
        yield _entry_row(f"one exact entry {shape} output", contenders, 3 if quick else 7)
    from mha_symbolic.bench.rope_entry import QUICK_SHAPE, ROPE_SHAPE, rope_contenders, rope_mix

    length, width, heads, kv = QUICK_SHAPE if quick else ROPE_SHAPE
    contenders = rope_contenders(rope_mix(quick), length // 4)  # rows L/4.. (causal: i + 1 keys)
    what = f"one exact entry RoPE ({length}, {width}, {heads}/{kv})"
    yield _entry_row(what, contenders, 2 if quick else 5)


def _entry_row(what: str, contenders: dict[str, Callable[[], object]], repeats: int) -> str:
    timings, cpu = timed_both(contenders, repeats)
    ours, theirs = timings["entry"].median, timings["symengine"].median
    ratio = cpu["entry"].median / cpu["symengine"].median
    again = ""  # RoPE's: the entry again, its cos and sin made
    if "again" in cpu:
        again = f" ({cpu['again'].median / cpu['symengine'].median:.2f}x again)"
    return _row(
        what,
        _spread(timings["entry"], 1e3, "ms"),
        f"SymEngine {theirs * 1e3:.1f} ms: {ours / theirs:.2f}x wall, {ratio:.2f}x CPU{again}",
        "<= 2x SymEngine",
        ratio <= 2,
        _too_wide(timings),
    )


def _entry_contenders(mix: Any) -> dict[str, Callable[[], object]]:
    """Entry (i, 0) of the output made from the structure, and by SymEngine; each call takes
    the next row, so no softmax row is made twice."""
    from mha_symbolic.exact.rows import Softmaxes, entry_maker

    rows = iter(range(10**9))

    def ours() -> object:
        return entry_maker(mix, Softmaxes())(next(rows) % mix.rows, 0)  # type: ignore[misc]

    return {"entry": ours, "symengine": lambda: symengine_entry(mix, next(rows) % mix.rows, 0)}
