"""Development documents for pages read another way than the first: a tensor library's softmax
API example (its argument is the scores), a notebook with a single query vector and the keys and
values given directly, a code lab that gives Q, K and V in one line (see truth_dev.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.helpers import array, given, row, rows, softmax
from tests.corpus.model import Arrays, Doc, Printed

KERAS = Doc(
    file="dev/keras-ops-softmax-api-doc.md",
    url="https://TensorFlow.org/api_docs/python/tf/keras/ops/softmax",
    kind="api-doc",
    language="en",
    inputs={"x": np.array([-1.0, 0.0, 1.0])},
    printed=(
        given("-1. 0. 1.", "x"),
        Printed(row("0.09003057, 0.24472847, 0.66524096"), lambda a: softmax(a["x"]), "x_softmax"),
    ),
    notes="A softmax of given numbers and nothing else: the argument is the scores.",
)


def _scores(a: Arrays) -> np.ndarray:
    return a["keys"] @ a["query"]


def _weights(a: Arrays) -> np.ndarray:
    return softmax(_scores(a))


WEEK5 = Doc(
    file="dev/week5-attention-by-numbers-vector-query.ipynb",
    url=(
        "https://onpoint-izhaky.eastus2.cloudapp.azure.com/course/file/week05_attention/"
        "week5_attention.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={
        "query": np.array([1.0, 0.5]),
        "keys": array("1.4 0.6\n0.1 0.2\n0.7 0.2"),
        "values": array("0.9 0.1\n0.2 0.8\n0.5 0.1"),
    },
    printed=(
        given("1.0 0.5", "query"),
        given("1.4 0.6\n0.1 0.2\n0.7 0.2", "keys"),
        Printed(row("1.7 0.2 0.8"), _scores, "Raw attention scores"),
        Printed(row("0.5898 0.1316 0.2786"), _weights, "Attention weights"),
        given("0.9 0.1\n0.2 0.8\n0.5 0.1", "values"),
        Printed(row("0.7313 0.1687"), lambda a: _weights(a) @ a["values"], "Weighted output"),
    ),
    notes=(
        "The printed weights and output are stale: they follow neither the code's keys (the "
        "softmax of [1.7, 0.2, 0.8] is [0.6136, 0.1369, 0.2495]) nor each other (the printed "
        "weights times the values give [0.6964, ...]). No scaling."
    ),
)


def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    return softmax(q @ k.T / np.sqrt(q.shape[1])) @ v


_I2 = "1 0\n0 1"
AMANAILAB = Doc(
    file="dev/amanailab-sdpa-code-lab.md",
    url="https://amanailab.com/code-lab/scaled-dot-product-attention",
    kind="course-notes",
    language="en",
    inputs={
        "I": array(_I2),
        "V": array("1 2\n3 4"),
        "q1": array("1 0"),
        "V2": array("10 20\n30 40"),
    },
    printed=(
        given(_I2, "Q = K"),
        given("1 2\n3 4", "V"),
        Printed(
            rows("1.66082 2.66082\n2.33918 3.33918"),
            lambda a: _attention(a["I"], a["I"], a["V"]),
            "Output",
        ),
        given(_I2, "Case 1 Q"),
        given(_I2, "Case 1 K"),
        given("1 2\n3 4", "Case 1 V"),
        Printed(
            rows("1.66082 2.66082\n2.33918 3.33918"),
            lambda a: _attention(a["I"], a["I"], a["V"]),
            "Case 1 expected",
        ),
        given("1 0", "Case 2 Q"),
        given(_I2, "Case 2 K"),
        given("10 20\n30 40", "Case 2 V"),
        Printed(
            row("16.60882, 26.60882"),
            lambda a: _attention(a["q1"], a["I"], a["V2"]),
            "Case 2 expected",
        ),
    ),
    notes=(
        "Q, K and V given directly in one line and as a function call's arguments; every "
        "printed output is wrong in its fourth decimal (1.66082 for 1.66048, 16.60882 for "
        "16.60477)."
    ),
)

DEV_I22_FIT = [KERAS, WEEK5, AMANAILAB]
