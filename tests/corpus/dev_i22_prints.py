"""Development documents whose results are printed by libraries in forms of their own: an
exercise page that gives its inputs and expected outputs as test cases (numpy prints, a list
of lists per test). The truth is numpy float64 from the document's own inputs."""

from __future__ import annotations

import numpy as np

from tests.corpus.helpers import array, given, rows
from tests.corpus.model import Arrays, Doc, Printed


def _self_attention(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    s = q @ k.T / np.sqrt(k.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v


_I2 = array("1 0\n0 1")
_W3 = array("1 1 0\n0 1 1\n1 0 1")
_V2, _V3 = array("1 2\n3 4"), array("1 2 3\n4 5 6\n7 8 9")


def _example(a: Arrays) -> np.ndarray:
    return _self_attention(a["X"], _I2, _I2, _V2)


def _case_3x3(a: Arrays) -> np.ndarray:
    return _self_attention(a["X3"], _W3, _W3, _V3)


def _case_2x2(a: Arrays) -> np.ndarray:
    return _self_attention(a["X2"], _I2, _I2, _V2)


# ------------------------------------------------------------------ deep-ml problem 53 (html)
DEEPML = Doc(
    file="dev/deepml-self-attention-exercise.html",
    url="https://www.deep-ml.com/problems/53",
    kind="html-exercise",
    language="en",
    inputs={"X": _I2, "X3": array("1 0 1\n0 1 1\n1 1 0"), "X2": array("1 1\n1 0")},
    printed=(
        given("1 0\n0 1", "X"),
        given("1 0\n0 1", "W_q"),
        given("1 0\n0 1", "W_k"),
        given("1 2\n3 4", "W_v"),
        Printed(rows("1.660477 2.660477\n2.339523 3.339523"), _example, "Output"),
        given("1 0 1\n0 1 1\n1 1 0", "X"),
        given("1 1 0\n0 1 1\n1 0 1", "W_q"),
        given("1 1 0\n0 1 1\n1 0 1", "W_k"),
        given("1 2 3\n4 5 6\n7 8 9", "W_v"),
        Printed(
            rows(
                "8.0, 10.0, 12.0\n8.61987385, 10.61987385, 12.61987385\n"
                "7.38012615, 9.38012615, 11.38012615"
            ),
            _case_3x3,
            "Expected Output",
        ),
        given("1 1\n1 0", "X"),
        given("1 0\n0 1", "W_q"),
        given("1 0\n0 1", "W_k"),
        given("1 2\n3 4", "W_v"),
        Printed(rows("3.00928465, 4.6790462\n2.5, 4.0"), _case_2x2, "Expected Output"),
    ),
    notes="An exercise page: one worked example (numpy's print without commas) and two test "
    "cases, each its own example with inputs named X, W_q, W_k, W_v and an expected output "
    "printed as a list of lists (np.round(..., 8).tolist()); the test cases repeat the "
    "example's weights, so only the test case's heading tells them apart.",
)


DEV_I22_PRINTS: list[Doc] = [DEEPML]
