"""Development documents (the sixth held-out batch, moved to dev in session 29), continued:
a notebook working the softmax of three logits one step per cell (the batch's two LaTeX
solutions moved to dev_seen_judge6.py in session 28). See tests/corpus/dev_seen_judge6a.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, given, one
from tests.corpus.helpers import softmax
from tests.corpus.model import Doc, Printed

# --- Python notebook: the softmax of three logits, one step per cell, floats printed in full ----


def _exp(j: int) -> Truth:
    return lambda x: np.exp(x["z"][j : j + 1])


def _share(j: int) -> Truth:
    return lambda x: softmax(x["z"])[j : j + 1]


SOFTMAX_CELLS = Doc(
    file="dev/notebook-python-softmax-three-logits-full-floats.ipynb",
    url="https://github.com/rickiepark/dl-illustrated/blob/master/notebooks/7-1.softmax_demo.ipynb",
    kind="notebook-python",
    language="en",
    inputs={"z": a([-1.0, 1.0, 5.0])},
    printed=(
        given(one("-1.0", "1.0", "5.0"), "logits z"),
        Printed(one("0.36787944117144233"), _exp(0), "exp(z[0])"),
        Printed(one("2.718281828459045"), _exp(1), "exp(z[1])"),
        Printed(one("148.4131591025766"), _exp(2), "exp(z[2])"),
        Printed(one("151.49932037220708"), lambda x: np.exp(x["z"]).sum(keepdims=True), "total"),
        Printed(one("0.0024282580295913376"), _share(0), "share of z[0]"),
        Printed(one("0.017942534803329194"), _share(1), "share of z[1]"),
        Printed(one("0.9796292071670795"), _share(2), "share of z[2]"),
    ),
    notes=(
        "A book companion notebook: the softmax of z = [-1, 1, 5] one step per cell with "
        "math.exp, every result a Python float printed in full (17 significant digits): "
        "the three exponentials, their total and the three shares. All right."
    ),
)

DEV_SEEN_JUDGE6B: list[Doc] = [SOFTMAX_CELLS]
