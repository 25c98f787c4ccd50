"""The held-out documents' truth, continued (see tests/corpus/truth_heldout.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import (
    a,
    block,
    column,
    given,
    masked,
    one,
    other,
    settled,
    softmax,
)
from tests.corpus.model import Arrays, Doc, Printed

# --- Portuguese course notebook (numpy): transposed products and a column softmax ---------------

_PT_SIMILARITY = block(
    """
    [[1.74102466, 2.77144772, 2.86978282, 2.7531828 ],
     [3.00187487, 4.7457906 , 4.95359371, 4.71241696],
     [2.64113639, 4.16539406, 4.34981804, 4.11956372],
     [2.70105363, 4.19585129, 4.45382426, 4.13679429]]
    """
)
_PT_HALVES = {"Q": 5e-9, "K": 5e-9}


def _pt_scores(x: Arrays) -> np.ndarray:
    return x["Q"] @ x["K"].T / 2


def _pt_weights(x: Arrays) -> np.ndarray:
    return softmax(masked(_pt_scores(x), -np.inf))


PT_COURSE = Doc(
    file="heldout/pt-course-notebook-attention-numpy.ipynb",
    url=(
        "https://github.com/denmartins/denmartins.github.io/blob/master/files/lectures/2025/"
        "TopicosCD/code/03-TCD-Attention-Mechanisms.ipynb"
    ),
    kind="notebook-numpy",
    language="pt",
    inputs={
        "Q": a(
            [
                [0.73634365, 0.42647927, 0.85683087, 0.32620017],
                [1.19358144, 0.83688612, 1.39485002, 0.64264091],
                [1.11520082, 0.57175117, 1.27103597, 0.58396596],
                [1.03917841, 0.67847982, 1.17557442, 0.75079734],
            ]
        ),
        "K": a(
            [
                [0.75780912, 0.59683623, 0.78892439, 0.77407585],
                [1.34918327, 1.02141999, 1.24144089, 0.85427868],
                [1.16087731, 1.01643544, 1.35860721, 1.27956075],
                [1.24943877, 1.08885856, 1.31923949, 0.73091859],
            ]
        ),
        "V": a(
            [
                [0.81080848, 0.2920271, 0.68920257, 0.37484638],
                [1.01372893, 0.81102414, 0.725672, 0.60567394],
                [1.22574627, 0.47592542, 1.1239937, 0.72011269],
                [0.74409112, 0.91022723, 0.58086821, 0.76392111],
            ]
        ),
    },
    printed=(
        given(
            block(
                """
                [[0.73634365, 0.42647927, 0.85683087, 0.32620017],
                 [1.19358144, 0.83688612, 1.39485002, 0.64264091],
                 [1.11520082, 0.57175117, 1.27103597, 0.58396596],
                 [1.03917841, 0.67847982, 1.17557442, 0.75079734]]
                """
            ),
            "Q",
        ),
        given(
            block(
                """
                [[0.75780912, 0.59683623, 0.78892439, 0.77407585],
                 [1.34918327, 1.02141999, 1.24144089, 0.85427868],
                 [1.16087731, 1.01643544, 1.35860721, 1.27956075],
                 [1.24943877, 1.08885856, 1.31923949, 0.73091859]]
                """
            ),
            "K",
        ),
        given(
            block(
                """
                [[0.81080848, 0.2920271 , 0.68920257, 0.37484638],
                 [1.01372893, 0.81102414, 0.725672  , 0.60567394],
                 [1.22574627, 0.47592542, 1.1239937 , 0.72011269],
                 [0.74409112, 0.91022723, 0.58086821, 0.76392111]]
                """
            ),
            "V",
        ),
        Printed(
            _PT_SIMILARITY,
            settled(lambda x: x["Q"] @ x["K"].T, _PT_HALVES, _PT_SIMILARITY),
            "similarity_scores",
        ),
        Printed(one("2."), lambda x: np.array([[2.0]]), "dim = sqrt(4)"),
        Printed(
            block(
                """
                [[1.26782464, 1.05059507, 1.35240051, 1.13455545],
                 [2.22790493, 1.84235246, 2.36172036, 1.94668503],
                 [1.9108265 , 1.58868634, 2.043417  , 1.70244209],
                 [2.00283274, 1.6628199 , 2.12487558, 1.71850219]]
                """
            ),
            _pt_scores,
            "scaled_similarity_scores",
        ),
        other(column("0.09385167529024863", "0.06090284043555731", "0.8970449776197686")),
        other(column("0.09385167529024863", "0.06090284043555731", "0.14133630407607445")),
        given(block("0. -inf -inf -inf\n0. 0. -inf -inf\n0. 0. 0. -inf\n0. 0. 0. 0."), "mask"),
        Printed(
            block(
                """
                [[1.26782464,       -inf,       -inf,       -inf],
                 [2.22790493, 1.84235246,       -inf,       -inf],
                 [1.9108265 , 1.58868634, 2.043417  ,       -inf],
                 [2.00283274, 1.6628199 , 2.12487558, 1.71850219]]
                """
            ),
            lambda x: masked(_pt_scores(x), -np.inf),
            "masked_scores",
            follows=True,
        ),
        Printed(
            block(
                """
                [[0.13158609, 0.        , 0.        , 0.        ],
                 [0.34369052, 0.38290533, 0.        , 0.        ],
                 [0.25030074, 0.29711571, 0.47964661, 0.        ],
                 [0.27442264, 0.31997895, 0.52035339, 1.        ]]
                """
            ),
            _pt_weights,
            "attention_weights",
        ),
        other(one("1.", "1.", "1.", "1."), "column sums"),
        Printed(
            block(
                """
                [[0.10669112, 0.13339263, 0.16129116, 0.09791204],
                 [0.39048592, 0.65895449, 0.60351176, 0.60426792],
                 [0.62028548, 0.84277124, 0.98732989, 0.73530084],
                 [1.04942201, 1.52098066, 1.79364527, 1.56162686]]
                """
            ),
            lambda x: _pt_weights(x) @ x["V"],
            "self_attention_output",
        ),
    ),
    notes=(
        "Q, K, V printed (from unprinted random embeddings and weights). The scaled scores use "
        "Q.dot(K) instead of Q.dot(K.T) (transposed product: all 16 wrong); the masked scores "
        "follow from that slip; the softmax runs over axis 0 (columns sum to 1, rows do not) "
        "and the output uses V.T instead of V. The scale is sqrt(Q.shape[0]) = 2, which equals "
        "sqrt(d_k) here. Variances of Q, K and the scores are printed (not attention)."
    ),
)

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

# --- Japanese HTML page with MathJax and tables: Q, K, V and E all wrong ------------------------


JA = Doc(
    file="heldout/ja-html-mathjax-scaled-dot-product-tables.html",
    url="https://indepa.net/archives/5948",
    kind="html-mathjax",
    language="ja",
    inputs={
        "X": a([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]]),
        "WQ": a([[1, 0], [0, 1], [1, 0], [0, 1]]),
        "WK": a([[1, 0], [0, 1], [0, 1], [1, 0]]),
        "WV": a([[1, 0], [0, 1], [1, 0], [0, 1]]),
    },
    printed=(
        given(block("1 0\n0 1\n1 0\n0 1"), "W^Q"),
        given(block("1 0\n0 1\n0 1\n1 0"), "W^K"),
        given(block("1 0\n0 1\n1 0\n0 1"), "W^V"),
        given(block("[1, 0, 1, 0]\n[0, 1, 0, 1]\n[1, 1, 0, 0]\n[0, 0, 1, 1]"), "X"),
        Printed(block("[1, 0]\n[0, 1]\n[1, 0]\n[0, 1]"), lambda x: x["X"] @ x["WQ"], "Q"),
        Printed(block("[1, 0]\n[0, 1]\n[0, 1]\n[1, 0]"), lambda x: x["X"] @ x["WK"], "K"),
        Printed(block("[1, 0]\n[0, 1]\n[1, 0]\n[0, 1]"), lambda x: x["X"] @ x["WV"], "V"),
        Printed(
            block("1 0 1 0\n0 1 0 1\n1 0 1 0\n0 1 0 1"),
            lambda x: (x["X"] @ x["WQ"]) @ (x["X"] @ x["WK"]).T,
            "E = QK^T",
        ),
    ),
    notes=(
        "Tables of Q, K, V per token inside HTML with MathJax \\( \\) and \\[ \\] bmatrix. "
        "Q = X W^Q is [[2,0],[0,2],[1,1],[1,1]] but printed as a one-hot pattern; K = X W^K "
        "is [1,1] for every token; E printed equals (printed Q)(printed Q)^T, neither Q K^T of "
        "the printed Q and K nor of the true ones (true E is all 2). Transcribed up to the "
        "scaling step where the stored copy of the page ends."
    ),
)

# --- Spanish README: one dot product written out, softmax of two scores -------------------------

ES = Doc(
    file="heldout/es-readme-self-attention-dot-product.md",
    url="https://github.com/BugCatcherXO/Building-LLama4-from-Scratch",
    kind="blog",
    language="es",
    inputs={"q": a([[0.22, 0.64, 0.73]]), "k": a([[0.54, 0.36, 0.74]]), "self": a([[1.2]])},
    printed=(
        given(one("0.22", "0.64", "0.73"), "Q_quickly"),
        given(one("0.54", "0.36", "0.74"), "K_dog"),
        given(one("0.12", "0.84", "0.51"), "V_dog"),
        given(one("0.62", "0.24", "0.33"), "V_quickly"),
        Printed(one("0.1188", "0.2304", "0.5402"), lambda x: x["q"] * x["k"], "terms"),
        Printed(one("0.889"), lambda x: x["q"] @ x["k"].T, "score(dog, quickly)"),
        given(one("1.2"), "score(quickly, quickly), assumed"),
        Printed(one("0.42"), lambda x: softmax(np.hstack([x["q"] @ x["k"].T, x["self"]]))[:, :1]),
        Printed(one("0.58"), lambda x: softmax(np.hstack([x["q"] @ x["k"].T, x["self"]]))[:, 1:]),
    ),
    notes=(
        "A single dot product written as a sum of products, then a softmax over two scores "
        "where the second (1.2) is set by the author. Transcribed up to the weights (the stored "
        "copy of the page ends there). All computed numbers are right."
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

# --- book section as HTML: Q = K = V = X, scores written out one by one --------------------------

_TINY_X = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]]

TINY = Doc(
    file="heldout/book-html-tiny-vectors-walkthrough.html",
    url="https://www.book-ai.org/books/transformer/chapter-02/section-03",
    kind="book-html",
    language="en",
    inputs={"X": a(_TINY_X)},
    printed=(
        given(block("[1.0, 0.0, 1.0, 0.0]\n[0.0, 1.0, 0.0, 1.0]\n[1.0, 1.0, 0.0, 0.0]"), "tokens"),
        given(block("[[1.0, 0.0, 1.0, 0.0]\n[0.0, 1.0, 0.0, 1.0]\n[1.0, 1.0, 0.0, 0.0]]"), "X"),
        Printed(one("2.0", "0.0", "1.0"), lambda x: x["X"][:1] @ x["X"].T, "scores row 0"),
        Printed(one("0.0", "2.0", "1.0"), lambda x: x["X"][1:2] @ x["X"].T, "scores row 1"),
        Printed(one("1.0", "1.0"), lambda x: x["X"][2:] @ x["X"][:2].T, "scores row 2"),
    ),
    notes=(
        "Scores computed element by element as sums of products, one line each; transcribed "
        "up to scores[2][1], where the stored copy of the page ends. All right."
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

MORE: list[Doc] = [PT_COURSE, QUIZ, JA, ES, EXERCISE, LOSSES, TINY, RUST, ZH]
