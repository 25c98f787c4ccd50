"""Numbers first, in the relation search and what extract makes of it: a row of ones printed
as the weights' row sums is no claim, a remark on scaling never overrules the scale the
printed weights follow, a value printed several times is searched once. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer import inferred, where_of
from mha_symbolic.extract.infer.mapping import said_lines


def text(a: np.ndarray, decimals: int = 4) -> str:
    return (
        "[" + ", ".join("[" + ", ".join(f"{x:.{decimals}f}" for x in row) + "]" for row in a) + "]"
    )


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _said(page: str) -> list[str]:
    document = read_document(page)
    _, items = find_items(document)
    inference = inferred(items, {})
    (members,) = inference.components
    return [str(line) for line in said_lines(inference, members, {}, where_of(document, items))]


S = np.array([[0.5, 1.0, 0.2], [0.3, 0.1, 0.9], [1.2, 0.4, 0.0]])
ROW_SUMS = f"""# Scores and weights

S = {text(S)}

## Softmax

```
row sums, first: [1. 1. 1.]
row sums, again: [1. 1. 1.]
```

A = {text(softmax(S))}
"""


def test_a_row_of_ones_after_a_softmax_is_its_row_sums_never_weights() -> None:
    """A heading calls a printed check `[1. 1. 1.]` "Softmax": the numbers say the row sums
    of a softmax (each 1), so the row is no claim of weights (once claimed, and wrong): it is
    checked as the weights' row sums."""
    (one,) = extract_all(ROW_SUMS)
    assert [str(line) for line in one.inferred] == [
        "line 3 S (3x3): an input (no relation among the printed numbers gives it)",
        "line 8 Softmax (1x3) = the row sums of softmax(line 3, by rows): holds exactly",
        "line 9 Softmax (1x3) = line 8, printed again: holds exactly",
        "line 12 A (3x3) = softmax(line 3, by rows): holds to 4 digits",
    ]
    assert sorted(one.spec.claims) == ["head1.weight_sums", "head1.weights"]
    assert [str(note) for note in one.notes] == [
        "the example starts at scores, as printed: no input, no projections"
    ]
    assert check(one.spec).ok


X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0]])
W_K = np.array([[0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
W_Q = np.array([[1.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
W_V = np.array([[0.0, 2.0, 0.0], [0.0, 3.0, 0.0], [1.0, 0.0, 3.0], [1.0, 1.0, 0.0]])
UNSCALED = softmax((X @ W_Q) @ (X @ W_K).T)
REMARK = f"""# Self-attention

x = {text(X, 0)}

w_query = {text(W_Q, 0)}

w_key = {text(W_K, 0)}

w_value = {text(W_V, 0)}

Plain dot products of each query with every key (scaled dot products are another choice):

attn_scores = {text((X @ W_Q) @ (X @ W_K).T, 0)}

attn_scores_softmax = {text(UNSCALED)}

outputs = {text(UNSCALED @ (X @ W_V))}
"""


def test_a_remark_on_scaled_dot_products_never_overrules_the_printed_weights() -> None:
    """The weights are the softmax of the unscaled scores, to 4 digits: the spec takes no
    scaling, whatever a remark says, and every printed result holds (once the remark made
    the scale √d_k and every weight and output was called wrong)."""
    (one,) = extract_all(REMARK)
    assert one.spec.scale == "none"
    assert sorted(one.spec.claims) == ["head1.scores", "head1.weights", "output"]
    report = check(one.spec)
    assert report.ok
    assert [c.verdict for c in report.claims] == ["exact", "rounded", "rounded"]
