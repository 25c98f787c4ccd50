"""Scores printed beside their scaled values, with no Q and K to say d_k: the scaling is
found by the numbers (a usual √d_k or d_k), never as the argument of a softmax that a large
divisor makes uniform by itself. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

SCORES = np.array([2.0, 4.0, 6.0])
SCALED = SCORES / np.sqrt(4)
WEIGHTS = np.exp(SCALED) / np.exp(SCALED).sum()
TABLE = f"""# Attention scores of one query

| Word  | Dot Product Score | After Scaling | Attention Weight |
| ----- | ----------------- | ------------- | ---------------- |
| "the" | 2.0               | 1.0           | {WEIGHTS[0]:.2f}             |
| "cat" | 4.0               | 2.0           | {WEIGHTS[1]:.2f}             |
| "sat" | 6.0               | 3.0           | {WEIGHTS[2]:.2f}             |
"""


def test_a_scaled_column_is_the_scores_divided_by_a_usual_root_of_d_k() -> None:
    (one,) = extract_all(TABLE)
    assert [str(line) for line in one.inferred] == [
        "line 5, array 1 Score (1x3): an input (no relation among the printed numbers gives it)",
        "line 5, array 2 (1x3) = line 5, array 1 / 2: holds to 1 digits",
        "line 5, array 3 Attention Weight (1x3) = softmax(line 5, array 2, by rows): "
        "holds to 2 digits",
    ]
    assert [(v.claim.key, v.claim.display, v.verdict) for v in check(one.spec).claims] == [
        ("head1.scaled[1]", "[1.0, 2.0, 3.0]", "exact"),
        ("head1.weights[1]", "[0.09, 0.24, 0.67]", "rounded"),
    ]


def test_token_rows_that_are_multiples_of_each_other_are_no_scaling() -> None:
    """[2, 0] is [4, 0] / 2 by chance: rows of an input, never a scaled-scores claim."""
    page = """# Attention, no scaling

x_1 = [4, 0]

x_2 = [2, 0]

X = [[4, 0], [2, 0]]

weights = [[0.5, 0.5], [0.5, 0.5]]
"""
    (one,) = extract_all(page)
    assert not [key for key in one.spec.claims if "scaled" in key]


def test_equal_numbers_are_no_scaling_of_equal_scores() -> None:
    """Scores [1, 1, 1, 1], then [0.5, ...] and weights [0.25, ...]: equal numbers are any
    multiple of equal numbers, so the weights are never taken for scores scaled twice."""
    page = """# One query, four equal keys

Q = [[1, 0, 0, 0]]

K = [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]

QK^T = [1, 1, 1, 1]

divided by 2: [0.5, 0.5, 0.5, 0.5], and the weights: [0.25, 0.25, 0.25, 0.25]
"""
    (one,) = extract_all(page)
    assert not [key for key in one.spec.claims if "scaled" in key]
    assert check(one.spec).ok
