"""`mha-symbolic ARGV` in a forked child of the test process, for the hostile-input tests.

The package is imported once, so a case costs only its own work. The child gets plain standard
streams on fds 0-2 (pytest replaced them in the parent), its own working folder, and is killed,
and the test failed, after ``timeout`` seconds of its processor time (tests/cpu_bound.py).
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import pytest

from mha_symbolic.cli import main
from tests.cpu_bound import WALL_FACTOR, limit_processor, stopped_for_time

TIMEOUT = 60  # seconds: generous; every refusal answers in about a second, a template loop in 5


def _child(
    argv: list[str], cwd: Path, streams: dict[str, Path], closed: bool, timeout: float
) -> None:
    code = 1
    try:
        limit_processor(timeout)
        os.chdir(cwd)
        os.dup2(os.open(streams["out"], os.O_WRONLY | os.O_CREAT), 1)
        os.dup2(os.open(streams["err"], os.O_WRONLY | os.O_CREAT), 2)
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


def run_forked(
    argv: list[str], cwd: Path, stdin: bytes | None = b"", timeout: float = TIMEOUT
) -> dict[str, Any]:
    """Runs ARGV in ``cwd`` with ``stdin`` as standard input (``None``: fd 0 closed, as with
    ``<&-``); its exit code, standard output (bytes) and standard error (text)."""
    streams = {name: cwd.parent / f"{cwd.name}.{name}" for name in ("in", "out", "err")}
    streams["in"].write_bytes(stdin or b"")
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        _child(argv, cwd, streams, stdin is None, timeout)
    deadline = time.monotonic() + timeout * WALL_FACTOR
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"mha-symbolic {argv} waited {timeout * WALL_FACTOR} s without an answer")
        time.sleep(0.005)
    code = os.waitstatus_to_exitcode(status)
    if stopped_for_time(code):
        pytest.fail(f"mha-symbolic {argv} did not answer within {timeout} s of processor time")
    return {
        "code": code,
        "stdout": streams["out"].read_bytes() if streams["out"].exists() else b"",
        "stderr": streams["err"].read_text(encoding="utf-8") if streams["err"].exists() else "",
    }
