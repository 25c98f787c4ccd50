"""Development documents (two of the eleventh held-out batch, moved to dev in session 32 after
their first held-out score showed false alarms, to be studied): English Markdown course solutions
(softmaxes guessed, causal weights that are not a softmax) and English Markdown course notes (a
walkthrough with an approximate softmax row). Truth computed with numpy; see
tests/corpus/truth_dev.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, column, given, one, other, tex
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

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
    file="dev/en-md-course-solutions-softmax-guesses-causal-weights-slips.md",
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
        "6 of their entries wrong at one decimal. 29 entries wrong in all, each a mistake "
        "as published."
    ),
)


# --- English Markdown course notes: a walkthrough with an approximate softmax row ---------------


def _dafer_scaled(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T / np.sqrt(2)


EN_COURSE_THEORY = Doc(
    file="dev/en-md-course-theory-week-attention-approximate-softmax-row.md",
    url=(
        "https://github.com/dafer238/dafer-ai/blob/a4dabf34a9e73bb7bbd12d7250d4d198dafa70ad/"
        "06_sequence_models/week17_attention/theory.md"
    ),
    kind="course-notes",
    language="en",
    inputs={
        "q": a([[1, 0], [0, 1], [1, 1]]),
        "k": a([[1, 0], [0, 1], [1, 1], [0, 0]]),
        "v": a([[1, 2], [3, 4], [5, 6], [7, 8]]),
    },
    printed=(
        given(tex("1 & 0\\\\0 & 1\\\\1 & 1"), "Q"),
        given(tex("1 & 0\\\\0 & 1\\\\1 & 1\\\\0 & 0"), "K"),
        given(tex("1 & 2\\\\3 & 4\\\\5 & 6\\\\7 & 8"), "V"),
        Printed(
            tex("1 & 0 & 1 & 0\\\\0 & 1 & 1 & 0\\\\1 & 1 & 2 & 0"),
            lambda x: x["q"] @ x["k"].T,
            "QK^T",
        ),
        Printed(
            tex("0.71 & 0 & 0.71 & 0\\\\0 & 0.71 & 0.71 & 0\\\\0.71 & 0.71 & 1.41 & 0"),
            _dafer_scaled,
            "QK^T / sqrt(2)",
        ),
        given(one("0.28", "0.14", "0.28", "0.14"), "row 0 before normalising (unexplained)"),
        Printed(
            one("0.31", "0.17", "0.31", "0.20"),
            lambda x: softmax(_dafer_scaled(x))[0],
            "softmax row 0, 'approximate'",
        ),
        given(one("1", "0"), "q_0"),
        given(one("1", "0"), "k_0"),
        given(one("1", "1"), "k_2"),
        Printed(
            tex("1 & 0 & 0 & 0\\\\1 & 1 & 0 & 0\\\\1 & 1 & 1 & 0\\\\1 & 1 & 1 & 1"),
            lambda x: np.tril(np.ones((4, 4))),
            "causal mask",
        ),
        other(one("64", "256", "16384", "256", "16640"), "parameter count (not attention)"),
        given(one("3", "7", "1", "5"), "toy source sequence"),
        given(one("5", "1", "7", "3"), "toy target sequence"),
    ),
    notes=(
        "English Markdown theory notes of a self-study course's attention week (LaTeX pmatrix "
        "in $$): a walkthrough with Q (3 x 2), K (4 x 2), V (4 x 2): QK^T, the scores over "
        "sqrt(2) to two decimals, then row 0 'normalised to [0.31, 0.17, 0.31, 0.20] "
        "(approximate)' from an unexplained [0.28, 0.14, 0.28, 0.14] (given); a 4 x 4 causal "
        "mask; a parameter count (not attention). One mistake as published: the softmax of "
        "row 0 [0.71, 0, 0.71, 0] is [0.335, 0.165, 0.335, 0.165]: 0.31, 0.31 and 0.20 are "
        "wrong at two decimals, 0.17 right (3 entries wrong)."
    ),
)


DEV_SEEN_JUDGE11: list[Doc] = [EN_COURSE_SOLUTIONS, EN_COURSE_THEORY]
