"""The held-out documents' truth, a fresh set for issue 22 (see tests/corpus/truth_heldout.py).

Every truth is recomputed with numpy float64 from the arrays the document itself prints.
"""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, column, given, one, other, single_precision
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- LaTeX exercise sheet: dot-product attention, then scaled attention by hand -----------------


def _csc_weights(x: Arrays) -> np.ndarray:
    return softmax(x["h"] @ x["s"])


CSC413 = Doc(
    file="heldout/en-csc413-exercise-sheet-attention-by-hand.tex",
    url="https://github.com/csc477/website_fall24/tree/main/ex/w09",
    kind="latex-exercise",
    language="en",
    inputs={
        "h": a([[1, 2, 3], [1, 2, 1], [0, 1, -1]]),
        "s": a([1, 2, 1]),
        "Q": a([[1, 2], [3, 1]]),
        "K": a([[2, 1], [1, 1], [0, 1]]),
        "V": a([[1, 2, -2], [1, 1, 2], [0, 1, -1]]),
    },
    printed=(
        given(one("1", "2", "3"), "h_1"),
        given(one("1", "2", "1"), "h_2"),
        given(one("0", "1", "-1"), "h_3"),
        given(one("1", "2", "1"), "s"),
        given(block("1 1 0\n2 2 1\n3 1 -1"), "(h_1 h_2 h_3) written as columns"),
        given(column("1", "2", "1"), "s"),
        Printed(
            column("0.88", "0.12", "0.00"),
            lambda x: _csc_weights(x)[:, None],
            "alpha = Softmax(h^T s)",
        ),
        Printed(
            column("1.00", "2.00", "2.76"),
            lambda x: (_csc_weights(x) @ x["h"])[:, None],
            "c = a_1 h_1 + a_2 h_2 + a_3 h_3",
        ),
        given(block("[[1, 2, 3], [1,2,1], [0,1,-1]]"), "h (code)"),
        given(one("1", "2", "1"), "s (code)"),
        given(block("1 2\n3 1"), "Q"),
        given(block("2 1\n1 1\n0 1"), "K"),
        given(block("1 2 -2\n1 1 2\n0 1 -1"), "V"),
        Printed(
            block("0.86 1.58 -0.72\n0.99 1.88 -1.56"),
            lambda x: softmax(x["Q"] @ x["K"].T / np.sqrt(2)) @ x["V"],
            "C",
        ),
        given(block("[[1, 2], [3, 1]]"), "Q (code)"),
        given(block("[[2, 1], [1, 1], [0, 1]]"), "K (code)"),
        given(block("[[1, 2, -2], [1, 1, 2], [0, 1, -1]]"), "V (code)"),
    ),
    notes=(
        "Two exercises with solutions, in LaTeX with the sheet's own macros (\\bpmat, \\fh, \\li). "
        "Exercise 1: unscaled dot-product attention of one source vector over three vectors, "
        "the weights and the context printed as column vectors (the h_i are written as the "
        "columns of a transposed matrix). Exercise 3: scaled attention with Q, K, V given "
        "directly (d_k = 2, d_v = 3), only the final C printed. All right."
    ),
)

# --- Turkish notebook (markdown only): example scores and example weights that do not match ------

_TR_SCORES = [[4, 2, 1], [2, 3, 0], [1, 0, 2]]

