"""Signals while a command runs: SIGTERM and SIGINT stop it with its cleanup."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C, so every cleanup (temporary files and
    folders) runs before the process ends."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """While a command runs, SIGTERM raises :class:`Terminated` and SIGINT KeyboardInterrupt
    (main thread only), so either stops the command with its cleanup.

    SIGINT is set even where the process started with it ignored: a shell without job control
    starts a background job (``cmd &``, a script, a CI step) with SIGINT ignored, and Python
    then leaves it ignored, so ``kill -INT`` was dropped and the command ran on to its end.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {
        signal.SIGTERM: signal.signal(signal.SIGTERM, _on_sigterm),
        signal.SIGINT: signal.signal(signal.SIGINT, signal.default_int_handler),
    }
    try:
        yield
    finally:
        for number, handler in previous.items():  # None: set outside Python, as at start
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
