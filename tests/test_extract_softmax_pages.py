"""Pages about the softmax itself (logits, their exponentials, the probabilities; nothing
projected) are checked as printed: a vector called z (also the usual name of a head's output)
that a softmax takes is its logits; scores printed, then divided by √d_k, then soft-maxed start
the example at the scores; a second softmax of other logits later on the page is an example of
its own (judged, here wrong); the exponentials of the unscaled scores are not this softmax's
numerators; and a softmax of the scores before the scale, printed beside the one after it, is
another setting's, not a wrong print of the example's weights."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pages import check_page

# Worked by hand: z = [1.0, 0.5, -1.0]: e^z = [2.718, 1.649, 0.368], sum 4.735, softmax
# [0.574, 0.348, 0.078] (numpy: 0.5741, 0.3482, 0.0777). Then other logits and their "softmax",
# printed wrong: softmax([3, 0, 1, -2]) is [0.8390, 0.0418, 0.1135, 0.0057] (numpy: 0.83903,
# 0.04177, 0.11355, 0.00565).
Z_PAGE = r"""# Softmax, one step at a time

**The logits:**
$$\mathbf{z} = [1.0, 0.5, -1.0]$$

**Exponentials:**
$$\exp(\mathbf{z}) = [2.718, 1.649, 0.368]$$

**Divided by their sum (4.735):**
$$\sigma(\mathbf{z}) = [0.574, 0.348, 0.078]$$

## Any logits become probabilities

```
Logits:         [3, 0, 1, -2]
    |
  softmax
    |
Probabilities:  [0.60, 0.10, 0.25, 0.05]
```
"""

# Scores [6, 2, -4] divided by √4 = 2: [3, 1, -2]; e^3 = 20.09, e^1 = 2.718, e^-2 = 0.1353;
# softmax [0.8756, 0.1185, 0.0059] (numpy: 0.87560, 0.11850, 0.00590). Before it, the softmax
# of the unscaled scores, [0.9819, 0.0180, 0.0000] (numpy: 0.981970 truncated, 0.017985,
# 0.000045), and e^6 = 403.43 of the unscaled scores.
SCALED_PAGE = r"""# Why attention divides by √d_k

Take the scores [6, 2, -4].

## Without the scale

$e^{6} = 403.43$

Scores like [6, 2, -4] give:
- a softmax of [0.9819, 0.0180, 0.0000]
- nearly all the weight on one key

## With the scale

With $d_k = 4$ the factor is $\sqrt{4} = 2$.

Scaled scores: [6, 2, -4] / 2 = [3, 1, -2]

- $e^{3} = 20.09$
- $e^{1} = 2.718$
- $e^{-2} = 0.1353$

Softmax of those: [0.8756, 0.1185, 0.0059]
"""


def test_a_vector_called_z_that_a_softmax_takes_is_its_logits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _code, out = check_page(tmp_path, capsys, Z_PAGE)
    assert "no input found" not in out
    assert "(line 4) -> claim head1.scores[1]" in out or "(line 4) -> scores" in out
    first = out.split("== example 2 of 2 ==")[0]
    assert "head1.weights[1]: rounded" in first
    assert "exact    [" in first and "0.574" in first
    assert "head1.exp: rounded\n  claimed  [2.718, 1.649, 0.368]" in first  # e^z, whole


def test_other_logits_later_on_a_softmax_page_are_an_example_of_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, Z_PAGE)
    assert code == 1
    assert "== example 2 of 2 ==" in out
    second = out.split("== example 2 of 2 ==")[1]
    assert "Probabilities (line 19) -> claim head1.weights[1]" in second
    assert "claimed  [0.60, 0.10, 0.25, 0.05]" in second
    assert "[1]      claimed 0.60, exact 0.8390: wrong" in second
    assert "[4]      claimed 0.05, exact 0.0057: wrong" in second


def test_scores_scaled_then_softmaxed_start_the_example_at_the_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _code, out = check_page(tmp_path, capsys, SCALED_PAGE)
    assert "no input found" not in out
    assert "note: the example starts at scores, as printed" in out
    assert "head1.scaled[1]: exact\n  claimed  [3, 1, -2]" in out  # not the scores again
    assert "head1.weights[1]: rounded" in out  # [0.8756, 0.1185, 0.0059]
    assert "claimed  [0.8756, 0.1185, 0.0059]" in out


def test_the_unscaled_scores_exponential_is_not_this_softmaxs_numerator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _code, out = check_page(tmp_path, capsys, SCALED_PAGE)
    assert "claimed  403.43" not in out  # e^6: the scores before the scale
    assert "claimed  20.09" in out  # e^3: this softmax's own numerator
    assert "head1.exp[1,1]: rounded" in out


def test_the_softmax_before_the_scale_is_another_settings_not_a_wrong_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, SCALED_PAGE)
    assert code == 0, out
    assert "0.9819" not in out
