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
