"""The eleventh held-out batch, continued: an English Markdown lesson of an online course (a
query projected by hand, then "I love math" worked through QK^T, the scaling, the softmax row by
row and the weighted sums, with three-decimal products of three-decimal weights). Truth computed
with numpy; see tests/corpus/heldout_judge11.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Rows, Truth, a, column, given, one, other, tex
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English Markdown course lesson: "I love math", products of rounded weights -----------------

_W_Q = "0.2 & 0.1 \\\\ 0.4 & -0.3 \\\\ 0.1 & 0.5 \\\\ -0.2 & 0.3"


def _scores(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T


def _scaled(x: Arrays) -> np.ndarray:
    return _scores(x) / np.sqrt(2)


def _weights(x: Arrays) -> np.ndarray:
    return softmax(_scaled(x))


def _terms(i: int) -> Truth:
    """The products w_ij v_jk of output row i, one printed row per value column k."""
    return lambda x: (_weights(x)[i][:, None] * x["v"]).T


def _row_steps(
    i: int, exps: tuple[str, ...], total: str, weights: tuple[str, ...]
) -> tuple[Printed, ...]:
    out: list[Printed] = []
    if exps:
        out += [
            Printed(one(*exps), lambda x: np.exp(_scaled(x)[i]), f"e^s, row {i + 1}"),
            Printed(one(total), lambda x: np.exp(_scaled(x)[i]).sum(keepdims=True), f"sum {i + 1}"),
        ]
    out.append(Printed(one(*weights), lambda x: _weights(x)[i], f"softmax(row {i + 1})"))
    return tuple(out)


def _output_row(i: int, terms: Rows, sums: tuple[str, str]) -> tuple[Printed, Printed]:
    return (
        Printed(terms, _terms(i), f"output row {i + 1}: the products"),
        Printed(one(*sums), lambda x: (_weights(x) @ x["v"])[i], f"output row {i + 1}"),
    )


_A = tex("0.198 & 0.401 & 0.401 \\\\ 0.401 & 0.198 & 0.401 \\\\ 0.248 & 0.248 & 0.503")
_OUT = tex("3.406 & 4.406 \\\\ 3.000 & 4.000 \\\\ 3.507 & 4.506")

EN_COURSE_POD = Doc(
    file="heldout/en-md-course-pod-i-love-math-products-from-rounded-weights.md",
    url=(
        "https://github.com/RajatDandekar/Vizuara-AI-Pods/blob/"
        "83d9769dac3d3873e42f0bfabfcc2d01b7b9d121/content/courses/build-llm/pods/"
        "self-attention-first-principles/article.md"
    ),
    kind="course-notes",
    language="en",
    inputs={
        "x": a([1.0, 0.5, -0.3, 0.8]),
        "w_q": a([[0.2, 0.1], [0.4, -0.3], [0.1, 0.5], [-0.2, 0.3]]),
        "q": a([[1, 0], [0, 1], [1, 1]]),
        "k": a([[0, 1], [1, 0], [1, 1]]),
        "v": a([[1, 2], [3, 4], [5, 6]]),
        "heads": a([0.5, -0.3, 0.8, 0.1]),
    },
    printed=(
        given(one("1.0", "0.5", "-0.3", "0.8"), "x_mat"),
        given(tex(_W_Q), "W^Q"),
        Printed(
            (("0.2", "0.2", "-0.03", "-0.16"), ("0.1", "-0.15", "-0.15", "0.24")),
            lambda x: (x["x"][:, None] * x["w_q"]).T,
            "q_mat, the terms",
        ),
        Printed(one("0.21", "0.04"), lambda x: x["x"] @ x["w_q"], "q_mat"),
        given(one("0.18", "0.10"), "k_cat (said)"),
        given(one("0.22", "0.03"), "k_mat (said)"),
        given(tex("1 & 0 \\\\ 0 & 1 \\\\ 1 & 1"), "Q"),
        given(tex("0 & 1 \\\\ 1 & 0 \\\\ 1 & 1"), "K"),
        given(tex("1 & 2 \\\\ 3 & 4 \\\\ 5 & 6"), "V"),
        Printed(
            column("0", "1", "1", "1", "0", "1", "1", "1", "2"),
            lambda x: _scores(x).reshape(-1, 1),
            "QK^T entry by entry",
        ),
        Printed(
            tex("0 & 1 & 1 \\\\ 1 & 0 & 1 \\\\ 1 & 1 & 2"), lambda x: x["q"] @ x["k"].T, "QK^T"
        ),
        Printed(one("1.414"), lambda x: np.sqrt([2.0]), "sqrt(d_k)"),
        Printed(
            tex("0 & 0.707 & 0.707 \\\\ 0.707 & 0 & 0.707 \\\\ 0.707 & 0.707 & 1.414"),
            _scaled,
            "QK^T / sqrt(d_k)",
        ),
        *_row_steps(0, ("1.0", "2.028", "2.028"), "5.056", ("0.198", "0.401", "0.401")),
        *_row_steps(1, ("2.028", "1.0", "2.028"), "5.056", ("0.401", "0.198", "0.401")),
        *_row_steps(2, ("2.028", "2.028", "4.113"), "8.169", ("0.248", "0.248", "0.503")),
        Printed(_A, _weights, "A"),
        Printed(one("0.503", "0.248"), lambda x: _weights(x)[2, [2, 0]], "prose, math"),
        Printed(one("0.198", "0.401"), lambda x: _weights(x)[0, [0, 1]], "prose, I"),
        Printed(_A, _weights, "A in Output = A V"),
        *_output_row(
            0, (("0.198", "1.203", "2.005"), ("0.396", "1.604", "2.406")), ("3.406", "4.406")
        ),
        *_output_row(
            1, (("0.401", "0.594", "2.005"), ("0.802", "0.792", "2.406")), ("3.000", "4.000")
        ),
        *_output_row(
            2, (("0.248", "0.744", "2.515"), ("0.496", "0.992", "3.018")), ("3.507", "4.506")
        ),
        Printed(_OUT, lambda x: _weights(x) @ x["v"], "Output"),
        Printed(one("3.507", "4.506"), lambda x: (_weights(x) @ x["v"])[2], "prose, math"),
        Printed(one("3.000", "4.000"), lambda x: (_weights(x) @ x["v"])[1], "prose, love"),
        given(one("0.5", "-0.3"), "head 1 output (said)"),
        given(one("0.8", "0.1"), "head 2 output (said)"),
        Printed(one("0.5", "-0.3", "0.8", "0.1"), lambda x: x["heads"], "Concat"),
        other(one("0.141", "-0.990", "0.030", "1.000"), "PE_3 (positional encoding)"),
        other(one("0.641", "-0.690", "-0.070", "1.800"), "embedding + PE_3"),
        other(one("0", "1", "0", "1"), "PE_0"),
        other(one("0.841", "0.540", "0.010", "1.000"), "PE_1"),
    ),
    notes=(
        "An English Markdown lesson of an online course (LaTeX matrices in $$, prose numbers): "
        "one query projected by hand (x_mat times a 4 x 2 W^Q, the terms and the sum), then 'I "
        "love math' with given Q, K, V (3 x 2): the nine dot products, QK^T, the scaling by "
        "sqrt(2) = 1.414, each row's exponentials, sum and softmax, the weight matrix A (three "
        "decimals, right), the products w_ij v_jk and the outputs; a two-head concatenation "
        "(given heads) and sinusoidal positional encodings (not attention). Mistakes as "
        "published: the weighted sums are worked from the three-decimal weights, so products "
        "and sums miss the last digit: 0.401(5) = 2.005 (2.006 from the exact weights, "
        "0.40111), 0.401(6) = 2.406 (2.407), 0.198(3) = 0.594 (0.593), 0.198(4) = 0.792 "
        "(0.791), and for 'math' 0.744, 2.515, 0.496, 0.992, 3.018 (0.745, 2.517, 0.497, 0.993, "
        "3.021): 11 products wrong; the outputs [3.406, 4.406] and [3.507, 4.506] are [3.407, "
        "4.407] and [3.510, 4.510], wrong where printed (row sums, the output matrix, the prose "
        "repeat: 10 entries); the row of 'love' [3.000, 4.000] is right."
    ),
)

# --- English Markdown course solutions: softmaxes guessed, causal weights that are not softmax ---


def _lookup(x: Arrays) -> np.ndarray:
    return softmax(x["s11"])


def _cat(x: Arrays) -> np.ndarray:
    return softmax(x["emb"] @ x["emb"][1])


def _mask4(x: Arrays) -> np.ndarray:
    return np.where(np.triu(np.ones((4, 4)), k=1) == 1, -np.inf, 0.0)


def _causal4(x: Arrays) -> np.ndarray:
    return x["s4"] + _mask4(x)


_HYPOTHETICAL = (
    ("0.4", "0.3", "0.2", "0.1"),
    ("0.2", "0.4", "0.2", "0.2"),
    ("0.1", "0.1", "0.5", "0.3"),
    ("0.1", "0.1", "0.3", "0.5"),
)
_CROSS = (
    ("0.8", "0.1", "0.05", "0.05"),
    ("0.1", "0.8", "0.05", "0.05"),
    ("0.0", "0.0", "0.3", "0.7"),
    ("0.0", "0.0", "0.7", "0.3"),
)
_S4 = (("2", "3", "1", "2"), ("1", "2", "3", "1"), ("3", "1", "2", "3"), ("2", "2", "1", "3"))
_INF = "-inf"


def _solutions_basics() -> tuple[Printed, ...]:
    return (
        given(one("1", "0", "1"), "q"),
        given((("1", "1", "0"), ("0", "1", "1"), ("1", "0", "0")), "K"),
        given((("2", "0"), ("0", "2"), ("1", "1")), "V"),
        Printed(column("1", "1", "1"), lambda x: (x["k"] @ x["q"])[:, None], "s_1, s_2, s_3"),
        Printed(one("1", "1", "1"), lambda x: x["k"] @ x["q"], "Scores"),
        Printed(one("2.718", "2.718", "2.718"), lambda x: np.exp(x["k"] @ x["q"]), "exp"),
        Printed(one("8.154"), lambda x: np.exp(x["k"] @ x["q"]).sum(keepdims=True), "sum"),
        Printed(one("0.333", "0.333", "0.333"), lambda x: softmax(x["k"] @ x["q"]), "alpha"),
        Printed(
            (("0.666", "0"), ("0", "0.666"), ("0.333", "0.333")),
            lambda x: softmax(x["k"] @ x["q"])[:, None] * x["v"],
            "alpha_i v_i",
        ),
        Printed(one("0.999", "0.999"), lambda x: softmax(x["k"] @ x["q"]) @ x["v"], "output"),
        Printed(one("1", "1"), lambda x: softmax(x["k"] @ x["q"]) @ x["v"], "output, about"),
        given(column("0.9", "0.2", "0.1"), "feline scores"),
        Printed(one("0.72", "0.15", "0.13"), _lookup, "softmax([0.9, 0.2, 0.1])"),
        Printed(one("0.72", "0.15", "0.13"), _lookup, "output coefficients"),
        given((("1", "0"), ("0", "1"), ("1", "1")), "embeddings The, cat, sat"),
        Printed(column("0", "1", "1"), lambda x: (x["emb"] @ x["emb"][1])[:, None], "scores"),
        Printed(one("0", "1", "1"), lambda x: x["emb"] @ x["emb"][1], "Scores"),
        Printed(one("0.12", "0.44", "0.44"), _cat, "Softmax"),
        Printed(one("44", "44", "12"), lambda x: 100 * _cat(x)[[1, 2, 0]], "percent"),
        given(_HYPOTHETICAL, "hypothetical attention matrix"),
    )


def _solutions_scaling() -> tuple[Printed, ...]:
    return (
        Printed(
            one("0.999", "0.0009", "0.0001"),
            lambda x: softmax(np.array([20.0, 19.0, 18.0])),
            "softmax([20, 19, 18])",
        ),
        Printed(
            one("2.5", "2.375", "2.25"), lambda x: np.array([20.0, 19, 18]) / 8, "scaled scores"
        ),
        Printed(
            one("0.43", "0.32", "0.25"),
            lambda x: softmax(np.array([20.0, 19, 18]) / 8),
            "softmax(scaled)",
        ),
        Printed(one("0.5"), lambda x: np.array([1 / np.sqrt(4)]), "1/sqrt(d_k)"),
        Printed(
            tuple(tuple("1" if j > i else "0" for j in range(4)) for i in range(4)),
            lambda x: np.triu(np.ones((4, 4)), k=1),
            "np.triu(ones, k=1)",
        ),
        Printed(
            tuple(tuple(_INF if j > i else "0" for j in range(4)) for i in range(4)),
            _mask4,
            "mask * -1e9, written -inf",
        ),
        given(_S4, "scores (e.g.)"),
        Printed(
            tuple(tuple(_INF if j > i else _S4[i][j] for j in range(4)) for i in range(4)),
            _causal4,
            "scores + mask",
        ),
        Printed(
            (
                ("1.0", "0", "0", "0"),
                ("0.4", "0.6", "0", "0"),
                ("0.5", "0.1", "0.4", "0"),
                ("0.2", "0.3", "0.1", "0.4"),
            ),
            lambda x: softmax(_causal4(x)),
            "softmax(scores + mask)",
        ),
        given(_CROSS, "hypothetical cross-attention matrix"),
        other(one("0", "1", "0", "1"), "PE(0)"),
        other(one("0.841", "0.540", "0.01", "0.9999"), "PE(1)"),
        other(one("0.909", "-0.416", "0.02", "0.9998"), "PE(2)"),
        other(one("2.5", "1.25"), "layer norm mean and variance"),
    )


EN_COURSE_SOLUTIONS = Doc(
    file="heldout/en-md-course-solutions-softmax-guesses-causal-weights-slips.md",
    url=(
        "https://github.com/luisdecunto/ml-roadmap/blob/"
        "66c5443765f3d0fa29057ea4b1e6d1073f14c4b0/guides/solutions/transformer_solutions.md"
    ),
    kind="course-solutions",
    language="en",
    inputs={
        "q": a([1, 0, 1]),
        "k": a([[1, 1, 0], [0, 1, 1], [1, 0, 0]]),
        "v": a([[2, 0], [0, 2], [1, 1]]),
        "s11": a([0.9, 0.2, 0.1]),
        "emb": a([[1, 0], [0, 1], [1, 1]]),
        "s4": a([[2, 3, 1, 2], [1, 2, 3, 1], [3, 1, 2, 3], [2, 2, 1, 3]]),
    },
    printed=(*_solutions_basics(), *_solutions_scaling()),
    notes=(
        "English Markdown solutions of a self-study roadmap's Transformer exercises (numbers in "
        "code blocks and comments): one query against three keys worked through scores, e^1, "
        "the sum, the weights, the weighted values and the output; a soft lookup with given "
        "scores; 'The cat sat' with 2-d embeddings as Q = K = V; a hypothetical 4 x 4 matrix "
        "(given); the effect of scaling on softmax([20, 19, 18]); 1/sqrt(4); a causal mask "
        "(np.triu and -1e9, written -inf), made-up scores, the masked scores and the weights; "
        "a hypothetical cross-attention matrix (given); positional encodings and a layer norm "
        "(not attention). Mistakes as published: 3 x 2.718 = 8.154 (8.155 from e); 0.333 x 2 "
        "written 0.666 twice (0.667) and the output [0.999, 0.999] (1.000); softmax([0.9, 0.2, "
        "0.1]) given as [0.72, 0.15, 0.13] (0.514, 0.255, 0.231), twice; softmax([0, 1, 1]) "
        "given as [0.12, 0.44, 0.44] (0.155, 0.422, 0.422) and as 44 %, 44 %, 12 %; "
        "softmax([20, 19, 18]) given as [0.999, 0.0009, 0.0001] (0.665, 0.245, 0.090); "
        "softmax([2.5, 2.375, 2.25]) as [0.43, 0.32, 0.25] (0.376, 0.332, 0.293); the causal "
        "weights [0.4, 0.6], [0.5, 0.1, 0.4], [0.2, 0.3, 0.1, 0.4] are not the softmax of the "
        "masked scores ([0.269, 0.731], [0.665, 0.090, 0.245], [0.197, 0.197, 0.072, 0.534]): "
        "6 of their entries wrong at one decimal. 29 entries wrong in all."
    ),
)

JUDGE_DOCS_11B: list[Doc] = [EN_COURSE_POD, EN_COURSE_SOLUTIONS]
