"""Pages that print no X start each example where their numbers start: lecture notes setting Q,
K and V by hand example after example, Q, K and V projected by printed per-head weights; a page
the relation search gives up on says so when nothing could be read."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.lists import Parsed, parse
from tests.test_infer_search import hostile_notebook

TWO_EXAMPLES = """# Attention by hand

## Example 1

Q = [[1, 0], [0, 1]]

K = [[1, 0], [0, 1]]

V = [[1, 2], [3, 4]]

QK^T = [[1, 0], [0, 1]]

weights = [[0.67, 0.33], [0.33, 0.67]]

## Example 2

Q = [[1, 1]]

K = [[1, 0], [0, 1]]

V = [[2, 3], [4, 1]]

QK^T = [[1, 1]]

weights = [[0.5, 0.5]]

output = [[3, 2]]
"""

PROJECTED = """# Two heads from Q, K and V

head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V), no scaling.

Q = [[1, 2], [0, 1]]

K = [[1, 1], [0, 1]]

V = [[1, 2], [3, 4]]

W^Q_1 = [[1], [0]]

W^K_1 = [[1], [0]]

W^V_1 = [[1], [1]]

W^Q_2 = [[0], [1]]

W^K_2 = [[0], [1]]

W^V_2 = [[1], [0]]

Q_1 K_1^T = [[1, 0], [0, 0]]

Q_2 K_2^T = [[2, 2], [1, 1]]
"""

SENTENCE = """# Softmax by hand

Q = [[1, 0], [0, 1]]

K = [[1, 0], [0, 1]]

V = [[1, 2], [3, 4]]

Divided by sqrt(2): [[0.71, 0], [0, 0.71]]

3. Softmax of each row, the first: [0.71, 0] gives [0.67, 0.33]

weights = [[0.67, 0.33], [0.33, 0.67]]
"""


def _page(tmp_path: Path, text: str, name: str = "page.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_each_new_q_on_a_page_without_x_starts_another_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, TWO_EXAMPLES)
    found = extract_all(path)
    assert [(e.spec.stage, sorted(e.spec.claims)) for e in found] == [
        ("qkv", ["head1.scores", "head1.weights"]),
        ("qkv", ["head1.q[1]", "head1.scores[1]", "head1.weights[1]", "output[1]"]),
    ]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 4 claims: 4 hold (4 exact, 0 rounded)"
    )


def test_q_k_v_printed_with_their_projections_are_the_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, PROJECTED)
    one = extract_all(path)[0]
    assert one.spec.stage == "inputs" and one.spec.heads == 2
    assert [str(one.draft.get(key)) for key in ("query", "key", "value")] == [
        "[['1', '2'], ['0', '1']]",
        "[['1', '1'], ['0', '1']]",
        "[['1', '2'], ['3', '4']]",
    ]
    assert sorted(one.spec.claims) == ["head1.scores", "head2.scores"]
    assert (
        "Q, K and V are printed with the weights that project them: they are the inputs "
        "query, key, value"
    ) in one.notes
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 2 claims: 2 hold (2 exact, 0 rounded)"
    )


def test_a_row_a_sentence_calls_the_softmax_is_no_weights_when_it_is_no_probabilities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """[0.71, 0] under "Softmax of each row" sums to 0.71: the softmax's argument, not the
    weights (the integer 0 counts as exact); [0.67, 0.33] after it is weights row 1."""
    path = _page(tmp_path, SENTENCE)
    one = extract_all(path)[0]
    assert one.draft.get("scale") == "sqrt_dk"
    assert [(c.key, c.value) for c in one.draft.claims if c.key.startswith("head1.weights")] == [
        ("head1.weights", "[[0.67, 0.33], [0.33, 0.67]]"),
        ("head1.weights[1]", "[0.67, 0.33]"),
    ]
    assert main(["check", str(path)]) == 0
    assert "wrong" not in capsys.readouterr().out


def test_a_page_the_search_gives_up_on_says_so_when_it_finds_no_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, hostile_notebook(300), "hostile.ipynb")
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: {path}: no input found: no matrix named X (or Input, embeddings), no "
        "token rows, and no stated sequence length and width to make a symbolic one; the "
        "relation search stopped at its bound (200 arrays, 60000 relations): later arrays are "
        "not explained\n"
    )


SOFTMAX_OF_A_VECTOR = """# A softmax by hand

