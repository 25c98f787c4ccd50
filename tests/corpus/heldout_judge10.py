"""The tenth batch of held-out documents, their truth computed with numpy from the printed
inputs: a Russian numpy notebook (five numbers embedded by one random row, a softmax worked in a
code comment), an English interactive reader page (a playground drawn by script, and a
scratchpad whose printed weights are not the playground's), an English numpy course notebook (a
decoder state scored against four annotations, weights printed in float128), an English
TensorFlow course notebook (a padding mask broadcast over a softmax, a look-ahead mask) and an
English README converted by pandoc (escaped brackets, one worked example). More in
tests/corpus/heldout_judge10b.py and heldout_judge10c.py; see tests/corpus/truth_heldout.py."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from tests.corpus.heldout_help import (
    Rows,
    block,
    given,
    one,
    other,
    settled,
    single_precision,
    values,
)
from tests.corpus.heldout_judge10b import JUDGE_DOCS_10B
from tests.corpus.heldout_judge10c import JUDGE_DOCS_10C
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Russian numpy notebook: five numbers embedded, a softmax in a comment ------------------------

_SEQUENCE = block("[[0.1]\n [0.2]\n [0.3]\n [2. ]\n [0.4]]")
_W_EMBED = block("[[-0.40864155  1.24500152 -0.35641933  0.5953186 ]]")
_EMBEDDED = block(
    "[[-0.04086415  0.12450015 -0.03564193  0.05953186]\n"
    " [-0.08172831  0.2490003  -0.07128387  0.11906372]\n"
    " [-0.12259246  0.37350045 -0.1069258   0.17859558]\n"
    " [-0.8172831   2.49000303 -0.71283867  1.1906372 ]\n"
    " [-0.16345662  0.49800061 -0.14256773  0.23812744]]"
)


def _embedded(x: Arrays) -> np.ndarray:
    return x["sequence"] @ x["w_embed"]


RU_SCALAR_SEQUENCE = Doc(
    file="heldout/ru-notebook-numpy-scalar-sequence-embedding-softmax-comment.ipynb",
    url="https://github.com/Yurkmez/Experiment_fine-tuning/blob/main/Transformer-like%20attention.ipynb",
    kind="notebook-numpy",
    language="ru",
    inputs={
        "sequence": values(_SEQUENCE),
        "w_embed": values(_W_EMBED),
        "x": np.array([2.0, 1.0, 0.1]),
    },
    printed=(
        given(_SEQUENCE, "sequence"),
        given(_W_EMBED, "W_embed (unseeded randn)"),
        Printed(
            _EMBEDDED,
            settled(_embedded, {"w_embed": 5e-9}, _EMBEDDED),
            "embedded = sequence @ W_embed",
        ),
        given(one("2.0", "1.0", "0.1"), "x (comment)"),
        Printed(one("0.659", "0.242", "0.098"), lambda x: softmax(x["x"]), "softmax(x) (comment)"),
    ),
    notes=(
        "A Russian numpy notebook: five numbers (one feature each) projected to four dimensions "
        "by one unseeded random row W_embed (printed to 8 decimals, the product as well), then "
        "Q, K, V, the scaled scores, the weights and the output computed but never printed. A "
        "code comment works softmax([2.0, 1.0, 0.1]) = [0.659, 0.242, 0.098]. One mistake as "
        "published: the last weight is 0.09856..., 0.099 to three decimals, not 0.098 (cut, not "
        "rounded; 1 entry wrong)."
    ),
)

# --- English HTML reader page: a playground drawn by script, a scratchpad output that differs ----

_READER_FILE = (
    Path(__file__).resolve().parents[1]
    / "data/corpus/heldout/en-html-reader-playground-rendered-scratchpad-output-slips.html"
)


def _reader_tables() -> list[Rows]:
    """The page's matrices in order, each row of cells as printed."""
    text = _READER_FILE.read_text(encoding="utf-8")
    tables = re.findall(r'<table class="matrix[^"]*">(.*?)</table>', text, flags=re.S)
    return [
        tuple(
            tuple(re.findall(r"<td>([^<]*)</td>", row)) for row in re.findall(r"<tr>(.*?)</tr>", t)
        )
        for t in tables
    ]


_RT = _reader_tables()


