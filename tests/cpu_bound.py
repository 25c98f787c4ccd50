"""Time bounds for commands the tests run, in processor seconds, not by the clock.

A bound by the clock fails a test on a loaded machine where nothing is wrong (a refusal that
takes 1 s of processor time takes 15 s by the clock when 14 processes share 2 cores). The kernel
stops a child past its processor time (RLIMIT_CPU: SIGXCPU, then SIGKILL); the clock is only the
last guard, against a child that waits without computing, at ``WALL_FACTOR`` times the bound.
"""

from __future__ import annotations

import resource
import signal
from collections.abc import Callable

WALL_FACTOR = 10


def limit_processor(seconds: float) -> None:
    """In a child process: the kernel stops it after ``seconds`` of its own processor time."""
    whole = max(1, int(seconds + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (whole, whole + 2))


def processor_limit(seconds: float) -> Callable[[], None]:
    """A ``preexec_fn`` for subprocess: the same limit in the command's process."""
    return lambda: limit_processor(seconds)


def stopped_for_time(code: int | None) -> bool:
    """Whether an exit code (negative: the signal) says the kernel stopped the process."""
    return code in (-signal.SIGXCPU, -signal.SIGKILL)
