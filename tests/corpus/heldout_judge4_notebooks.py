"""The held-out documents' truth, fourth set continued: numpy notebooks (see
tests/corpus/heldout_judge4.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- numpy notebook: two-feature tokens, weights applied transposed, every step printed twice ----

_VT_X = [[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]]
_VT_WQ = [[1.0, 2.0], [3.0, 4.0]]
_VT_WK = [[0.5, 1.0], [1.5, 1.0]]
_VT_WV = [[1.0, 0.5], [0.5, 1.0]]


def _vt(name: str) -> np.ndarray:
    weights = {"q": _VT_WQ, "k": _VT_WK, "v": _VT_WV}[name]
    return a(_VT_X) @ a(weights).T


def _vt_scaled(x: Arrays) -> np.ndarray:
    return _vt("q") @ _vt("k").T / np.sqrt(2)


_VT_Q = "[[1., 3.],\n[0., 0.],\n[2., 4.]]"
_VT_K = "[[0.5, 1.5],\n[0. , 0. ],\n[1. , 1. ]]"
_VT_V = "[[1. , 0.5],\n[0. , 0. ],\n[0.5, 1. ]]"
_VT_SCALED = (
    "[[3.53553391, 0.        , 2.82842712],\n[0.        , 0.        , 0.        ],\n"
    "[4.94974747, 0.        , 4.24264069]]"
)
_VT_WEIGHTS = (
    "[[0.65693877, 0.01914529, 0.32391594],\n[0.33333333, 0.33333333, 0.33333333],\n"
    "[0.66659828, 0.00472298, 0.32867874]]"
)
_VT_OUTPUT = "[[0.81889674, 0.65238532],\n[0.5       , 0.5       ],\n[0.83093765, 0.66197788]]"


def _vt_steps(suffix: str) -> tuple[Printed, ...]:
    """The scaled scores, weights and output (printed once as cell results, once by print())."""
    return (
        Printed(block(_VT_SCALED), _vt_scaled, "scaled scores" + suffix),
        Printed(block(_VT_WEIGHTS), lambda x: softmax(_vt_scaled(x)), "weights" + suffix),
    )


def _vt_output(suffix: str) -> Printed:
    return Printed(
        block(_VT_OUTPUT), lambda x: softmax(_vt_scaled(x)) @ _vt("v"), "output" + suffix
    )


VIKRAM = Doc(
    file="heldout/notebook-numpy-two-feature-tokens-transposed-weights.ipynb",
    url="https://github.com/VikramTaviti/tuts/blob/main/Transformers/self%20attention.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={},
    printed=(
        given(block("[1.0, 0.0]\n[0.0, 0.0]\n[0.0, 1.0]"), "X (code)"),
        given(block("[[1.0, 2.0],\n[3.0, 4.0]]"), "W_q (code)"),
        given(block("[[0.5, 1.0],\n[1.5, 1.0]]"), "W_k (code)"),
        given(block("[[1.0, 0.5],\n[0.5, 1.0]]"), "W_v (code)"),
        Printed(block(_VT_Q), lambda x: _vt("q"), "Q = X @ W_q.T"),
        Printed(block(_VT_K), lambda x: _vt("k"), "K = X @ W_k.T"),
        Printed(
            block("[[5., 0., 4.],\n[0., 0., 0.],\n[7., 0., 6.]]"),
            lambda x: _vt("q") @ _vt("k").T,
            "scores",
        ),
        *_vt_steps(""),
        Printed(block(_VT_V), lambda x: _vt("v"), "V = X @ W_v.T"),
        _vt_output(""),
        Printed(block(_VT_Q.replace(",", " ")), lambda x: _vt("q"), "Q (print)"),
        Printed(block(_VT_K.replace(",", " ")), lambda x: _vt("k"), "K (print)"),
        Printed(block(_VT_V.replace(",", " ")), lambda x: _vt("v"), "V (print)"),
        *_vt_steps(" (print, labelled 'Attention scores')"),
        _vt_output(" (print)"),
    ),
    notes=(
        "Three tokens with two features; the weight matrices are applied transposed "
        "(Q = X @ W_q.T). Scores scaled by sqrt(2); the softmax subtracts the maximum of the "
        "row it is applied to (np.apply_along_axis). The cells ran out of order (V printed at "
        "[34] after the weights at [50]); the last cell prints everything again, calling the "
        "scaled scores 'Attention scores'. All right."
    ),
)

# --- numpy notebook: seeded single head, only a summary printed to three decimals ---------------

_MT_SCORES = block(
    "[[ 31.588   2.933  12.022  -9.08 ]\n [ 11.106   1.093   3.98    0.299]\n"
    " [ -8.946  -4.35    5.684  -5.326]\n [ 33.206   5.506  -4.183 -22.69 ]]"
)
_MT_WEIGHTS = block(
    "[[1.    0.    0.    0.   ]\n [0.999 0.    0.001 0.   ]\n"
    " [0.    0.    1.    0.   ]\n [1.    0.    0.    0.   ]]"
)


def _shape(*entries: str) -> Printed:
    return other(one(*entries), "shape")


MORTTI = Doc(
    file="heldout/notebook-numpy-seeded-single-head-precision3.ipynb",
    url="https://github.com/Mortti11/Deep_Learning/blob/main/Transformer_Network/transformer.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={"s": a([[float(e) for e in row] for row in _MT_SCORES])},
    printed=(
        _shape("4", "8", "4", "8"),
        given(
            block(
                "[[ 1.764  0.4    0.979  2.241  1.868 -0.977  0.95  -0.151]\n"
                " [-0.103  0.411  0.144  1.454  0.761  0.122  0.444  0.334]\n"
                " [ 1.494 -0.205  0.313 -0.854 -2.553  0.654  0.864 -0.742]\n"
                " [ 2.27  -1.454  0.046 -0.187  1.533  1.469  0.155  0.378]]"
            ),
            "token embeddings",
        ),
        _shape("8", "4", "8", "4"),
        _shape("4", "4", "4", "4"),
        given(
            block(
                "[[-5.592 -4.286 -7.37   4.027]\n [-1.781 -0.435 -3.429  0.881]\n"
                " [ 2.871 -2.977  2.418  0.502]\n [-7.225 -8.378 -1.89   1.252]]"
            ),
            "Q (W_q never printed)",
        ),
        _shape("4", "4"),
        given(_MT_SCORES, "attention scores (Q K^T / sqrt(4); K never printed)"),
        _shape("4", "4"),
        Printed(
            _MT_WEIGHTS,
            settled(lambda x: softmax(x["s"]), {"s": 5e-4}, _MT_WEIGHTS),
            "attention weights",
        ),
        other(one("1.", "1.", "1.", "1."), "row sums"),
        _shape("4", "4", "4", "4"),
        given(
            block(
                "[[ 1.862 10.528  2.744  3.973]\n [ 1.861 10.516  2.742  3.968]\n"
                " [ 1.278 -3.528  0.392 -2.278]\n [ 1.862 10.528  2.744  3.973]]"
            ),
            "attention output (V never printed)",
        ),
    ),
    notes=(
        "Seeded random embeddings (4 x 8) and projections (8 x 4, never printed); one summary "
        "cell prints with precision=3: embeddings, Q, the scores already divided by "
        "sqrt(head_dimension = 4), the weights and the output. K and V are never printed, so "
        "the scores are the input and the output cannot be recomputed from the page. The "
        "weights are nearly one-hot (0.999 / 0.001). Shapes and row sums are not attention. "
        "All right."
    ),
)

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

NOTEBOOKS_4: list[Doc] = [VIKRAM, MORTTI, ACTIVITY_4, ACTIVITY_5]
