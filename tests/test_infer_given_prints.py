"""Scores given as printed whatever a comment calls them, and a softmax that says nothing: a
notebook's code comment "# Softmax" above the prints names the printed scores, which the
numbers show are what the softmax takes; sums of exponentials near 10^11 printed in
e-notation are no scores whose softmax could be checked. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def numpy_print(a: np.ndarray) -> str:
    return np.array2string(a, precision=8, separator=" ", floatmode="maxprec")


S = np.array(
    [
        [25.77798284, 18.64742887, 19.48398366, 23.86705031],
        [17.41027692, 12.56780902, 13.08852887, 16.24935311],
        [20.86580444, 15.14410588, 15.57329611, 18.67234283],
        [27.73448991, 20.11888043, 20.41837683, 24.71968864],
    ]
)
SUMS = np.exp(S).sum(axis=1, keepdims=True)
CODE = """scores = q @ k.T
norm = scores / np.sqrt(d_k)

# Softmax
exp = np.exp(norm)
attention = exp / np.sum(exp, axis=1, keepdims=True)

print(f'Sum exp {np.sum(np.exp(scores), axis=1, keepdims=True)}')
print(f'Scores {scores}')
print(f'Attention: {attention}')
"""
OUTPUT = (
    f"Sum exp {numpy_print(SUMS)}\nScores {numpy_print(S)}\n"
    f"Attention: {numpy_print(softmax(S / 2))}\n"
)
NOTEBOOK = json.dumps(
    {
        "cells": [
            {"cell_type": "markdown", "source": ["# One forward pass of attention\n"]},
            {
                "cell_type": "code",
                "source": CODE,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": OUTPUT}],
            },
        ],
        "metadata": {},
        "nbformat": 4,
    },
    indent=1,
)


def test_printed_scores_a_comment_calls_softmax_are_given_scores() -> None:
    """The "# Softmax" comment names every print of the cell; the numbers say the second is
    what softmax(· / 2) takes: the example starts there (once: "no input found")."""
    (one,) = extract_all(NOTEBOOK, "ipynb")
    assert [str(line) for line in one.inferred] == [
        "cell 2, output line 5 Softmax (4x4): an input (no relation among the printed numbers "
        "gives it)",
        "cell 2, output line 9 Attention (4x4) = softmax(cell 2, output line 5 / 2, by rows): "
        "holds to 8 digits",
    ]
    assert sorted(one.spec.claims) == ["head1.weights"]
    assert check(one.spec).ok


def test_a_softmax_of_numbers_known_to_a_thousand_or_worse_explains_nothing() -> None:
    """SUMS × SUMSᵀ is near 10^22, its entries known to about 10^14: its softmax is anything
    in [0, 1], so it is no alternative account of the weights (it once was, said twice)."""
    (one,) = extract_all(NOTEBOOK, "ipynb")
    assert not any("as well" in str(line) for line in one.inferred)
