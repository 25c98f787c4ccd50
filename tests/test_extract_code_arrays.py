"""Arrays a page builds in code instead of printing (``X = np.arange(6.).reshape(2, 3)``,
``Wq = np.eye(d)``, ``M = np.triu(np.full((4, 4), -np.inf), k=1)``) are read exactly, so that
what the page prints from them is checked; anything not known exactly is left unread."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.cli import main
from mha_symbolic.extract.code_arrays import code_arrays
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.items import joined


def _built(source: str, kind: str = "md") -> dict[str, np.ndarray]:
    document = read_document(source, kind)
    out = {}
    for item in code_arrays(joined(document), document.lines):
        name = item.statement.split("=")[0].strip()
        out[name] = np.array(
            [[float(Fraction(e)) if "inf" not in e else float(e) for e in row] for row in item.rows]
        )
    return out


def _code(*lines: str) -> str:
    return "# code\n\n```python\n" + "\n".join(lines) + "\n```\n"


def test_constructors_with_sizes_named_before_are_read_exactly() -> None:
    built = _built(
        _code(
            "d = 4",
            "N, D = 3, 2",
            "Wq = np.eye(d)",
            "Wk = 0.5 * np.eye(d)",
            "X = np.arange(18, dtype=np.float64).reshape(3, 6)",
            'X[2, 4] = float("-inf")',
            "M = np.triu(np.full((4, 4), -np.inf), k=1)",
            "mask = torch.tril(torch.ones(N, N))",
            "w = torch.arange(6.).reshape(D, 3).T / 3",
        )
    )
    assert set(built) == {"Wq", "Wk", "X", "M", "mask", "w"}
    np.testing.assert_array_equal(built["Wq"], np.eye(4))
    np.testing.assert_array_equal(built["Wk"], 0.5 * np.eye(4))
    x = np.arange(18, dtype=np.float64).reshape(3, 6)
    x[2, 4] = -np.inf
    np.testing.assert_array_equal(built["X"], x)
    np.testing.assert_array_equal(built["M"], np.triu(np.full((4, 4), -np.inf), k=1))
    np.testing.assert_array_equal(built["mask"], np.tril(np.ones((3, 3))))
    np.testing.assert_allclose(built["w"], np.arange(6.0).reshape(2, 3).T / 3, rtol=1e-15)


@pytest.mark.parametrize(
    "lines",
    [
        ("x = np.random.randn(3, 3)",),  # a random draw
        ("x = np.array([[1, 2], [3, 4]]) * 2",),  # a list: the list finder's
        ("a = np.random.rand(3, 3)", "b = a * 2"),  # built from another array
        ("x = torch.arange(12).view(4, 3)", "x[mask] = 100"),  # changed by a mask afterwards
        ("x = torch.arange(6).view(2, 3)", "x.fill_(1)"),  # changed in place
        ("def f():", "    x = np.eye(3)"),  # inside a function
        ("x = torch.zeros(3, 3)",),  # a constant: nothing computed from it is a worked step
        ("x = np.eye(n)",),  # a size never given
        ("x = (torch.arange(6).reshape(2, 3) / 4).long()",),  # a conversion not read
        ("x = np.arange(10**9)",),  # too big
        ("x = np.eye(4096)",),  # 16 million entries: too big
        ("x = np.ones((4096, 4096))",),
    ],
)
def test_what_is_not_known_exactly_is_left_unread(lines: tuple[str, ...]) -> None:
    assert _built(_code(*lines)) == {}


def test_a_notebook_output_is_no_code() -> None:
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "source": "print('x = np.eye(2)')",
                "outputs": [{"output_type": "stream", "name": "stdout", "text": "x = np.eye(2)\n"}],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    assert _built(json.dumps(notebook, indent=1), "ipynb") == {}


_SIZES = st.integers(min_value=1, max_value=5)


@settings(max_examples=60, deadline=None)
@given(
    rows=_SIZES,
    cols=_SIZES,
    start=st.integers(-3, 3),
    factor=st.sampled_from(["2", "0.5", "-1.25", "3 / 4"]),
    shift=st.integers(-2, 2),
    which=st.sampled_from(["tril", "triu"]),
)
def test_agrees_with_numpy(
    rows: int, cols: int, start: int, factor: str, shift: int, which: str
) -> None:
    """The exact reading against numpy evaluating the same statement."""
    stop = start + rows * cols
    source = (
        f"np.{which}(np.arange({start}, {stop}).reshape({rows}, {cols}) * {factor} + 1, k={shift})"
    )
    built = _built(_code(f"A = {source}"))
    expected = eval(source, {"np": np})  # the oracle: numpy itself
    if np.all(expected == expected.flat[0]):
        assert built == {}  # a constant array is left unread
        return
    np.testing.assert_allclose(built["A"], np.atleast_2d(expected), rtol=1e-15, atol=0)


def _check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    code = main(["check", str(path), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def _softmax_page(printed: np.ndarray) -> str:
    rows = "\n".join(" [" + " ".join(f"{x:.4f}" for x in r) + "]" for r in printed)
    return (
        "# Softmax of a built matrix\n\n```python\n"
        "X = np.arange(6, dtype=np.float64).reshape(2, 3) / 2\n"
        "print(softmax(X, axis=1))\n```\n\nOutput:\n\n```\n[" + rows.strip() + "]\n```\n"
    )


def _softmax() -> np.ndarray:
    x = np.arange(6.0).reshape(2, 3) / 2
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_a_softmax_of_a_built_matrix_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(tmp_path, _softmax_page(_softmax()), capsys)
    assert code == 0
    verdicts = [e["verdict"] for c in report["claims"] for e in c["entries"]]
    assert len(verdicts) == 6 and set(verdicts) <= {"rounded", "exact", "within"}


def test_a_wrong_entry_from_a_built_matrix_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _softmax()
    printed[1, 2] += 0.01
    code, report = _check(tmp_path, _softmax_page(printed), capsys)
    assert code == 1
    wrong = [e["index"] for c in report["claims"] for e in c["entries"] if e["verdict"] == "wrong"]
    assert wrong == [[2, 3]]


def test_a_built_mask_under_a_softmax_heading_is_no_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mask of 0 and -inf built in code, in a section about the softmax, is never claimed as
    the weights (a -inf is no weight): it is the mask the weights' relation applies."""
    s = np.array([[1.2, 0.5, -0.3], [0.4, 1.5, 0.2], [-0.1, 0.7, 1.3]])
    m = np.triu(np.full((3, 3), -np.inf), k=1)
    e = np.exp(s + m - (s + m).max(axis=1, keepdims=True))
    printed = np.array2string(np.round(e / e.sum(axis=1, keepdims=True), 4)).splitlines()
    text = (
        "# Masked scores\n\n```python\nS = np.array([[1.2, 0.5, -0.3], [0.4, 1.5, 0.2], "
        "[-0.1, 0.7, 1.3]])\n```\n\n## Why add -inf before the softmax\n\n```python\n"
        "M = np.triu(np.full((3, 3), -np.inf), k=1)\nA = softmax(S + M)\nprint(np.round(A, 4))\n"
        + "\n".join("# " + row for row in printed)
        + "\n```\n"
    )
    code, report = _check(tmp_path, text, capsys)
    assert code == 0
    claimed = [str(e["claimed"]) for c in report["claims"] for e in c["entries"]]
    assert len(claimed) == 9 and not any("inf" in x for x in claimed)
