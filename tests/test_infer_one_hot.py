"""Weights rounded to 0.000 and 1.000 (scores far apart): a softmax that holds to its
printed digits, so a page printing only scores and such weights is checked, not refused;
integers 0 and 1, or a 0/1 array a softmax fits only with slips, are never weights.
Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

SCORES = np.array([12.0, 24.0, 36.0])
WEIGHTS = np.exp(SCORES - SCORES.max()) / np.exp(SCORES - SCORES.max()).sum()


def test_scores_and_their_softmax_rounded_to_zeros_and_one_are_checked() -> None:
    assert [f"{w:.3f}" for w in WEIGHTS] == ["0.000", "0.000", "1.000"]
    page = """# A softmax that is too sharp

Raw scores fed to the softmax:

| Scores | Output |
| ------ | ------ |
| [12, 24, 36] | [0.000, 0.000, 1.000] |
"""
    (one,) = extract_all(page)
    assert [str(line) for line in one.inferred][-1] == (
        "line 7, array 2 Output (1x3) = softmax(line 7, array 1, by rows): holds to 3 digits"
    )
    assert [(v.claim.key, v.claim.display, v.verdict) for v in check(one.spec).claims] == [
        ("head1.weights[1]", "[0.000, 0.000, 1.000]", "rounded"),
    ]


def test_integers_zero_and_one_after_scores_are_a_label_never_weights() -> None:
    """[0, 0, 1] printed as integers is an input's digits (a label), not a rounded softmax:
    only the scores are claimed."""
    page = """# Attention scores and the label

| Scores | Label |
| ------ | ----- |
| [12, 24, 36] | [0, 0, 1] |
"""
    (one,) = extract_all(page)
    assert [(v.claim.key, v.claim.display) for v in check(one.spec).claims] == [
        ("head1.scores[1]", "[12, 24, 36]"),
    ]
