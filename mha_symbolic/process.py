"""What the command does to its own process: standard streams that were closed, no garbage
collection while its libraries load, and its end without a last garbage collection."""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys
from collections.abc import Iterator
from functools import cache

_OWN = {"process": False}  # whether the process is the command's own (see started)


def started(own_process: bool = False) -> None:
    """Called as the command starts (once per process for the exit; every call for streams).
    ``own_process``: the command was started from its command line (``main()`` without
    arguments), so the process ends with it; not when a program or a test calls ``main``."""
    _OWN["process"] = _OWN["process"] or own_process
    _closed_streams_to_devnull()
    _no_collection_at_exit()


@contextlib.contextmanager
def loading() -> Iterator[None]:
    """Around a command's heavy imports (SymPy, Jinja2, the solution's modules), in its own
    process: no garbage collection while they load (their objects live to the end: collecting
    them took 50 ms of a 0.5 s ``derive -o x.md``), then they are frozen, so that later
    collections skip them. Called from a program or a test, it does nothing."""
    if not _OWN["process"] or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _closed_streams_to_devnull() -> None:
    """Started with standard output or error closed (>&-): what goes there is dropped, as a
    closed pipe's is, instead of failing on a missing stream."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


@cache
def _no_collection_at_exit() -> None:
    """As the interpreter exits, every object still alive is frozen (``gc.freeze``), so the
    collections of Python's shutdown do not walk and free SymPy's objects cycle by cycle: that
    took 0.15 s of a 0.7 s ``derive --example pytorch-style -o x.md``. Nothing is lost: atexit
    handlers and objects freed by reference counting still run; Python never promised the
    finalizers of objects alive at exit."""
    atexit.register(gc.freeze)
