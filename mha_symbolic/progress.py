"""A one-line progress report on stderr for long derivations (used by the command line)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class _Line:
    """One status line on ``stream``, redrawn in place and cleared by :meth:`close`."""

    def __init__(self, stream: TextIO | None, enabled: bool) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.shown = False

    def show(self, text: str) -> None:
        self.stream.write(f"\r\033[K{text}")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Clear the line, so what the command prints next starts on a clean line."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


class CountLine(_Line):
    """``exercises: 120/1000`` on a terminal, redrawn in place."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None, enabled: bool = True):
        super().__init__(stream, enabled)
        self.label, self.total = label, total

    def __call__(self, done: int) -> None:
        if self.enabled:
            self.show(f"{self.label}: {done}/{self.total}")


class StepLine(_Line):
    """``mha-symbolic: grad.head1.q (12 steps, 3.4 s)``, redrawn in place.

    Quiet for work that ends within ``delay`` seconds, and whenever ``stream`` is not a
    terminal (or ``enabled`` is false), so pipes and logs stay clean.
    """

    def __init__(self, stream: TextIO | None = None, enabled: bool = True, delay: float = 1.0):
        super().__init__(stream, enabled)
        self.delay = delay
        self.start = time.monotonic()
        self.count = 0

    def __call__(self, key: str) -> None:
        self.count += 1
        elapsed = time.monotonic() - self.start
        if self.enabled and elapsed >= self.delay:
            self.show(f"mha-symbolic: {key} ({self.count} steps, {elapsed:.1f} s)")
