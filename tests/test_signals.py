"""Signals stop a command with its cleanup however it was started: a background job of a shell
without job control starts with SIGINT ignored, and ``kill -INT`` must still interrupt it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from mha_symbolic import cli
from tests.cpu_bound import WALL_FACTOR

TIMEOUT = 60  # seconds: a generous bound for a signalled command to clean up and exit


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # what `cmd &` in a script does


def test_sigint_interrupts_a_command_started_with_sigint_ignored(tmp_path):
    argv = ["exercises", "--example", "two-tokens", "--count", "100000", "--workers", "1"]
    child = subprocess.Popen(
        [sys.executable, "-m", "mha_symbolic", *argv, "-o", str(tmp_path / "bank")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_ignore_sigint,
    )
    try:
        deadline = time.monotonic() + TIMEOUT * WALL_FACTOR  # the clock: the last guard
        while not list(tmp_path.glob(".bank.*/variant-002")):  # work under way, on disk
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=TIMEOUT * WALL_FACTOR)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert (child.returncode, err.decode().splitlines()[-1]) == (130, "mha-symbolic: interrupted")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("before", [signal.SIG_IGN, signal.default_int_handler])
def test_the_sigint_handling_a_command_found_is_put_back(before):
    previous = signal.signal(signal.SIGINT, before)
    try:
        assert cli.main(["examples"]) == 0
        assert signal.getsignal(signal.SIGINT) is before
    finally:
        signal.signal(signal.SIGINT, previous)
