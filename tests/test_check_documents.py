"""Checking a document as printed: what the numbers relate is claimed (a print of the same
numbers again, a row the numbers place), what they do not relate is left alone, and a masked
entry is shown as a reader writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all
from tests.pages import QKV_PAGE


def _page(tmp_path: Path, text: str, name: str = "page.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


AGAIN = """# Causal attention weights from the scores

scores = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

masked = [[1, -inf, -inf], [4, 5, -inf], [7, 8, 9]]

| row | weights |
|---|---|
| 1 | [1.0, 0, 0] |
| 2 | [0.27, 0.73, 0] |
| 3 | [0.09, 0.24, 0.67] |

The same weights as the tensor prints them:

```
tensor([[1.0000, 0.0000, 0.0000],
        [0.2689, 0.7311, 0.0000],
        [0.0900, 0.2447, 0.6652]])
```
"""


def test_numbers_printed_again_are_claimed_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tensor prints the table's weights again: the same step, claimed row by row."""
    path = _page(tmp_path, AGAIN)
    claims = extract_all(path)[0].spec.claims
    assert sorted(claims) == [
        "head1.masked",
        "head1.weights",
        "head1.weights[1]",
        "head1.weights[2]",
        "head1.weights[3]",
    ]
    assert claims["head1.weights[2]"] == "[0.2689, 0.7311, 0.0000]"
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 5 claims: 5 hold (2 exact, 3 rounded)"
    )


ROUNDED = """# Attention on random numbers

Q = [[0.7363, 0.4265], [1.1936, 0.8369]]

K = [[0.7578, 0.5968], [1.3492, 1.0214]]

scores = Q K^T:

[[0.8126, 1.4290], [1.4040, 2.4652]]
"""


def test_q_and_k_without_values_start_the_example_and_rounded_inputs_are_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Q and K printed, no V: the example starts at them (V as symbols), never a cross
    attention through unknown weights; their 4-decimal print stands for what it rounds, so
    0.8126 (from the unrounded Q and K) is not called wrong for 0.8125 of the rounded ones."""
    path = _page(tmp_path, ROUNDED)
    spec = extract_all(path)[0].spec
    assert (spec.stage, spec.inputs, spec.symbolic) == ("qkv", "printed", frozenset())
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: the example starts at q, k, as printed: no input, no projections" in out
    assert out.splitlines()[-1] == (
        f"{path}: 1 claim: 1 holds (0 exact, 0 rounded, 1 within the printed precision)"
    )


NAMED_S = QKV_PAGE


def test_numbers_named_as_the_scores_that_are_the_scaled_scores_are_checked_as_those(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, NAMED_S)
    assert sorted(extract_all(path)[0].spec.claims) == ["head1.scaled", "head1.weights", "output"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    # The numbers give the step: the name "S" says scores, the relation their scaled stage.
    assert "line 11 S (3x3) = (line 3 × line 5ᵀ) / √2: holds to 3 digits" in out
    assert "S (line 11) -> claim head1.scaled" in out
    assert out.splitlines()[-1] == f"{path}: 3 claims: 3 hold (0 exact, 3 rounded)"


HEADING = """# Attention with a mask

Q = [[1, 0], [0, 1], [1, 1]]

K = [[1, 0], [0, 1], [1, 1]]

V = [[1, 2], [3, 4], [5, 6]]

## Softmax

[[1., 1., 1.],
 [1., 1., 1.],
 [1., 1., 1.]]
"""


def test_numbers_only_a_heading_names_and_no_relation_explains_are_left_alone(
    tmp_path: Path,
) -> None:
    """Row sums printed under the heading "Softmax" are no probabilities, hence not the
    weights the heading names: never a claim (the page has no example the numbers relate)."""
    path = _page(tmp_path, HEADING)
    assert extract_all(path)[0].spec.claims == {}


MASKED_SPEC = """title = "mask"
scores = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
v = [["v_1"], ["v_2"], ["v_3"]]
mask = "causal"

[claims]
"head1.masked" = "[[1, 0, -inf], [4, 5, -inf], [7, 8, 9]]"
"""


def test_a_masked_score_is_shown_as_minus_infinity_in_text_and_in_latex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, MASKED_SPEC, "mask.toml")
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[2:5] == [
        "  exact    [[1, -∞, -∞], [4, 5, -∞], [7, 8, 9]]",
        "  (1, 2)   claimed 0, exact -∞: wrong",
        "  why      Entry (1, 2): the masked score is -∞, the document has 0.",
    ]
    assert main(["check", str(path), "--format", "md"]) == 1
    row = capsys.readouterr().out.splitlines()[2]
    assert r"$\begin{bmatrix}1 & -\infty & -\infty\\4 & 5 & -\infty\\7 & 8 & 9\end{bmatrix}$" in row
    assert "| [[1, -∞, -∞], [4, 5, -∞], [7, 8, 9]] |" in row


ROWS = """# Attention scores without projections

inputs = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]

attention scores of the second token:

[0.0, 1.0, 1.0]

attn_scores = inputs @ inputs.T = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]]

attn_weights = softmax(attn_scores) = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], \
[0.2119, 0.2119, 0.5761]]

Attention weights: [0.2119, 0.2119, 0.5761]
"""


def test_a_vector_printed_without_its_token_is_the_row_its_numbers_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last weights are row 3's (no other row has them); the whole numbers of the
    second token's scores decide nothing (1.0 rounds many rows) and are left alone."""
    path = _page(tmp_path, ROWS)
    claims = extract_all(path)[0].spec.claims
    assert sorted(claims) == ["head1.scores", "head1.weights", "head1.weights[3]"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: line 13: the numbers are those of head1.weights[3]: checked there" in out
    assert "which token" not in out
    assert out.splitlines()[-1] == f"{path}: 3 claims: 3 hold (1 exact, 2 rounded)"


BATCH = """# Attention on a batch of two sequences

X = [[1, 0], [0, 1], [1, 1], [0, 0]]

W_Q = [[1, 0], [0, 1]]

W_K = [[1, 0], [0, 1]]

W_V = [[1, 0], [0, 1]]

weights of the first sequence:

weights = [[0.67, 0.33], [0.33, 0.67]]

output = [[0.67, 0.33], [0.33, 0.67], [1.0, 1.0], [0.0, 0.0]]
"""


def test_results_of_an_example_that_does_not_fit_the_printed_weights_are_not_claimed(
    tmp_path: Path,
) -> None:
    """Two sequences of two tokens printed as one X of four: the weights are 2x2, the
    example's 4x4; its output would be judged against another computation: no claim."""
    path = _page(tmp_path, BATCH)
    (one,) = extract_all(path)
    assert one.spec.claims == {}
    assert (
        "line 13: the page prints (2, 2) attention, the example has (4, 4): it does not fit "
        "the numbers, nothing is claimed"
    ) in one.notes
