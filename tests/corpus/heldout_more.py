"""The held-out documents' truth, continued (see tests/corpus/truth_heldout.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import (
    a,
    block,
    column,
    given,
    one,
    other,
)
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Q&A quiz: one query, two keys, no scaling ---------------------------------------------------


def _quiz_weights(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["K"].T)


def _quiz_output(x: Arrays) -> np.ndarray:
    return _quiz_weights(x) @ x["V"]


QUIZ = Doc(
    file="heldout/qa-quiz-attention-output.md",
    url="https://leyaa.ai/codefly/learn/nlp/part-2/nlp-attention-mechanism-basics/puzzle/13",
    kind="qa",
    language="en",
    inputs={"q": a([[1, 0]]), "K": a([[1, 0], [0, 1]]), "V": a([[10, 0], [0, 20]])},
    printed=(
        given(one("1", "0"), "Q"),
        given(one("1", "0"), "K1"),
        given(one("0", "1"), "K2"),
        given(one("10", "0"), "V1"),
        given(one("0", "20"), "V2"),
        other(one("10", "0"), "choice A"),
        other(one("5", "10"), "choice B"),
        other(one("7.31", "5.38"), "choice C"),
        other(one("0", "20"), "choice D"),
        Printed(one("1"), lambda x: x["q"] @ x["K"][:1].T, "Q·K1"),
        Printed(one("0"), lambda x: x["q"] @ x["K"][1:].T, "Q·K2"),
        Printed(one("1", "0"), lambda x: x["q"] @ x["K"].T, "scores"),
        Printed(one("0.731", "0.269"), _quiz_weights, "softmax"),
        given(one("10", "0"), "V1"),
        given(one("0", "20"), "V2"),
        Printed(one("7.31", "0"), lambda x: _quiz_weights(x)[:, :1] * x["V"][:1], "w1 V1"),
        Printed(one("0", "5.38"), lambda x: _quiz_weights(x)[:, 1:] * x["V"][1:], "w2 V2"),
        Printed(one("7.31", "5.38"), _quiz_output, "Output"),
        Printed(one("7.31", "5.38"), _quiz_output, "computed output"),
        Printed(one("7.31", "5.38"), _quiz_output, "matches"),
        Printed(one("7.31", "5.38"), _quiz_output, "answer"),
    ),
    notes=(
        "Unscaled dot-product attention for one query; the multiple-choice options are not "
        "computations (A, B, D are distractors). All computed numbers are right."
    ),
)

# --- coding-exercise page whose expected output is wrong ----------------------------------------


def _exercise(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    return softmax(q @ k.T / np.sqrt(k.shape[1])) @ v


EXERCISE = Doc(
    file="heldout/exercise-html-attention-test-cases.html",
    url="https://click4ai.perfionixai.com/problems/scaled-dot-product-attention",
    kind="exercise",
    language="en",
    inputs={"Q": a([[1, 2], [3, 4]]), "K": a([[5, 6], [7, 8]]), "V": a([[9, 10], [11, 12]])},
    printed=(
        given(block("[[1,2],[3,4]]"), "example input"),
        given(block("[[5,6],[7,8]]"), "example input"),
        given(block("[[1,2],[3,4]]"), "Q"),
        given(block("[[5,6],[7,8]]"), "K"),
        given(block("[[9,10],[11,12]]"), "V"),
        Printed(
            block("[[2.5,3.5],[6.5,7.5]]"),
            lambda x: _exercise(x["Q"], x["K"], x["V"]),
            "Expected (test 1)",
        ),
        given(block("[[1,1],[1,1]]"), "Q"),
        given(block("[[1,1],[1,1]]"), "K"),
        given(block("[[1,1],[1,1]]"), "V"),
        Printed(
            block("[[1.0,1.0],[1.0,1.0]]"),
            lambda x: _exercise(*(np.ones((2, 2)),) * 3),
            "Expected (test 2)",
        ),
    ),
    notes=(
        "Test case 1's expected output [[2.5,3.5],[6.5,7.5]] is wrong: attention of those "
        "inputs is about [[10.97,11.97],[11.00,12.00]] (all four entries wrong, with or without "
        "the 1/sqrt(2) scale). Test case 2 (all ones) is right."
    ),
)

# --- blog whose only printed numbers are losses and token sequences -----------------------------

LOSSES = Doc(
    file="heldout/blog-bahdanau-seq2seq-losses-only.md",
    url="https://github.com/Tony-Ale/Tony-Ale.github.io/blob/main/blog_posts/Bahdanau_Attention.md",
    kind="blog",
    language="en",
    inputs={},
    printed=(
        other(one("3", "5", "7", "8"), "example input"),
        other(one("8", "7", "5", "3"), "example output"),
        other(block("[3, 5, 7, 0, 0]\n[2, 4, 0, 0, 0]\n[9, 8, 6, 5, 1]"), "padded sequences"),
        other(one("0.001"), "learning rate"),
        other(
            column(
                "2.3242060840129852",
                "0.4465853155228742",
                "0.26459415764755506",
                "0.14399968214617792",
                "0.08282175400905359",
                "0.07343465957351646",
                "0.08730173831105612",
                "0.04399116863170342",
                "0.06232075718569623",
                "0.05614654439098089",
            ),
            "training loss per epoch",
        ),
        other(one("7", "9", "25", "26", "23", "23"), "Input"),
        other(one("23", "23", "26", "25", "9", "7", "2"), "Predicted Output"),
        other(one("23", "23", "26", "25", "9", "7", "2"), "Expected Output"),
    ),
    notes=(
        "An attention blog post that prints no attention numbers at all: formulas, code, a "
        "learning rate, ten training losses and token sequences. Nothing may be claimed."
    ),
)

# --- Rust API documentation: a softmax of two rows of scores ------------------------------------

RUST = Doc(
    file="heldout/rust-api-docs-candle-softmax.md",
    url="https://docs.rs/candle-nn/latest/candle_nn/ops/fn.softmax.html",
    kind="api-docs-rust",
    language="en",
    inputs={"x": a([[0, 1, 0, 1], [-2, 2, 3, -3]])},
    printed=(
        given(block("[[0f32, 1., 0., 1.], [-2., 2., 3., -3.]]".replace("f32", "")), "a"),
        Printed(
            block("[0.1345, 0.3655, 0.1345, 0.3655],\n[0.0049, 0.2671, 0.7262, 0.0018]"),
            lambda x: softmax(x["x"]),
            "to_vec2_round(&a, 4)",
        ),
    ),
    notes=(
        "Scores given directly, softmax along dim 1, the result rounded to 4 decimals in a "
        "Rust assert_eq! (`0f32` literal). All right."
    ),
)

# --- Chinese book chapter: shapes, row sums and a causal mask, nothing to recompute -------------

ZH = Doc(
    file="heldout/zh-book-chapter-attention-shapes-and-mask.md",
    url=(
        "https://github.com/jsksxs360/How-to-use-Transformers/blob/"
        "bbe471aa906d509a4898e4f64e32e39260327f35/_back/attention.md"
    ),
    kind="book-chapter",
    language="zh",
    inputs={},
    printed=(
        other(one("2051", "10029", "2066", "2019", "8612"), "input_ids"),
        other(one("30522", "768"), "Embedding(30522, 768)"),
        other(one("1.", "1.", "1.", "1.", "1."), "weights.sum(dim=-1)"),
        given(
            block("1. 0. 0. 0. 0.\n1. 1. 0. 0. 0.\n1. 1. 1. 0. 0.\n1. 1. 1. 1. 0.\n1. 1. 1. 1. 1."),
            "mask[0]",
        ),
        given(
            block(
                """
                [[[26.8082,    -inf,    -inf,    -inf,    -inf],
                 [-0.6981, 26.9043,    -inf,    -inf,    -inf],
                 [-2.3190,  1.2928, 27.8710,    -inf,    -inf],
                 [-0.5897,  0.3497, -0.3807, 27.5488,    -inf],
                 [ 0.5275,  2.0493, -0.4869,  1.6100, 29.0893]]]
                """
            ),
            "scores.masked_fill(mask == 0, -inf)",
        ),
    ),
    notes=(
        "Q = K = V = random 768-d embeddings that are never printed: only token ids, shapes, "
        "row sums of the weights, the 0/1 mask and the masked scores (the unmasked scores were "
        "never printed, so the -inf pattern cannot be checked against anything). Nothing here "
        "can be recomputed from the page; nothing may be claimed."
    ),
)

MORE: list[Doc] = [QUIZ, EXERCISE, LOSSES, RUST, ZH]
