"""Causal attention as pages print it: the weights renormalised by hand first, then the same
numbers from a softmax of scores masked with -inf; a slip inside the masked weights is that
entry's alone. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

SCORES = np.array([[0.2899, 0.0716, 0.0760], [0.4656, 0.1723, 0.1751], [0.4594, 0.1703, 0.1731]])
MASKED = np.where(np.tril(np.ones((3, 3))) == 1, SCORES, -np.inf)


def text(a: np.ndarray) -> str:
    def entry(x: float) -> str:
        return "-inf" if np.isneginf(x) else f"{x:.4f}"

    return "[" + ", ".join("[" + ", ".join(entry(x) for x in row) + "]" for row in a) + "]"


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


WEIGHTS = softmax(MASKED / np.sqrt(3))


def page(weights: str, again: str) -> str:
    return f"""# Causal attention

Each row of the weights times the lower triangle of ones, then divided by its sum:

W = {weights}

The scores with the future set to minus infinity:

M = {text(MASKED)}

softmax(M / sqrt(3)) gives the same weights:

A = {again}
"""


CAUSAL = page(text(WEIGHTS), text(WEIGHTS))


def test_weights_renormalised_by_hand_are_the_softmax_of_the_masked_scores_printed_later() -> None:
    """The first print has no relation of its own (a product by a 0/1 mask, then row sums);
    its reprint is softmax(masked / √3): both prints are claimed as the weights, and hold."""
    (one,) = extract_all(CAUSAL)
    assert [str(line) for line in one.inferred] == [
        "line 5 (3x3): the numbers line 13 prints again, where a relation gives them",
        "line 9 (3x3): an input (no relation among the printed numbers gives it)",
        "line 13 A (3x3) = softmax(line 9 / √3, by rows): holds to 4 digits",
    ]
    assert one.spec.claims["head1.weights"] == text(WEIGHTS)
    report = check(one.spec)
    assert [(v.claim.key, v.verdict) for v in report.claims] == [
        ("head1.weights", "rounded"),
        ("head1.weights[1]", "exact"),
        ("head1.weights[2]", "rounded"),
        ("head1.weights[3]", "rounded"),
    ]


def test_a_slip_inside_masked_weights_is_that_entry_alone() -> None:
    """One entry of the softmax of masked scores mistyped (0.3241 for 0.3141): it is wrong,
    the masked zeros and every other entry hold; the hand-made first print, unexplained now,
    is left alone."""
    slipped = text(WEIGHTS).replace("0.3141", "0.3241")
    (one,) = extract_all(page(text(WEIGHTS), slipped))
    assert [str(line) for line in one.inferred][1:] == [
        "line 13 A (3x3) = softmax(line 9 / √3, by rows): holds except at [3,2], "
        "the document's slips"
    ]
    (last,) = check(one.spec).claims
    assert (last.claim.key, last.verdict) == ("head1.weights", "wrong")
    assert [e.verdict for e in last.entries] == [
        "exact", "exact", "exact", "rounded", "rounded", "exact", "rounded", "wrong", "rounded",
    ]  # fmt: skip
