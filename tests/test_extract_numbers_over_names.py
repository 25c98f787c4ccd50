"""Readings where the numbers outweigh a name or a stated default: a named weight that
another weight's numbers meet but at one entry stays an input; a square print a softmax takes
is the scores whatever a generic label ("Values:") says; a scale the text states as a root
(``√64 = 8``) that the numbers follow is the scale, though the toy heads are narrower; and
per-word vectors named ``q1``, ``k1`` stay the matrix they stack into when the working prints
them again."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.extract.infer.scalings import stated_roots
from tests.pages import check_page

SLIPPED_NAME = r"""# Self-attention in numpy

```python
X = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
W_q = np.array([[1.0, 2.0], [3.0, 4.0]])
W_k = np.array([[0.5, 1.0], [1.5, 1.0]])
W_v = np.array([[1.0, 0.5], [0.5, 1.0]])
Q = X @ W_q.T
K = X @ W_k.T
V = X @ W_v.T
scores = Q @ K.T / np.sqrt(2)
weights = softmax(scores)
print(weights)
```

```
[[0.65693877 0.01914529 0.32391594]
 [0.33333333 0.33333333 0.33333333]
 [0.66659828 0.00472298 0.32867874]]
```
"""

VALUES_LABEL = r"""# Self-attention, printed by one summary cell

```python
print("4. ATTENTION SCORES (before softmax):")
print(f"Values:\n{scores}")
print("5. ATTENTION WEIGHTS (after softmax):")
print(f"Values:\n{weights}")
```

```
4. ATTENTION SCORES (before softmax):
Values:
[[ 2.5  0.1 -1. ]
 [ 0.3  0.3  1.2]
 [-0.5  2.   0. ]]
5. ATTENTION WEIGHTS (after softmax):
Values:
[[0.892 0.081 0.027]
 [0.224 0.224 0.552]
 [0.067 0.821 0.111]]
```
"""

STATED_ROOT = r"""# Sanity checks of a module built for 8 heads of 64

The module divides the queries by √64 = 8 whatever the width of these toy vectors.

```python
K = torch.tensor([[10., 0, 0], [0, 10., 0], [0, 0, 10.]])
V = torch.tensor([[1., 0], [10., 0], [100., 5]])
Q = torch.tensor([[0, 0, 10.], [0, 10., 0]])
out, attn = mha.scaled_dot_product_attention(Q, K, V)
print(attn)
print(out)
```

```
tensor([[3.7266e-06, 3.7266e-06, 9.9999e-01],
        [3.7266e-06, 9.9999e-01, 3.7266e-06]])
tensor([[9.9999e+01, 5.0000e+00],
        [1.0000e+01, 1.8633e-05]])
```
"""

WORD_VECTORS = r"""# Attention for two words, by hand

**Word 1 ("I"):**
- `q1 = [1, 0]`
- `k1 = [1, 1]`
- `v1 = [1, 2]`

**Word 2 ("run"):**
- `q2 = [0, 2]`
- `k2 = [0, 1]`
- `v2 = [3, 4]`

Scores of word 1:
- `q1 . k1 = [1, 0] . [1, 1] = 1`
- `q1 . k2 = [1, 0] . [0, 1] = 0`

All scores (no scale):

S = [[1, 0], [2, 2]]

Weights = softmax(S) by rows = [[0.7311, 0.2689], [0.5, 0.5]]

Output = Weights V = [[1.5379, 2.5379], [2.0, 3.0]]
"""


def test_a_named_weight_that_another_meets_but_at_one_entry_is_an_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, SLIPPED_NAME)  # W_k is W_q / 2 but at [2, 2]
    assert code == 0
    assert "W_k (line 6) -> weights.w_k" in out
    assert out.splitlines()[-1].endswith("1 claim: 1 holds (0 exact, 1 rounded)")


def test_a_square_print_a_softmax_takes_is_the_scores_under_a_generic_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, VALUES_LABEL.replace("0.821", "0.812"))
    assert code == 1
    assert "Values (line 13) -> scores" in out
    assert "(3, 2)   claimed 0.812" in out


def test_a_root_the_text_states_is_the_scale_the_numbers_follow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, STATED_ROOT)
    assert code == 0
    assert out.splitlines()[-1].endswith("2 claims: 2 hold (0 exact, 2 rounded)")
    code, out = check_page(tmp_path, capsys, STATED_ROOT.replace("3.7266e-06]]", "3.7266e-05]]"))
    assert code == 1
    assert "(2, 3)   claimed 3.7266e-05, exact 0.00000372663: wrong" in out


def test_roots_are_read_from_text_and_code() -> None:
    text = r"by √64 = 8, \sqrt{3}, \sqrt 16, np.sqrt(8); not sqrt(2.5) nor √d_k"
    assert stated_roots(text) == frozenset({64, 3, 16, 8})


def test_per_word_vectors_printed_again_in_the_working_stay_one_matrix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, WORD_VECTORS)
    assert code == 0
    assert "q1, q2 (line 4) -> q" in out
    assert out.splitlines()[-1].endswith("3 claims: 3 hold (1 exact, 2 rounded)")
