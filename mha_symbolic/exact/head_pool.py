"""The heads of an enclosure on every core: each head's arb work (its exponentials, its weights
times its values) done in forked worker processes.

arb balls cannot be pickled, and rebuilding them one by one would cost what the pool saves,
so a worker sends a head back as fixed-point integers and one radius: each midpoint rounded
down to a multiple of ``2^-bits`` and the radius widened by the largest radius plus ``2^-bits``
(every exact value stays inside its ball: certified as the head's own balls were). The
parent makes them one integer matrix and two arb matrix operations, not a ball per entry.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import flint

# Below this many logits in all, the heads run here: a fork and the transfer cost more.
PARALLEL_LOGITS = 1 << 21

# (make, items, bits) of the map under way: read by the forked workers, never pickled.
_JOB: tuple[Callable[[Any], flint.arb_mat], Sequence[Any], int] | None = None

Packed = tuple[int, int, list[int], tuple[int, int]]


def map_heads(
    make: Callable[[Any], flint.arb_mat],
    items: Sequence[Any],
    logits: int,
    workers: int | None = None,
) -> list[flint.arb_mat]:
    """``[make(item) for item in items]`` at the context's precision, on ``workers``
    processes (default: the idle cores, when ``logits`` is large enough)."""
    count = idle_cores() if workers is None else workers
    if count < 2 or len(items) < 2 or (workers is None and logits < PARALLEL_LOGITS):
        return [make(item) for item in items]
    import multiprocessing

    global _JOB
    _JOB = (make, items, flint.ctx.prec)
    try:
        with multiprocessing.get_context("fork").Pool(min(count, len(items))) as pool:
            packed = pool.map(_packed, range(len(items)), chunksize=1)
    finally:
        _JOB = None
    return [unpacked(*head, flint.ctx.prec) for head in packed]


def idle_cores() -> int:
    """Cores free for workers: this one and those the load leaves idle. Measured with six
    busy processes on 2 cores, workers added 20 % CPU and no speed (nothing was idle)."""
    count = cores()
    try:
        load = os.getloadavg()[0]  # this process counts as one of them
    except (OSError, AttributeError):  # no load average here: every core
        return count
    return max(1, min(count, 1 + int(count - load)))


def cores() -> int:
    """Cores this process may run on (1 where processes cannot be forked, or in a daemon
    process such as a pool's or a cluster's worker, which may not have children)."""
    import multiprocessing

    if not hasattr(os, "fork") or multiprocessing.current_process().daemon:
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _packed(index: int) -> Packed:
    assert _JOB is not None
    make, items, bits = _JOB
    flint.ctx.prec = bits
    return packed(make(items[index]), bits)


def packed(balls: flint.arb_mat, bits: int) -> Packed:
    """``balls`` as (rows, cols, floor(mid * 2^bits) per entry, the largest radius)."""
    entries = balls.entries()
    ints = []
    for ball in entries:
        mantissa, exponent = (int(n) for n in ball.mid().man_exp())
        shift = exponent + bits
        ints.append(mantissa << shift if shift >= 0 else mantissa >> -shift)  # floor
    widest = max((ball.rad() for ball in entries), default=flint.arb(0))
    mantissa, exponent = (int(n) for n in widest.man_exp())
    return balls.nrows(), balls.ncols(), ints, (mantissa, exponent)


def unpacked(rows: int, cols: int, ints: list[int], widest: tuple[int, int], bits: int) -> Any:
    """The balls of :func:`packed`: each ``n / 2^bits`` widened by the largest radius and
    ``2^-bits`` (the rounding down), so each contains what its original ball did."""
    unit = flint.arb((1, -bits))
    middles = flint.arb_mat(flint.fmpz_mat(rows, cols, ints)) * unit
    wide = flint.arb(0, flint.arb(widest) + unit)
    return middles + flint.arb_mat(rows, cols, [wide] * (rows * cols))
