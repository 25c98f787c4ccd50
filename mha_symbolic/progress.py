"""Progress of long work on stderr (used by the command line): one status line redrawn in
place on a terminal; elsewhere (a log, a pipe, NO_COLOR, TERM=dumb) a plain line every few
seconds."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

INTERVAL = 5.0  # seconds between plain progress lines


def styled(stream: TextIO) -> bool:
    """Whether ``stream`` may be redrawn with ``\\r`` and escape sequences: a terminal, with
    neither NO_COLOR (https://no-color.org) set nor TERM=dumb."""
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
    return terminal and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


class _Line:
    """One status line on ``stream``: redrawn in place and cleared by :meth:`close` where
    :func:`styled` allows, else written as a plain line at most every ``interval`` seconds."""

    def __init__(self, stream: TextIO | None, enabled: bool, interval: float = INTERVAL) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.styled = styled(self.stream)
        self.interval = interval
        self.last = time.monotonic()  # a plain line only after `interval` of work
        self.shown = False

    def show(self, text: str) -> None:
        if self.styled:
            self.stream.write(f"\r\033[K{text}")
            self.shown = True
        else:
            now = time.monotonic()
            if now - self.last < self.interval:
                return
            self.last = now
            self.stream.write(f"{text}\n")
        self.stream.flush()

    def close(self) -> None:
        """Clear the line, so what the command prints next starts on a clean line."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


class CountLine(_Line):
    """``exercises: 120/1000``, redrawn in place on a terminal."""

    def __init__(
        self,
        label: str,
        total: int,
        stream: TextIO | None = None,
        enabled: bool = True,
        interval: float = INTERVAL,
    ):
        super().__init__(stream, enabled, interval)
        self.label, self.total = label, total

    def __call__(self, done: int) -> None:
        if self.enabled:
            self.show(f"{self.label}: {done}/{self.total}")


class StepLine(_Line):
    """``mha-symbolic: grad.head1.q (12 steps, 3.4 s)``, redrawn in place on a terminal.

    Quiet for work that ends within ``delay`` seconds (and, off a terminal, within
    ``interval``), so short commands print nothing but their result.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        enabled: bool = True,
        delay: float = 1.0,
        interval: float = INTERVAL,
    ):
        super().__init__(stream, enabled, interval)
        self.delay = delay
        self.start = time.monotonic()
        self.count = 0

    def __call__(self, key: str) -> None:
        self.count += 1
        elapsed = time.monotonic() - self.start
        if self.enabled and elapsed >= self.delay:
            self.show(f"mha-symbolic: {key} ({self.count} steps, {elapsed:.1f} s)")
