"""Development documents for pages read another way than the first: a tensor library's softmax
API example (its argument is the scores), a notebook with a single query vector and the keys and
values given directly (see truth_dev.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.helpers import array, given, row, softmax
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
        "The mistake: printed weights and output are stale, following neither the code's "
        "keys (the softmax of [1.7, 0.2, 0.8] is [0.6136, 0.1369, 0.2495]) nor each other (the "
        "printed weights times the values give [0.6964, ...]). No scaling."
    ),
)


DEV_I22_FIT = [KERAS, WEEK5]
