"""The weighted values a_ij v_j printed as one (L, L, d_v) batch: by key (the Illustrated
Self-Attention's ``values[:, None] * A.T[:, :, None]``) or by query; the numbers say which,
each row is claimed as ``head1.weighted[i,j]`` and judged. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mha_symbolic import check
from mha_symbolic.extract import extract_all

X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0]])
W_K = np.array([[0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
W_Q = np.array([[1.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
W_V = np.array([[0.0, 2.0, 0.0], [0.0, 3.0, 0.0], [1.0, 0.0, 3.0], [1.0, 1.0, 0.0]])


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


Q, K, V = X @ W_Q, X @ W_K, X @ W_V
A = softmax(Q @ K.T / np.sqrt(3))
BY_KEY = V[:, None] * A.T[:, :, None]  # block j, row i: a_ij v_j
BY_QUERY = A[:, :, None] * V[None, :, :]  # block i, row j: a_ij v_j


def torch_print(a: np.ndarray) -> str:
    """A tensor as torch prints it (4 decimals), batches separated by a blank line."""
    if a.ndim == 3:
        blocks = [torch_print(b)[7:-1] for b in a]
        return "tensor([" + ",\n\n        ".join(blocks) + "])"
    rows = ["[" + ", ".join(f"{x:.4f}" for x in row) + "]" for row in a]
    return "tensor([" + ",\n        ".join(rows) + "])"


def notebook(batch: np.ndarray) -> str:
    cells = [
        ("x", X),
        ("w_key", W_K),
        ("w_query", W_Q),
        ("w_value", W_V),
        ("attn_scores_softmax = softmax(querys @ keys.T / 3**0.5, dim=-1)", A),
        ("weighted_values", batch),
        ("outputs = weighted_values.sum(dim=0)", A @ V),
    ]
    out = [{"cell_type": "markdown", "source": ["# Self-attention step by step\n"]}]
    for source, value in cells:
        output = {"output_type": "stream", "name": "stdout", "text": torch_print(value) + "\n"}
        out.append({"cell_type": "code", "source": f"print({source})", "outputs": [output]})
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4}, indent=1)


@pytest.mark.parametrize(("batch", "by_key"), [(BY_KEY, True), (BY_QUERY, False)])
def test_each_row_of_a_batch_of_weighted_values_is_claimed_where_its_numbers_say(
    batch: np.ndarray, by_key: bool
) -> None:
    found = extract_all(notebook(batch), "ipynb")
    claims = {key: value for one in found for key, value in one.spec.claims.items()}
    for b in range(3):
        for r in range(3):
            i, j = (r, b) if by_key else (b, r)
            key = f"head1.weighted[{i + 1},{j + 1}]"
            assert key in claims
            shown = [float(e) for e in str(claims[key]).strip("[] ").split(",")]
            assert np.allclose(shown, A[i, j] * V[j], atol=5e-5)  # block b, row r is a_ij v_j
    reports = [check(one.spec) for one in found]
    assert all(report.ok for report in reports)
    assert sum(c.key.startswith("head1.weighted") for r in reports for c in r.claims) == 9


def test_a_batch_of_stand_in_weights_is_arranged_by_them_and_judged_against_the_softmax() -> None:
    """The page rounds its weights to one decimal by hand and weighs V with them: those
    printed weights give every row (the softmax's do not), and the rows whose stand-in
    weight differs from the softmax's are wrong."""
    rounded = np.round(A, 1)
    rounded[:, -1] = 1 - rounded[:, :-1].sum(axis=1)  # rows that still sum to 1
    page = json.loads(notebook(rounded.T[:, :, None] * V[:, None]))
    cell = page["cells"][5]["outputs"][0]
    cell["text"] = torch_print(A) + "\n" + torch_print(rounded) + "\n"
    found = extract_all(json.dumps(page, indent=1), "ipynb")
    verdicts = {c.key: c.verdict for one in found for c in check(one.spec).claims}
    for i in range(3):
        for j in range(3):
            stand_in = abs(rounded[i, j] - A[i, j]) * np.abs(V[j]).max() > 5e-5
            assert (verdicts[f"head1.weighted[{i + 1},{j + 1}]"] == "wrong") == stand_in
