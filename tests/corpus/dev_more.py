"""The development corpus, continued: multi-head with W_O, Julia printouts, a Q&A thread, a
notebook that prints rounded stand-ins for its softmax, a batch printed 3-d, masks, Markdown
tables with wrong softmaxes (see truth_dev.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.helpers import array, given, grid, row, rows, softmax
from tests.corpus.model import Arrays, Doc, Printed

R2 = np.sqrt(2.0)


def entries(text: str) -> tuple[tuple[str, ...], ...]:
    """Printed entries written row by row, rows separated by '/' (for rows that carry labels or
    trailing comments whose numbers are not entries)."""
    return tuple(tuple(part.split()) for part in text.split("/"))


def _follows(text: str, truth: object, label: str) -> Printed:
    return Printed(row(text), truth, label, follows=True)  # type: ignore[arg-type]


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
        _follows("2.034", lambda a: np.array([e71]), "e^0.71"),
        _follows("5.068", lambda a: np.array([2 * e71 + 1]), "row 1 sum"),
        _follows("0.401", lambda a: _l_alpha(a)[0, :1], "2.034 / 5.068"),
        _follows("0.197", lambda a: _l_alpha(a)[0, 1:2], "1 / 5.068"),
        _follows("0.401, 0.197, 0.401", lambda a: _l_alpha(a)[0], "row 1 softmax"),
        Printed(row("0.40, 0.20, 0.40"), lambda a: _l_alpha(a)[0], "row 1 rounded"),
        Printed(row("0.71, 0.71, 0"), lambda a: _l_scaled(a)[1], "row 2"),
        _follows("0.401, 0.401, 0.197", lambda a: _l_alpha(a)[1], "row 2 softmax"),
        Printed(row("0.40, 0.40, 0.20"), lambda a: _l_alpha(a)[1], "row 2 rounded"),
        Printed(row("1.41, 0.71, 0.71"), lambda a: _l_scaled(a)[2], "row 3"),
        _follows("4.096", lambda a: np.exp([R2]), "e^1.41"),
        _follows("2.034", lambda a: np.array([e71]), "e^0.71"),
        _follows("8.164", lambda a: np.array([np.exp(R2) + 2 * e71]), "row 3 sum"),
        _follows("0.501", lambda a: _l_alpha(a)[2, :1], "4.096 / 8.164"),
        _follows("0.249", lambda a: _l_alpha(a)[2, 1:2], "2.034 / 8.164"),
        _follows("0.501, 0.249, 0.249", lambda a: _l_alpha(a)[2], "row 3 softmax"),
        Printed(row("0.50, 0.25, 0.25"), lambda a: _l_alpha(a)[2], "row 3 rounded"),
        Printed(rows("0.40 0.20 0.40\n0.40 0.40 0.20\n0.50 0.25 0.25"), _l_alpha, "alpha"),
        _follows("1.00, 1.00", lambda a: (_l_alpha(a) @ a["V"])[0], "row 1 output"),
        _follows("0, 0.80", lambda a: _l_alpha(a)[1, 0] * a["V"][0], "0.40 x [0,2]"),
        _follows("0.40, 0.40", lambda a: _l_alpha(a)[1, 1] * a["V"][1], "0.40 x [1,1]"),
        _follows("0.40, 0", lambda a: _l_alpha(a)[1, 2] * a["V"][2], "0.20 x [2,0]"),
        _follows("0.80, 1.20", lambda a: (_l_alpha(a) @ a["V"])[1], "row 2 output"),
        _follows("0, 1.0", lambda a: _l_alpha(a)[2, 0] * a["V"][0], "0.50 x [0,2]"),
        _follows("0.25, 0.25", lambda a: _l_alpha(a)[2, 1] * a["V"][1], "0.25 x [1,1]"),
        _follows("0.50, 0", lambda a: _l_alpha(a)[2, 2] * a["V"][2], "0.25 x [2,0]"),
        _follows("0.75, 1.25", lambda a: (_l_alpha(a) @ a["V"])[2], "row 3 output"),
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

# ------------------------------------------------------------------ illustrated self-attention
_IL_X = array("1 0 1 0\n0 2 0 2\n1 1 1 1")
_IL_W = {
    "WK": array("0 0 1\n1 1 0\n0 1 0\n1 1 0"),
    "WQ": array("1 0 1\n1 0 0\n0 0 1\n0 1 1"),
    "WV": array("0 2 0\n0 3 0\n1 0 3\n1 1 0"),
}


def _il(a: Arrays, w: str) -> np.ndarray:
    return a["X"] @ a[w]


def _il_weights(a: Arrays) -> np.ndarray:
    return softmax(_il(a, "WQ") @ _il(a, "WK").T)


def _il_weighted(a: Arrays) -> np.ndarray:
    return _il(a, "WV")[:, None] * _il_weights(a).T[:, :, None]


def _il_each(i: int) -> Printed:
    texts = ("0.0, 0.0, 0.0", "1.0, 4.0, 0.0", "1.0, 3.0, 1.5")
    return _follows(texts[i], lambda a: _il_weights(a)[0, i] * _il(a, "WV")[i], f"weighted {i}")


def _il_qkv(name: str, w: str, text: str) -> tuple[Printed, Printed]:
    truth = lambda a: _il(a, w)  # noqa: E731
    return Printed(rows(text), truth, name), Printed(rows(text), truth, f"{name} (comment)")


_IL_SOFTMAX_E = (
    "6.3379e-02 4.6831e-01 4.6831e-01\n6.0337e-06 9.8201e-01 1.7986e-02\n"
    "2.9539e-04 8.8054e-01 1.1917e-01"
)
_IL_OUT = "2.0000 7.0000 1.5000 / 2.0000 8.0000 0.0000 / 2.0000 7.8000 0.3000"

ILLUSTRATED = Doc(
    file="dev/illustrated-self-attention-colab-torch.ipynb",
    url="https://github.com/MJMortensonWarwick/ADA/blob/main/3_1_illustrated_self_attention_.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={"X": _IL_X} | _IL_W,
    printed=(
        given("1, 0, 1, 0\n0, 2, 0, 2\n1, 1, 1, 1", "x (code)"),
        given("1. 0. 1. 0.\n0. 2. 0. 2.\n1. 1. 1. 1.", "x"),
        given("0 0 1\n1 1 0\n0 1 0\n1 1 0", "w_key (code)"),
        given("1 0 1\n1 0 0\n0 0 1\n0 1 1", "w_query (code)"),
        given("0 2 0\n0 3 0\n1 0 3\n1 1 0", "w_value (code)"),
        given("0. 0. 1.\n1. 1. 0.\n0. 1. 0.\n1. 1. 0.", "w_key"),
        given("1. 0. 1.\n1. 0. 0.\n0. 0. 1.\n0. 1. 1.", "w_query"),
        given("0. 2. 0.\n0. 3. 0.\n1. 0. 3.\n1. 1. 0.", "w_value"),
        *_il_qkv("keys", "WK", "0. 1. 1.\n4. 4. 0.\n2. 3. 1."),
        *_il_qkv("querys", "WQ", "1. 0. 2.\n2. 2. 2.\n2. 1. 3."),
        *_il_qkv("values", "WV", "1. 2. 3.\n2. 8. 0.\n2. 6. 3."),
        Printed(
            entries("2. 4. 4. / 4. 16. 12. / 4. 12. 10."),
            lambda a: _il(a, "WQ") @ _il(a, "WK").T,
            "attn_scores (comment)",
        ),
        Printed(
            rows("2. 4. 4.\n4. 16. 12.\n4. 12. 10."),
            lambda a: _il(a, "WQ") @ _il(a, "WK").T,
            "attn_scores",
        ),
        Printed(row("2, 4, 4"), lambda a: (_il(a, "WQ") @ _il(a, "WK").T)[0], "scores of 1"),
        Printed(row("0.0, 0.5, 0.5"), lambda a: _il_weights(a)[0], "softmax([2, 4, 4])"),
        Printed(rows(_IL_SOFTMAX_E), _il_weights, "softmax (comment)"),
        Printed(rows("0.0, 0.5, 0.5\n0.0, 1.0, 0.0\n0.0, 0.9, 0.1"), _il_weights, "approx (code)"),
        Printed(rows(_IL_SOFTMAX_E), _il_weights, "softmax"),
        Printed(
            rows("0.0000 0.5000 0.5000\n0.0000 1.0000 0.0000\n0.0000 0.9000 0.1000"),
            _il_weights,
            "approximated softmax",
        ),
        _il_each(0),
        _il_each(1),
        _il_each(2),
        Printed(
            rows(
                "0.0000 0.0000 0.0000\n0.0000 0.0000 0.0000\n0.0000 0.0000 0.0000\n"
                "1.0000 4.0000 0.0000\n2.0000 8.0000 0.0000\n1.8000 7.2000 0.0000\n"
                "1.0000 3.0000 1.5000\n0.0000 0.0000 0.0000\n0.2000 0.6000 0.3000"
            ),
            _il_weighted,
            "weighted_values (3, 3, 3)",
            follows=True,
        ),
        _il_each(0),
        _il_each(1),
        _il_each(2),
        _follows("2.0, 7.0, 1.5", lambda a: (_il_weights(a) @ _il(a, "WV"))[0], "Output 1"),
        _follows("2.0, 7.0, 1.5", lambda a: (_il_weights(a) @ _il(a, "WV"))[0], "Output 1"),
        Printed(entries(_IL_OUT), lambda a: _il_weights(a) @ _il(a, "WV"), "outputs", follows=True),
        Printed(
            entries(_IL_OUT),
            lambda a: _il_weights(a) @ _il(a, "WV"),
            "outputs (comment)",
            follows=True,
        ),
    ),
    notes=(
        "Unscaled dot-product self-attention with integer weights (d_v = d_k = 3), every array "
        "printed twice (output and a code comment). The mistakes: the softmax is printed right, "
        "then replaced 'for readability' by [[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]] "
        "(printed 0.0000, 0.5000 ... with 4 decimals: wrong), and the weighted values (a "
        "(3, 3, 3) tensor printed 3-d) and the outputs use those stand-ins: they follow."
    ),
)

# ------------------------------------------------------------------ pycomplete (numpy, seed 0)
_PC_TEXT = {
    "W_q": (
        "0.5488135 0.71518937 0.60276338 0.54488318\n0.4236548 0.64589411 0.43758721 0.891773\n"
        "0.96366276 0.38344152 0.79172504 0.52889492\n0.56804456 0.92559664 0.07103606 0.0871293"
    ),
    "W_k": (
        "0.0202184 0.83261985 0.77815675 0.87001215\n0.97861834 0.79915856 0.46147936 0.78052918\n"
        "0.11827443 0.63992102 0.14335329 0.94466892\n0.52184832 0.41466194 0.26455561 0.77423369"
    ),
    "W_v": (
        "0.45615033 0.56843395 0.0187898 0.6176355\n0.61209572 0.616934 0.94374808 0.6818203\n"
        "0.3595079 0.43703195 0.6976312 0.06022547\n0.66676672 0.67063787 0.21038256 0.1289263"
    ),
}
_PC_OUT = {
    "Q": (
        "1.51247626 1.09863089 1.39448841 1.0737781\n1.98339872 3.1429815 1.01724654 1.9578046\n"
        "2.50417562 2.67012164 1.90311168 2.0526804"
    ),
    "K": (
        "0.13849282 1.47254087 0.92151004 1.81468107\n3.00093333 2.42764101 1.45206995 3.10952573\n"
        "1.63895949 2.68636137 1.64754501 3.36944393"
    ),
    "V": (
        "0.81565823 1.0054659 0.716421 0.67786097\n2.55772488 2.57514373 2.30826128 1.62149319\n"
        "2.09452067 2.29303777 1.87055164 1.48860757"
    ),
}


def _pc(a: Arrays, name: str) -> np.ndarray:
    return a["X"] @ a[f"W_{name.lower()}"]


def _pc_weights(a: Arrays) -> np.ndarray:
    return softmax(_pc(a, "Q") @ _pc(a, "K").T / 2)


PYCOMPLETE = Doc(
    file="dev/pycomplete-self-attention-random-weights.ipynb",
    url=(
        "https://github.com/MuhammadTausif/PyComplete/blob/main/attention/self-attention/"
        "self-attention.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={
        "X": array("1 0 1 0\n0 2 0 2\n1 1 1 1"),
        **{name: array(text) for name, text in _PC_TEXT.items()},
        **{f"±{name}": np.full((4, 4), 5e-9) for name in _PC_TEXT},
    },
    printed=(
        given("1.0, 0.0, 1.0, 0.0\n0.0, 2.0, 0.0, 2.0\n1.0, 1.0, 1.0, 1.0", "X (code)"),
        given("1. 0. 1. 0.\n0. 2. 0. 2.\n1. 1. 1. 1.", "X"),
        *(given(text, name) for name, text in _PC_TEXT.items()),
        *(Printed(rows(text), lambda a, n=name: _pc(a, n), name) for name, text in _PC_OUT.items()),
        Printed(
            rows(
                "2.53042292 6.28487859 5.67286222\n4.69652452 10.57351751 9.98328327\n"
                "4.87868518 11.57163735 10.66450385"
            ),
            lambda a: _pc(a, "Q") @ _pc(a, "K").T / 2,
            "scores / sqrt(dk)",
        ),
        Printed(
            rows(
                "0.01495411 0.63870437 0.34634152\n0.00180039 0.64226049 0.35593913\n"
                "0.00088234 0.71178464 0.28733302"
            ),
            _pc_weights,
            "attention_weights",
        ),
        Printed(
            rows(
                "2.37124698 2.45396559 2.13285971 1.56135821\n"
                "2.38971598 2.47190516 2.14959736 1.5724951\n"
                "2.42309392 2.49270038 2.1810883 1.58247816"
            ),
            lambda a: _pc_weights(a) @ _pc(a, "V"),
            "output",
        ),
    ),
    notes=(
        "Random uniform weights (seed 0) printed to 8 decimals, d_k = 4 written as a comment "
        "(`dk = Q.shape[1]  # 4`), scaled scores, softmax and output, numpy's default print "
        "(trailing zeros dropped: 0.891773, 1.0737781). All right."
    ),
)


# ------------------------------------------------------------------ masked softmax (padding)
def _arange_masked() -> np.ndarray:
    x = np.arange(18, dtype=np.float64).reshape(3, 6)
    x[2, 4] = -np.inf
    return x


MASKED_SOFTMAX = Doc(
    file="dev/masked-softmax-padding-numpy-torch.ipynb",
    url="https://github.com/juditacs/snippets/blob/master/deep_learning/masked_softmax.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={},
    printed=(
        Printed(
            grid(
                "0.00426978 0.01160646 0.03154963 0.08576079 0.23312201 0.63369132 "
                "0.00426978 0.01160646 0.03154963 0.08576079 0.23312201 0.63369132 "
                "0.00556774 0.01513469 0.04114036 0.11183108 0. 0.82632613",
                6,
            ),
            lambda a: softmax(_arange_masked()),
            "softmax(arange(18) with -inf), rows wrapped",
        ),
        Printed(rows("100 1 2\n3 100 5\n6 7 8\n9 10 100"), None, "X[mask] = 100", attention=False),
        Printed(
            rows("0 100 100\n100 4 100\n100 100 100\n100 100 11"),
            None,
            "X[~mask] = 100",
            attention=False,
        ),
        given("4, 1, 6, 3", "X_len"),
        Printed(
            rows(
                "0.1235 0.5007 0.2250 0.1508 0.0000 0.0000\n"
                "1.0000 0.0000 0.0000 0.0000 0.0000 0.0000\n"
                "0.0733 0.2433 0.0895 0.2972 0.1631 0.1335\n"
                "0.1286 0.6370 0.2344 0.0000 0.0000 0.0000"
            ),
            None,
            "softmax with -inf (scores never printed)",
        ),
        Printed(
            rows(
                "0.4419 0.2425 0.0730 0.2425 0.0000 0.0000\n"
                "1.0000 0.0000 0.0000 0.0000 0.0000 0.0000\n"
                "0.1671 0.3045 0.0615 0.0503 0.2493 0.1671\n"
                "0.1098 0.4451 0.4451 0.0000 0.0000 0.0000"
            ),
            None,
            "softmax with -10000 (scores never printed)",
        ),
    ),
    notes=(
        "A numpy softmax of arange(18) as 3x6 with one -inf, printed by numpy with each row "
        "wrapped over two lines; then padding masks (-inf and -10000) over random scores that "
        "are never printed, so those weights cannot be recomputed and must not be claimed "
        "wrong; the masked assignments with 100 and a %%timeit line are not attention. All right."
    ),
)

# ------------------------------------------------------------------ notes: a table, a scaling demo
_NOTES = (
    "https://github.com/yangshiteng/Data-Science-Learning-Path/blob/"
    "364e5eec98baff1ee1f8b67183326a47f41d23c1/deep_learning/transformer/"
)
_TABLE_SCORES = np.array([[2.0], [4.0], [6.0]])

SCORES_TABLE = Doc(
    file="dev/en-notes-attention-scores-table.md",
    url=_NOTES + "attention_score_calculation.md",
    kind="course-notes",
    language="en",
    inputs={"s": _TABLE_SCORES},
    printed=(
        given("2.0\n4.0\n6.0", "Dot Product Score"),
        Printed(rows("1.0\n2.0\n3.0"), lambda a: a["s"] / 2, "After Scaling"),
        Printed(
            rows("0.10\n0.30\n0.60"),
            lambda a: softmax(a["s"] / 2, axis=0),
            "Attention Weight",
        ),
    ),
    notes=(
        "A Markdown table whose columns are the steps (scores, scaled by 2 = sqrt(4), weights) "
        "for one query over three words. The mistake: the weights are not the softmax of the "
        "scaled scores [1, 2, 3], which is [0.090, 0.245, 0.665] (printed 0.10, 0.30, 0.60)."
    ),
)

_SCALE_IN = np.array([10.0, 20.0, 30.0])

WHY_SCALE = Doc(
    file="dev/en-notes-why-scale-matters.md",
    url=_NOTES + "why_scale_matters.md",
    kind="course-notes",
    language="en",
    inputs={},
    printed=(
        given("10, 20, 30", "scores"),
        Printed(row("~0.0, ~0.0, ~1.0"), lambda a: softmax(_SCALE_IN), "softmax unscaled"),
        Printed(row("2.5, 5.0, 7.5"), lambda a: _SCALE_IN / 4, "scores / 4"),
        Printed(row("0.02, 0.12, 0.86"), lambda a: softmax(_SCALE_IN / 4), "softmax scaled"),
        given("10, 20, 30", "Input Scores (table)"),
        Printed(row("0.000, 0.000, 1.000"), lambda a: softmax(_SCALE_IN), "table: too sharp"),
        Printed(row("2.5, 5.0, 7.5"), lambda a: _SCALE_IN / 4, "table: scaled scores"),
        Printed(row("0.02, 0.12, 0.86"), lambda a: softmax(_SCALE_IN / 4), "table: balanced"),
    ),
    notes=(
        "Softmax of [10, 20, 30] before and after dividing by sqrt(16) = 4, inline and in two "
        "Markdown tables. The mistake: softmax([2.5, 5.0, 7.5]) is [0.0062, 0.0754, 0.9184], "
        "printed [0.02, 0.12, 0.86] twice; the unscaled one (~0.0, ~0.0, ~1.0 and 0.000, 0.000, "
        "1.000) is right."
    ),
)

DEV_MORE: list[Doc] = [
    LECTURE3,
    YANG,
    JULIA,
    QA_THREAD,
    ILLUSTRATED,
    PYCOMPLETE,
    MASKED_SOFTMAX,
    SCORES_TABLE,
    WHY_SCALE,
]
