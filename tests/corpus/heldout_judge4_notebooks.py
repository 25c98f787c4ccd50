"""The held-out documents' truth, fourth set continued: numpy notebooks (see
tests/corpus/heldout_judge4.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- numpy class activity: one head, saturated softmax printed with three-digit exponents -------

_A4_X = [[1, 2, 3, 4], [5, 6, 7, 8]]
_A4_WQ = [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9], [1.0, 1.1, 1.2]]
_A4_WK = [[0.3, 0.2, 0.1], [0.6, 0.5, 0.4], [0.9, 0.8, 0.7], [1.2, 1.1, 1.0]]
_A4_WV = [[0.7, 0.8, 0.9], [0.4, 0.5, 0.6], [0.1, 0.2, 0.3], [1.3, 1.4, 4.5]]


def _a4(x: Arrays, name: str) -> np.ndarray:
    return x["X"] @ x[name]


def _a4_scaled(x: Arrays) -> np.ndarray:
    return _a4(x, "WQ") @ _a4(x, "WK").T / np.sqrt(3)


ACTIVITY_4 = Doc(
    file="heldout/notebook-numpy-saturated-softmax-three-digit-exponents.ipynb",
    url=(
        "https://github.com/AliMuhammadAsad/Grad-Chronicles/blob/main/"
        "CS335-CE466-Large-Language-Models/Activities/Activity4.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"X": a(_A4_X), "WQ": a(_A4_WQ), "WK": a(_A4_WK), "WV": a(_A4_WV)},
    printed=(
        given(block("[1, 2, 3, 4],\n[5, 6, 7, 8]"), "X (code)"),
        given(
            block("[0.1, 0.2, 0.3],\n[0.4, 0.5, 0.6],\n[0.7, 0.8, 0.9],\n[1.0, 1.1, 1.2]"), "W_Q"
        ),
        given(
            block("[0.3, 0.2, 0.1],\n[0.6, 0.5, 0.4],\n[0.9, 0.8, 0.7],\n[1.2, 1.1, 1.0]"), "W_K"
        ),
        given(
            block("[0.7, 0.8, 0.9],\n[0.4, 0.5, 0.6],\n[0.1, 0.2, 0.3],\n[1.3, 1.4, 4.5]"), "W_V"
        ),
        Printed(block("[[ 7.   8.   9. ]\n [15.8 18.4 21. ]]"), lambda x: _a4(x, "WQ"), "Q"),
        Printed(block("[[ 9.   8.   7. ]\n [21.  18.4 15.8]]"), lambda x: _a4(x, "WK"), "K"),
        Printed(block("[[ 7.   8.  21. ]\n [17.  19.6 46.2]]"), lambda x: _a4(x, "WV"), "V"),
        Printed(
            block("[[ 190.    436.4 ]\n [ 436.4  1002.16]]"),
            lambda x: _a4(x, "WQ") @ _a4(x, "WK").T,
            "QK^T",
        ),
        other(one("3"), "d_k"),
        other(one("1.7320508075688772"), "scaling factor"),
        Printed(
            block("[[109.69655115 251.95565747]\n [251.95565747 578.59734577]]"),
            _a4_scaled,
            "Scaled QK^T",
        ),
        Printed(
            block("[[1.65065047e-062 1.00000000e+000]\n [1.38457732e-142 1.00000000e+000]]"),
            lambda x: softmax(_a4_scaled(x)),
            "Softmax Scaled QK^T",
        ),
        Printed(
            block("[[17.  19.6 46.2]\n [17.  19.6 46.2]]"),
            lambda x: softmax(_a4_scaled(x)) @ _a4(x, "WV"),
            "Self-Attention (A)",
        ),
    ),
    notes=(
        "Two tokens with four features, hand-written 4 x 3 projections: the scores are in the "
        "hundreds, so the softmax saturates and numpy prints the weights with three-digit "
        "exponents (1.65065047e-062, 1.38457732e-142, 1.00000000e+000); the output equals the "
        "second value row. d_k and the scaling factor are printed as f-strings (not attention "
        "results). All right."
    ),
)

# --- numpy class activity: two heads, concatenation and an output projection --------------------

_A5_X = [[1, 2], [3, 4]]
_A5 = {
    "WQ1": [[1, 0], [0, 1]],
    "WK1": [[0, 1], [1, 0]],
    "WV1": [[1, 0], [0, -1]],
    "WQ2": [[0, 1], [1, 0]],
    "WK2": [[1, 0], [0, 1]],
    "WV2": [[0, 1], [-1, 0]],
    "WO": [[1, 0], [0, 1], [-1, 0], [0, -1]],
}


def _a5_head(x: Arrays, h: int) -> np.ndarray:
    q, k, v = (x["X"] @ x[f"W{name}{h}"] for name in "QKV")
    return softmax(q @ k.T / np.sqrt(2)) @ v


def _a5_concat(x: Arrays) -> np.ndarray:
    return np.hstack((_a5_head(x, 1), _a5_head(x, 2)))


_A5_H1 = "[[ 2.97166793 -3.97166793]\n [ 2.9998996  -3.9998996 ]]"
_A5_H2 = "[[-3.97166793  2.97166793]\n [-3.9998996   2.9998996 ]]"

ACTIVITY_5 = Doc(
    file="heldout/notebook-numpy-two-heads-concat-output-projection.ipynb",
    url=(
        "https://github.com/AliMuhammadAsad/Grad-Chronicles/blob/main/"
        "CS335-CE466-Large-Language-Models/Activities/Activity5.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"X": a(_A5_X), **{name: a(w) for name, w in _A5.items()}},
    printed=(
        given(block("[[1, 2],\n[3, 4]]"), "X (code)"),
        *(
            given(block(str(w).replace("], [", "]\n[")), f"{name} (code)")
            for name, w in _A5.items()
        ),
        Printed(block(_A5_H1), lambda x: _a5_head(x, 1), "Head 1 Output"),
        Printed(block(_A5_H2), lambda x: _a5_head(x, 2), "Head 2 Output"),
        Printed(
            block(
                "[[ 2.97166793 -3.97166793 -3.97166793  2.97166793]\n"
                " [ 2.9998996  -3.9998996  -3.9998996   2.9998996 ]]"
            ),
            _a5_concat,
            "Concatenated Heads",
        ),
        Printed(
            block("[[ 6.94333586 -6.94333586]\n [ 6.99979921 -6.99979921]]"),
            lambda x: _a5_concat(x) @ x["WO"],
            "Final Multi-Head Self-Attention Output (M)",
        ),
    ),
    notes=(
        "Two heads on a 2 x 2 input with hand-written integer weights per head, each scaled by "
        "sqrt(2); the softmax is exp(s) / sum(exp(s)) without subtracting the maximum. Only "
        "the results are printed: the two heads, their concatenation and the product with the "
        "4 x 2 output projection W_O. The weights and Q, K, V are never printed. All right."
    ),
)

NOTEBOOKS_4: list[Doc] = [ACTIVITY_4, ACTIVITY_5]
