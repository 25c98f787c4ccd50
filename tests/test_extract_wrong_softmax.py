"""A softmax worked wrong is still judged: weights printed right after their scores, of their
shape, whose rows are probabilities but for a slip (a row summing to 1.12); and a call
``softmax(name) ≈ [...]`` whose argument the page printed as ``name = [...]``, judged against
that argument (not against another example of the page), with no scale."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pages import check_page

SLIPPED = """# Where the softmax comes in

**Before the softmax:**
```python
scores = [
    [1.5, 0.2, -0.6],
    [0.4, 1.1, 0.0]
]
```

**After the softmax:**
```python
weights = [
    [0.72, 0.20, 0.09],
    [0.35, 0.45, 0.30]
]
```
"""

CALLS = """# Saturation

The key that points another way gives a small score:

```python
query = [1.0, 2.0, 1.5]
key_other = [-1.0, 0.5, -2.0]
```

```python
large_scores = [4, 1, 0]
small_scores = [0.4, 0.1, 0.0]
softmax(large_scores) ≈ [0.936, 0.047, 0.017]
softmax(small_scores) ≈ [0.55, 0.25, 0.20]
```
"""


def test_weights_worked_wrong_after_their_scores_are_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, SLIPPED)
    assert code == 1
    assert "weights (line 13) -> claim head1.weights" in out
    assert "(2, 2)   claimed 0.45, exact 0.5466: wrong" in out
    assert "(1, 1)" not in out  # the first row is right


def test_weights_that_are_no_probabilities_and_follow_no_scores_are_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = SLIPPED.replace("scores = [", "counts = [").replace("0.72, 0.20", "1.72, 0.20")
    code, out = check_page(tmp_path, capsys, page)
    assert code == 2 or "head1.weights" not in out


def test_a_softmax_call_is_judged_against_the_vector_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, CALLS)
    assert code == 1
    assert "softmax(small_scores) (line 14) -> claim head1.weights[1]" in out
    assert "[1]      claimed 0.55, exact 0.4147: wrong" in out
    assert "softmax(large_scores)" not in out  # right: the numbers placed it already
    assert "large_scores, small_scores" not in out  # two score vectors are no tokens


# Q K^T then divided by √2, both right; the weights after them right but in row 2, made up
# there (it sums to 0.90). softmax of the scaled scores (numpy): [[0.2483, 0.5035, 0.2483],
# [0.4011, 0.4011, 0.1978], [0.1978, 0.4011, 0.4011]].
AFTER_SCALED = r"""# Three tokens, one head

$$Q = \begin{bmatrix} 1 & 1 \\ 1 & 0 \\ 0 & 1 \end{bmatrix}, \quad
K = \begin{bmatrix} 1 & 0 \\ 1 & 1 \\ 0 & 1 \end{bmatrix}, \quad
V = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}$$

$$QK^T = \begin{bmatrix} 1.0 & 2.0 & 1.0 \\ 1.0 & 1.0 & 0.0 \\ 0.0 & 1.0 & 1.0 \end{bmatrix}$$

Divided by $\sqrt{2}$:

$$\frac{QK^T}{\sqrt{2}} = \begin{bmatrix} 0.71 & 1.41 & 0.71 \\ 0.71 & 0.71 & 0.00 \\
0.00 & 0.71 & 0.71 \end{bmatrix}$$

$$\text{Weights} = \text{softmax}\left(\frac{QK^T}{\sqrt{2}}\right) = \begin{bmatrix}
0.25 & 0.50 & 0.25 \\
0.30 & 0.20 & 0.40 \\
0.20 & 0.40 & 0.40
\end{bmatrix}$$
"""


def test_weights_worked_wrong_after_the_scaled_scores_are_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, AFTER_SCALED)
    assert code == 1, out
    assert "\\text{Weights} (line 14) -> claim head1.weights" in out
    assert "(2, 1)   claimed 0.30, exact 0.4011: wrong" in out
    assert "(1, 1)" not in out and "(3, 1)" not in out  # rows 1 and 3 are right
