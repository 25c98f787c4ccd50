"""The eleventh held-out batch, continued: an English wiki page (GitBook Markdown) that works the
context vector of "shiny" in "Hello shiny sun!" twice, a short pass with a wrong dot product and
weights that follow from nothing, and a long pass whose exponentials and products slip in the
fourth decimal. Truth computed with numpy; see tests/corpus/dev_seen_judge11a.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, column, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English wiki page: "Hello shiny sun!", two passes over one context vector ------------------

_EMB = (("0.34", "0.22", "0.54"), ("0.53", "0.34", "0.98"), ("0.29", "0.54", "0.93"))


def _scores(x: Arrays) -> np.ndarray:
    return x["e"] @ x["e"][1]


def _weights(x: Arrays) -> np.ndarray:
    return softmax(_scores(x))


def _weighted(i: int, cols: list[int]) -> Truth:
    return lambda x: (_weights(x)[i] * x["e"][i])[cols]


def _context(cols: list[int]) -> Truth:
    return lambda x: (_weights(x) @ x["e"])[cols]


def _short_pass() -> tuple[Printed, ...]:
    return (
        given(_EMB, "embeddings"),
        given(one("0.23", "1.3", "0.84"), "weights 'which might be'"),
        Printed(one("0.7842", "2.405", "1.2487"), _scores, "intermediate attention scores"),
        Printed(one("0.13074", "0.66139", "0.20887"), _weights, "torch.softmax of the scores"),
        Printed(
            one("0.4555606", "0.3664252", "0.9130109"),
            lambda x: _weights(x) @ x["e"],
            "context vector (from the printed weights)",
            follows=True,
        ),
    )


def _long_pass() -> tuple[Printed, ...]:
    def terms(x: Arrays) -> np.ndarray:
        products = x["e"] * x["e"][1]
        return np.hstack([products, products.sum(axis=1, keepdims=True)])

    return (
        given(_EMB, "embeddings (again)"),
        Printed(
            (
                ("0.1802", "0.0748", "0.5292", "0.7842"),
                ("0.2809", "0.1156", "0.9604", "1.3569"),
                ("0.1537", "0.1836", "0.9114", "1.2487"),
            ),
            terms,
            "score terms and sums",
        ),
        Printed(one("2.1902", "3.8839", "3.4858"), lambda x: np.exp(_scores(x)), "exponentials"),
        Printed(
            one("9.5599"),
            lambda x: np.exp(_scores(x)).sum(keepdims=True),
            "sum (of the printed exponentials)",
            follows=True,
        ),
        Printed(one("0.2291", "0.4064", "0.3645"), _weights, "alpha"),
        Printed(one("0.0779", "0.0504", "0.1237"), _weighted(0, [0, 1, 2]), "weighted Hello"),
        Printed(one("0.2156"), _weighted(1, [0]), "weighted shiny, first"),
        Printed(one("0.1382", "0.3983"), _weighted(1, [1, 2]), "weighted shiny (of 0.4064)", True),
        Printed(one("0.1057"), _weighted(2, [0]), "weighted sun, first"),
        Printed(one("0.1972"), _weighted(2, [1]), "weighted sun, second"),
        Printed(one("0.3390"), _weighted(2, [2]), "weighted sun, third (of 0.3645)", True),
        Printed(one("0.3992", "0.3858"), _context([0, 1]), "context vector (sums)", True),
        Printed(one("0.8610"), _context([2]), "context vector, third"),
    )


EN_WIKI_SHINY = Doc(
    file="dev/en-md-wiki-hello-shiny-sun-two-passes-dot-product-slip.md",
    url=(
        "https://github.com/HackTricks-wiki/hacktricks/blob/"
        "653577558f129f1b4764907ed53408ffa0fc66f2/todo/llm-training-data-preparation.md"
    ),
    kind="wiki-page",
    language="en",
    inputs={
        "e": a([[0.34, 0.22, 0.54], [0.53, 0.34, 0.98], [0.29, 0.54, 0.93]]),
    },
    printed=(*_short_pass(), *_long_pass()),
    notes=(
        "An English wiki page (GitBook Markdown, LaTeX align blocks): the context vector of "
        "'shiny' in 'Hello shiny sun!' (3-d embeddings, Q = K = V, no scaling) worked twice. "
        "The mistakes as published, first pass: the dot product of 'shiny' with itself is written "
        "2.405 (1.3569; 1 wrong); the softmax is given as [0.13074, 0.66139, 0.20887], which "
        "is neither the softmax of the true scores [0.229, 0.406, 0.365] nor of the printed "
        "ones (3 wrong); the context vector [0.4555606, 0.3664252, 0.9130109] is exactly those "
        "weights times the embeddings (3 follows). Second pass: the score terms are right; "
        "e^0.7842 and e^1.3569 are written 2.1902 and 3.8839 (2.1907, 3.8841; 2 wrong) and "
        "their sum 9.5599 follows (9.5606); the weights 0.4064 and 0.3645 are 0.4063 and "
        "0.3646 (2 wrong); of the weighted embeddings 0.2156 and 0.1972 match neither the "
        "exact weights nor the printed ones (2 wrong), 0.1382, 0.3983 and 0.3390 are the "
        "printed weights' products (3 follows); the context vector's 0.3992 and 0.3858 are "
        "the sums of those printed terms (2 follows; 0.3990 and 0.3854 exactly)."
    ),
)

# --- English Markdown interview guide: "The cat sat" with example scores, partial matrices -------

_SCORES = (("12.4", "8.7", "5.3"), ("9.1", "15.2", "7.8"), ("6.5", "8.9", "13.7"))
_SCALED = (("1.55", "1.09", "0.66"), ("1.14", "1.90", "0.98"), ("0.81", "1.11", "1.71"))
_WEIGHTS = (("0.49", "0.31", "0.20"), ("0.24", "0.55", "0.21"), ("0.18", "0.25", "0.57"))


def _g_scaled(x: Arrays) -> np.ndarray:
    return x["s"] / np.sqrt(64)


def _g_weights(x: Arrays) -> np.ndarray:
    return softmax(_g_scaled(x))


def _g_causal(x: Arrays) -> np.ndarray:
    return np.where(np.tril(np.ones((3, 3))) == 1, _g_scaled(x), -np.inf)


def _guide_steps() -> tuple[Printed, ...]:
    return (
        given((("0.23", "-0.15", "0.87"),), "'The' embedding (box)"),
        given((("0.45", "0.92", "-0.31"),), "'cat' embedding (box)"),
        given((("-0.67", "0.34", "0.12"),), "'sat' embedding (box)"),
        given(
            (
                ("0.23", "-0.15", "0.87", "-0.42"),
                ("0.45", "0.92", "-0.31", "0.78"),
                ("-0.67", "0.34", "0.12", "0.15"),
            ),
            "X, columns 0, 1, 2 and 511",
        ),
        given(
            (("0.01", "0.23", "-0.15"), ("-0.45", "0.67", "0.22"), ("0.33", "-0.12", "0.89")),
            "W_Q, rows 0, 1, 511 and columns 0, 1, 63",
        ),
        given(
            (("0.56", "0.23", "-0.12"), ("-0.34", "0.89", "0.45"), ("0.12", "-0.67", "0.78")), "Q"
        ),
        given(
            (("0.45", "-0.11", "0.34"), ("0.78", "0.56", "-0.23"), ("-0.23", "0.12", "0.90")), "K"
        ),
        given(
            (("0.67", "0.34", "-0.45"), ("-0.12", "0.78", "0.56"), ("0.90", "-0.34", "0.12")), "V"
        ),
        given(one("12.4"), "Score(The->The), 'example value'"),
        given(_SCORES, "scores, example values"),
        Printed(one("8"), lambda x: np.array([np.sqrt(64)]), "sqrt(d_k)"),
        Printed(_SCALED, _g_scaled, "scaled scores"),
        given(one("50", "48", "2"), "scores before scaling (toy)"),
        Printed(
            one("0.73", "0.27", "0.00"), lambda x: softmax(a([50, 48, 2])), "softmax([50, 48, 2])"
        ),
        Printed(one("6.25", "6.0", "0.25"), lambda x: a([50, 48, 2]) / 8, "toy scores / 8"),
        Printed(
            one("0.54", "0.43", "0.03"),
            lambda x: softmax(a([50, 48, 2]) / 8),
            "softmax([6.25, 6.0, 0.25])",
        ),
        Printed(one("1.55", "1.09", "0.66"), lambda x: _g_scaled(x)[0], "scaled row 'The'"),
        Printed(column("4.71", "2.97", "1.93"), lambda x: np.exp(_g_scaled(x)[0])[:, None], "exp"),
        Printed(one("9.61"), lambda x: np.exp(_g_scaled(x)[0]).sum(keepdims=True), "total"),
        Printed(column("0.49", "0.31", "0.20"), lambda x: _g_weights(x)[0][:, None], "Attention"),
        Printed(column("49", "31", "20"), lambda x: 100 * _g_weights(x)[0][:, None], "percent"),
    )


def _guide_outputs() -> tuple[Printed, ...]:
    return (
        Printed(_WEIGHTS, _g_weights, "Attention Weights (3, 3)"),
        Printed(
            (("49", "31", "20"), ("24", "55", "21"), ("18", "25", "57")),
            lambda x: 100 * _g_weights(x),
            "bars, percent",
        ),
        Printed(
            one("0.328", "-0.037", "0.180"),
            lambda x: _g_weights(x)[0] * x["v"][:, 0],
            "output_The[0], terms",
        ),
        Printed(one("0.471"), lambda x: (_g_weights(x) @ x["v"])[0, :1], "output_The[0]"),
        Printed(
            (("0.47", "0.31", "-0.15"), ("-0.03", "0.52", "0.34"), ("0.56", "-0.08", "0.23")),
            lambda x: _g_weights(x) @ x["v"],
            "Output matrix, columns 0, 1, 63",
        ),
        given(one("0.23", "-0.15", "-0.42"), "'The' embedding, columns 0, 1, 511"),
        Printed(
            one("0.47", "0.31", "-0.15"), lambda x: (_g_weights(x) @ x["v"])[0], "after attention"
        ),
        given(
            (
                ("0.05", "0.10", "0.70", "0.05", "0.05", "0.05"),
                ("0.60", "0.20", "0.05", "0.05", "0.05", "0.05"),
                ("0.30", "0.20", "0.40", "0.05", "0.03", "0.02"),
                ("0.05", "0.15", "0.10", "0.05", "0.05", "0.60"),
            ),
            "made-up head rows",
        ),
        Printed(
            (("1.", "0.", "0."), ("1.", "1.", "0."), ("1.", "1.", "1.")),
            lambda x: np.tril(np.ones((3, 3))),
            "np.tril mask",
        ),
        Printed(
            (("1.55", "-inf", "-inf"), ("1.14", "1.90", "-inf"), ("0.81", "1.11", "1.71")),
            _g_causal,
            "masked scaled scores",
        ),
        Printed(
            (("1.00", "0.00", "0.00"), ("0.24", "0.76", "0.00"), ("0.18", "0.25", "0.57")),
            lambda x: softmax(_g_causal(x)),
            "causal weights",
        ),
        other(one("0.841", "0.540", "1.009", "0.991", "0.836", "0.549"), "PE(1, 0..3) working"),
        other(
            (
                ("0.000", "1.000", "0.000", "1.000", "0.000", "1.000"),
                ("0.841", "0.540", "0.836", "0.549", "0.001", "1.000"),
                ("0.909", "-0.416", "0.895", "-0.402", "0.002", "1.000"),
            ),
            "positional encoding table",
        ),
    )


EN_INTERVIEW_GUIDE = Doc(
    file="dev/en-md-interview-guide-ascii-the-cat-sat-illustrative-weights.md",
    url=(
        "https://github.com/girijesh-ai/ai-interview-codex/blob/"
        "3c4e64d0234d43c1a8aa625f922b9e209573a6ef/deep-learning/step-1-attention-visual-deep-dive.md"
    ),
    kind="interview-guide",
    language="en",
    inputs={
        "s": a([[12.4, 8.7, 5.3], [9.1, 15.2, 7.8], [6.5, 8.9, 13.7]]),
        "v": a([[0.67, 0.34, -0.45], [-0.12, 0.78, 0.56], [0.90, -0.34, 0.12]]),
    },
    printed=(*_guide_steps(), *_guide_outputs()),
    notes=(
        "An English Markdown interview-prep guide (code blocks of box drawings and matrices "
        "with elided columns): 'The cat sat' with d_model 512 and d_k 64, X, W_Q, Q, K, V shown "
        "only in columns 0, 1 and the last, a 3 x 3 score matrix 'example values' (given), the "
        "scores over sqrt(64) = 8, a toy softmax before and after scaling, the softmax of the "
        "first row worked step by step, the weight matrix, percentage bars, one output entry "
        "worked and the output matrix in the three shown columns of V, made-up head rows "
        "(given), a causal mask and its weights, positional encodings (not attention). "
        "The mistakes as published: softmax([50, 48, 2]) is given as [0.73, 0.27, 0.00] "
        "(0.881, 0.119, 0.000; 2 wrong) and softmax([6.25, 6.0, 0.25]) as [0.54, 0.43, 0.03] "
        "(0.561, 0.437, 0.001; 3 wrong); exp(5.3/8) is written 1.93 from the rounded 0.66 "
        "(1.94) and the total 9.61 (9.62; 2 wrong); the rows of 'cat' and 'sat' [0.24, 0.55, "
        "0.21] and [0.18, 0.25, 0.57] are not the softmax of their scaled scores ([0.250, 0.537, "
        "0.213], [0.208, 0.281, 0.511]; 5 wrong, and 5 more in the percentage bars); "
        "0.20 x 0.90 = 0.180 and the sum 0.471 come from two-decimal weights (0.1815, 0.473; 2 "
        "wrong); the output matrix is not the weights times the shown value columns except its "
        "first entry (8 of 9 wrong; [0.29, 0.43, 0.21] for 'cat', for instance), and its first "
        "row is repeated (2 wrong); the causal weights of 'cat' [0.24, 0.76] are [0.318, 0.682] "
        "and the row of 'sat' repeats the wrong unmasked one (5 wrong). 34 entries wrong."
    ),
)

JUDGE_DOCS_11D: list[Doc] = [EN_WIKI_SHINY, EN_INTERVIEW_GUIDE]
