"""A page is read the way its printed numbers fit: index-named per-token vectors stacked, the
softmax of given numbers with those numbers as the scores, one head or the given Q, K and V
when the first reading does not fit; and a print no row of weights can be is never claimed as
weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.indexed_vectors import stacked_vectors
from mha_symbolic.extract.reading import read
from mha_symbolic.extract.weights_plausible import cannot_be_weights


def _page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


QUIZ = """# Quiz 3: attention by hand

Question 2. One query attends over two keys with dot-product attention (no scaling).

q = [1, 0], K1 = [1, 0], K2 = [0, 1], V1 = [1, 2], V2 = [3, 4]

Answer. The scores are q·K1 = 1 and q·K2 = 0.

softmax([1, 0]) = [0.73, 0.27]

The output is 0.73 V1 + 0.27 V2 = [1.54, 2.54].
"""


def test_index_named_token_vectors_are_stacked_into_k_and_v(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, QUIZ)
    spec = extract_all(path)[0].spec
    assert spec.stage == "qkv"
    assert [m.shape for m in spec.k or ()] == [(2, 2)]
    assert [[int(e) for e in m] for m in spec.v or ()] == [[1, 2, 3, 4]]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "K1, K2 (line 5) -> k" in out
    assert out.splitlines()[-1] == f"{path}: 4 claims: 4 hold (2 exact, 2 rounded)"


SUBSCRIPTS = """# Two tokens, dot-product attention without scaling

q₁ = [1, 2]

q₂ = [0, 1]

k₁ = [1, 0]

k₂ = [1, 1]

scores = [[1, 3], [0, 1]]

weights = [[0.12, 0.88], [0.27, 0.73]]
"""


def test_unicode_subscripts_number_the_tokens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, SUBSCRIPTS)
    spec = extract_all(path)[0].spec
    assert [m.shape for m in spec.q or ()] == [(2, 2)]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"
    )


HEADS = """# Two attention heads, each with its own Q

Q1 = [[1, 0], [0, 1]]

Q2 = [[0, 1], [1, 0]]

K1 = [[1, 0], [0, 1]]

K2 = [[1, 1], [0, 1]]

V1 = [[1, 2], [3, 4]]

V2 = [[2, 1], [0, 1]]
"""


def test_index_named_matrices_stay_heads(tmp_path: Path) -> None:
    seen = read(read_document(_page(tmp_path, HEADS))).seen
    assert [(s.name, s.role, s.head) for s in stacked_vectors(seen)] == [
        (f"{letter}{head}", letter.lower(), head) for letter in "QKV" for head in (1, 2)
    ]


API = """# softmax

Computes the softmax of a tensor along an axis.

```python
>>> x = tensor([1.0, 2.0, 3.0])
>>> softmax(x, axis=-1)
tensor([0.0900, 0.2447, 0.6652])
```
"""


def test_a_softmax_api_example_takes_its_argument_as_the_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, API)
    assert extract_all(path)[0].spec.stage == "scores"
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "x (line 6) -> scores" in out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"


CALL = """# softmax of a list

```python
>>> p = softmax([-1, 0., 1.])
>>> p
array([0.090, 0.245, 0.665])
>>> sum(p)
1.0
```
"""


def test_the_argument_of_a_softmax_call_is_the_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, CALL)
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"
    )


OTHER_MODEL = """# Notes on a tiny decoder

The model we trained earlier predicts a point in the plane; the predicted coordinates are
next step's inputs:

inputs = [0.5, 1.5]

That model has heads = 3 and a learning rate of 0.01.

## Attention by hand

```python
keys = np.array([[1.0, 0.0], [1.0, 1.0]])
values = np.array([[1.0, 2.0], [3.0, 4.0]])
query = np.array([[1.0, 2.0]])
scores = query @ keys.T / np.sqrt(2)
print(scores)
```

```
[[0.7071 2.1213]]
```

```python
weights = softmax(scores)
print(weights)
```

```
[[0.1956 0.8044]]
```

```python
print(weights @ values)
```

```
[[2.6089 3.6089]]
```
"""


def test_an_unrelated_input_gives_way_to_the_given_query_keys_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, OTHER_MODEL)
    spec = extract_all(path)[0].spec
    assert (spec.stage, spec.heads) == ("qkv", 1)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "note: read with the printed Q, K, V (or scores) as given, without the unrelated X: "
        "the first reading\n    fits fewer of the printed numbers"
    ) in out
    assert out.splitlines()[-1] == f"{path}: 4 claims: 4 hold (1 exact, 3 rounded)"


COUNTS = """# Softmax

We apply softmax to the scores [2, 0, 1]:

softmax: [1, 1, 3]

The weights are [0.665, 0.090, 0.245].
"""


def test_a_print_no_row_of_weights_can_be_is_never_claimed_as_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, COUNTS)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[1, 1, 3]" not in out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ((("1", "1", "3"),), True),  # counts
        ((("0.50", "0.60"),), True),  # a row summing to 1.1
        ((("-0.2", "1.2"),), True),  # sums to 1, entries outside [0, 1]
        ((("0.33", "0.33", "0.33"),), False),  # 0.99: within three half-units
        ((("1", "0", "0"), ("0.5", "0.5", "0")), False),  # one-hot and a masked row
        ((("1/3", "2/3"),), False),
        ((("9.9e-01", "1.0e-02"),), False),
        ((("0.7", "x"),), False),  # a symbol: nothing to say
        ((("1", "-inf"), ("0.5", "0.5")), True),  # a mask: -inf is no weight
        ((("1", "−∞"),), True),
        ((("0", "-\\infty"),), True),
    ],
)
def test_which_prints_can_be_rows_of_weights(
    rows: tuple[tuple[str, ...], ...], expected: bool
) -> None:
    assert cannot_be_weights(rows) is expected


ONE_HEAD = """# Scaled dot-product scores

