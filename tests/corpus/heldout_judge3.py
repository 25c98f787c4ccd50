"""The fresh held-out documents' truth, continued (see tests/corpus/heldout_judge.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, column, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- HTML lesson: softmax of four raw scores, three of the weights printed as percentages --------

PERCENT = Doc(
    file="heldout/html-lesson-softmax-percent-blend.html",
    url="https://seehowaiworks.com/lesson/attention-blends-meaning",
    kind="html-lesson",
    language="en",
    inputs={"s": a([0.4, 2.7, 1.3, 1.5])},
    printed=(
        given(column("0.4", "2.7", "1.3", "1.5"), "raw scores: the, cat, drinks, milk"),
        Printed(
            column("61", "15", "18"),
            lambda x: 100 * softmax(x["s"])[1:, None],
            "one blend: cat %, drinks %, milk % (the row 'the' is not shown)",
        ),
    ),
    notes=(
        "Unscaled softmax of four given scores, shown as whole percentages for three of the "
        "four tokens ('the', about 6%, is left out of the list, so the shown weights sum to "
        "94%). cat 60.7% → 61, drinks 15.0% → 15, milk 18.3% → 18: all right."
    ),
)

# --- tutorial rendered by Sphinx (HTML, MathJax): random Q, K, V printed, values, attention ---

_UVA_Q = block("[[ 0.3367,  0.1288],\n[ 0.2345,  0.2303],\n[-1.1229, -0.1863]]")
_UVA_K = block("[[ 2.2082, -0.6380],\n[ 0.4617,  0.2674],\n[ 0.5349,  0.8094]]")
_UVA_V = block("[[ 1.1103, -1.6898],\n[-0.9890,  0.9580],\n[ 1.3221,  0.8172]]")
_UVA_VALUES = block("[[ 0.5698, -0.1520],\n[ 0.5379, -0.0265],\n[ 0.2246,  0.5556]]")
_UVA_ATTENTION = block(
    "[[0.4028, 0.2886, 0.3086],\n[0.3538, 0.3069, 0.3393],\n[0.1303, 0.4630, 0.4067]]"
)
_UVA_HALVES = {"q": 5e-5, "k": 5e-5, "v": 5e-5}


def _uva_attention(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["k"].T / np.sqrt(2))


UVA = Doc(
    file="heldout/html-sphinx-tutorial-scaled-dot-product-uva.html",
    url=(
        "https://uvadlc-notebooks.readthedocs.io/en/latest/tutorial_notebooks/tutorial6/"
        "Transformers_and_MHAttention.html"
    ),
    kind="html-mathjax",
    language="en",
    inputs={
        "q": a([[float(e) for e in r] for r in _UVA_Q]),
        "k": a([[float(e) for e in r] for r in _UVA_K]),
        "v": a([[float(e) for e in r] for r in _UVA_V]),
    },
    printed=(
        given(_UVA_Q, "Q"),
        given(_UVA_K, "K"),
        given(_UVA_V, "V"),
        Printed(
            _UVA_VALUES,
            settled(lambda x: _uva_attention(x) @ x["v"], _UVA_HALVES, _UVA_VALUES),
            "Values",
        ),
        Printed(_UVA_ATTENTION, settled(_uva_attention, _UVA_HALVES, _UVA_ATTENTION), "Attention"),
    ),
    notes=(
        "Seeded random Q, K, V (3 x 2) printed by torch to 4 decimals, then the outputs "
        "('Values', printed before the weights) and the attention weights of "
        "softmax(QK^T/√2). The page's formulas are MathJax ($...$ inline, \\[...\\] display, "
        "an escaped &amp; inside a split environment). All right."
    ),
)

# --- Russian interview Q&A: why scale the dot product, one worked number --------------------------

RU_QA = Doc(
    file="heldout/ru-qa-interview-why-scale-attention.md",
    url="https://github.com/ivangolt/ml_ds_interview_question/blob/main/nlp.ipynb",
    kind="qa",
    language="ru",
    inputs={"s": a([[64.0]]), "d": a([[64.0]])},
    printed=(
        given(one("64"), "d_k"),
        given(one("64"), "dot product of order 64"),
        other(one("64"), "exponent in e^64"),
        other(one("8"), "sqrt(64)"),
        Printed(one("8"), lambda x: x["s"] / np.sqrt(x["d"]), "scaled dot product"),
        other(one("8"), "exponent in e^8"),
        other(one("2980"), "e^8 'of the order of 2980'"),
    ),
    notes=(
        "Interview questions with prose answers (the formulas are images in the source, marked "
        "[формула]). The only worked numbers: d_k = 64, a dot product of order 64, divided by "
        "sqrt(64) = 8 it becomes 8 (right), and e^8 'of the order of 2980' (e^8 = 2981, an "
        "order of magnitude, not an attention number). Complexity O(n^2 * d) is not a number "
        "array."
    ),
)

# --- torch notebook: random scores printed, scaled, causally masked, softmaxed; a made-up trace ---

_ZA_SCORES = block(
    """
    [[ -2.16   6.76  10.36  11.73 -13.56]
     [-11.08  -0.29   2.61   8.53   6.73]
     [ -7.69   3.23  -1.55  -1.21   4.13]
     [  2.53 -10.01  -4.3   13.5    9.4 ]
     [ 13.6   -5.85   0.35   1.66  -2.47]]
    """
)
_ZA_SCALED = block(
    """
    [[-0.27   0.845  1.295  1.467 -1.696]
     [-1.385 -0.037  0.326  1.066  0.841]
     [-0.961  0.403 -0.193 -0.151  0.516]
     [ 0.317 -1.251 -0.538  1.687  1.174]
     [ 1.7   -0.732  0.044  0.207 -0.309]]
    """
)
_ZA_MASKED = block(
    """
    [ -0.27,   -inf,   -inf,   -inf,   -inf]
    [ -1.39,  -0.04,   -inf,   -inf,   -inf]
    [ -0.96,   0.40,  -0.19,   -inf,   -inf]
    [  0.32,  -1.25,  -0.54,   1.69,   -inf]
    [  1.70,  -0.73,   0.04,   0.21,  -0.31]
    """
)
_ZA_WEIGHTS = block(
    """
    [[1.    0.    0.    0.    0.   ]
     [0.206 0.794 0.    0.    0.   ]
     [0.142 0.554 0.305 0.    0.   ]
     [0.179 0.037 0.076 0.707 0.   ]
     [0.611 0.054 0.117 0.137 0.082]]
    """
)
_ZA_HALVES = {"s": 0.005}


def _za_masked(x: Arrays) -> np.ndarray:
    return np.where(np.triu(np.ones((5, 5)), 1) == 1, -np.inf, x["s"] / 8)


def _za_masked_truth(x: Arrays) -> np.ndarray:
    kept = settled(lambda y: y["s"] / 8, _ZA_HALVES, _ZA_MASKED)(x)
    return np.where(np.isinf(_za_masked(x)), -np.inf, kept)


def _size(*entries: str) -> Printed:
    return other(one(*entries), "torch.Size")


ZA = Doc(
    file="heldout/notebook-torch-step-by-step-causal-scaled-attention.ipynb",
    url=(
        "https://github.com/zhubert/intro-to-transformers/blob/main/"
        "building-a-transformer/02_attention.ipynb"
    ),
    kind="notebook-torch",
    language="en",
    inputs={
        "s": a([[float(e) for e in r] for r in _ZA_SCORES]),
        "small": a([0.1, 0.2, 0.3]),
        "large": a([10.0, 20.0, 30.0]),
        "trace": a([0.52, 0.31, 0.89, 0.45]),
    },
    printed=(
        *(_size("1", "5", "64"), _size("1", "5", "64"), _size("1", "5", "5")),
        given(_ZA_SCORES, "scores[0] = Q K^T of random Q, K (d_k = 64), rounded to 2 dp"),
        given(one("0.1", "0.2", "0.3"), "small scores"),
        Printed(one("0.30", "0.33", "0.37"), lambda x: softmax(x["small"]), "softmax, small"),
        given(one("10", "20", "30"), "large scores"),
        Printed(one("0.00", "0.00", "1.00"), lambda x: softmax(x["large"]), "softmax, large"),
        other(one("64"), "d_k in sqrt(64)"),
        other(one("8.00"), "scaling factor"),
        other(one("58.02"), "variance before scaling (of the unrounded scores)"),
        other(one("0.91"), "variance after scaling"),
        Printed(_ZA_SCALED, settled(lambda x: x["s"] / 8, _ZA_HALVES, _ZA_SCALED), "scaled"),
        given(
            block("[[0 1 1 1 1]\n [0 0 1 1 1]\n [0 0 0 1 1]\n [0 0 0 0 1]\n [0 0 0 0 0]]"), "mask"
        ),
        other(one("0"), "position 0 sees [0]"),
        other(one("0", "1"), "position 1 sees"),
        other(one("0", "1", "2"), "position 2 sees"),
        other(one("0", "1", "2", "3", "4"), "position 4 sees"),
        Printed(_ZA_MASKED, _za_masked_truth, "masked scores"),
        Printed(
            _ZA_WEIGHTS,
            settled(lambda x: softmax(_za_masked(x)), _ZA_HALVES, _ZA_WEIGHTS),
            "attention weights",
        ),
        other(one("1.", "1.", "1.", "1.", "1."), "row sums"),
        *(_size("1", "5", "5"), _size("1", "5", "64"), _size("1", "5", "64")),
        *(_size("2", "6", "64"), _size("2", "6", "64"), _size("2", "6", "64")),
        *(_size("2", "6", "64"), _size("2", "6", "6")),
        given(column("0.52", "0.31", "0.89", "0.45"), "trace: score[3, 0..3]"),
        Printed(
            column("0.21", "0.15", "0.42", "0.22"),
            lambda x: softmax(x["trace"] / 8)[:, None],
            "trace: weight[3, 0..3] after scaling by sqrt(d_k) = 8",
        ),
        Printed(
            one("0.21", "0.15", "0.42", "0.22"),
            lambda x: softmax(x["trace"] / 8),
            "trace: the same weights as coefficients of output[3]",
        ),
    ),
    notes=(
        "Random Q, K (d_k = 64) are never printed: the scores come rounded to 2 dp and are the "
        "given input. Scaled = scores/8 (3 dp), masked = -inf above the diagonal (2 dp, written "
        "by an f-string loop), weights = row softmax (3 dp); all right within the rounding of "
        "the printed scores. The softmax examples [0.1, 0.2, 0.3] -> [0.30, 0.33, 0.37] and "
        "[10, 20, 30] -> [0.00, 0.00, 1.00] are right. The hand trace for position 3 is made "
        "up and wrong: with scores [0.52, 0.31, 0.89, 0.45] scaled by sqrt(64) = 8 the weights "
        "are [0.249, 0.243, 0.261, 0.247], not [0.21, 0.15, 0.42, 0.22] (even without scaling "
        "they would be [0.24, 0.19, 0.35, 0.22]); the wrong weights are written again as the "
        "coefficients of output[3]. Variances (58.02, 0.91), shapes and row sums are not "
        "attention numbers."
    ),
)

JUDGE_DOCS_3: list[Doc] = [PERCENT, UVA, RU_QA, ZA]
