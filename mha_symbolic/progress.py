"""A one-line progress report on stderr for long derivations (used by the command line)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class StepLine:
    """``mha-symbolic: grad.head1.q (12 steps, 3.4 s)``, redrawn in place.

    Quiet for work that ends within ``delay`` seconds, and whenever ``stream`` is not a
    terminal (or ``enabled`` is false), so pipes and logs stay clean.
    """

    def __init__(self, stream: TextIO | None = None, enabled: bool = True, delay: float = 1.0):
        self.stream = stream or sys.stderr
        self.enabled = enabled and self.stream.isatty()
        self.delay = delay
        self.start = time.monotonic()
        self.count = 0
        self.shown = False

    def __call__(self, key: str) -> None:
        self.count += 1
        elapsed = time.monotonic() - self.start
        if self.enabled and elapsed >= self.delay:
            self.stream.write(f"\r\033[Kmha-symbolic: {key} ({self.count} steps, {elapsed:.1f} s)")
            self.stream.flush()
            self.shown = True

    def close(self) -> None:
        """Clear the line, so what the command prints next starts on a clean line."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
