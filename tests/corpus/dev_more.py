"""The development corpus, continued: lecture notes and a note with multi-head attention and W_O,
Julia printouts, a Q&A thread (see truth_dev.py; notebooks in dev_notebooks.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.dev_notebooks import DEV_NOTEBOOKS
from tests.corpus.helpers import array, entries, follows_row, given, row, rows, softmax
from tests.corpus.model import Arrays, Doc, Printed

R2 = np.sqrt(2.0)


# ------------------------------------------------------------------ en-lecture3 (course notes)
_L_Q, _L_K, _L_V = array("1 0\n0 1\n1 1"), array("1 1\n0 1\n1 0"), array("0 2\n1 1\n2 0")
_MH = {
    "MQ": array("1 2 1 0\n0 1 1 1\n1 0 2 1"),
    "MK": array("1 1 0 2\n2 1 1 0\n0 1 1 1"),
    "MV": array("1 1 0 0\n0 2 1 1\n1 1 2 2"),
    "WQ1": array("1 0\n0 1\n1 0\n0 1"),
    "WK1": array("1 0\n0 1\n0 1\n1 0"),
    "WV1": array("1 0\n0 1\n1 0\n0 1"),
    "WQ2": array("0 1\n1 0\n1 1\n0 0"),
    "WK2": array("0 1\n1 0\n1 0\n1 1"),
    "WV2": array("0 1\n1 1\n0 1\n1 0"),
}


def _l_scaled(a: Arrays) -> np.ndarray:
    return a["Q"] @ a["K"].T / R2


def _l_alpha(a: Arrays) -> np.ndarray:
    return softmax(_l_scaled(a))


def _proj(a: Arrays, h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (a["MQ"] @ a[f"WQ{h}"], a["MK"] @ a[f"WK{h}"], a["MV"] @ a[f"WV{h}"])


def _head_scores(a: Arrays, h: int) -> np.ndarray:
    q, k, _ = _proj(a, h)
    return q @ k.T


def _head_alpha(a: Arrays, h: int) -> np.ndarray:
    return softmax(_head_scores(a, h) / R2)


def _head(a: Arrays, h: int) -> np.ndarray:
    return _head_alpha(a, h) @ _proj(a, h)[2]


def _lecture_example_1() -> tuple[Printed, ...]:
    e71 = np.exp(1 / R2)
    return (
        given("1 0\n0 1\n1 1", "Q"),
        given("1 1\n0 1\n1 0", "K"),
        given("0 2\n1 1\n2 0", "V"),
        Printed(rows("1 0 1\n1 1 0\n2 1 1"), lambda a: a["Q"] @ a["K"].T, "QK^T"),
        Printed(row("1.41"), lambda a: np.array([R2]), "sqrt(2)"),
        Printed(rows("0.71 0 0.71\n0.71 0.71 0\n1.41 0.71 0.71"), _l_scaled, "QK^T / sqrt(2)"),
        Printed(row("0.71, 0, 0.71"), lambda a: _l_scaled(a)[0], "row 1"),
        follows_row("2.034", lambda a: np.array([e71]), "e^0.71"),
        follows_row("5.068", lambda a: np.array([2 * e71 + 1]), "row 1 sum"),
        follows_row("0.401", lambda a: _l_alpha(a)[0, :1], "2.034 / 5.068"),
        follows_row("0.197", lambda a: _l_alpha(a)[0, 1:2], "1 / 5.068"),
        follows_row("0.401, 0.197, 0.401", lambda a: _l_alpha(a)[0], "row 1 softmax"),
        Printed(row("0.40, 0.20, 0.40"), lambda a: _l_alpha(a)[0], "row 1 rounded"),
        Printed(row("0.71, 0.71, 0"), lambda a: _l_scaled(a)[1], "row 2"),
        follows_row("0.401, 0.401, 0.197", lambda a: _l_alpha(a)[1], "row 2 softmax"),
        Printed(row("0.40, 0.40, 0.20"), lambda a: _l_alpha(a)[1], "row 2 rounded"),
        Printed(row("1.41, 0.71, 0.71"), lambda a: _l_scaled(a)[2], "row 3"),
        follows_row("4.096", lambda a: np.exp([R2]), "e^1.41"),
        follows_row("2.034", lambda a: np.array([e71]), "e^0.71"),
        follows_row("8.164", lambda a: np.array([np.exp(R2) + 2 * e71]), "row 3 sum"),
        follows_row("0.501", lambda a: _l_alpha(a)[2, :1], "4.096 / 8.164"),
        follows_row("0.249", lambda a: _l_alpha(a)[2, 1:2], "2.034 / 8.164"),
        follows_row("0.501, 0.249, 0.249", lambda a: _l_alpha(a)[2], "row 3 softmax"),
        Printed(row("0.50, 0.25, 0.25"), lambda a: _l_alpha(a)[2], "row 3 rounded"),
        Printed(rows("0.40 0.20 0.40\n0.40 0.40 0.20\n0.50 0.25 0.25"), _l_alpha, "alpha"),
        follows_row("1.00, 1.00", lambda a: (_l_alpha(a) @ a["V"])[0], "row 1 output"),
        follows_row("0, 0.80", lambda a: _l_alpha(a)[1, 0] * a["V"][0], "0.40 x [0,2]"),
        follows_row("0.40, 0.40", lambda a: _l_alpha(a)[1, 1] * a["V"][1], "0.40 x [1,1]"),
        follows_row("0.40, 0", lambda a: _l_alpha(a)[1, 2] * a["V"][2], "0.20 x [2,0]"),
        follows_row("0.80, 1.20", lambda a: (_l_alpha(a) @ a["V"])[1], "row 2 output"),
        follows_row("0, 1.0", lambda a: _l_alpha(a)[2, 0] * a["V"][0], "0.50 x [0,2]"),
        follows_row("0.25, 0.25", lambda a: _l_alpha(a)[2, 1] * a["V"][1], "0.25 x [1,1]"),
        follows_row("0.50, 0", lambda a: _l_alpha(a)[2, 2] * a["V"][2], "0.25 x [2,0]"),
        follows_row("0.75, 1.25", lambda a: (_l_alpha(a) @ a["V"])[2], "row 3 output"),
        Printed(
            rows("1.00 1.00\n0.80 1.20\n0.75 1.25"),
            lambda a: _l_alpha(a) @ a["V"],
            "final output",
            follows=True,
        ),
    )


def _lecture_examples_2_3() -> tuple[Printed, ...]:
    w2 = np.array([0.5, 0.5])
    return (
        given("1 1", "Q (example 2)"),
        given("1 0\n0 1", "K (example 2)"),
        given("2 3\n4 1", "V (example 2)"),
        Printed(row("1 1"), lambda a: np.array([1.0, 1.0]), "QK"),
        Printed(row("0.71"), lambda a: np.array([1 / R2]), "1 / 1.41"),
        Printed(row("0.71, 0.71"), lambda a: np.array([1 / R2, 1 / R2]), "[1, 1] / 1.41"),
        Printed(row("0.5, 0.5"), lambda a: softmax(np.array([1.0, 1.0]) / R2), "softmax"),
        Printed(row("1,1.5"), lambda a: 0.5 * np.array([2.0, 3.0]), "0.5 x [2,3]"),
        Printed(row("2,0.5"), lambda a: 0.5 * np.array([4.0, 1.0]), "0.5 x [4,1]"),
        Printed(row("3,2"), lambda a: w2 @ np.array([[2.0, 3.0], [4.0, 1.0]]), "output"),
        given("1 1 1 1", "Q (example 3)"),
        given("1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1", "K (example 3)"),
        given("2\n4\n6\n8", "V (example 3)"),
        Printed(row("1 1 1 1"), lambda a: np.ones(4), "QK (example 3)"),
        Printed(row("0.5, 0.5, 0.5, 0.5"), lambda a: np.full(4, 0.5), "/ 2"),
        Printed(row("0.25, 0.25, 0.25, 0.25"), lambda a: softmax(np.full(4, 0.5)), "softmax"),
        Printed(row("5"), lambda a: np.array([0.25 * 20]), "output (example 3)"),
    )


def _lecture_multihead() -> tuple[Printed, ...]:
    return (
        given("1 2 1 0\n0 1 1 1\n1 0 2 1", "Q"),
        given("1 1 0 2\n2 1 1 0\n0 1 1 1", "K"),
        given("1 1 0 0\n0 2 1 1\n1 1 2 2", "V"),
        *(given(t, n) for n, t in _MH_WEIGHTS),
        Printed(row("2, 2"), lambda a: _proj(a, 1)[0][0], "first row of Q_1"),
        Printed(rows("2 2\n1 2\n3 1"), lambda a: _proj(a, 1)[0], "Q_1"),
        Printed(rows("3 1\n2 2\n1 2"), lambda a: _proj(a, 1)[1], "K_1"),
        Printed(rows("1 1\n1 3\n3 3"), lambda a: _proj(a, 1)[2], "V_1"),
        Printed(rows("3 2\n2 1\n2 3"), lambda a: _proj(a, 2)[0], "Q_2"),
        Printed(rows("3 3\n2 2\n3 1"), lambda a: _proj(a, 2)[1], "K_2"),
        Printed(rows("1 2\n3 3\n3 4"), lambda a: _proj(a, 2)[2], "V_2"),
        Printed(row("0.707"), lambda a: np.array([1 / R2]), "1 / sqrt(2)"),
        Printed(rows("3 2 1\n1 2 2"), lambda a: _proj(a, 1)[1].T, "K_1^T"),
        Printed(rows("8 8 6\n5 6 5\n10 8 5"), lambda a: _head_scores(a, 1), "Q_1 K_1^T"),
        Printed(
            rows("5.66 5.66 4.24\n3.54 4.24 3.54\n7.07 5.66 3.54"),
            lambda a: _head_scores(a, 1) / R2,
            "head 1 scaled",
        ),
        Printed(
            rows("0.45 0.45 0.11\n0.25 0.50 0.25\n0.79 0.19 0.02"),
            lambda a: _head_alpha(a, 1),
            "alpha_1",
        ),
        Printed(
            rows("1.23 2.13\n1.50 2.50\n1.04 1.42"),
            lambda a: _head(a, 1),
            "head_1",
            follows=True,
        ),
        Printed(rows("3 2 3\n3 2 1"), lambda a: _proj(a, 2)[1].T, "K_2^T"),
        Printed(rows("15 10 11\n9 6 7\n15 10 9"), lambda a: _head_scores(a, 2), "Q_2 K_2^T"),
        Printed(row("0.707"), lambda a: np.array([1 / R2]), "x 0.707"),
        Printed(
            rows("10.61 7.07 7.78\n6.36 4.24 4.95\n10.61 7.07 6.36"),
            lambda a: _head_scores(a, 2) / R2,
            "head 2 scaled",
        ),
        Printed(
            rows("0.92 0.03 0.05\n0.73 0.09 0.18\n0.96 0.03 0.01"),
            lambda a: _head_alpha(a, 2),
            "alpha_2",
        ),
        Printed(
            rows("1.16 2.13\n1.53 2.45\n1.09 2.06"),
            lambda a: _head(a, 2),
            "head_2",
            follows=True,
        ),
        Printed(
            rows("1.23 2.13 1.16 2.13\n1.50 2.50 1.53 2.45\n1.04 1.42 1.09 2.06"),
            lambda a: np.hstack([_head(a, 1), _head(a, 2)]),
            "Concat(head_1, head_2)",
            follows=True,
        ),
    )


_MH_WEIGHTS = (
    ("W^Q_1", "1 0\n0 1\n1 0\n0 1"),
    ("W^K_1", "1 0\n0 1\n0 1\n1 0"),
    ("W^V_1", "1 0\n0 1\n1 0\n0 1"),
    ("W^Q_2", "0 1\n1 0\n1 1\n0 0"),
    ("W^K_2", "0 1\n1 0\n1 0\n1 1"),
    ("W^V_2", "0 1\n1 1\n0 1\n1 0"),
    ("W^O", "1 0 0 1\n0 1 1 0\n1 0 1 0\n0 1 0 1"),
)

LECTURE3 = Doc(
    file="dev/en-lecture3-attention-by-hand-multihead.md",
    url=(
        "https://github.com/wangywUST/wangywust.github.io/blob/"
        "054024d36dba490f6eee4fbc9b967f25f15b7266/Course/lecture_3.md"
    ),
    kind="course-notes",
    language="en",
    inputs={"Q": _L_Q, "K": _L_K, "V": _L_V} | _MH,
    printed=(*_lecture_example_1(), *_lecture_examples_2_3(), *_lecture_multihead()),
    notes=(
        "Lecture notes in Markdown with $$\\begin{bmatrix}$$ blocks, three single-head examples "
        "(one with a 4x1 value column) and a two-head example with W_O that stops at the "
        "concatenation. The page's mistakes: the exponentials use the rounded 0.71 and 1.41 "
        "(e^0.71 = 2.034 for e^0.7071 = 2.028, sums 5.068 and 8.164), so 0.197 and 0.249 and the "
        "row-3 result 0.501 (4.096/8.164 is 0.5017) are off; the outputs multiply the two-decimal"
        " weights (1.25 for 1.2553); head_1 = alpha_1 V_1 uses the rounded alpha_1 (1.23, 2.13 "
        "for 1.217, 2.108; 1.04, 1.42 for 1.046, 1.428) and head_2 likewise (2.13, 2.45, 1.09 for"
        " 2.135, 2.445, 1.083): they follow from the page's own rounded numbers."
    ),
)

# ------------------------------------------------------------------ en-multihead (two heads, W_O)
_SWAP = array("0 1\n1 0")


def _yang_head(a: Arrays, w: np.ndarray) -> np.ndarray:
    x = a["X"] @ w
    return softmax(x @ x.T) @ x


def _yang_concat(a: Arrays) -> np.ndarray:
    return np.hstack([_yang_head(a, np.eye(2)), _yang_head(a, _SWAP)])


YANG = Doc(
    file="dev/en-multihead-two-heads-concat-wo.md",
    url=(
        "https://github.com/yangshiteng/Data-Science-Learning-Path/blob/"
        "364e5eec98baff1ee1f8b67183326a47f41d23c1/deep_learning/transformer/"
        "multi_head_calculation.md"
    ),
    kind="course-notes",
    language="en",
    inputs={"X": np.eye(2)},
    printed=(
        given("1.0, 0.0\n0.0, 1.0", "embeddings"),
        given("1.0 0.0\n0.0 1.0", "X"),
        given("[[1, 0],\n[0, 1]]", "W_Q1 = W_K1 = W_V1"),
        Printed(row("1, 0"), lambda a: a["X"] @ a["X"][0], "scores of I"),
        Printed(row("0.73, 0.27"), lambda a: softmax(a["X"] @ a["X"][0]), "softmax([1, 0])"),
        Printed(row("0.73, 0.27"), lambda a: _yang_head(a, np.eye(2))[0], "head 1, I"),
        Printed(row("0.27, 0.73"), lambda a: softmax(a["X"] @ a["X"][1]), "softmax([0, 1])"),
        Printed(row("0.27, 0.73"), lambda a: _yang_head(a, np.eye(2))[1], "head 1, love"),
        Printed(rows("0.73 0.27\n0.27 0.73"), lambda a: _yang_head(a, np.eye(2)), "Head1"),
        Printed(row("0, 1"), lambda a: (a["X"] @ _SWAP)[0], "I swapped"),
        Printed(row("1, 0"), lambda a: (a["X"] @ _SWAP)[1], "love swapped"),
        Printed(row("0.73, 0.27"), lambda a: softmax(np.array([1.0, 0.0])), "softmax([1, 0])"),
        Printed(row("0.27, 0.73"), lambda a: _yang_head(a, _SWAP)[0], "head 2, I"),
        Printed(rows("0.27 0.73\n0.73 0.27"), lambda a: _yang_head(a, _SWAP), "Head2"),
        Printed(rows("0.73 0.27 0.27 0.73\n0.27 0.73 0.73 0.27"), _yang_concat, "Combined"),
        given("[[1, 0, 1, 0], [0, 1, 0, 1]]", "2 W^O"),
        Printed(
            rows("0.50 0.50\n0.50 0.50"),
            lambda a: _yang_concat(a) @ (0.5 * array("1 0 1 0\n0 1 0 1")).T,
            "Final Output",
        ),
        Printed(row("0.5, 0.5"), lambda a: np.array([0.5, 0.5]), "each token"),
    ),
    notes=(
        "Two heads of width 2 on two one-hot tokens, unscaled softmax, concatenation and an "
        "averaging W^O that is written 2x4 (1/2 [[1, 0, 1, 0], [0, 1, 0, 1]]) but used as its "
        "transpose in Combined @ W^O: the shapes contradict, the numbers do not. All right."
    ),
)

# ------------------------------------------------------------------ julia-nnlib (REPL printouts)
_M = np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])

JULIA = Doc(
    file="dev/julia-nnlib-softmax-docstring.md",
    url="https://github.com/FluxML/NNlib.jl/blob/master/src/softmax.jl",
    kind="julia-printout",
    language="en",
    inputs={},
    printed=(
        given("[1, 2, 3]", "x"),
        Printed(
            rows("0.09003057317038046\n0.24472847105479764\n0.6652409557748218"),
            lambda a: softmax(np.array([[1.0, 2.0, 3.0]])).T,
            "softmax([1, 2, 3]) (3-element Vector)",
        ),
        Printed(entries("1 2 3 / 2 2 2"), None, "[1 2 3; 2 2 2]"),
        Printed(
            rows("0.268941  0.5  0.731059\n0.731059  0.5  0.268941"),
            lambda a: softmax(_M, axis=0),
            "softmax(x) (dims=1: each column)",
        ),
        Printed(entries("1 2 3 / 2 2 2"), None, "[1 2 3; 2 2 2]"),
        Printed(
            rows("0.0900306  0.244728  0.665241\n0.333333   0.333333  0.333333"),
            lambda a: softmax(_M, axis=1),
            "softmax(x; dims=2)",
        ),
        Printed(row("7, 13"), None, "model(x) |> size", attention=False),
    ),
    notes=(
        "Julia REPL printouts: a `3-element Vector{Float64}:` printed one entry per line, then "
        "`2×3 Matrix{Float64}:` blocks of bare rows; the default softmax normalises columns "
        "(dims=1), the second call rows (dims=2). A model's output size (7, 13) is not "
        "attention. All right."
    ),
)

# ------------------------------------------------------------------ qa pull-request thread
_QA_A = np.array([0.43, -0.21, 0.99, 0.32, -0.35, 0.04])
_QA_KEEP = np.array([True, True, True, False, False, False])

QA_THREAD = Doc(
    file="dev/qa-pr-thread-masked-softmax-multiply-vs-fill.md",
    url="https://github.com/georg-wolflein/good-features/pull/1",
    kind="qa",
    language="en",
    inputs={"a": _QA_A},
    printed=(
        given("[0.43, -0.21, 0.99, 0.32, -0.35, 0.04]", "a"),
        Printed(
            row("0.4300, -0.2100,  0.9900,  0.0000, -0.0000,  0.0000"),
            lambda a: a["a"] * _QA_KEEP,
            "a * mask",
        ),
        Printed(
            row("0.1912, 0.1008, 0.3348, 0.1244, 0.1244, 0.1244"),
            lambda a: softmax(a["a"] * _QA_KEEP),
            "softmax(a * mask, dim=0)",
        ),
        Printed(
            row("0.4300, -0.2100,  0.9900,    -inf,    -inf,    -inf"),
            lambda a: np.where(_QA_KEEP, a["a"], -np.inf),
            "masked_fill(a, ~mask, -inf)",
        ),
        Printed(
            row("0.3051, 0.1609, 0.5341, 0.0000, 0.0000, 0.0000"),
            lambda a: softmax(np.where(_QA_KEEP, a["a"], -np.inf)),
            "softmax(a_masked_inf, dim=0)",
        ),
    ),
    notes=(
        "A question-and-answer thread (pull-request conversation) on masking before a softmax "
        "over one vector (dim=0): multiplying by a 0/1 mask leaves weight on the masked entries "
        "(printed to show the bug, the numbers are right for what they compute, -0.0000 "
        "included); masked_fill with -inf gives them weight 0. All right."
    ),
)


DEV_MORE: list[Doc] = [LECTURE3, YANG, JULIA, QA_THREAD, *DEV_NOTEBOOKS]
