"""Timing for the benchmarks: every contender in the same run, medians of interleaved repeats."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping


def median_interleaved(
    contenders: Mapping[str, Callable[[], object]],
    repeats: int,
    numbers: Mapping[str, int] | None = None,
) -> dict[str, float]:
    """Median seconds per call; each repeat runs every contender (``numbers[name]`` times)."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            number = numbers[name] if numbers else 1
            start = time.perf_counter()
            for _ in range(number):
                run()
            times[name].append((time.perf_counter() - start) / number)
    return {name: statistics.median(values) for name, values in times.items()}