```python
>>> torch.softmax(torch.tensor([1.0, 2.0, 3.0]), dim=0)
tensor([0.0900, 0.2447, 0.6652])
```
"""


def test_what_a_softmax_takes_with_no_relation_giving_it_is_the_given_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, SOFTMAX_OF_A_VECTOR)
    one = extract_all(path)[0]
    assert (one.spec.stage, one.draft.get("scores")) == ("scores", [["1.0", "2.0", "3.0"]])
    assert sorted(one.spec.claims) == ["head1.scores[1]", "head1.weights[1]"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: the example starts at scores, as printed: no input, no projections" in out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"


JULIA = """# NNlib's softmax

```julia-repl
julia> softmax([1 2 3; 2 2 2])  # dims=1
2×3 Matrix{Float64}:
 0.268941  0.5  0.731059
 0.731059  0.5  0.268941

julia> softmax([1 2 3; 2 2 2]; dims=2)
2×3 Matrix{Float64}:
 0.0900306  0.244728  0.665241
 0.333333   0.333333  0.333333
```
"""


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[1 2 3; 2 2 2]", [["1", "2", "3"], ["2", "2", "2"]]),
        ("[1, 2; 3, 4]", [["1", "2"], ["3", "4"]]),
        ("[1 2 3; 4 5]", ["1", "2", "3", "4", "5"]),  # rows of unlike length: as written
    ],
)
def test_a_semicolon_ends_a_row_of_a_julia_or_matlab_matrix(text: str, value: list) -> None:
    parsed = parse(text, 0)
    assert isinstance(parsed, Parsed) and parsed.value == value


def test_a_softmax_down_the_columns_that_nothing_multiplies_is_not_claimed_as_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Julia's default softmax normalises each column: right, and no attention weights; the
    row-wise one (dims=2) is checked against the given scores."""
    path = _page(tmp_path, JULIA)
    one = extract_all(path)[0]
    assert one.draft.get("scores") == [["1", "2", "3"], ["2", "2", "2"]]
    assert [(c.key, c.value) for c in one.draft.claims] == [
        ("head1.scores", "[[1, 2, 3], [2, 2, 2]]"),
        ("head1.weights", "[[0.0900306, 0.244728, 0.665241], [0.333333, 0.333333, 0.333333]]"),
    ]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"
    )


STEP_TABLE = """# Scores for one word

| Word  | Dot Product Score | After Scaling | Attention Weight |
| ----- | ----------------- | ------------- | ---------------- |
| "the" | 2.0               | 1.0           | 0.10             |
| "cat" | 4.0               | 2.0           | 0.30             |
| "sat" | 6.0               | 3.0           | 0.60             |
"""

TWO_SOFTMAXES = """# Masking by multiplying or by filling

```python
>>> a * mask
tensor([ 0.4300, -0.2100,  0.0000])
>>> torch.softmax(a * mask, dim=0)
tensor([0.4592, 0.2421, 0.2987])

>>> a_masked_inf = torch.masked_fill(a, ~mask, -torch.inf)
>>> a_masked_inf
tensor([ 0.4300, -0.2100,    -inf])
>>> torch.softmax(a_masked_inf, dim=0)
tensor([0.6548, 0.3452, 0.0000])
```
"""


def test_a_table_whose_headers_name_steps_is_a_vector_per_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scores column is given, the column after scaling is the scores / 2 (its numbers
    say so), the weights column is judged (0.10, 0.30, 0.60 is no softmax of 1, 2, 3: the
    page's slip)."""
    path = _page(tmp_path, STEP_TABLE)
    one = extract_all(path)[0]
    assert one.draft.get("scores") == [["2.0", "4.0", "6.0"]]
    assert [(c.key, c.value) for c in one.draft.claims] == [
        ("head1.scaled[1]", "[1.0, 2.0, 3.0]"),
        ("head1.weights[1]", "[0.10, 0.30, 0.60]"),
    ]
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 2 claims: 1 holds (1 exact, 0 rounded), 1 wrong"
    )


def test_softmaxes_of_two_tensors_are_two_examples_and_minus_inf_is_their_mask(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The -inf the page prints is where its mask blocks; the score under it was never
    printed, so it is a symbol, never a number made up in its place."""
    path = _page(tmp_path, TWO_SOFTMAXES)
    first, second = extract_all(path)
    assert first.draft.get("scores") == [["0.4300", "-0.2100", "0.0000"]]
    assert first.draft.get("mask") is None
    assert second.draft.get("scores") == [["0.4300", "-0.2100", "s_{1,3}"]]
    assert second.draft.get("mask") == [[1, 1, 0]]
    assert [(c.key, c.value) for c in second.draft.claims] == [
        ("head1.weights[1]", "[0.6548, 0.3452, 0.0000]")
    ]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 1 claim: 1 holds (0 exact, 1 rounded)"
    )
