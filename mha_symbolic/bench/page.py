"""The page's edit latency: what the server does for one edit of a built-in example (read the
spec text, derive, mark its claims, render the HTML solution and the heatmaps' data)."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Iterator
from importlib import resources

# every built-in example, the smallest first (``--quick`` times it alone)
EXAMPLES = (
    "two-tokens", "one-token", "split-scaled", "alibi", "causal-dropout", "pytorch-style", "rope",
    "temperature", "eight-tokens-split",
)  # fmt: skip
TARGET_MS = 300
_FIRST_ENTRY = re.compile(r"^(x\s*=\s*\[\s*\[\s*)([^,\]\s]+)", re.MULTILINE)


def edited(text: str, value: int) -> str:
    """``text`` with the first entry of x set to ``value``: a new spec each time, as typed."""
    return _FIRST_ENTRY.sub(lambda m: m.group(1) + str(value), text, count=1)


def _medians_ms(text: str, repeats: int) -> tuple[float, float]:
    """Median milliseconds of ``repeats`` edits of ``text`` without and with the claims'
    marks, taken in turn (the same load for both), each edit a new value (no cache helps)."""
    from mha_symbolic.web.work import solve

    times: dict[bool, list[float]] = {False: [], True: []}
    for value in range(2, 2 * repeats + 2):
        marks = value % 2 == 1
        start = time.perf_counter()
        answer = solve({"toml": edited(text, value), "marks": marks})
        times[marks].append(time.perf_counter() - start)
        if not answer["ok"]:
            raise RuntimeError(f"{answer['error']}")
    return statistics.median(times[False]) * 1e3, statistics.median(times[True]) * 1e3


def bench_page(quick: bool = False) -> Iterator[str]:
    """Median milliseconds of the page's work for an edit of each example (``quick``: the
    first example, fewer repeats); the worker process and the HTTP round trip excluded.
    ``solution``: the page's first answer, shown at once; ``with marks``: the second, the
    same solution with the spec's claims checked and marked (the whole answer in one)."""
    from mha_symbolic.web.work import solve

    yield f"page: an edit of a built-in example, server time (median ms; target {TARGET_MS})"
    yield f"{'example':<20}  {'solution':>9}  {'with marks':>10}"
    names, repeats = (EXAMPLES[:1], 3) if quick else (EXAMPLES, 7)
    for name in names:
        text = resources.files("mha_symbolic").joinpath("examples", f"{name}.toml").read_text()
        solve({"toml": text})  # templates compiled, imports done, as in a warm worker
        try:
            first, whole = _medians_ms(text, repeats)
        except RuntimeError as error:
            raise RuntimeError(f"{name}: {error}") from None
        yield f"{name:<20}  {first:6.1f} ms  {whole:7.1f} ms"
