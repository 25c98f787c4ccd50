"""Development documents that were held out in the fourth fresh set and studied in session 28
(their misreadings fixed then): a torch notebook whose module scales by sqrt(64) on 3-wide toy
vectors, an R vignette of R matrix prints, a numpy notebook whose W_K is W_Q / 2 but at one entry,
and a summary cell whose every array is labelled "Values:". Moved from held-out to dev, truth
unchanged except the summary cell's printed row sums, counted as every dev document counts them.
"""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import (
    Rows,
    Truth,
    a,
    block,
    given,
    one,
    other,
    settled,
    single_precision,
)
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed


def _float32(text: str, compute: Truth, label: str) -> Printed:
    """A torch float32 print: right within a few units of a 24-bit mantissa."""
    rows = block(text)
    return Printed(rows, single_precision(compute, rows), label)


# --- torch notebook (NYU course): sanity checks of a scaled dot-product, e-notation prints ------

_NYU_K = [[10, 0, 0], [0, 10, 0], [0, 0, 10], [0, 0, 10]]
_NYU_V = [[1, 0, 0], [10, 0, 0], [100, 5, 0], [1000, 6, 0]]
_NYU_Q = [[0, 0, 10], [0, 10, 0], [10, 10, 0]]


def _nyu_weights(rows: list[int]) -> Truth:
    """Weights of the queries ``rows`` of _NYU_Q, scaled by sqrt(d_k = 512 / 8 = 64)."""
    return lambda x: softmax(x["Q"][rows] / 8 @ x["K"].T)


def _nyu_output(rows: list[int]) -> Truth:
    return lambda x: _nyu_weights(rows)(x) @ x["V"]


NYU = Doc(
    file="dev/notebook-torch-nyu-sanity-checks-e-notation.ipynb",
    url="https://github.com/Atcold/NYU-DLSP20/blob/master/15-transformer.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={"K": a(_NYU_K), "V": a(_NYU_V), "Q": a(_NYU_Q)},
    printed=(
        given(block("[[10, 0, 0],\n[ 0,10, 0],\n[ 0, 0,10],\n[ 0, 0,10]]"), "test_K"),
        given(block("[[   1,0,0],\n[  10,0,0],\n[ 100,5,0],\n[1000,6,0]]"), "test_V"),
        given(one("0", "10", "0"), "test_Q"),
        _float32(
            "3.7266e-06, 9.9999e-01, 3.7266e-06, 3.7266e-06", _nyu_weights([1]), "weights, q1"
        ),
        _float32("1.0004e+01, 4.0993e-05, 0.0000e+00", _nyu_output([1]), "output, q1"),
        given(one("0", "0", "10"), "test_Q"),
        _float32(
            "1.8633e-06, 1.8633e-06, 5.0000e-01, 5.0000e-01", _nyu_weights([0]), "weights, q2"
        ),
        _float32("549.9979,   5.5000,   0.0000", _nyu_output([0]), "output, q2"),
        given(block("[[0, 0, 10], [0, 10, 0], [10, 10, 0]]"), "test_Q, three queries"),
        _float32(
            "[[1.8633e-06, 1.8633e-06, 5.0000e-01, 5.0000e-01],\n"
            "[3.7266e-06, 9.9999e-01, 3.7266e-06, 3.7266e-06],\n"
            "[5.0000e-01, 5.0000e-01, 1.8633e-06, 1.8633e-06]]",
            _nyu_weights([0, 1, 2]),
            "weights, three queries",
        ),
        _float32(
            "[[5.5000e+02, 5.5000e+00, 0.0000e+00],\n"
            "[1.0004e+01, 4.0993e-05, 0.0000e+00],\n"
            "[5.5020e+00, 2.0497e-05, 0.0000e+00]]",
            _nyu_output([0, 1, 2]),
            "outputs, three queries",
        ),
    ),
    notes=(
        "Hand-made 3-d keys and values; the module is built with d_model = 512 and 8 heads, so "
        "it divides the queries by sqrt(d_k = 64) = 8 although the vectors have 3 entries (the "
        "document's visible choice, kept as the truth): the softmax does not saturate and the "
        "weights print as 3.7266e-06 and 9.9999e-01 in torch's e-notation. The second output "
        "prints 549.9979 where float64 gives 549.99797 (549.9980): float32 rounding, taken as "
        "right. Batched (1, 1, n, d) tensors printed squeezed. All right."
    ),
)

