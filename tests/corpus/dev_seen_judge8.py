"""Development documents (the eighth held-out batch, studied and moved to dev in session 31), their
truth computed with numpy from the printed inputs: a Chinese blog (the three-word example worked
in code comments), a Chinese exercise page (one query, one key) and an English numpy notebook
(random Q, K, V, weights and a causal mask). See tests/corpus/truth_dev.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.dev_seen_judge8b import DEV_SEEN_JUDGE8B
from tests.corpus.dev_seen_judge8c import DEV_SEEN_JUDGE8C
from tests.corpus.dev_seen_judge8d import DEV_SEEN_JUDGE8D
from tests.corpus.heldout_help import a, block, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_8 = 5e-9

# --- Chinese blog: three 4-d inputs, 4 x 3 weights, results in code comments -------------------

_ZH_X = "[1., 0., 1., 0.],\n[0., 2., 0., 2.],\n[1., 1., 1., 1.]"
_ZH_WK = "[0, 0, 1],\n[1, 1, 0],\n[0, 1, 0],\n[1, 1, 0]"
_ZH_WQ = "[1, 0, 1],\n[1, 0, 0],\n[0, 0, 1],\n[0, 1, 1]"
_ZH_WV = "[0, 2, 0],\n[0, 3, 0],\n[1, 0, 3],\n[1, 1, 0]"


def _zh_inputs() -> dict[str, np.ndarray]:
    return {
        name: a([[float(e) for e in row] for row in block(text)])
        for name, text in (("x", _ZH_X), ("wk", _ZH_WK), ("wq", _ZH_WQ), ("wv", _ZH_WV))
    }


def _zh_weights(x: Arrays) -> np.ndarray:
    return softmax((x["x"] @ x["wq"]) @ (x["x"] @ x["wk"]).T)


def _zh_rounded_output(x: Arrays) -> np.ndarray:
    """The output the page gets from its own rounded weights [[0, .5, .5], [0, 1, 0], ...]."""
    rounded = np.array([[0, 0.5, 0.5], [0, 1, 0], [0, 0.9, 0.1]])
    return rounded @ (x["x"] @ x["wv"])


ZH_BLOG = Doc(
    file="dev/zh-blog-html-illustrated-qkv-comments-rounded-softmax.html",
    url="https://flashgene.com/archives/228689.html",
    kind="blog-html",
    language="zh",
    inputs=_zh_inputs(),
    printed=(
        given(block(_ZH_X), "input"),
        given(block(_ZH_WK), "w_key"),
        given(block(_ZH_WQ), "w_query"),
        given(block(_ZH_WV), "w_value"),
        Printed(block("[[0,1,1],[4,0,0],[2,3,1]]"), lambda x: x["x"] @ x["wk"], "keys"),
        Printed(block("[[1,0,2],[2,2,2],[2,1,3]]"), lambda x: x["x"] @ x["wq"], "querys"),
        Printed(block("[[1,2,3],[2,8,0],[2,6,3]]"), lambda x: x["x"] @ x["wv"], "values"),
        Printed(block("[[0,0.5,0.5],[0,1,0],[0,0.9,0.1]]"), _zh_weights, "attn_scores_softmax"),
        Printed(
            (("0.", "0.", "0."), ("0.5", "1.", "0.9"), ("0.5", "0.", "0.1")),
            lambda x: _zh_weights(x).T,
            "attn_scores_softmax.T[:,:,None], one printed block per key",
        ),
        Printed(block("[1 2 3]\n[2 8 0]\n[2 6 3]"), lambda x: x["x"] @ x["wv"], "values[:, None]"),
        Printed(
            block("[[2,7,1.5],[2,8,0],[2,7.8,0.3]]"),
            lambda x: _zh_weights(x) @ (x["x"] @ x["wv"]),
            "outputs",
            follows=True,
        ),
    ),
    notes=(
        "A Chinese blog post (HTML) working the three-input self-attention example in numpy with "
        "every result in a code comment. No scaling (q . k unscaled). Two mistakes as published: "
        "the comment on keys gives the second row as [4,0,0] where X W_K is [4,4,0] (one entry "
        "wrong; the scores and weights use the right keys); the weights are rounded to one "
        "decimal or to whole numbers (right at that precision), and the outputs computed from "
        "those rounded weights miss the exact ones in two entries (1.5 for 1.595, 0.3 for 0.358), "
        "which follow from the rounding. The transposed weights are printed as three (3, 1) "
        "blocks, one per key: entries of W^T."
    ),
)

# --- Chinese exercise page: one query against one key ---------------------------------------------

ZH_EXERCISE = Doc(
    file="dev/zh-html-exercise-single-key-json-attention.html",
    url="https://codefun2000.com/p/P3457",
    kind="exercise-html",
    language="zh",
    inputs={"Q": a([[1, 0]]), "K": a([[1, 0]]), "V": a([[5, 5]])},
    printed=(
        given(one("1", "0"), "Q"),
        given(one("1", "0"), "K"),
        given(one("5", "5"), "V"),
        Printed(
            one("5.0", "5.0"),
            lambda x: softmax(x["Q"] @ x["K"].T / np.sqrt(2)) @ x["V"],
            "output",
        ),
        other(one("-1e9"), "mask fill named in the statement"),
    ),
    notes=(
        "An online judge's problem page in Chinese: masked scaled dot-product attention in numpy, "
        "inputs as one line of JSON. The sample has one query and one key, so the weight is 1 and "
        "the output is V. All right."
    ),
)

# --- English numpy notebook: unseeded random Q, K, V (4 x 8), weights printed twice, a mask ------

_EN_Q = block(
    """
    [[-0.05077099 -0.13968095  0.28794113 -0.11155697  0.75073963 -0.52329682
       1.04938617  1.04672942]
     [-0.54786664 -0.50825837 -0.69942501 -0.6401618   1.39375713 -1.50627131
      -0.30578947 -0.5676279 ]
     [ 0.64067017  0.79348516 -1.3860305   0.06075065  0.56191492  0.03487981
       0.26233773  0.7136653 ]
     [ 0.06370629  0.28620743  1.64315643  1.30902162  1.37355287  0.73041375
      -1.53309107 -0.79906111]]
    """
)
_EN_K = block(
    """
    [[-0.86570656  0.78788674 -1.80806456 -0.92054313  0.17036489 -0.30346231
       0.64347536  0.93605272]
     [-0.52105998 -0.0313016   1.34147804 -2.25087616 -1.35403948 -0.65355577
      -1.1342191  -0.36495378]
     [ 1.61557539 -0.96355223 -1.31860745 -0.88487251  0.82636694 -0.25747757
      -0.43899771 -0.29155016]
     [ 1.91897767  0.99055125 -0.36616923 -0.32582732  0.45342366 -0.79588718
      -0.8223103  -1.32627147]]
    """
)
_EN_V = block(
    """
    [[ 1.88377581  1.74823426  1.19604261  1.28779537 -0.93109576  0.13238352
      -1.21585038  0.89339695]
     [-0.5080888  -0.84069984  0.3165722   0.28480814 -0.13819108  0.18558206
       0.24996386  0.01012336]
     [ 0.69496643  1.24666421  1.05673329 -0.18741488  1.22627554 -0.32799409
      -0.60416164 -1.0460332 ]
     [-0.70884565 -0.20429162 -1.36504952  2.17720109  1.19549895 -1.62924881
       0.53087437  0.44417438]]
    """
)
_EN_SCALED = block(
    """
    [[ 0.51538378 -0.55811038 -0.08454548 -0.63609788]
     [ 0.66969732  0.16095966  1.03685225  0.61693558]
     [ 1.21715534 -1.30687151  0.76950626  0.55434879]
     [-2.02505242 -0.38575158 -0.58154784  0.61500213]]
    """
)
_EN_WEIGHTS = block(
    """
    [[0.45313856 0.15488823 0.24870531 0.1432679 ]
     [0.25040806 0.15055887 0.36149448 0.23753859]
     [0.44749377 0.03586048 0.28600621 0.23063954]
     [0.04098185 0.21112071 0.17357916 0.57431828]]
    """
)
_EN_OUT = block(
    """
    [[ 0.8462015   0.94276141  0.65825374  0.89297512  0.03293829 -0.22626037
      -0.58643318  0.20988252]
     [ 0.47806371  0.71333222  0.40491278  0.81477456  0.47330919 -0.44448659
      -0.35912241 -0.04738871]
     [ 0.86003452  1.06161203  0.53397194  1.0350406   0.2048366  -0.40368168
      -0.58547501  0.20342478]
     [-0.31653878 -0.00677676 -0.48469504  1.3307802   0.83211977 -0.94803479
       0.20296573  0.1122782 ]]
    """
)


def _rows_of(rows: tuple[tuple[str, ...], ...], width: int) -> tuple[tuple[str, ...], ...]:
    """A numpy print wrapped over lines, regrouped into rows of ``width`` entries."""
    flat = [e for row in rows for e in row]
    return tuple(tuple(flat[i : i + width]) for i in range(0, len(flat), width))


_EN_HALVES = {"q": _ROUNDED_8, "k": _ROUNDED_8, "v": _ROUNDED_8}


def _en_scaled(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T / np.sqrt(8)


def _en_inputs() -> dict[str, np.ndarray]:
    return {
        name: a([[float(e) for e in row] for row in _rows_of(rows, 8)])
        for name, rows in (("q", _EN_Q), ("k", _EN_K), ("v", _EN_V))
    }


def _en_weights_print() -> Printed:
    return Printed(
        _EN_WEIGHTS,
        settled(lambda x: softmax(_en_scaled(x)), _EN_HALVES, _EN_WEIGHTS),
        "attention (printed in the function and again after it)",
    )


_EN_OUT_ROWS = _rows_of(_EN_OUT, 8)

EN_NOTEBOOK = Doc(
    file="dev/en-notebook-numpy-random-qkv-scaled-weights-causal-mask.ipynb",
    url=("https://github.com/surbhi498/TransformerCodes/blob/main/TransformerOverview%20(1).ipynb"),
    kind="notebook-numpy",
    language="en",
    inputs=_en_inputs(),
    printed=(
        given(one("2.0", "1.0", "1.0"), "list1"),
        Printed(
            one("7.3890561", "2.71828183", "2.71828183"),
            lambda x: np.exp(np.array([2.0, 1.0, 1.0])),
            "np.exp(list1)",
        ),
        Printed(
            one("0.57611688", "0.21194156", "0.21194156"),
            lambda x: softmax(np.array([2.0, 1.0, 1.0])),
            "softmax(list1)",
        ),
        Printed(
            one("12.82561975584874"),
            lambda x: np.exp(np.array([2.0, 1.0, 1.0])).sum(keepdims=True),
            "sum of the exponentials",
        ),
        given(_rows_of(_EN_Q, 8), "q"),
        given(_rows_of(_EN_K, 8), "k"),
        given(_rows_of(_EN_V, 8), "v"),
        Printed(_EN_SCALED, settled(_en_scaled, _EN_HALVES, _EN_SCALED), "scaled"),
        _en_weights_print(),
        Printed(
            _EN_OUT_ROWS,
            settled(lambda x: softmax(_en_scaled(x)) @ x["v"], _EN_HALVES, _EN_OUT_ROWS),
            "values (the output)",
        ),
        _en_weights_print(),
        other(block("[[1. 0. 0. 0.]\n [1. 1. 0. 0.]\n [1. 1. 1. 0.]\n [1. 1. 1. 1.]]"), "tril"),
        Printed(
            block(
                "[[  0. -inf -inf -inf]\n [  0.   0. -inf -inf]\n"
                " [  0.   0.   0. -inf]\n [  0.   0.   0.   0.]]"
            ),
            lambda x: np.triu(np.full((4, 4), -np.inf), 1) + 0.0,
            "causal mask (0 and -inf)",
        ),
    ),
    notes=(
        "An English numpy notebook: the softmax of [2, 1, 1] with its exponentials and their "
        "sum, then unseeded random q, k, v (4 x 8, rows wrapped over two lines) and "
        "softmax(q k^T / sqrt(8)) v; the function prints the scaled scores and the weights, then "
        "the cell prints the output and the weights again. Last a causal mask built from "
        "np.tril and printed as 0 and -inf (never applied). All right."
    ),
)

DEV_SEEN_JUDGE8: list[Doc] = [
    ZH_BLOG,
    ZH_EXERCISE,
    EN_NOTEBOOK,
    *DEV_SEEN_JUDGE8B,
    *DEV_SEEN_JUDGE8C,
    *DEV_SEEN_JUDGE8D,
]
