"""Shapes a page states are no values: ``# [4, 2]`` after a statement in code, and "W_q: [3, 2]"
in the text beside a W_q printed 3 x 2 elsewhere; random weights printed to 8 decimals stand for
the interval their digits do, as printed inputs do. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import read

X = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
RNG = np.random.default_rng(3)
W_Q, W_K, W_V = (RNG.normal(0, 0.6, (3, 2)) for _ in range(3))
Q, K, V = X @ W_Q, X @ W_K, X @ W_V
S = Q @ K.T
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)


def _np(a: np.ndarray) -> str:
    return np.array2string(a, precision=8, floatmode="fixed", max_line_width=200)


def _page() -> str:
    text = "# Self-attention\n\nX: [4, 3], one row per position \\\nW_q: [3, 2] \\\n"
    text += "Query = X @ W_q, giving [4, 2]\n"
    code = "Query = X @ W_q  # [4, 2]\nKey = X @ W_k  # [4, 2]\nValue = X @ W_v  # [4, 2]\n"
    cells = [
        {"cell_type": "markdown", "source": text},
        _code("X = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])", ""),
        _code(
            'print(f"W_q: {W_q}")\nprint(f"W_k: {W_k}")\nprint(f"W_v: {W_v}")',
            f"W_q: {_np(W_Q)}\nW_k: {_np(W_K)}\nW_v: {_np(W_V)}\n",
        ),
        _code(code + 'print("Query:\\n", Query)', f"Query:\n {_np(Q)}\n"),
        _code(
            "scores = Query @ Key.T  # [4, 4]\nweights = softmax(scores)\n"
            'print("Attention weights:\\n", weights)',
            f"Attention weights:\n {_np(A)}\n",
        ),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)


def _code(source: str, printed: str) -> dict[str, object]:
    outputs = [{"output_type": "stream", "name": "stdout", "text": printed}] if printed else []
    return {"cell_type": "code", "source": source, "outputs": outputs}


def test_shapes_in_comments_and_beside_names_are_shapes() -> None:
    seen = read(read_document(_page(), "ipynb")).seen
    stated = [
        s for s in seen if len(s.item.rows) == 1 and s.item.rows[0] in (("4", "2"), ("3", "2"))
    ]
    assert stated and all(s.role == "shape" for s in stated), [(s.where, s.role) for s in stated]


def test_the_example_is_judged_from_its_printed_weights_within_their_digits() -> None:
    found = extract_all(_page(), "ipynb", reprints=True)
    verdicts = {c.key: c.verdict for one in found for c in check(one.spec).claims}
    assert {"head1.q", "head1.weights"} <= set(verdicts), verdicts
    assert all(v in ("exact", "rounded", "within") for v in verdicts.values()), verdicts


def test_a_value_ending_a_chain_of_working_is_no_shape() -> None:
    """ "[0, 2] · Wv = [0+0, 0+2] = [2, 2]" is the value worked out, though Wv is 2 x 2."""
    page = (
        "# Values\n\nWv = [[1, 0], [0, 1]]\n\n## Value vectors (embedding × Wv)\n\n```\n"
        "study: [0,2] · Wv = [0×1+2×0, 0×0+2×1] = [0+0, 0+2] = [2, 2]\n```\n"
    )
    seen = read(read_document(page, "md")).seen
    last = [s for s in seen if s.item.rows == (("2", "2"),)]
    assert last and all(s.role != "shape" for s in last), [(s.where, s.role) for s in last]
