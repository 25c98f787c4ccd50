"""Lines that label a query and then work its row out (``Q1: softmax([0.707, 0]) ≈ [0.67,
0.33]``, ``Q2: 0.33*V1 + 0.67*V2 = ... ≈ [1.67, 0.67]``): the label names the query's row,
not the numbers, so the result is that row of the weights or the output (once read as query 1
and 2 of a second head: the page was refused). Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.labelled_work import label_row, labelled_work

Q = np.array([[1.0, 0.5], [0.2, 1.0]])
K = np.array([[0.8, 0.1], [0.3, 0.9]])
V = np.array([[2.0, 0.0], [1.0, 3.0]])
S = Q @ K.T / np.sqrt(2)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)


def _list(row: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:.3f}" for x in row) + "]"


def page(weights: np.ndarray) -> str:
    out = weights @ V
    lines = [
        "# Two queries by hand",
        "",
        "Q = [[1, 0.5], [0.2, 1]]",
        "",
        "K = [[0.8, 0.1], [0.3, 0.9]]",
        "",
        "V = [[2, 0], [1, 3]]",
        "",
        "## The weights",
        "",
    ]
    for i in range(2):
        lines += [f"Q{i + 1}: softmax({_list(S[i])}) ≈ {_list(weights[i])}", ""]
    lines += ["## The outputs", ""]
    for i in range(2):
        a, b = weights[i]
        lines += [f"Q{i + 1}: {a:.3f}*V1 + {b:.3f}*V2 ≈ {_list(out[i])}", ""]
    return "\n".join(lines)


def _judged(text: str) -> dict[str, str]:
    found = extract_all(text, "md")
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def test_each_labelled_line_is_its_querys_row() -> None:
    judged = _judged(page(A))
    rows = {"head1.scaled[1]", "head1.scaled[2]", "head1.weights[1]", "head1.weights[2]"}
    assert rows | {"output[1]", "output[2]"} == set(judged)
    assert set(judged.values()) <= {"exact", "rounded"}


def test_a_slipped_weight_row_is_found_and_the_outputs_follow_from_it() -> None:
    slipped = A.copy()
    slipped[0] = [A[0, 0] - 0.002, A[0, 1] + 0.002]
    judged = _judged(page(slipped))
    assert judged["head1.weights[1]"] == "wrong"
    assert judged["head1.weights[2]"] in ("exact", "rounded")
    assert judged["output[1]"] == "wrong"  # right from the printed weights, not exactly


def test_labels_and_working() -> None:
    assert labelled_work("Q1: softmax([0.707, 0]) ≈ ") == ("weights", 1)
    assert labelled_work("Q_2: 0.3*V1 + 0.7*V2 = 0.3*[1,0] + 0.7*[2,1] = ") == ("output", 2)
    assert labelled_work("Q1: 0.3*V1 + 0.7*V2 = 0.3*") is None  # an operand, not the result
    assert labelled_work("Q1: the query of the first token = ") is None
    assert labelled_work("Step 2: softmax(x) = ") is None  # a step's number is no query
    assert label_row("Q2: softmax(") == 2
    assert label_row("softmax(") is None


def test_a_labelled_matrix_is_no_row() -> None:
    text = page(A).split("## The weights")[0] + f"h1: softmax(S) = {np.round(A, 3).tolist()}\n"
    (one,) = extract_all(text, "md")
    assert sorted(one.spec.claims) == ["head1.weights"]
    assert check(one.spec).ok
