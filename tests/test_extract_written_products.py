"""Products a page writes out (``A B = C``, three matrices side by side in one display, or
the left-hand side written again in the next): the result is that product even when its
numbers are not, judged wrong with the right values; the factors are what their numbers say
(X printed again, X written transposed), never the name the equation gives its result."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pages import check_page

SCORES_BY_HAND = r"""# Scores by hand

$$
X = \begin{bmatrix} 1.0 & 0.5 & 0.0 \\ 0.2 & 1.5 & 0.4 \\ 0.3 & 0.0 & 1.2 \end{bmatrix}
$$

Self-attention with Q = K = X (no projections): the scores Q K^T are X times X^T:

$$
S =
\begin{bmatrix} 1.0 & 0.5 & 0.0 \\ 0.2 & 1.5 & 0.4 \\ 0.3 & 0.0 & 1.2 \end{bmatrix}
\begin{bmatrix} 1.0 & 0.2 & 0.3 \\ 0.5 & 1.5 & 0.0 \\ 0.0 & 0.4 & 1.2 \end{bmatrix}
=
\begin{bmatrix} 1.52 & 0.95 & 0.30 \\ 0.59 & 2.54 & 0.45 \\ 0.30 & 0.54 & 1.53 \end{bmatrix}
$$
"""

PROJECTIONS_BY_HAND = r"""# Q, K and V by hand

Two tokens of width 2:

$$
X = \begin{bmatrix} 1 & 2 \\ 0 & 1 \end{bmatrix}, \quad
W_Q = \begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix}, \quad
W_K = \begin{bmatrix} 0 & 1 \\ 1 & 0 \end{bmatrix}
$$

$$
Q = X W_Q =
\begin{bmatrix} 1 & 2 \\ 0 & 1 \end{bmatrix}
\begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix}
=
\begin{bmatrix} 2 & 1 \\ 1 & 2 \end{bmatrix}
$$

$$
K = X W_K =
\begin{bmatrix} 1 & 2 \\ 0 & 1 \end{bmatrix}
\begin{bmatrix} 0 & 1 \\ 1 & 0 \end{bmatrix}
=
\begin{bmatrix} 2 & 1 \\ 1 & 0 \end{bmatrix}
$$
"""


def test_a_product_written_out_wrong_is_judged_as_that_product(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, SCORES_BY_HAND)
    assert code == 1
    assert "line 14 S (3x3) = line 11 × line 4ᵀ: written as this product; 4 of its 9 entries" in out
    assert "\nline 11 (3x3) = line 4, printed again" in out  # a factor: no name of the equation
    assert "(2, 1)   claimed 0.59, exact 0.95: wrong" in out
    assert "head1.q: exact" in out  # the first factor, X printed again: Q = X
    assert "S (line 11)" not in out


def test_the_factors_are_not_the_result_the_equation_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check_page(tmp_path, capsys, PROJECTIONS_BY_HAND)
    assert code == 1
    assert "Q (line 13)" not in out and "K (line 21)" not in out  # X again, named by "Q ="
    assert "Q (line 16) -> claim head1.q" in out
    assert "(1, 1)   claimed 2, exact 3: wrong" in out
    assert "head1.k: exact" in out  # K = X W_K written out right
