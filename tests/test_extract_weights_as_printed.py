"""Weights printed in x out and not square (``W_QT``, C x H) on a page whose text applies the
weights transposed (``nn.Linear``, "X W^T"): X W^T cannot be computed with them, so the numbers
say X W as printed, and the page is checked, not refused. Truth with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

X = np.array([[1, 0, 2, 0, 1], [0, 1, 0, 1, 0], [1, 1, 0, 0, 1]], float)
W_QT = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0]], float)
W_KT = np.array([[0, 1], [1, 0], [0, 0], [1, 1], [0, 1]], float)
W_VT = np.array([[2, 0], [0, 2], [1, 0], [0, 1], [0, 0]], float)


def _attention() -> np.ndarray:
    q, k, v = X @ W_QT, X @ W_KT, X @ W_VT
    scores = q @ k.T / np.sqrt(2)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    return weights @ v


def _page(output: np.ndarray) -> str:
    rows = ",\n        ".join("[" + ", ".join(f"{x:.8f}" for x in row) + "]" for row in output)
    code = (
        "# T = 3, C = 5, H = 2; the weights are given transposed, C x H\n"
        f"X = torch.tensor({X.astype(int).tolist()}, dtype=float)\n"
        f"W_QT = torch.tensor({W_QT.astype(int).tolist()}, dtype=float)\n"
        f"W_KT = torch.tensor({W_KT.astype(int).tolist()}, dtype=float)\n"
        f"W_VT = torch.tensor({W_VT.astype(int).tolist()}, dtype=float)\n"
    )
    check_cell = f"# Sanity check\ntorch.allclose(A, torch.tensor([{rows}]))\n"
    cells = [
        {"cell_type": "markdown", "source": "### Self-attention by hand\n"},
        {"cell_type": "code", "source": code, "outputs": []},
        {"cell_type": "markdown", "source": "Later, each projection is an nn.Linear() layer.\n"},
        {"cell_type": "code", "source": check_cell, "outputs": []},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)


def test_weights_printed_in_by_out_are_applied_as_printed() -> None:
    (one,) = extract_all(_page(_attention()), "ipynb")
    assert one.spec.convention == "xW"
    verdicts = [c.verdict for c in check(one.spec).claims]
    assert verdicts == ["rounded"]


def test_a_wrong_result_on_such_a_page_is_found() -> None:
    output = _attention()
    output[1, 0] += 0.25
    (one,) = extract_all(_page(output), "ipynb")
    assert [c.verdict for c in check(one.spec).claims] == ["wrong"]
