"""A table whose columns are the vectors (headers ``Q1 | Q2`` over rows ``dim1``, ``dim2``: one
column per word) is the matrix of those vectors as rows, named by their letter."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document

_Q = np.array([[1.0, 0.0], [1.0, 1.0]])
_K = np.array([[1.0, 2.0], [0.0, 1.0]])
_V = np.array([[1.0, 0.0], [2.0, 1.0]])


def _table(name: str, m: np.ndarray, label: str = "dim") -> str:
    head = "| | " + " | ".join(f"{name}{j + 1}" for j in range(m.shape[0])) + " |"
    rows = [
        f"| {label}{d + 1} | " + " | ".join(f"{m[j, d]:g}" for j in range(m.shape[0])) + " |"
        for d in range(m.shape[1])
    ]
    return "\n".join([head, "|---|---|---|", *rows])


def _matrix(m: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in m) + "]"


def _page() -> str:
    s = _Q @ _K.T / np.sqrt(2)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    return (
        "# Two words, one column each\n\n"
        + "\n\n".join(_table(n, m) for n, m in (("Q", _Q), ("K", _K), ("V", _V)))
        + f"\n\nScaled scores Q K^T / √2 = {_matrix(s)}\n\n"
        f"Attention weights = {_matrix(a)}\n\nOutput = {_matrix(a @ _V)}\n"
    )


def test_the_columns_are_the_rows_of_the_matrix() -> None:
    _, items = find_items(read_document(_page(), "md"))
    tables = [i for i in items if i.kind == "table"]
    assert [t.statement for t in tables] == ["Q =", "K =", "V ="]
    for table, m in zip(tables, (_Q, _K, _V), strict=True):
        assert np.array_equal(np.array(table.rows, dtype=float), m)
        assert table.labels[0].endswith("1") and table.columns == ("dim1", "dim2")


def test_a_page_of_vector_tables_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "page.md"
    path.write_text(_page(), encoding="utf-8")
    assert main(["check", str(path), "--format", "json"]) == 0
    claims = json.loads(capsys.readouterr().out)["claims"]
    assert {c["key"] for c in claims} >= {"head1.weights", "output"}


def test_rows_labelled_by_words_stay_as_printed() -> None:
    """Rows labelled by tokens ("cat", "sat") are the rows already: nothing is turned."""
    text = "| | Q1 | Q2 |\n|---|---|---|\n| cat | 1 | 0 |\n| sat | 2 | 1 |\n"
    _, items = find_items(read_document("# t\n\n" + text, "md"))
    assert [i.rows for i in items if i.kind == "table"] == [(("1", "0"), ("2", "1"))]
