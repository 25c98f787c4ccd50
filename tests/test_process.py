"""The command's own process: its objects frozen as Python exits, so that the shutdown's
garbage collections skip them (asserted by the freeze, not timed)."""

from __future__ import annotations

import atexit
import gc
import subprocess
import sys
from pathlib import Path

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


LOADING = """
import gc, sys
from mha_symbolic.cli import main
sys.argv = ["mha-symbolic", *{command!r}]
main({argv})
print(gc.get_freeze_count() > 0, gc.isenabled(), "sympy" in sys.modules)
"""


@pytest.mark.parametrize(
    ("argv", "frozen"),
    [("", "True True True"), ("sys.argv[1:]", "False True True")],
    ids=["command-line", "called-with-arguments"],
)
def test_the_libraries_are_frozen_once_loaded_only_in_the_commands_own_process(
    tmp_path: Path, argv: str, frozen: str
) -> None:
    """Started from its command line, derive loads SymPy and the rest with no collection and
    freezes them; called with arguments (a program, a test), the collector is left alone."""
    out = str(tmp_path / "x.md")
    code = LOADING.format(command=["derive", "--example", "two-tokens", "-o", out, "-q"], argv=argv)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == frozen
    assert (tmp_path / "x.md").read_text(encoding="utf-8").startswith("# ")


def test_check_from_its_command_line_freezes_what_it_loaded_too() -> None:
    code = LOADING.format(command=["check", "--example", "two-tokens"], argv="")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "True True True"
