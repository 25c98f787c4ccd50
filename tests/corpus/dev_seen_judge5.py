"""Development documents that were the fifth held-out batch, studied in session 28 and moved to
dev (prose sources: course lessons, study-guide answers, a blog, a README, an HTML answer panel),
their truth computed with numpy from the printed inputs, unchanged by the move. The two
documents of large matrices are in tests/corpus/dev_seen_judge5b.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.dev_seen_judge5b import DEV_SEEN_JUDGE5B
from tests.corpus.heldout_help import a, block, column, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- course lessons (Markdown, inline code): scores, scale, softmax, blend, all as prose arithmetic


def _lesson_scaled(x: Arrays) -> np.ndarray:
    return x["q"][0] @ x["k"].T / np.sqrt(3)


def _lesson_weights(x: Arrays) -> np.ndarray:
    return softmax(_lesson_scaled(x))


def _lesson_weighted(j: int) -> Printed:
    """The value of word j scaled by its weight, as the lesson writes it."""
    texts = {0: ("0", "0.39", "0.39"), 1: ("0.39", "0", "0.39"), 2: ("0.22", "0.22", "0")}
    return Printed(
        one(*texts[j]), lambda x: _lesson_weights(x)[j] * x["v"][j], f"weight {j + 1} * v{j + 1}"
    )


_LESSON_VECTORS = [("1", "0", "0"), ("1", "1", "0"), ("0", "1", "1")]
_LESSON_VECTORS += [("0", "1", "0"), ("1", "1", "0"), ("1", "0", "1")]
_LESSON_VECTORS += [("0", "0", "1"), ("0", "1", "1"), ("1", "1", "0")]

LESSONS = Doc(
    file="dev/en-course-md-lessons-scores-then-blend-prose-arithmetic.md",
    url=(
        "https://github.com/vukrosic/blueberry-llm-kimi-deepseek/tree/main/"
        "_course/07_attention_mechanism"
    ),
    kind="course-lesson",
    language="en",
    inputs={
        "q": a([[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        "k": a([[1, 1, 0], [1, 1, 0], [0, 1, 1]]),
        "v": a([[0, 1, 1], [1, 0, 1], [1, 1, 0]]),
    },
    printed=(
        *(given(one(*vec), "q, k, v of the three words") for vec in _LESSON_VECTORS),
        given(one("1", "0", "0"), "q1 in q1 . k1"),
        given(one("1", "1", "0"), "k1"),
        Printed(one("1"), lambda x: x["q"][0] @ x["k"][0], "q1 . k1"),
        given(one("1", "0", "0"), "q1 in q1 . k2"),
        given(one("1", "1", "0"), "k2"),
        Printed(one("1"), lambda x: x["q"][0] @ x["k"][1], "q1 . k2"),
        given(one("1", "0", "0"), "q1 in q1 . k3"),
        given(one("0", "1", "1"), "k3"),
        Printed(one("0"), lambda x: x["q"][0] @ x["k"][2], "q1 . k3"),
        other(one("3"), "d_k"),
        other(one("1.732"), "sqrt(3)"),
        Printed(one("0.577"), lambda x: _lesson_scaled(x)[0], "1 / 1.732"),
        Printed(one("0.577"), lambda x: _lesson_scaled(x)[1], "1 / 1.732"),
        Printed(one("0"), lambda x: _lesson_scaled(x)[2], "0 / 1.732"),
        given(one("0.577", "0.577", "0"), "softmax input"),
        Printed(one("1.78"), lambda x: np.exp(_lesson_scaled(x)[0]), "e^0.577"),
        Printed(one("1.78"), lambda x: np.exp(_lesson_scaled(x)[1]), "e^0.577"),
        Printed(one("1"), lambda x: np.exp(_lesson_scaled(x)[2]), "e^0"),
        Printed(one("4.56"), lambda x: np.exp(_lesson_scaled(x)).sum(), "sum of the exponentials"),
        Printed(one("0.39"), lambda x: _lesson_weights(x)[0], "1.78 / 4.56"),
        Printed(one("0.39"), lambda x: _lesson_weights(x)[1], "1.78 / 4.56"),
        Printed(one("0.22"), lambda x: _lesson_weights(x)[2], "1 / 4.56"),
        Printed(one("39", "39", "22"), lambda x: 100 * _lesson_weights(x), "weights in percent"),
        Printed(
            column("0.39", "0.39", "0.22"),
            lambda x: _lesson_weights(x)[:, None],
            "weights recalled in lesson 4",
        ),
        *(given(one(*vec), "v1, v2, v3 recalled") for vec in _LESSON_VECTORS[2::3]),
        given(one("0", "1", "1"), "v1 in 0.39 * v1"),
        _lesson_weighted(0),
        given(one("1", "0", "1"), "v2 in 0.39 * v2"),
        _lesson_weighted(1),
        given(one("1", "1", "0"), "v3 in 0.22 * v3"),
        _lesson_weighted(2),
        _lesson_weighted(0),
        _lesson_weighted(1),
        _lesson_weighted(2),
        Printed(one("0.61", "0.61", "0.78"), lambda x: _lesson_weights(x) @ x["v"], "z1"),
        Printed(
            column("39", "39", "22"),
            lambda x: 100 * _lesson_weights(x)[:, None],
            "shares of z1, in percent",
        ),
    ),
    notes=(
        "Two consecutive lessons of a course (Markdown, numbers in inline code): one query "
        "against three keys of length 3, each step written as arithmetic in prose: the dot "
        "products 1, 1, 0, the division by sqrt(3) ≈ 1.732 (0.577), e^0.577 = 1.78, the sum "
        "4.56, the weights 1.78 / 4.56 = 0.39 and 1 / 4.56 = 0.22, also as percentages; then "
        "each value scaled by its weight (printed twice, the second time as the terms of the "
        "sum) and z1 = [0.61, 0.61, 0.78]. All right."
    ),
)

# --- study-guide answer (Markdown, code blocks): softmax of large and small scores, both wrong ----

SATURATION = Doc(
    file="dev/en-qa-md-study-guide-dot-product-saturation.md",
    url=(
        "https://github.com/shanselman/LLMStudyGuide/blob/master/content/"
        "24_dot_product_self_attention.md"
    ),
    kind="qa",
    language="en",
    inputs={"large": a([20, 18, 19]), "small": a([2, 1.8, 1.9])},
    printed=(
        given(one("1.0", "2.0", "1.5"), "query"),
        given(one("0.9", "2.1", "1.4"), "key_similar"),
        given(one("-1.0", "0.5", "-2.0"), "key_different"),
        other(one("512"), "d_k"),
        other(one("22.6"), "sqrt(512), the expected size of a dot product"),
        other(one("512"), "d_k again"),
        given(one("20", "18", "19"), "large_scores"),
        given(one("2", "1.8", "1.9"), "small_scores"),
        Printed(one("0.88", "0.06", "0.06"), lambda x: softmax(x["large"]), "softmax(large)"),
        Printed(one("0.58", "0.21", "0.21"), lambda x: softmax(x["small"]), "softmax(small)"),
        given(
            block("[0.1, 0.2, 0.7]\n[0.3, 0.6, 0.1]\n[0.4, 0.5, 0.1]"),
            "an illustrative attention matrix for 'The cat sat'",
        ),
    ),
    notes=(
        "An interview-question answer (Markdown with Python code blocks) on why the dot product "
        "is scaled. The two worked softmaxes are mistakes: softmax([20, 18, 19]) is [0.665, "
        "0.090, 0.245], not [0.88, 0.06, 0.06] (the order is wrong too: 19 beats 18), and "
        "softmax([2, 1.8, 1.9]) is [0.367, 0.301, 0.332], not [0.58, 0.21, 0.21]; all six "
        "printed weights are wrong. √512 ≈ 22.6 is right but is not an attention result; the "
        "3 x 3 matrix for 'The cat sat' is made up (rows sum to 1, no scores given). The "
        "printed results are wrong, all six."
    ),
)

# --- study-guide answer (Markdown, code blocks): a 2 x 4 softmax and a collapse, both wrong ----

SOFTMAX_ROWS = Doc(
    file="dev/en-qa-md-study-guide-softmax-weights-two-queries.md",
    url="https://github.com/shanselman/LLMStudyGuide/blob/master/content/23_softmax_function.md",
    kind="qa",
    language="en",
    inputs={
        "s": a([[2.1, 0.5, -1.2, 3.0], [1.8, -0.3, 2.5, 0.1]]),
        "c": a([10.0, 0.1, 0.1, 0.1]),
    },
    printed=(
        other(one("-1e9"), "mask fill value"),
        given(block("[2.1, 0.5, -1.2, 3.0]\n[1.8, -0.3, 2.5, 0.1]"), "raw scores"),
        Printed(
            block("[0.42, 0.08, 0.02, 0.48]\n[0.34, 0.04, 0.68, 0.06]"),
            lambda x: softmax(x["s"]),
            "weights = softmax(scores)",
        ),
        other(one("1.0"), "'Sums to 1.0' (row 1)"),
        other(one("1.0"), "'Sums to 1.0' (row 2, whose printed weights sum to 1.12)"),
        given(one("10.0", "0.1", "0.1", "0.1"), "collapse scores"),
        Printed(
            one("0.999", "0.0003", "0.0003", "0.0003"),
            lambda x: softmax(x["c"]),
            "softmax of the collapse scores",
        ),
    ),
    notes=(
        "An interview-question answer (Markdown with Python code blocks) on the softmax in "
        "attention, whose worked numbers are mistakes: the weights of the raw scores [2.1, 0.5, "
        "-1.2, 3.0] are [0.270, 0.055, 0.010, 0.665], not [0.42, 0.08, 0.02, 0.48], and those "
        "of [1.8, -0.3, 2.5, 0.1] are [0.301, 0.037, 0.607, 0.055], not [0.34, 0.04, 0.68, "
        "0.06] (0.04 and 0.06 round right, the other six are wrong; the printed row sums to "
        "1.12 although the comment says 1.0). The collapse example softmax([10, 0.1, 0.1, "
        "0.1]) is [0.99985, 0.00005, 0.00005, 0.00005], not [0.999, 0.0003, 0.0003, 0.0003]. "
        "The mask fill -1e9 and the row-sum comments are not attention results."
    ),
)

# --- HTML answer panel: a rating analogy in percent and three temperature chips ------------------

CHIPS = Doc(
    file="dev/en-html-qa-softmax-temperature-chips.html",
    url="https://github.com/pondevelopment/llm-training/blob/main/questions/q23/answer.html",
    kind="html-qa",
    language="en",
    inputs={"r": a([8, 6, 4]), "s": a([3, 2, 1])},
    printed=(
        given(one("8", "6", "4"), "ratings"),
        Printed(one("65", "24", "11"), lambda x: 100 * softmax(x["r"]), "their softmax, in %"),
        other(one("1.0"), "T < 1.0"),
        given(one("3", "2", "1"), "scores, low temperature"),
        given(one("0.67", "0.24", "0.09"), "low temperature (T not given)"),
        other(one("1.0"), "normal temperature 1.0"),
        given(one("3", "2", "1"), "scores, T = 1"),
        Printed(one("0.58", "0.31", "0.11"), lambda x: softmax(x["s"]), "softmax at T = 1"),
        other(one("1.0"), "T > 1.0"),
        given(one("3", "2", "1"), "scores, high temperature"),
        given(one("0.42", "0.34", "0.24"), "high temperature (T not given)"),
    ),
    notes=(
        "An HTML answer panel (MathJax formula, three 'chips' of the form [3, 2, 1] → [...]) on "
        "the softmax in attention. Two mistakes: ratings 8, 6, 4 become 87%, 12%, 2% under the "
        "softmax, not 65%, 24%, 11%; and the chip for the normal temperature T = 1 shows "
        "[0.58, 0.31, 0.11] while softmax([3, 2, 1]) is [0.665, 0.245, 0.090] — which is what "
        "the low-temperature chip shows. The low- and high-temperature chips give no T, so they "
        "are not judged (the high one, [0.42, 0.34, 0.24], fits no single T either). The "
        "printed results are wrong wherever they are judged."
    ),
)

DEV_SEEN_JUDGE5: list[Doc] = [LESSONS, SATURATION, SOFTMAX_ROWS, CHIPS, *DEV_SEEN_JUDGE5B]