TR_STEPS = Doc(
    file="heldout/tr-notebook-self-attention-steps-example-weights.ipynb",
    url=(
        "https://github.com/huseyin-dgn/PyTorch_Bolum-6.1---Transformers_LLM/blob/main/"
        "PyTorch%20-%20Transformers%20%20-%20LLM/LLM%20%26%20Transformers/Attention/"
        "Self%20-%20Attention/Teorikler/Transformers_teorikler_Self_Attention.ipynb"
    ),
    kind="notebook-markdown",
    language="tr",
    inputs={"S": a(_TR_SCORES)},
    printed=(
        given(one("0.2", "0.7", "0.1"), "Ben"),
        given(one("0.9", "0.1", "0.3"), "Okula"),
        given(one("0.4", "0.5", "0.8"), "Gidiyorum"),
        given(block("0.2 0.7 0.1\n0.9 0.1 0.3\n0.4 0.5 0.8"), "X"),
        given(block("4 2 1\n2 3 0\n1 0 2"), "QK^T (örnek)"),
        other(one("64"), "d_k"),
        other(one("8"), "√64"),
        Printed(
            block("0.7 0.2 0.1\n0.4 0.5 0.1\n0.2 0.1 0.7"),
            lambda x: softmax(x["S"] / 8),
            "Attention Weights (örnek)",
        ),
    ),
    notes=(
        "Markdown-only notebook walking through self-attention with 'example' matrices. The "
        "scores QK^T = [[4,2,1],[2,3,0],[1,0,2]] are given (no weights W are printed, so they "
        "cannot be checked against X), d_k = 64 and √64 = 8 are stated, and the attention "
        "weights are then shown as softmax(QK^T/√d_k) = [[0.7,0.2,0.1],[0.4,0.5,0.1],"
        "[0.2,0.1,0.7]]. They are not: softmax of those scores over 8 is about "
        "[[0.40,0.31,0.27],[0.34,0.39,0.27],[0.33,0.29,0.38]] (unscaled it would be "
        "[[0.84,0.11,0.04],...], also not the printed rows). All nine weights are wrong."
    ),
)

# --- English TensorFlow notebook: one head, float32 prints --------------------------------------

_TF_X = [[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 1.0, 1.1, 1.2]]
_TF_WQ = [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9], [1.0, 1.1, 0]]
_TF_WV = [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]]


_TF_QK = "0.70000005 0.8000001  0.42000002\n1.5799999  1.8400002  1.14\n2.46  2.88  1.86"


def _tf_q(x: Arrays) -> np.ndarray:
    return x["x"] @ x["WQ"]


def _tf_scaled(x: Arrays) -> np.ndarray:
    return _tf_q(x) @ _tf_q(x).T / np.sqrt(3)


def _tf_printed(text: str, compute: Truth, label: str) -> Printed:
    rows = block(text)
    return Printed(rows, single_precision(compute, rows), label)


TF_HEAD = Doc(
    file="heldout/notebook-tensorflow-one-head-float32-prints.ipynb",
    url=(
        "https://github.com/aliusman0047/aliusman_deeplearning/blob/main/"
        "One_Attention_Head_CAT_SAT_MAT_0047_Exp_10%20(1).ipynb"
    ),
    kind="notebook-tensorflow",
    language="en",
    inputs={"x": a(_TF_X), "WQ": a(_TF_WQ), "WV": a(_TF_WV)},
    printed=(
        given(block("[0.1, 0.2, 0.3, 0.4],\n[0.5, 0.6, 0.7, 0.8],\n[0.9, 1.0, 1.1, 1.2]"), "x"),
        given(block("[0.1, 0.2, 0.3],\n[0.4, 0.5, 0.6],\n[0.7, 0.8, 0.9],\n[1.0, 1.1, 0]"), "W_Q"),
        given(block("[0.1, 0.2],\n[0.3, 0.4],\n[0.5, 0.6],\n[0.7, 0.8],"), "W_V"),
        _tf_printed(
            _TF_QK,
            _tf_q,
            "Queries Matrix",
        ),
        _tf_printed(
            _TF_QK,
            _tf_q,
            "Keys Matrix (W_K = W_Q)",
        ),
        _tf_printed(
            "0.5       0.6\n1.14      1.4000001\n1.7800001 2.2",
            lambda x: x["x"] @ x["WV"],
            "Values Matrix",
        ),
        _tf_printed(
            " 1.3064002  3.0568004  4.8072004\n 3.0568004  7.1816    11.3064\n"
            " 4.8072004 11.3064    17.805601",
            lambda x: _tf_q(x) @ _tf_q(x).T,
            "Attention Scores Matrix",
        ),
        _tf_printed(
            " 0.7542505  1.7648445  2.7754385\n 1.7648445  4.146299   6.5277534\n"
            " 2.7754385  6.5277534 10.280068",
            _tf_scaled,
            "Attention Score Matrix Scaled",
        ),
        _tf_printed(
            "8.8538527e-02 2.4323590e-01 6.6822553e-01\n7.7575515e-03 8.3941586e-02 9.0830088e-01\n"
            "5.3761917e-04 2.2913132e-02 9.7654927e-01",
            lambda x: softmax(_tf_scaled(x)),
            "Attention Weights Matrix",
        ),
        _tf_printed(
            "1.5109997 1.8637496\n1.7163478 2.1204348\n1.7646476 2.1808093",
            lambda x: softmax(_tf_scaled(x)) @ (x["x"] @ x["WV"]),
            "Context vectors for each word",
        ),
    ),
    notes=(
        "W_K = W_Q, so the keys equal the queries and the scores are symmetric; scaled by √3 "
        "(d_k = 3), softmax with tf.nn.softmax. Everything is printed by TensorFlow in float32 "
        "(0.70000005 for 0.7, 1.5799999 for 1.58, e-notation weights), so the truth allows a "
        "few units of float32 rounding. All right."
    ),
)

