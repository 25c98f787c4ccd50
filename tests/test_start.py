"""A command that starts at once: a bare import and `--version`, `--help` and `examples` load
none of the heavy libraries (what is loaded is asserted, not timed)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mha_symbolic
from mha_symbolic import AttentionSpec
from mha_symbolic.spec.catalogue import catalogue

HEAVY = ("sympy", "numpy", "jinja2", "matplotlib", "flint", "mpmath", "tomlkit", "torch")

LOADED = """
import json, sys
{setup}
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy!r}))))
"""


def _heavy_loaded(setup: str) -> list[str]:
    code = LOADED.format(setup=setup, heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_a_bare_import_loads_no_heavy_library() -> None:
    assert _heavy_loaded("import mha_symbolic") == []


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["examples"], ["derive", "--help"]])
def test_the_quick_commands_load_no_heavy_library(argv: list[str]) -> None:
    setup = f"""
from mha_symbolic.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
"""
    assert _heavy_loaded(setup) == []


def test_the_version_is_read_without_the_installed_metadata() -> None:
    """``--version`` reads ``_version.py`` (the build's one source of the version): no
    importlib.metadata, which cost every start about 30 ms."""
    code = """
import sys
from mha_symbolic.cli import main
try:
    main(["--version"])
except SystemExit:
    pass
print("importlib.metadata" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "False"
    assert done.stdout.startswith(f"mha-symbolic {mha_symbolic.__version__}")


def test_the_examples_listed_are_the_built_specs_titles() -> None:
    for name, title, description in catalogue():
        spec = AttentionSpec.example(name)
        assert (title, description) == (spec.title, spec.description), name


def test_the_api_names_win_over_modules_of_the_same_name() -> None:
    """mha_symbolic.check, .extract and .verify are also modules; importing those first must
    not turn `mha_symbolic.check` into a module."""
    code = """
import mha_symbolic.check.judge, mha_symbolic.extract, mha_symbolic.verify
import mha_symbolic
from mha_symbolic import check, extract, verify
print([type(f).__name__ for f in (check, extract, verify, mha_symbolic.check)])
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['function', 'function', 'function', 'function']"


def test_an_unknown_name_is_an_attribute_error_and_dir_lists_the_api() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'derivee'"):
        mha_symbolic.derivee  # noqa: B018
    assert set(mha_symbolic.__all__) <= set(dir(mha_symbolic))


def test_a_fresh_command_finds_what_the_api_registers() -> None:
    """check encloses values through a Derivation method the API registers: a fresh process
    that never imported the API must find it."""
    argv = [sys.executable, "-m", "mha_symbolic", "check", "--example", "two-tokens"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == (
        "example two-tokens: 10 claims: 10 hold (4 exact, 6 rounded)"
    )