# --- R vignette (CRAN package `attention`): R matrix prints, weights scaled by 2 -----------------

_R_SCORES = ((6, 4, 10, 5), (4, 6, 10, 6), (10, 10, 20, 11), (3, 1, 4, 2))


def _r_rows(rows: tuple[tuple[object, ...], ...]) -> Rows:
    """An R matrix print without its [,j] header and [i,] row labels."""
    return tuple(tuple(str(entry) for entry in row) for row in rows)


R_ATTENTION = Doc(
    file="dev/r-vignette-attention-package-weights-scaled-by-two.md",
    url=(
        "https://mirrors.sjtug.sjtu.edu.cn/cran/web/packages/attention/vignettes/"
        "simple_attention.html"
    ),
    kind="r-vignette",
    language="en",
    inputs={"scores": a([list(row) for row in _R_SCORES])},
    printed=(
        given(_r_rows(((1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1))), "words"),
        given(_r_rows(_R_SCORES), "scores = Q %*% t(K)"),
        Printed(
            _r_rows(
                (
                    ("0.10679806", "0.03928881", "0.7891368", "0.06477630"),
                    ("0.03770440", "0.10249120", "0.7573132", "0.10249120"),
                    ("0.00657627", "0.00657627", "0.9760050", "0.01084244"),
                    ("0.27600434", "0.10153632", "0.4550542", "0.16740510"),
                )
            ),
            lambda x: softmax(x["scores"] / np.sqrt(3)),
            "weights = ComputeWeights(scores)",
        ),
        given(
            _r_rows(
                (
                    ("2.749848", "1.856646", "0.06477630"),
                    ("2.654822", "1.692526", "0.10249120"),
                    ("2.969429", "1.976005", "0.01084244"),
                    ("2.353518", "1.629522", "0.16740510"),
                )
            ),
            "attention = weights %*% V (V never printed)",
        ),
    ),
    notes=(
        "Four 3-d words, random integer 3 x 3 projections (set.seed(0), not printed), so d_k = "
        "3. The mistake: the package helper ComputeWeights(scores) divides the scores by "
        "sqrt(ncol(scores)) = sqrt(4) = 2, the number of keys, instead of sqrt(d_k) = sqrt(3) "
        "(the Python original it translates divides by K.shape[1] ** 0.5, and the package's "
        "later release takes K and divides by sqrt(ncol(K))): every printed weight is "
        "softmax(scores / 2), e.g. 0.10679806 for 0.0837175. The page never states the scale. "
        "The attention output needs V, which the page never prints (it follows the wrong "
        "weights). R prints matrices with [,j] and [i,] labels and up to 7 significant digits "
        "per column, after '#>'. The printed results are wrong throughout, by that one mistake."
    ),
)

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
    file="dev/notebook-numpy-two-feature-tokens-transposed-weights.ipynb",
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
    file="dev/notebook-numpy-seeded-single-head-precision3.ipynb",
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
        # The weights' row sums, as every dev document counts them (held out, this page called
        # them no attention number).
        Printed(
            one("1.", "1.", "1.", "1."),
            lambda x: softmax(x["s"]).sum(axis=1)[None, :],
            "row sums",
        ),
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
        "weights are nearly one-hot (0.999 / 0.001). Shapes are not attention; the row sums count "
        "as attention, as in every dev document. All right."
    ),
)

DEV_SEEN_JUDGE4: list[Doc] = [NYU, R_ATTENTION, VIKRAM, MORTTI]
