"""Lines that label a query and then work its row out (``Q1: softmax([0.707, 0]) ≈ [0.67,
0.33]``, ``Q2: 0.33*V1 + 0.67*V2 = ... ≈ [1.67, 0.67]``): the label names the query's row,
not the numbers, so the result is that row of the weights or the output (once read as query 1
and 2 of a second head: the page was refused). Truths with numpy."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.draft import Draft, Value
from mha_symbolic.extract.labelled_work import label_row, labelled_work
from mha_symbolic.extract.reprints import rows_again

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


def test_rows_worked_out_then_printed_as_one_table_are_judged_again() -> None:
    """A step claimed row by row (outputs worked out one query at a time), then a results
    table of its rows that nothing else claims: each row is judged again where the table
    stands; a table of other numbers, or of rows 1 and 3 only, is not."""
    draft = Draft("page.md", "Two queries")
    draft.claims = [
        Value("output[1]", "[1.332, 0.332]", "line 75: output", where=("line 75",)),
        Value("output[2]", "[1.668, 0.668]", "line 77: output", where=("line 77",)),
    ]
    table = ("line 82", ("1.332", "0.332", "1.668", "0.668"))
    other = ("line 90", ("1.332", "0.332", "1.667", "0.668"))
    again = rows_again(draft, [table, other], set())
    assert [(v.key, v.where) for v in again] == [
        ("output[1]", ("line 82",)),
        ("output[2]", ("line 82",)),
    ]
    draft.claims[1] = replace(draft.claims[1], key="output[3]")
    assert rows_again(draft, [table], set()) == []
