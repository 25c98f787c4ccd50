"""`mha-symbolic ARGV` in a fresh process that starts in milliseconds, for the hostile-input
tests and the corpus's `check` runs.

A fresh `python -m mha_symbolic` spends about 0.75 s importing before it reads a byte. Here one
warm interpreter per test process (tests/hostile_runner.py, started on first use) has imported
the package and forks a child per command: each child has its own exit code, standard streams
(fds 0-2 from files), working folder, and is stopped after ``timeout`` seconds of its processor
time (tests/cpu_bound.py), or, waiting without computing, after ``WALL_FACTOR`` times that by
the clock. The test process itself never forks: a pytest-xdist worker runs an I/O thread, and a
fork of a process with threads can deadlock.
"""

from __future__ import annotations

import atexit
import base64
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest

from tests.cpu_bound import WALL_FACTOR

TIMEOUT = 60  # seconds: generous; every refusal answers in about a second, a template loop in 5
_RUNNER = Path(__file__).with_name("hostile_runner.py")


@dataclass(frozen=True)
class Forked:
    code: int | None  # None: stopped for time (processor, or the clock)
    stdout: bytes
    stderr: str
    seconds: float  # by the clock


class _Runner:
    """The warm interpreter, started on first use and stopped when this process exits."""

    process: subprocess.Popen[str] | None = None

    @classmethod
    def ask(cls, request: dict[str, Any]) -> dict[str, Any]:
        if cls.process is None or cls.process.poll() is not None:
            cls.process = subprocess.Popen(
                [sys.executable, str(_RUNNER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=_RUNNER.parent.parent,
            )
            atexit.register(cls.stop)
        sent, answers = cls._pipes()
        sent.write(json.dumps(request) + "\n")
        sent.flush()
        line = answers.readline()
        if not line:
            raise RuntimeError(f"{_RUNNER.name} stopped answering (exit {cls.process.poll()})")
        return dict(json.loads(line))

    @classmethod
    def _pipes(cls) -> tuple[IO[str], IO[str]]:
        assert cls.process is not None
        assert cls.process.stdin is not None and cls.process.stdout is not None
        return cls.process.stdin, cls.process.stdout

    @classmethod
    def stop(cls) -> None:
        if cls.process is not None and cls.process.poll() is None:
            assert cls.process.stdin is not None
            cls.process.stdin.close()
            cls.process.wait(timeout=30)


def fork_command(
    argv: list[str], cwd: Path, stdin: bytes | None = b"", timeout: float = TIMEOUT
) -> Forked:
    """Runs ARGV in ``cwd`` with ``stdin`` as standard input (``None``: fd 0 closed, as with
    ``<&-``); its exit code (None when stopped for time), standard output and error."""
    request = {
        "cwd": str(cwd),
        "argv": argv,
        "timeout": timeout,
        "stdin": None if stdin is None else base64.b64encode(stdin).decode("ascii"),
        "wall_factor": WALL_FACTOR,  # the clock's guard: this many times the processor bound
    }
    answer = _Runner.ask(request)
    return Forked(
        None if answer["timed_out"] else int(answer["code"]),
        base64.b64decode(answer["stdout"]),
        str(answer["stderr"]),
        float(answer["seconds"]),
    )


def run_forked(
    argv: list[str], cwd: Path, stdin: bytes | None = b"", timeout: float = TIMEOUT
) -> dict[str, Any]:
    """:func:`fork_command` in a test: the test fails when the command is stopped for time."""
    done = fork_command(argv, cwd, stdin, timeout)
    if done.code is None:
        pytest.fail(f"mha-symbolic {argv} did not answer within {timeout} s of processor time")
    return {"code": done.code, "stdout": done.stdout, "stderr": done.stderr}