# --- blog post (HTML) in question-and-answer form: softmax collapse without scaling --------------

BLOG_SCALE = Doc(
    file="heldout/blog-html-qa-why-scale-softmax-collapse.html",
    url="https://www.songjunxi.com/language/transformer-5-scaling-and-value-output",
    kind="blog-html",
    language="en",
    inputs={
        "a": a([[2.0, 1.0, 1.0]]),
        "b": a([[20, 10, 10]]),
        "c": a([[200, 100, 100]]),
    },
    printed=(
        given(one("2.0", "1.0", "1.0")),
        Printed(one("0.50", "0.25", "0.25"), lambda x: softmax(x["a"]), "softmax([2,1,1])"),
        given(one("20", "10", "10")),
        Printed(one("0.99", "0.005", "0.005"), lambda x: softmax(x["b"]), "softmax([20,10,10])"),
        given(one("200", "100", "100")),
        Printed(one("1.00", "0.00", "0.00"), lambda x: softmax(x["c"]), "softmax([200,100,100])"),
        other(one("512"), "d_k"),
        given(one("200", "100", "100"), "dot products"),
        Printed(one("1.00", "0.00", "0.00"), lambda x: softmax(x["c"]), "softmax (unscaled)"),
        other(one("512"), "√512"),
        other(one("22.6"), "√512 ≈ 22.6"),
        Printed(one("8.8", "4.4", "4.4"), lambda x: x["c"] / np.sqrt(512), "scaled"),
        Printed(
            one("0.90", "0.05", "0.05"),
            lambda x: softmax(x["c"] / np.sqrt(512)),
            "softmax (scaled)",
        ),
    ),
    notes=(
        "Softmax of toy score vectors to show saturation, then the same scores divided by "
        "√512. Three of the five printed softmaxes are wrong: softmax([2,1,1]) is about "
        "[0.58, 0.21, 0.21], not [0.50, 0.25, 0.25]; softmax([20,10,10]) is [0.99991, "
        "0.0000454, 0.0000454], not [0.99, 0.005, 0.005]; softmax([8.84, 4.42, 4.42]) is about "
        "[0.977, 0.012, 0.012], not [0.90, 0.05, 0.05] (nine wrong entries). The scaled scores "
        "[8.8, 4.4, 4.4] and the two saturated softmaxes [1.00, 0.00, 0.00] are right."
    ),
)

JUDGE_DOCS: list[Doc] = [CSC413, TR_STEPS, TF_HEAD, BLOG_SCALE]
