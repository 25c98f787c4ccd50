"""Progress of long work on stderr (used by the command line): on a terminal, one status line
redrawn in place by tqdm (fitted to the terminal's width, with a rate and the time left when
the total is known); elsewhere (a log, a pipe, NO_COLOR, TERM=dumb) a plain line every few
seconds, which tqdm does not write (it redraws with carriage returns even into a file)."""

from __future__ import annotations

import os
import sys
import time
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:  # imported when a bar is drawn: a command without one starts sooner
    from tqdm import tqdm

INTERVAL = 5.0  # seconds between plain progress lines, unless the environment says otherwise
EVERY = "MHA_SYMBOLIC_PROGRESS_EVERY"  # seconds between plain lines into a log: 60 for a CI log


def interval() -> float:
    """Seconds between plain progress lines: ``$MHA_SYMBOLIC_PROGRESS_EVERY`` when it is a
    number of seconds, else ``INTERVAL``."""
    try:
        seconds = float(os.environ.get(EVERY, INTERVAL))
    except ValueError:
        return INTERVAL
    return seconds if seconds >= 0 else INTERVAL


def styled(stream: TextIO) -> bool:
    """Whether ``stream`` may be redrawn with ``\\r`` and escape sequences: a terminal, with
    neither NO_COLOR (https://no-color.org) set nor TERM=dumb."""
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
    return terminal and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


class _NoLock:
    """tqdm's lock, unneeded here: one bar at a time, drawn only by the thread that reports.
    tqdm's own lock stays held when an exception (Ctrl-C) interrupts a redraw, and the next
    redraw or close from another thread would wait for it forever."""

    def acquire(self, *args: Any, **kwargs: Any) -> bool:
        return True

    def release(self) -> None:
        return None

    def __enter__(self) -> _NoLock:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


@lru_cache(maxsize=1)
def _bar_class() -> type[tqdm]:
    from tqdm import tqdm

    class _Bar(tqdm):
        """tqdm drawing only when told, from the thread that tells it: no monitor thread
        and no lock (nor tqdm's process semaphore), so drawing never blocks the work and a
        Ctrl-C raised while drawing reaches the command as usual."""

        monitor_interval = 0
        _lock = _NoLock()

    return _Bar


def _bar(stream: TextIO, **options: Any) -> tqdm:
    """A bar cleared when closed, a few columns narrower than the terminal: a ``^C`` echoed
    after it then does not wrap it onto a second line that the clearing would miss."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):  # not a file: tests, or a redirected stream
        columns = 80
    return _bar_class()(file=stream, leave=False, ncols=max(20, columns - 3), **options)


class _Line:
    """One status line on ``stream``: a tqdm bar where :func:`styled` allows (made at the
    first report), else a plain line at most every ``interval`` seconds."""

    def __init__(self, stream: TextIO | None, enabled: bool, every: float | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.styled = styled(self.stream)
        self.interval = interval() if every is None else every
        self.last = time.monotonic()  # a plain line only after `interval` of work
        self.bar: tqdm | None = None

    def plain(self, text: str) -> None:
        now = time.monotonic()
        if now - self.last < self.interval:
            return
        self.last = now
        self.stream.write(f"{text}\n")
        self.stream.flush()

    def close(self) -> None:
        """Clear the line, so what the command prints next starts on a clean line."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
            self.stream.write("\r\033[K")  # and a ^C the terminal echoed after the bar
            self.stream.flush()


class CountLine(_Line):
    """``exercises:  12%|██  | 120/1000 [00:03<00:22, 39.5 variants/s]`` on a terminal;
    ``exercises: 120/1000`` now and then elsewhere."""

    def __init__(
        self,
        label: str,
        total: int,
        stream: TextIO | None = None,
        enabled: bool = True,
        interval: float | None = None,
        unit: str = " variants",
    ):
        super().__init__(stream, enabled, interval)
        self.label, self.total, self.unit = label, total, unit

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        if not self.styled:
            self.plain(f"{self.label}: {done}/{self.total}")
            return
        if self.bar is None:  # drawn as it is made
            self.bar = _bar(
                self.stream, total=self.total, initial=done, desc=self.label, unit=self.unit
            )
        else:
            self.bar.update(done - self.bar.n)


class StepLine(_Line):
    """``mha-symbolic: grad.head1.q (12 steps, 00:03)``, redrawn in place on a terminal.

    Quiet for work that ends within ``delay`` seconds (and, off a terminal, within
    ``interval``), so short commands print nothing but their result.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        enabled: bool = True,
        delay: float = 1.0,
        interval: float | None = None,
    ):
        super().__init__(stream, enabled, interval)
        self.delay = delay
        self.start = time.monotonic()
        self.count = 0

    def __call__(self, key: str) -> None:
        self.count += 1
        elapsed = time.monotonic() - self.start
        if not self.enabled or elapsed < self.delay:
            return
        if not self.styled:
            self.plain(f"mha-symbolic: {key} ({self.count} steps, {elapsed:.1f} s)")
            return
        if self.bar is None:  # drawn as it is made
            form = "mha-symbolic: {desc} ({n} steps, {elapsed})"
            self.bar = _bar(self.stream, initial=self.count, desc=key, bar_format=form)
        else:
            self.bar.set_description_str(key, refresh=False)
            self.bar.update(1)