The full model uses h = 2 heads. Below, one head's query and key matrices are given directly.

Q = [[1, 2], [0, 1]]

K = [[1, 0], [1, 1]]

QK^T / √2 = [[0.7071, 2.1213], [0, 0.7071]]
"""


def test_a_head_count_said_for_another_model_gives_way_to_one_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, ONE_HEAD)
    assert extract_all(path)[0].spec.heads == 1
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: read with one head: the first reading fits fewer of the printed numbers" in out
    assert out.splitlines()[-1] == f"{path}: 1 claim: 1 holds (0 exact, 1 rounded)"


def test_a_refusal_names_the_readings_tried(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, ONE_HEAD.replace("K = [[1, 0], [1, 1]]", "K = [[1, 0, 1], [1, 1, 0]]"))
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: {path}: the printed arrays do not fit together: found Q (2×2, line 5) "
        "and K (2×3, line 7) but a row of Q has 2 numbers and a row of K 3: no scores can be "
        "formed from them; also tried one head: none fits\n"
    )


SLICED = """# Notes on a tiny decoder

The model we trained earlier predicts a point in the plane; the predicted coordinates are
next step's inputs:

inputs = [0.5, 1.5]

That model has heads = 3 and a learning rate of 0.01.

## Attention by hand

```python
values = np.array([[1.0, 2.0], [3.0, 4.0]])
keys = np.array([[1.0, 0.0], [1.0, 1.0]])
query = np.array([[1.0, 2.0, 7.0]])[:, :2]
print(query)
```

```
[[1. 2.]]
```

```python
scores = query @ keys.T / np.sqrt(2)
print(scores)
```

```
[[0.7071 2.1213]]
```

```python
weights = softmax(scores)
print(weights)
```

```
[[0.1956 0.8044]]
```

```python
print(weights @ values)
```

```
[[2.6089 3.6089]]
```
"""


def test_a_query_print_that_fits_the_keys_is_taken_over_one_that_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, SLICED)
    spec = extract_all(path)[0].spec
    assert [[int(e) for e in m] for m in spec.q or ()] == [[1, 2]]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "note: read with the prints of Q, K and V whose shapes fit one another, the printed Q, K, "
        "V (or\n    scores) as given, without the unrelated X: the first reading fits fewer of the "
        "printed numbers"
    ) in out
    assert out.splitlines()[-1] == f"{path}: 4 claims: 4 hold (1 exact, 3 rounded)"


SENTENCE = """# Attention quiz

Question: take the query vector Q = [0, 1], key vectors K1 = [1, 1], K2 = [0, 2], and value \
vectors V1 = [4, 0], V2 = [0, 8]. What does attention return when softmax is applied to Q·K^T \
and the values are weighted by it?

Solution:

Q·K1 = 1 and Q·K2 = 2.

Softmax(1, 2) = [0.269, 0.731].

Output = 0.269*[4, 0] + 0.731*[0, 8] = [1.076, 0] + [0, 5.848] = [1.076, 5.848].
"""


def test_a_symbol_named_by_its_sentence_is_the_query(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, SENTENCE)
    spec = extract_all(path)[0].spec
    assert spec.stage == "qkv"
    assert [[int(e) for e in m] for m in spec.q or ()] == [[0, 1]]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 6 claims: 6 hold (2 exact, 4 rounded)"
    )


def _cell(number: int, source: str, kind: str, text: str) -> dict[str, object]:
    output: dict[str, object] = (
        {"output_type": "stream", "name": "stdout", "text": [text]}
        if kind == "stream"
        else {"output_type": kind, "execution_count": number, "metadata": {},
              "data": {"text/plain": [text]}}
    )  # fmt: skip
    return {
        "cell_type": "code",
        "execution_count": number,
        "metadata": {},
        "source": source.splitlines(keepends=True),
        "outputs": [output],
    }


_COUNT_CELLS = [
    ("scores = np.array([[2.0, 0.0, 1.0]])\nattn = softmax(scores)\nprint(attn)", "stream",
     "[[0.6652 0.0900 0.2447]]\n"),
    ("counts = np.bincount(tokens)\nprint(softmax.__name__, counts)", "stream",
     "softmax [1 1 3]\n"),
    ("attn", "execute_result", "array([1, 1, 3])"),
]  # fmt: skip
COUNTS_NOTEBOOK = {
    "cells": [_cell(n, source, kind, text) for n, (source, kind, text) in enumerate(_COUNT_CELLS)],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_a_count_vector_printed_again_as_attn_is_not_claimed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps(COUNTS_NOTEBOOK), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[1, 1, 3]" not in out
    assert "note: cell 2, output line 1: left alone, no reading of it fits\n" in out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"


TOKEN_INPUTS = """# Self-attention for two tokens

The inputs are x1 = [1, 0] and x2 = [1, 1]. No projections: Q = K = V = X, no scaling.

Scores: [[1, 1], [1, 2]]

Weights: [[0.5, 0.5], [0.2689, 0.7311]]
"""


def test_index_named_inputs_are_the_token_rows_of_x(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, TOKEN_INPUTS)
    assert [[int(e) for e in row] for row in extract_all(path)[0].spec.query.tolist()] == [
        [1, 0],
        [1, 1],
    ]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"
    )


def test_inputs_named_by_head_stay_the_heads_slices(tmp_path: Path) -> None:
    page = TOKEN_INPUTS.replace("x1 = [1, 0] and x2", "X_head1 = [1, 0] and X_head2")
    seen = read(read_document(_page(tmp_path, page))).seen
    assert [(s.role, s.head) for s in stacked_vectors(seen)][:2] == [("head.x", 1), ("head.x", 2)]
