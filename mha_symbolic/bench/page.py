"""The page's edit latency: what the server does for one edit of a built-in example (read the
spec text, derive, mark its claims, render the HTML solution and the heatmaps' data)."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Iterator
from importlib import resources

EXAMPLES = ("two-tokens", "one-token", "split-scaled", "alibi", "pytorch-style")
TARGET_MS = 300
_FIRST_ENTRY = re.compile(r"^(x\s*=\s*\[\s*\[\s*)([^,\]\s]+)", re.MULTILINE)


def edited(text: str, value: int) -> str:
    """``text`` with the first entry of x set to ``value``: a new spec each time, as typed."""
    return _FIRST_ENTRY.sub(lambda m: m.group(1) + str(value), text, count=1)


def bench_page(quick: bool = False) -> Iterator[str]:
    """Median milliseconds of the page's work for an edit of each example (``quick``: the
    first example, fewer repeats); the worker process and the HTTP round trip excluded."""
    from mha_symbolic.web.work import solve

    yield f"page: an edit of a built-in example, server time (median ms; target {TARGET_MS})"
    yield f"{'example':<20}  {'median':>9}"
    names, repeats = (EXAMPLES[:1], 3) if quick else (EXAMPLES, 7)
    for name in names:
        text = resources.files("mha_symbolic").joinpath("examples", f"{name}.toml").read_text()
        solve({"toml": text})  # templates compiled, imports done, as in a warm worker
        times = []
        for value in range(2, repeats + 2):
            start = time.perf_counter()
            answer = solve({"toml": edited(text, value)})
            times.append(time.perf_counter() - start)
            if not answer["ok"]:
                raise RuntimeError(f"{name}: {answer['error']}")
        yield f"{name:<20}  {statistics.median(times) * 1e3:6.1f} ms"
