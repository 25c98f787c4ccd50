"""The command's own process: its objects frozen as Python exits, so that the shutdown's
garbage collections skip them (asserted by the freeze, not timed)."""

from __future__ import annotations

import atexit
import gc
import subprocess
import sys

import pytest

from mha_symbolic import process

EXIT = """
import atexit, gc
from mha_symbolic.cli import main
main({argv!r})
main({argv!r})
before = gc.get_freeze_count()
atexit._run_exitfuncs()
print(before, gc.get_freeze_count() > 0)
"""


def test_the_command_freezes_its_objects_only_as_python_exits() -> None:
    code = EXIT.format(argv=["examples"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 True"


def test_two_commands_in_one_process_register_one_freeze(monkeypatch: pytest.MonkeyPatch) -> None:
    registered: list[object] = []
    monkeypatch.setattr(atexit, "register", registered.append)
    process._no_collection_at_exit.cache_clear()
    process.started()
    process.started()
    assert registered == [gc.freeze]
