"""The eleventh held-out batch, continued: an English Markdown lesson of an online course (a
query projected by hand, then "I love math" worked through QK^T, the scaling, the softmax row by
row and the weighted sums, with three-decimal products of three-decimal weights). Truth computed
with numpy; see tests/corpus/dev_seen_judge11a.py."""

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
    file="dev/en-md-course-pod-i-love-math-products-from-rounded-weights.md",
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
        "(given heads) and sinusoidal positional encodings (not attention). The mistakes as "
        "published: the weighted sums are worked from the three-decimal weights, so products "
        "and sums miss the last digit: 0.401(5) = 2.005 (2.006 from the exact weights, "
        "0.40111), 0.401(6) = 2.406 (2.407), 0.198(3) = 0.594 (0.593), 0.198(4) = 0.792 "
        "(0.791), and for 'math' 0.744, 2.515, 0.496, 0.992, 3.018 (0.745, 2.517, 0.497, 0.993, "
        "3.021): 11 products wrong; the outputs [3.406, 4.406] and [3.507, 4.506] are [3.407, "
        "4.407] and [3.510, 4.510], wrong where printed (row sums, the output matrix, the prose "
        "repeat: 10 entries); the row of 'love' [3.000, 4.000] is right."
    ),
)

JUDGE_DOCS_11B: list[Doc] = [EN_COURSE_POD]
