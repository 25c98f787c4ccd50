"""Optional parts missing: one line saying what to install, never a ModuleNotFoundError from
inside generated code, and no column for what is not there. Runs with or without torch."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mha_symbolic import AttentionSpec, compile


@pytest.fixture
def no_torch(monkeypatch):
    """torch as Python sees it when it is not installed (None in sys.modules: ImportError)."""
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "torch", None)


@pytest.mark.parametrize("gradients", [False, True])
def test_compile_without_torch_says_how_to_install_it(no_torch, gradients):
    spec = AttentionSpec.example("two-tokens")
    with pytest.raises(ImportError) as raised:
        compile(spec, backend="torch", gradients=gradients)
    assert type(raised.value) is ImportError
    assert str(raised.value) == (
        'the torch backend needs torch, which is not installed: pip install "mha-symbolic[torch]"'
    )
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_compile_without_jax_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(
        ImportError,
        match=r"^the jax backend needs jax, which is not installed: "
        r'pip install "mha-symbolic\[jax\]"$',
    ):
        compile(AttentionSpec.example("two-tokens"), backend="jax")


def test_the_numpy_backend_needs_no_torch(no_torch):
    assert compile(AttentionSpec.example("two-tokens")).backend == "numpy"


# torch hidden from a fresh interpreter (a benchmark run in this process would also change
# its allocator's state for the memory benchmarks tested later).
_WITHOUT_TORCH = (
    "import sys; sys.modules['torch'] = None; from mha_symbolic.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize(
    ("section", "columns"),
    [
        ("compile", ["hand", "NumPy", "numpy", "backend", "plain", "lambdify"]),
        ("grad", ["numpy", "backward"]),
    ],
)
def test_bench_quick_without_torch_prints_no_torch_column(section, columns):
    argv = [sys.executable, "-c", _WITHOUT_TORCH, "bench", "--quick", "--only", section]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    out = done.stdout.splitlines()
    assert out[0].startswith("machine: ") and out[-1].startswith("machine: ")
    start = out.index("") + 1  # the section, between the header and a blank line
    lines = out[start : out.index("", start)]
    assert lines[1] == "  (torch is not installed: no torch columns)"
    assert lines[2].split() == ["(B,", "L,", "E,", "h)", "dtype", *columns]
    rows = [row.split("  <- ")[0] for row in lines[3:]]  # a row may end with a spread note
    assert rows and all(len(row.split()) == len(lines[2].split()) for row in rows)
    assert not any("torch" in line for line in lines[2:])