def _reader_scaled(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T / np.sqrt(4)


def _reader_weights(x: Arrays) -> np.ndarray:
    return softmax(_reader_scaled(x))


_READER_CAT = ("0.15", "0.20", "0.17", "0.14", "0.15", "0.19")

EN_READER = Doc(
    file="heldout/en-html-reader-playground-rendered-scratchpad-output-slips.html",
    url="https://rafilovestosuffer.github.io/Attention-is-all-my-need/ui_kits/reader/",
    kind="html-interactive",
    language="en",
    inputs={"q": values(_RT[0]), "k": values(_RT[1]).T, "v": values(_RT[6])},
    printed=(
        given(_RT[0], "Q"),
        given(_RT[1], "K^T"),
        Printed(_RT[2], lambda x: x["q"] @ x["k"].T, "scores"),
        Printed(one("0.500"), lambda x: np.array([1 / np.sqrt(4)]), "1/sqrt(d_k)"),
        Printed(_RT[3], _reader_scaled, "scaled scores"),
        given(one("1.00"), "temperature T"),
        Printed(_RT[4], _reader_weights, "attention weights"),
        Printed(_RT[5], _reader_weights, "weights (step 4)"),
        given(_RT[6], "V"),
        Printed(_RT[7], lambda x: _reader_weights(x) @ x["v"], "output"),
        Printed(one(*_READER_CAT), lambda x: _reader_weights(x)[1], "attention flow, query cat"),
        Printed(one("1.0000"), lambda x: _reader_weights(x)[1].sum(keepdims=True), "row sum"),
        Printed(one("0.202"), lambda x: _reader_weights(x)[1].max(keepdims=True), "max weight"),
        other(one("1.782"), "entropy of the cat row"),
        given(one("4"), "d_k"),
        Printed(
            one("0.183", "0.221", "0.168", "0.128", "0.183", "0.117"),
            lambda x: _reader_weights(x)[1],
            "weights[1].round(3) (scratchpad)",
        ),
    ),
    notes=(
        "An English interactive reader page (HTML drawn by React): a playground over six tokens "
        "with hand-set Q, K, V (6 x 4) shows Q, K^T, the scores, 1/sqrt(4), the scaled scores, "
        "the weights (twice), V and the output to two decimals, the weights of the query 'cat' "
        "and its row sum, maximum and entropy (entropy not attention); the transcription carries "
        "the numbers the page draws when it opens. A scratchpad then claims that the same "
        "computation in numpy prints weights[1].round(3) = [0.183, 0.221, 0.168, 0.128, 0.183, "
        "0.117]. Mistake as published: the playground's own row is [0.149, 0.202, 0.167, 0.139, "
        "0.149, 0.193] (6 entries wrong)."
    ),
)

# --- English numpy notebook: a decoder state scored against four annotations, float128 prints ----

_ANNOTATIONS = ((3, 12, 45), (59, 2, 5), (1, 43, 5), (4, 3, 45.3))


def _udacity_raw(x: Arrays) -> np.ndarray:
    return x["dec"] @ x["annotations"]


def _udacity_weights(x: Arrays) -> np.ndarray:
    return softmax(_udacity_raw(x))


def _udacity_applied(x: Arrays) -> np.ndarray:
    return _udacity_weights(x) * x["annotations"]


EN_DECODER_STATE = Doc(
    file="heldout/en-notebook-numpy-decoder-state-annotations-float128-context.ipynb",
    url=(
        "https://github.com/MuntahaShams/Attention-Basics/blob/master/"
        "%5BSOLUTION%5D%20Attention%20Basics.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={
        "dec": np.array([5.0, 1.0, 20.0]),
        "annotation": np.array([3.0, 12.0, 45.0]),
        "annotations": np.array(_ANNOTATIONS).T,
    },
    printed=(
        given(one("5", "1", "20"), "dec_hidden_state"),
        given(one("3", "12", "45"), "annotation"),
        Printed(
            one("927"),
            lambda x: np.array([x["dec"] @ x["annotation"]]),
            "single_dot_attention_score",
        ),
        given(tuple(tuple(f"{e:g}" for e in row) for row in _ANNOTATIONS), "annotations (rows)"),
        Printed(one("927.", "397.", "148.", "929."), _udacity_raw, "attention_weights_raw"),
        Printed(
            one("0.11920292", "7.9471515e-232", "5.7661442e-340", "0.88079708"),
            _udacity_weights,
            "attention_weights (float128)",
        ),
        Printed(one("927", "929"), lambda x: _udacity_raw(x)[[0, 3]], "scores 927 and 929 (prose)"),
        Printed(
            one("0.119", "0.880"), lambda x: _udacity_weights(x)[[0, 3]], "0.119 and 0.880 (prose)"
        ),
        Printed(
            block(
                "[[ 0.35760877,  4.6888194e-230,  5.7661442e-340,  3.5231883],\n"
                " [ 1.4304351,  1.5894303e-231,  2.479442e-338,  2.6423912],\n"
                " [ 5.3641315,  3.9735758e-231,  2.8830721e-339,  39.900108]]"
            ),
            _udacity_applied,
            "applied_attention",
        ),
        Printed(
            one("3.8807971", "4.0728263", "45.264239"),
            lambda x: _udacity_applied(x).sum(axis=1),
            "attention_vector",
        ),
    ),
    notes=(
        "An English numpy course notebook (a lab's solution): one decoder hidden state [5, 1, 20] "
        "scored by dot products against four encoder hidden states (the columns of a 3 x 4 "
        "matrix), the softmax taken in float128 (weights printed down to 5.8e-340, below what a "
        "float64 holds), each column weighted and the context vector summed; heatmaps are images "
        "and left out. One mistake as published: the prose rounds the last weight 0.88079708 to "
        "0.880 (cut, not rounded; 0.881; 1 entry wrong)."
    ),
)

# --- English TensorFlow notebook: padding mask broadcast over a softmax, look-ahead mask ---------

_ANGLES = block(
    "[[0.e+00, 0.e+00, 0.e+00, 0.e+00, 0.e+00, 0.e+00, 0.e+00, 0.e+00],\n"
    " [1.e+00, 1.e+00, 1.e-01, 1.e-01, 1.e-02, 1.e-02, 1.e-03, 1.e-03],\n"
    " [2.e+00, 2.e+00, 2.e-01, 2.e-01, 2.e-02, 2.e-02, 2.e-03, 2.e-03],\n"
    " [3.e+00, 3.e+00, 3.e-01, 3.e-01, 3.e-02, 3.e-02, 3.e-03, 3.e-03]]"
)
_PAD_X = (
    ("7.", "6.", "0.", "0.", "1."),
    ("1.", "2.", "3.", "0.", "0."),
    ("0.", "0.", "0.", "4.", "5."),
)
_PAD_MASK = block("[[[1. 1. 0. 0. 1.]]\n [[1. 1. 1. 0. 0.]]\n [[0. 0. 0. 1. 1.]]]")
_RAW_SOFTMAX = block(
    "[[7.2876644e-01 2.6809821e-01 6.6454901e-04 6.6454901e-04 1.8064314e-03]\n"
    " [8.4437378e-02 2.2952460e-01 6.2391251e-01 3.1062774e-02 3.1062774e-02]\n"
    " [4.8541026e-03 4.8541026e-03 4.8541026e-03 2.6502505e-01 7.2041273e-01]]"
)
_MASKED_SOFTMAX = block(
    "[[[7.2973627e-01 2.6845497e-01 0.0000000e+00 0.0000000e+00 1.8088354e-03]\n"
    "  [2.4472848e-01 6.6524094e-01 0.0000000e+00 0.0000000e+00 9.0030573e-02]\n"
    "  [6.6483547e-03 6.6483547e-03 0.0000000e+00 0.0000000e+00 9.8670328e-01]]\n"
    " [[7.3057163e-01 2.6876229e-01 6.6619506e-04 0.0000000e+00 0.0000000e+00]\n"
    "  [9.0030573e-02 2.4472848e-01 6.6524094e-01 0.0000000e+00 0.0000000e+00]\n"
    "  [3.3333334e-01 3.3333334e-01 3.3333334e-01 0.0000000e+00 0.0000000e+00]]\n"
    " [[0.0000000e+00 0.0000000e+00 0.0000000e+00 2.6894143e-01 7.3105860e-01]\n"
    "  [0.0000000e+00 0.0000000e+00 0.0000000e+00 5.0000000e-01 5.0000000e-01]\n"
    "  [0.0000000e+00 0.0000000e+00 0.0000000e+00 2.6894143e-01 7.3105860e-01]]]"
)
_LOOK_AHEAD = block("[[[1., 0., 0.],\n  [1., 1., 0.],\n  [1., 1., 1.]]]")


def _pad_mask(x: Arrays) -> np.ndarray:
    return (x["x"] != 0).astype(float)


def _masked_softmax(x: Arrays) -> np.ndarray:
    """softmax(x + (1 - mask) * -1e9) with the mask of shape (3, 1, 5): (3, 3, 5), row j of x under
    the mask of sequence i."""
    shifted = x["x"][None, :, :] + (1.0 - _pad_mask(x))[:, None, :] * -1.0e9
    return softmax(shifted)


EN_TF_MASKS = Doc(
    file="heldout/en-notebook-tensorflow-padding-mask-broadcast-softmax-look-ahead.ipynb",
    url=(
        "https://github.com/delaykimm/2023-ML-Bootcamp/blob/main/"
        "C5_W4_A1_Transformer_Subclass_v1.ipynb"
    ),
    kind="notebook-tensorflow",
    language="en",
    inputs={"x": values(_PAD_X)},
    printed=(
        other(_ANGLES, "get_angles (positional encoding, not attention)"),
        given(_PAD_X, "x (code)"),
        Printed(_PAD_MASK, _pad_mask, "create_padding_mask(x)"),
        Printed(
            _RAW_SOFTMAX,
            single_precision(lambda x: softmax(x["x"]), _RAW_SOFTMAX),
            "softmax(x)",
        ),
        Printed(
            _MASKED_SOFTMAX,
            single_precision(_masked_softmax, _MASKED_SOFTMAX),
            "softmax(x + (1 - mask) * -1e9), broadcast to (3, 3, 5)",
        ),
        Printed(_LOOK_AHEAD, lambda x: np.tril(np.ones((3, 3))), "create_look_ahead_mask(3)"),
    ),
    notes=(
        "An English TensorFlow course notebook (a learner's completed assignment, up to the "
        "attention exercise): the positional-encoding angles for 4 positions and 8 dimensions "
        "(not attention), a padding mask of 1 for tokens and 0 for padding over a 3 x 5 toy "
        "batch, the softmax of the raw rows, then the softmax after adding (1 - mask) * -1e9 "
        "with the mask shaped (3, 1, 5), which broadcasts to (3, 3, 5): every row of x under "
        "every sequence's mask (float32, e-notation), and a 3 x 3 lower-triangular look-ahead "
        "mask. The attention function itself is only unit-tested. All right."
    ),
)

# --- English README (pandoc-escaped brackets): identity Q and K, one worked example --------------


def _identity_weights(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["k"].T / np.sqrt(2))


EN_ESCAPED_README = Doc(
    file="heldout/en-readme-pandoc-escaped-brackets-identity-qk-weights.md",
    url="https://github.com/CmuriloDev/scaled-dot-product-attention-lab/blob/main/README.md",
    kind="readme",
    language="en",
    inputs={"q": np.eye(2), "k": np.eye(2), "v": np.array([[10.0, 0.0], [0.0, 20.0]])},
    printed=(
        given((("1", "0"), ("0", "1")), "Q"),
        given((("1", "0"), ("0", "1")), "K"),
        given((("10", "0"), ("0", "20")), "V"),
        Printed((("0.669761", "0.330239"), ("0.330239", "0.669761")), _identity_weights, "weights"),
        Printed(
            (("6.69761", "6.60478"), ("3.30239", "13.39522")),
            lambda x: _identity_weights(x) @ x["v"],
            "output (from the printed weights)",
            follows=True,
        ),
    ),
    notes=(
        "An English README of a student lab (converted by pandoc, brackets backslash-escaped: "
        "\\[\\[1,0\\], ...): Q = K = I (2 x 2), V = [[10, 0], [0, 20]], the weights "
        "softmax(QK^T / sqrt(2)) and the output, each written on one line after an approximate "
        "sign. Mistakes as published: the weight 0.66976155 is cut to 0.669761 (0.669762 to six "
        "decimals) and its complement printed as 1 - 0.669761 = 0.330239 (0.330238), 4 entries "
        "wrong; the output [[6.69761, 6.60478], [3.30239, 13.39522]] is 10 and 20 times those "
        "printed weights (follows; 6.69762, 6.60477, 3.30238, 13.39523 from the exact ones)."
    ),
)

JUDGE_DOCS_10: list[Doc] = [
    RU_SCALAR_SEQUENCE,
    EN_READER,
    EN_DECODER_STATE,
    EN_TF_MASKS,
    EN_ESCAPED_README,
    *JUDGE_DOCS_10B,
    *JUDGE_DOCS_10C,
]
