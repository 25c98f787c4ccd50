"""`mha-symbolic ARGV` in a forked child of the test process, for the hostile-input tests and the
corpus's `check` runs.

The package is imported once, so a case costs only its own work (a fresh `python -m
mha_symbolic` spends about 0.75 s importing before it reads a byte). The child gets plain
standard streams on fds 0-2 (pytest replaced them in the parent), its own working folder, and
is killed after ``timeout`` seconds of its processor time (tests/cpu_bound.py), or, waiting
without computing, after ``WALL_FACTOR`` times that by the clock.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mha_symbolic.cli import main
from tests.cpu_bound import WALL_FACTOR, limit_processor, stopped_for_time

TIMEOUT = 60  # seconds: generous; every refusal answers in about a second, a template loop in 5


@dataclass(frozen=True)
class Forked:
    code: int | None  # None: stopped for time (processor, or the clock)
    stdout: bytes
    stderr: str
    seconds: float  # by the clock


def _child(
    argv: list[str], cwd: Path, streams: dict[str, Path], closed: bool, timeout: float
) -> None:
    code = 1
    try:
        limit_processor(timeout)
        os.chdir(cwd)
        os.dup2(os.open(streams["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.dup2(os.open(streams["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        if closed:
            os.close(0)
            sys.stdin = None  # type: ignore[assignment]  # as Python starts with <&-
        else:
            os.dup2(os.open(streams["in"], os.O_RDONLY), 0)
            sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        code = main(argv)
    except SystemExit as exit_:  # argparse's usage errors
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def fork_command(
    argv: list[str], cwd: Path, stdin: bytes | None = b"", timeout: float = TIMEOUT
) -> Forked:
    """Runs ARGV in ``cwd`` with ``stdin`` as standard input (``None``: fd 0 closed, as with
    ``<&-``); its exit code (None when stopped for time), standard output and error. The
    streams pass through files beside ``cwd`` (``cwd.name`` + ".in", ".out", ".err")."""
    streams = {name: cwd.parent / f"{cwd.name}.{name}" for name in ("in", "out", "err")}
    streams["in"].write_bytes(stdin or b"")
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller
        _child(argv, cwd, streams, stdin is None, timeout)
    code = _wait(pid, start + timeout * WALL_FACTOR)
    return Forked(
        None if code is None or stopped_for_time(code) else code,
        streams["out"].read_bytes() if streams["out"].exists() else b"",
        streams["err"].read_text(encoding="utf-8") if streams["err"].exists() else "",
        time.monotonic() - start,
    )


def _wait(pid: int, deadline: float) -> int | None:
    """The child's exit code (negative: its signal); None when the clock ran out first."""
    pause = 0.001
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(pause)
        pause = min(2 * pause, 0.02)


def run_forked(
    argv: list[str], cwd: Path, stdin: bytes | None = b"", timeout: float = TIMEOUT
) -> dict[str, Any]:
    """:func:`fork_command` in a test: the test fails when the command is stopped for time."""
    done = fork_command(argv, cwd, stdin, timeout)
    if done.code is None:
        pytest.fail(f"mha-symbolic {argv} did not answer within {timeout} s of processor time")
    return {"code": done.code, "stdout": done.stdout, "stderr": done.stderr}
