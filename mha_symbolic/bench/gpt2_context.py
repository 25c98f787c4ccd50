"""The opt-in row of `mha-symbolic bench --only scale --full-context`: a GPT-2-small layer at its
full context (1024 tokens, causal, float32 weights read in binary), derived and every output
enclosed to 50 digits, in a forked child that reports its CPU time (its own workers
included), wall-clock time and peak resident memory, beside the target (30 s CPU, 4 GB) and
the floor no enclosure can go below: the layer's exponentials alone at the same precision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from mha_symbolic.bench.model_scale import DIGITS, measured_in_child

CONTEXT = (1024, 768, 12)  # (L, E, h): GPT-2 small's context, width and heads
QUICK = (64, 768, 12)
TARGET_SECONDS, TARGET_MB = 30.0, 4096.0
SAMPLE = 20_000  # exponentials timed to estimate the layer's


def causal_layer(length: int, width: int, heads: int) -> Any:
    """The spec of ``nn.MultiheadAttention(width, heads)`` on ``torch.randn(1, length, width)``
    with a causal mask (GPT-2's), every float its exact binary value."""
    import torch

    from mha_symbolic.spec.attention import AttentionSpec

    torch.manual_seed(0)
    module = torch.nn.MultiheadAttention(width, heads, batch_first=True)
    x = torch.randn(1, length, width)
    mask = torch.triu(torch.ones(length, length, dtype=torch.bool), 1)
    return AttentionSpec.from_torch(module, x, attn_mask=mask, floats="binary")


def derive_and_enclose(spec: Any) -> None:
    from mha_symbolic.exact.evaluate import derive

    derive(spec).enclose("output", DIGITS)


def exponentials_seconds(count: int) -> float:
    """CPU seconds ``count`` arb exponentials take at the enclosure's first precision, each
    of a logit less its row's largest (as the enclosure makes them), from a timed sample."""
    import flint

    rng = random.Random(0)
    saved = flint.ctx.prec
    flint.ctx.prec = int(DIGITS * math.log2(10)) + 32
    try:
        logits = [flint.arb(rng.uniform(-4, 4)) / 3 for _ in range(SAMPLE)]
        top = max(logit.mid() for logit in logits)
        start = time.process_time()
        for logit in logits:
            (logit - top).exp()
        seconds = time.process_time() - start
    finally:
        flint.ctx.prec = saved
    return seconds / SAMPLE * count


def context_rows(quick: bool, row: Callable[..., str]) -> Iterator[str]:
    """The row, written by ``row`` (the targets table's)."""
    length, width, heads = QUICK if quick else CONTEXT
    what = f"GPT-2 layer L {length} causal, {DIGITS} digits"
    try:
        spec = causal_layer(length, width, heads)
    except ImportError:
        yield f"  {what:<40} (torch is not installed: pip install 'mha-symbolic[torch]')"
        return
    measured = measured_in_child(lambda: derive_and_enclose(spec))
    if measured is None:
        yield f"  {what:<40} (needs fork and /proc to measure its peak memory)"
        return
    wall, cpu, peak = measured
    count = heads * length * (length + 1) // 2  # the logits a causal mask leaves open
    floor = exponentials_seconds(count)
    yield row(
        what,
        f"{wall:.1f} s, peak {peak:,.0f} MB",
        f"CPU {cpu:.1f} s; its {count:,} exponentials alone {floor:.1f} s CPU",
        f"< {TARGET_SECONDS:.0f} s, < {TARGET_MB / 1024:.0f} GB",
        cpu < TARGET_SECONDS and peak < TARGET_MB,
    )
