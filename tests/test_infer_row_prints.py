"""One query's weights printed on their own: each row is placed by the softmax its numbers
follow (of which printed scores, scaled or not), never by its name alone. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all


def text(a: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.4f}" for x in row) + "]" for row in a) + "]"


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


S = np.array([[1.2, -0.4, 2.1], [0.3, 1.7, -1.1], [-0.8, 0.5, 0.9]])
SCALED = S / np.sqrt(2)
WITH_AND_WITHOUT = f"""# Why the scores are scaled

```
scores = {text(S)}
scaled = {text(SCALED)}
attention weights = {text(softmax(SCALED))}
softmax of row 0, unscaled: {text(softmax(S[:1]))[1:-1]}
softmax of row 0, scaled: {text(softmax(SCALED[:1]))[1:-1]}
```
"""


def test_a_row_soft_maxed_without_the_scale_is_its_own_example_not_a_wrong_weight() -> None:
    """Both rows are named softmax row 0: the first is the softmax of the raw scores' row,
    the second of the scaled row. The numbers put each with its own scale (two examples, one
    per setting), so neither is called wrong (the unscaled one once was, four entries)."""
    scaled, unscaled = extract_all(WITH_AND_WITHOUT)
    assert [str(line) for line in scaled.inferred][-1] == (
        "line 8 softmax (1x3) = softmax(row 1 of line 5, by rows): holds to 4 digits"
    )
    assert [str(line) for line in unscaled.inferred][-1] == (
        "line 7 softmax (1x3) = softmax(row 1 of line 4, by rows): holds to 4 digits"
    )
    assert unscaled.spec.scale == "none"
    assert sorted(unscaled.spec.claims) == ["head1.weights[1]"]
    assert sorted(scaled.spec.claims) == ["head1.scaled", "head1.weights", "head1.weights[1]"]
    for one in (scaled, unscaled):
        report = check(one.spec)
        assert report.ok
        assert {c.verdict for c in report.claims} <= {"rounded", "within", "exact"}


def test_a_row_of_other_numbers_under_the_same_name_is_still_judged() -> None:
    """A row no softmax of the printed scores gives (a slip in two entries) stays a claim on
    the row its name says, and is found wrong; the unscaled row beside it, which its numbers
    place (row 1 of the unscaled example), is judged right."""
    wrong = softmax(SCALED[:1]).copy()
    wrong[0, :2] = wrong[0, 1::-1]
    page = WITH_AND_WITHOUT.replace(text(softmax(SCALED[:1]))[1:-1], text(wrong)[1:-1])
    page = page.replace("softmax of row 0, unscaled", "unscaled")
    found = extract_all(page)
    claims = [key for one in found for key in one.spec.claims]
    assert "head1.weights[1]" in claims
    judged = [(c.key, c.verdict, c.claim.text) for one in found for c in check(one.spec).claims]
    row = [(v, claimed) for k, v, claimed in judged if k == "head1.weights[1]"]
    assert {v for v, claimed in row if text(wrong)[2:8] in claimed} == {"wrong"}
    assert {v for v, claimed in row if text(softmax(S[:1]))[2:8] in claimed} == {"rounded"}


OMEGA = np.array([[8.5808, -7.6597, 3.2558, 1.0395, 11.1466, -0.4800]])


def _cells(*cells: tuple[str, str]) -> str:
    out = [{"cell_type": "markdown", "source": ["# One query's attention\n"]}]
    for source, printed in cells:
        output = {"output_type": "stream", "name": "stdout", "text": printed}
        out.append({"cell_type": "code", "source": source, "outputs": [output]})
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4}, indent=1)


def _tensor(row: np.ndarray) -> str:
    return "tensor([" + ", ".join(f"{x:.4f}" for x in row) + "])\n"


ONE_QUERY = _cells(
    ("query_2 = W_query.matmul(x_2)\nprint(query_2.shape)", "torch.Size([24])\n"),
    ("omega_2 = query_2.matmul(keys.T)\nprint(omega_2)", _tensor(OMEGA[0])),
    ("print(omega_2 / d_k**0.5)", _tensor(OMEGA[0] / np.sqrt(24))),
    ("print(F.softmax(omega_2 / d_k**0.5, dim=0))", _tensor(softmax(OMEGA / np.sqrt(24))[0])),
)


def test_one_querys_scores_scaled_by_a_width_only_a_printed_shape_states() -> None:
    """Q and K are never printed: d_k = 24 is said only by ``torch.Size([24])``. The numbers
    divide the printed row by √24 and soft-max it: the row is the scaled scores of the one
    query, and the example starts at its scores (once: "no input found")."""
    (one,) = extract_all(ONE_QUERY, "ipynb")
    assert [str(line) for line in one.inferred] == [
        "cell 3, output line 1 (1x6): an input (no relation among the printed numbers gives it)",
        "cell 4, output line 1 (1x6) = cell 3, output line 1 / √24: holds to 4 digits",
        "cell 5, output line 1 (1x6) = softmax(cell 4, output line 1, by rows): holds to 4 digits",
    ]
    assert sorted(one.spec.claims) == ["head1.scaled[1]", "head1.scores[1]", "head1.weights[1]"]
    assert check(one.spec).ok
