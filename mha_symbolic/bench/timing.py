"""Timing for the benchmarks: every contender in the same run, medians of interleaved repeats,
with their spread, on fixed thread counts, and the machine's load said beside them."""

from __future__ import annotations

import contextlib
import math
import os
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

WIDE = 0.5  # a spread (max - min) wider than half the median: the figure is not to be trusted


@dataclass(frozen=True)
class Timing:
    """Seconds per call: the median of the repeats, and their least and greatest."""

    median: float
    low: float
    high: float

    @property
    def spread(self) -> float:
        """(max - min) / median: how far apart the repeats were."""
        return (self.high - self.low) / self.median if self.median > 0 else 0.0


def median_interval(values: Sequence[float]) -> Timing:
    """The median of ``values`` and its 95 % confidence interval, free of any assumed
    distribution (order statistics k and n - 1 - k of the sorted values, k from the binomial
    (n, 1/2)): how far the median itself may be off. More repeats narrow it, where the
    repeats' range only widens on a loaded machine; with fewer than 6 values, that range."""
    ordered = sorted(values)
    n = len(ordered)
    k = max(0, math.floor((n - 1.96 * math.sqrt(n)) / 2)) if n >= 6 else 0
    return Timing(statistics.median(ordered), ordered[k], ordered[n - 1 - k])


def timed_interleaved(
    contenders: Mapping[str, Callable[[], object]],
    repeats: int,
    numbers: Mapping[str, int] | None = None,
) -> dict[str, Timing]:
    """Each repeat runs every contender in turn (``numbers[name]`` calls), so a change of the
    machine's speed during the run touches them all alike."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            number = numbers[name] if numbers else 1
            start = time.perf_counter()
            for _ in range(number):
                run()
            times[name].append((time.perf_counter() - start) / number)
    return {
        name: Timing(statistics.median(values), min(values), max(values))
        for name, values in times.items()
    }


def calls_per_sample(run: Callable[[], object], target: float = 0.01) -> tuple[int, float]:
    """How many calls make a sample of about ``target`` seconds, and one call's time."""
    run()  # warm-up: caches, thread pools, lazily converted weights
    start = time.perf_counter()
    run()
    once = time.perf_counter() - start
    return max(1, min(1000, int(target / max(once, 1e-9)))), once


def median_interleaved(
    contenders: Mapping[str, Callable[[], object]],
    repeats: int,
    numbers: Mapping[str, int] | None = None,
) -> dict[str, float]:
    """Median seconds per call of :func:`timed_interleaved`."""
    return {n: t.median for n, t in timed_interleaved(contenders, repeats, numbers).items()}


def too_wide(timings: Mapping[str, Timing]) -> str:
    """A note for a row whose repeats spread too far to be trusted, or ``""``."""
    worst = max(timings.items(), key=lambda item: item[1].spread, default=None)
    if worst is None or worst[1].spread <= WIDE:
        return ""
    return f"  <- {worst[0]} spread {worst[1].spread:.0%}: too wide to trust, run again"


@contextlib.contextmanager
def one_thread(torch: object | None = None) -> Iterator[None]:
    """One BLAS/OpenMP thread (threadpoolctl) and one torch thread for every contender: with
    the default thread pools a shared machine swings a call's time a hundredfold."""
    from threadpoolctl import threadpool_limits

    before = torch.get_num_threads() if torch is not None else 0  # type: ignore[attr-defined]
    with threadpool_limits(limits=1):
        if torch is not None:
            torch.set_num_threads(1)  # type: ignore[attr-defined]
        try:
            yield
        finally:
            if torch is not None:
                torch.set_num_threads(before)  # type: ignore[attr-defined]


def cpu_seconds() -> float:
    """CPU seconds of this process and of its ended child processes (the workers an
    enclosure forks, see :mod:`mha_symbolic.exact.head_pool`)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def machine(when: str) -> str:
    """The machine's cores and load average, said beside the figures."""
    one, five, _ = os.getloadavg()
    return (
        f"machine: {os.cpu_count()} cores; load average {one:.1f} (1 min), {five:.1f} (5 min) "
        f"{when}"
    )
