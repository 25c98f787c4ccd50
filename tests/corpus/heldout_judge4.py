"""The held-out documents' truth, a fourth fresh set: code-heavy sources (notebooks with numpy and
PyTorch prints, an R vignette). See tests/corpus/truth_heldout.py.

Every truth is recomputed with numpy float64 from the arrays the document itself gives (its code
literals or its printed inputs).
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
    single_precision,
)
from tests.corpus.heldout_judge4_notebooks import NOTEBOOKS_4
from tests.corpus.helpers import causal, softmax
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
    file="heldout/notebook-torch-nyu-sanity-checks-e-notation.ipynb",
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
    file="heldout/r-vignette-attention-package-weights-scaled-by-two.md",
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
        "per column, after '#>'."
    ),
)

# --- numpy notebook (video companion): toy words, then identity projections and a causal mask ----

_UF_X = [[1.0, 0.0, 0.5], [0.0, 1.0, 0.3], [1.0, 1.0, 0.2]]
_UF_WQ = [[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [0.0, 1.0, 0.5]]
_UF_WV = [[0.5, 1.0, 0.2], [1.0, 0.5, 0.3], [1.0, 0.5, 0.1]]
_UF_X2 = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]]


def _uf_scores(x: Arrays) -> np.ndarray:
    q = x["X"] @ x["WQ"]
    return q @ (x["X"] @ x["WK"]).T


def _uf_weights(x: Arrays) -> np.ndarray:
    return softmax(_uf_scores(x) / np.sqrt(3))


def _uf_masked(x: Arrays) -> np.ndarray:
    return causal(x["X2"] @ x["X2"].T / np.sqrt(3))


_UF_MASKED_W = (
    "[[1., 0., 0.],\n[0.35954252, 0.64045748, 0.],\n[0.26445846, 0.26445846, 0.47108308]]"
)

UNFOLD = Doc(
    file="heldout/notebook-numpy-toy-words-then-causal-identity.ipynb",
    url=(
        "https://github.com/UnfoldDataScience/YouTube-Videos-files/blob/main/"
        "LLM%20for%20application%20development/Attention%20%281%29.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"X": a(_UF_X), "WQ": a(_UF_WQ), "WK": a(_UF_WQ), "WV": a(_UF_WV), "X2": a(_UF_X2)},
    printed=(
        given(block("[1.0, 0.0, 0.5]\n[0.0, 1.0, 0.3]\n[1.0, 1.0, 0.2]"), "embeddings (code)"),
        given(block("[[1. , 0. , 0.5],\n[0. , 1. , 0.3],\n[1. , 1. , 0.2]]"), "X"),
        given(block("[[1.0, 0.0, 0.5], [0.0, 1.0, 0.5],[0.0, 1.0, 0.5]]"), "W_Q (code)"),
        given(block("[[1.0, 0.0, 0.5], [0.0, 1.0, 0.5],[0.0, 1.0, 0.5]]"), "W_K (code)"),
        given(block("[[0.5, 1.0, 0.2], [1.0, 0.5, 0.3],[1.0, 0.5, 0.1]]"), "W_V (code)"),
        Printed(
            block("[[1.  , 1.25, 0.25],\n[1.3 , 0.65, 0.33],\n[1.7 , 1.6 , 0.52]]"),
            lambda x: x["X"] @ x["WV"],
            "V",
        ),
        Printed(
            block("[[1.  , 0.5 , 0.75],\n[0.  , 1.3 , 0.65],\n[1.  , 1.2 , 1.1 ]]"),
            lambda x: x["X"] @ x["WQ"],
            "Q",
        ),
        Printed(
            block("[[1.8125 1.1375 2.425 ]\n[1.1375 2.1125 2.275 ]\n[2.425  2.275  3.65  ]]"),
            _uf_scores,
            "Dot product scores",
        ),
        Printed(
            block(
                "[[1.04644736, 0.65673593, 1.4000744 ],\n[0.65673593, 1.21965244, 1.31347186],\n"
                "[1.4000744 , 1.31347186, 2.10732848]]"
            ),
            lambda x: _uf_scores(x) / np.sqrt(3),
            "scaled_scores",
        ),
        Printed(
            block(
                "[[0.32242711 0.21836449 0.4592084 ]\n[0.21348029 0.37482567 0.41169404]\n"
                "[0.25345618 0.23242983 0.51411399]]"
            ),
            _uf_weights,
            "Attention Weights",
        ),
        Printed(
            block(
                "[[1.38695523 1.27970424 0.39145543]\n[1.40063353 1.16919751 0.39114344]\n"
                "[1.42960874 1.290482   0.40740516]]"
            ),
            lambda x: _uf_weights(x) @ (x["X"] @ x["WV"]),
            "Final Output",
        ),
        given(block("[1.0, 0.0, 1.0]\n[0.0, 1.0, 1.0]\n[1.0, 1.0, 0.0]"), "second X (code)"),
        Printed(
            block(
                "[[1.15470054,       -inf,       -inf],\n[0.57735027, 1.15470054,       -inf],\n"
                "[0.57735027, 0.57735027, 1.15470054]]"
            ),
            _uf_masked,
            "masked_scores",
        ),
        Printed(block(_UF_MASKED_W), lambda x: softmax(_uf_masked(x)), "attn_weights"),
        given(block("[[1. 0. 1.]\n[0. 1. 1.]\n[1. 1. 0.]]"), "Q = X @ eye(3)"),
        given(block("[[1. 0. 1.]\n[0. 1. 1.]\n[1. 1. 0.]]"), "K = X @ eye(3)"),
        given(block("[[1. 0. 1.]\n[0. 1. 1.]\n[1. 1. 0.]]"), "V = X @ eye(3)"),
        Printed(
            block(_UF_MASKED_W.replace(",", " ")),
            lambda x: softmax(_uf_masked(x)),
            "Masked Attention Weights",
        ),
        Printed(
            block(
                "[[1.         0.         1.        ]\n[0.35954252 0.64045748 1.        ]\n"
                "[0.73554154 0.73554154 0.52891692]]"
            ),
            lambda x: softmax(_uf_masked(x)) @ x["X2"],
            "Masked Self-Attention Output",
        ),
    ),
    notes=(
        "Two examples in one notebook, its cells run out of order (V printed at [19] before Q "
        "at [14]). First: 3-d word vectors, W_K equal to W_Q (so K = Q, never printed), scaled "
        "by sqrt(3). Second: identity projections, so Q = K = V = X, scaled by sqrt(3) and "
        "masked with -inf above the diagonal (numpy prints '-inf' padded to the column width). "
        "Plain numpy prints: execute_result arrays with commas, print() arrays without. A "
        "comment calls the 3 x 3 input '3 x 2'. All right."
    ),
)

JUDGE_DOCS_4: list[Doc] = [NYU, R_ATTENTION, UNFOLD, *NOTEBOOKS_4]
