"""A table printing several matrices side by side, its columns named by matrix: one matrix per
group of columns (Q1 Q2 | K1 K2 | V1 V2; ohne_c1 ohne_c2 | causal_c1 causal_c2), each named by
its group; an output without the mask beside the masked one is its own example's output, not a
wrong output of the masked example. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.column_groups import column_groups
from mha_symbolic.extract.items import Item

TOKENS = ["Rome", "was", "not", "built"]
Q = np.array([[0.9, 0.4], [0.7, 1.1], [0.3, 1.0], [0.5, 0.8]])
K = np.array([[1.1, 0.3], [0.6, 0.9], [0.2, 1.2], [0.4, 0.7]])
V = np.array([[1.0, 0.2], [0.1, 0.9], [0.6, 0.6], [0.2, 1.0]])
S = Q @ K.T / np.sqrt(2)
CAUSAL = np.tril(np.ones((4, 4), dtype=bool))


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


A_FULL = softmax(S)
A_CAUSAL = softmax(np.where(CAUSAL, S, -1e9))


def _frame(a: np.ndarray, columns: list[str], digits: int = 3) -> str:
    head = "      " + "  ".join(f"{c:>9}" for c in columns)
    rows = [f"{t:<6}" + "  ".join(f"{x:9.{digits}f}" for x in row) for t, row in zip(TOKENS, a)]
    return "\n".join([head, *rows]) + "\n"


def _notebook(*cells: tuple[str, str]) -> str:
    out = [{"cell_type": "markdown", "source": ["# A causal mask, worked\n"]}]
    for source, printed in cells:
        output = {"output_type": "execute_result", "data": {"text/plain": printed}}
        out.append({"cell_type": "code", "source": source, "outputs": [output]})
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4}, indent=1)


QKV = ["Q1", "Q2", "K1", "K2", "V1", "V2"]
PAGE = _notebook(
    (
        "pd.DataFrame(np.hstack([Q, K, V]), index=tokens, columns=cols)",
        _frame(np.hstack([Q, K, V]), QKV, 1),
    ),
    ("S = Q @ K.T / np.sqrt(2)\npd.DataFrame(S).round(3)", _frame(S, TOKENS)),
    (
        "A_causal = softmax(np.where(mask, S, -1e9))\npd.DataFrame(A_causal).round(3)",
        _frame(A_CAUSAL, TOKENS),
    ),
    (
        "C = np.hstack([A_no_mask @ V, A_causal @ V])\npd.DataFrame(C, columns=cols).round(3)",
        _frame(
            np.hstack([A_FULL @ V, A_CAUSAL @ V]), ["ohne_c1", "ohne_c2", "causal_c1", "causal_c2"]
        ),
    ),
)


def _item(columns: list[str]) -> Item:
    rows = tuple(tuple(str(n) for n in range(len(columns))) for _ in range(2))
    return Item(rows, 0, 10, 0, "frame", "", "", columns=tuple(columns), labels=("a", "b"))


def test_columns_named_by_matrix_are_one_matrix_each() -> None:
    parts = column_groups(_item(QKV))
    assert [p.statement for p in parts] == ["Q =", "K =", "V ="]
    assert [p.columns for p in parts] == [("Q1", "Q2"), ("K1", "K2"), ("V1", "V2")]
    assert parts[2].rows == (("4", "5"), ("4", "5"))
    assert [
        p.statement for p in column_groups(_item(["ohne_c1", "ohne_c2", "mit_c1", "mit_c2"]))
    ] == [
        "ohne =",
        "mit =",
    ]


def test_columns_of_one_matrix_or_of_numbered_heads_stay_one_table() -> None:
    assert column_groups(_item(["h1_c1", "h1_c2", "h2_c1", "h2_c2"])) == []  # a concatenation
    assert column_groups(_item(["dim_1", "dim_2", "dim_3", "dim_4"])) == []
    assert column_groups(_item(["Q1", "K1", "Q2", "K2"])) == []  # not adjacent
    assert column_groups(_item(["Q1", "Q2", "K1", "score"])) == []


def test_outputs_with_and_without_the_mask_side_by_side_are_each_right() -> None:
    found = extract_all(PAGE, "ipynb", reprints=True)
    judged = [(c.key, c.verdict, c.claim.text) for one in found for c in check(one.spec).claims]
    outputs = {text.split(",")[0].strip("[ "): v for k, v, text in judged if k.endswith("output")}
    assert outputs == {
        f"{(A_FULL @ V)[0, 0]:.3f}": "rounded",
        f"{(A_CAUSAL @ V)[0, 0]:.3f}": "rounded",
    }
    assert all(v in ("exact", "rounded", "within") for _, v, _ in judged), judged
