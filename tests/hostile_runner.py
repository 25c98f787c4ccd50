"""Runs `mha-symbolic` many times fast: one warm Python forks a fresh child process per run.

Started once per test process by tests/forked.py (``python tests/hostile_runner.py``), it
imports the CLI, then reads one JSON request per line ({"cwd", "argv", "timeout", "stdin"}:
the standard input's bytes in base64, or null for a closed fd 0) and answers one JSON line
({"code", "stdout" (base64), "stderr", "seconds", "timed_out"}). This process has one thread,
so forking it is safe (a pytest-xdist worker has an I/O thread: forking it could deadlock).
Each run is its own process (forked after the imports, so it starts in milliseconds
instead of a second), with its own exit code and output, stopped by the kernel past
``timeout`` seconds of its processor time (the clock, at ten times that, is only the last
guard: a loaded machine must not fail a test): what `python -m mha_symbolic.cli` does, minus
the interpreter start-up. A traceback is printed and
the code is 1, as Python itself would do.
"""

from __future__ import annotations

import base64
import json
import os
import resource
import signal
import sys
import tempfile
import time
import traceback


def _child(cwd: str, argv: list[str], streams: tuple[str, str, str | None], timeout: float) -> None:
    out, err, given = streams
    seconds = max(1, int(timeout + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 2))
    os.chdir(cwd)
    if given is None:
        os.close(0)
        sys.stdin = None  # type: ignore[assignment]  # as Python starts with <&-
    else:
        handle = os.open(given, os.O_RDONLY)
        os.dup2(handle, 0)
        os.close(handle)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    for fd, path in ((1, out), (2, err)):
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(handle, fd)
        os.close(handle)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.argv = ["mha-symbolic", *argv]
    from mha_symbolic.cli import main

    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


def run(
    cwd: str, argv: list[str], timeout: float, stdin: bytes | None, wall_factor: float = 10
) -> dict[str, object]:
    """One run in a forked child, captured through files outside ``cwd``."""
    with tempfile.TemporaryDirectory() as capture:
        out, err = os.path.join(capture, "out"), os.path.join(capture, "err")
        given = None if stdin is None else os.path.join(capture, "in")
        if given is not None:
            with open(given, "wb") as file:
                file.write(stdin or b"")
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(cwd, argv, (out, err, given), timeout)
        status, timed_out = None, False
        while status is None:
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = raw
            elif time.monotonic() - start > timeout * wall_factor:
                os.kill(pid, signal.SIGKILL)
                status, timed_out = os.waitpid(pid, 0)[1], True
            else:
                time.sleep(0.002)
        seconds = time.monotonic() - start
        with open(out, "rb") as file:
            stdout = base64.b64encode(file.read()).decode("ascii")
        with open(err, encoding="utf-8", errors="replace") as file:
            stderr = file.read()
    code = os.waitstatus_to_exitcode(status)
    timed_out = timed_out or code in (-signal.SIGXCPU, -signal.SIGKILL)
    return {
        "code": code,
        "stdout": stdout,
        "stderr": stderr,
        "seconds": seconds,
        "timed_out": timed_out,
    }


def serve() -> None:
    # The imports every child then shares (the CLI imports the rest lazily, per command).
    # The LaTeX library (about 0.3 s), imported by a child on its first value in LaTeX.
    import latex2sympy2_extended.latex2sympy2  # noqa: F401

    import mha_symbolic
    import mha_symbolic.check.findings
    import mha_symbolic.check.judge
    import mha_symbolic.cli
    import mha_symbolic.extract.example_groups
    import mha_symbolic.solution.render
    import mha_symbolic.solution.terminal  # noqa: F401

    for line in sys.stdin:
        request = json.loads(line)
        given = request.get("stdin", "")
        stdin = None if given is None else base64.b64decode(given)
        factor = request.get("wall_factor", 10)
        answer = run(request["cwd"], request["argv"], request["timeout"], stdin, factor)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
