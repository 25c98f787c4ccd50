"""The tenth held-out batch, continued: an English JAX/trax course notebook (dot-product attention
on toy tensors with an additive and a boolean mask, heads split and merged, causal
self-attention; float32 prints) and Traditional Chinese Markdown notes (TensorFlow masks, scaled
dot-product attention over 4-d embeddings, multi-head shapes). Truth computed with numpy; see
tests/corpus/heldout_judge10.py."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from tests.corpus.heldout_help import Rows, Truth, block, given, single_precision, values
from tests.corpus.helpers import grid, softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English JAX/trax notebook: toy dot-product attention, boolean masks, heads -------------------

_Q = block("[[1 0 0]\n [0 1 0]]")
_K = block("[[1 2 3]\n [4 5 6]]")
_V = block("[[0 1 0]\n [1 0 1]]")
_M = block("[[ 0.e+00  0.e+00]\n [-1.e+09  0.e+00]]")
_QK = block("[[0.57735026 2.309401  ]\n [1.1547005  2.8867514 ]]")
_MASKED = block("[[ 5.7735026e-01  2.3094010e+00]\n [-1.0000000e+09  2.8867514e+00]]")
_MASKED_V = block(
    "[[ 2.3094010e+00  5.7735026e-01  2.3094010e+00]\n"
    " [ 2.8867514e+00 -1.0000000e+09  2.8867514e+00]]"
)
_DPA = block("[[[0.8496746 , 0.15032545, 0.8496746 ],\n  [1.        , 0.        , 1.        ]]]")
_CAUSAL = block("[[[0.        , 1.        , 0.        ],\n  [0.8496746 , 0.15032543, 0.8496746 ]]]")
_Q_ROWS = (("1", "0", "0"), ("0", "1", "0"))
_Q4 = _Q_ROWS * 4  # a batch of two collections of two heads, each the query matrix
_CONCAT = (("1", "0", "0", "1", "0", "0"), ("0", "1", "0", "0", "1", "0"))
_HEADS = _Q_ROWS * 6  # six heads of (2, 3)
_MERGED = _CONCAT * 3  # three batches of (2, 6)


def _scaled(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T / np.sqrt(3)


def _bool_attention(keep: list[list[bool]]) -> Truth:
    """softmax of the scaled scores where `keep`, -1e9 elsewhere, times v (as jnp.where does)."""

    def truth(x: Arrays) -> np.ndarray:
        return softmax(np.where(np.array(keep), _scaled(x), -1e9)) @ x["v"]

    return truth


def _split_heads(x: Arrays) -> np.ndarray:
    """(3, 2, 6) -> (6, 2, 3): heads of size 3 moved to the batch axis."""
    return x["concat3"].reshape(3, 2, 2, 3).transpose(0, 2, 1, 3).reshape(-1, 3)


def _merge_heads(x: Arrays) -> np.ndarray:
    """(6, 2, 3) -> (3, 2, 6): the inverse."""
    heads = _split_heads(x).reshape(6, 2, 3)
    return heads.reshape(3, 2, 2, 3).transpose(0, 2, 1, 3).reshape(-1, 6)


def _float32(compute: Truth, rows: tuple[tuple[str, ...], ...]) -> Truth:
    return single_precision(compute, rows)


def _toy(label: str) -> tuple[Printed, ...]:
    """The four toy tensors as displayed (inputs)."""
    return (
        given(_Q, f"query{label}"),
        given(_K, f"key{label}"),
        given(_V, f"value{label}"),
    )


def _qk_steps() -> tuple[Printed, ...]:
    out: list[Printed] = []
    steps = (
        (_QK, _scaled, "query dot key"),
        (_MASKED, lambda x: _scaled(x) + x["m"], "masked query dot key"),
        (_MASKED_V, lambda x: (_scaled(x) + x["m"]) @ x["v"], "masked query dot key dot value"),
    )
    for rows, compute, label in steps:
        out.append(Printed(rows, _float32(compute, rows), label))
        out.append(Printed(rows, _float32(compute, rows), f"{label} (expected output)"))
    return tuple(out)


EN_TRAX = Doc(
    file="heldout/en-notebook-jax-trax-dot-product-attention-boolean-mask-heads.ipynb",
    url=(
        "https://github.com/edumunozsala/NLP-deeplearningai-course/blob/master/"
        "C4_W2_Assignment.ipynb"
    ),
    kind="notebook-jax",
    language="en",
    inputs={
        "q": np.array([[1.0, 0, 0], [0, 1, 0]]),
        "k": np.array([[1.0, 2, 3], [4, 5, 6]]),
        "v": np.array([[0.0, 1, 0], [1, 0, 1]]),
        "m": np.array([[0.0, 0.0], [-1e9, 0.0]]),
        "concat3": np.array([[[1.0, 0, 0, 1, 0, 0], [0, 1, 0, 0, 1, 0]]] * 3),
    },
    printed=(
        *_toy(""),
        given(_M, "mask (additive)"),
        *_toy(" (expected output)"),
        given(_M, "mask (expected output)"),
        *_qk_steps(),
        *_toy(" with batch dim"),
        *_toy(" with batch dim (expected output)"),
        Printed(_DPA, _float32(_bool_attention([[True, True], [False, True]]), _DPA), "DPA"),
        Printed(
            _DPA,
            _float32(_bool_attention([[True, True], [False, True]]), _DPA),
            "DPA (expected output)",
        ),
        given(_Q, "query matrix (2D tensor)"),
        given(_Q4, "batch of two collections of query matrices (4D tensor)"),
        given(_CONCAT, "one batch of concatenated heads (3D tensor)"),
        given(_MERGED, "three batches of concatenated heads (3D tensor)"),
        given(_MERGED, "input tensor"),
        Printed(_HEADS, _split_heads, "compute_attention_heads output"),
        given(_MERGED, "input tensor (expected output)"),
        Printed(_HEADS, _split_heads, "compute_attention_heads output (expected output)"),
        Printed(
            _CAUSAL,
            _float32(_bool_attention([[True, False], [True, True]]), _CAUSAL),
            "dot_product_self_attention",
        ),
        Printed(
            _CAUSAL,
            _float32(_bool_attention([[True, False], [True, True]]), _CAUSAL),
            "dot_product_self_attention (expected output)",
        ),
        given(_HEADS, "input tensor (heads)"),
        Printed(_MERGED, _merge_heads, "compute_attention_output output"),
        given(_HEADS, "input tensor (heads, expected output)"),
        Printed(_MERGED, _merge_heads, "compute_attention_output output (expected output)"),
    ),
    notes=(
        "An English JAX/trax course notebook (a learner's completed assignment, attention part "
        "only): toy q, k, v (2 x 3) and an additive mask of 0 and -1e9, q k^T / sqrt(3), the "
        "masked scores, the masked scores times v without a softmax (a deliberate toy), then "
        "the graded dot-product attention with a boolean mask (jnp.where, -1e9), heads split "
        "from (3, 2, 6) into (6, 2, 3) and merged back, and causal self-attention with a "
        "lower-triangular boolean mask; each print is followed by the lab's expected-output "
        "block (the same numbers). Outputs are float32 (0.15032545 in one run, 0.15032543 in "
        "the other). All right."
    ),
)

# --- Traditional Chinese Markdown notes: TensorFlow masks, attention over 4-d embeddings --------

_ZH_FILE = (
    Path(__file__).resolve().parents[1]
    / "data/corpus/heldout/zh-tw-md-notes-tensorflow-masks-scaled-attention-emb-inp.md"
)
_NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")


def _zh_blocks() -> list[str]:
    """The fenced and indented blocks of the notes, in order, comments after '#' dropped."""
    text = _ZH_FILE.read_text(encoding="utf-8")
    fenced = re.compile(r"```[a-z]*[ ]*\n(.*?)```", flags=re.S)
    blocks = fenced.findall(text)
    indented = re.findall(r"\n((?:    .*\n)+)", fenced.sub("", text))
    return [*blocks, *indented]


def _numbers(text: str, start: str = "", stop: str = "") -> list[str]:
    """The numbers of `text` between the labels `start` and `stop`, line comments dropped."""
    if start:
        text = text[text.index(start) + len(start) :]
    if stop:
        text = text[: text.index(stop)]
    text = "\n".join(line.split("#")[0] for line in text.splitlines())
    text = re.sub(r"shape=\([^)]*\)|id=\d+|float32|int64", " ", text)
    return _NUMBER.findall(text)


def _rows_of(entries: list[str], width: int) -> Rows:
    return grid(" ".join(entries), width)


_ZB = _zh_blocks()
_ZH_INP = _rows_of(_numbers(_ZB[0], "inp:", "tar:"), 8)
_ZH_TAR = _rows_of(_numbers(_ZB[0], "tar:"), 10)
_ZH_EMB_INP = _rows_of(_numbers(_ZB[2], "emb_inp:", "emb_tar:"), 4)
_ZH_EMB_TAR = _rows_of(_numbers(_ZB[2], "emb_tar:"), 4)
_ZH_PAD = _rows_of(_numbers(_ZB[4], "numpy="), 8)
_ZH_LOOK = _rows_of(_numbers(_ZB[7], "look_ahead_mask"), 10)
_ZH_LOOK_NOTED = _rows_of(_numbers(_ZB[8], "look_ahead_mask"), 10)
_ZH_V = _rows_of(_numbers(_ZB[10], "numpy="), 4)
_ZH_OUT = _rows_of(_numbers(_ZB[12], "output:", "attention_weights:"), 4)
_ZH_WEIGHTS = _rows_of(_numbers(_ZB[12], "attention_weights:"), 8)
_ZH_ROW = _rows_of(_numbers(_ZB[13]), 8)
_ZH_GUESS = _rows_of(_numbers(_ZB[14]), 8)
_ZH_MHA = _rows_of(_numbers(_ZB[21], "output:"), 4)
_ZH_MASK = _rows_of(_numbers(_ZB[22]), 8)
_ZH_SEQ = _rows_of(_numbers(_ZB[23]), 8)
_ZH_EMB_TAR_AGAIN = _rows_of(_numbers(_ZB[7], "emb_tar:", "look_ahead_mask"), 4)


def _zh_scaled(x: Arrays) -> np.ndarray:
    e = x["emb_inp"]
    return e @ e.transpose(0, 2, 1) / np.sqrt(4)


def _zh_weights(x: Arrays) -> np.ndarray:
    return softmax(_zh_scaled(x))


def _zh_output(x: Arrays) -> np.ndarray:
    return _zh_weights(x) @ x["v"]


ZH_TF_NOTES = Doc(
    file="heldout/zh-tw-md-notes-tensorflow-masks-scaled-attention-emb-inp.md",
    url=(
        "https://github.com/Johnny1110/Deep_Learning_Note/blob/master/"
        "basic_knowledge/Transformer_MT/README.md"
    ),
    kind="course-notes",
    language="zh",
    inputs={
        "inp": values(_ZH_INP),
        "emb_inp": values(_ZH_EMB_INP).reshape(2, 8, 4),
        "v": values(_ZH_V).reshape(2, 8, 4),
    },
    printed=(
        given(_ZH_INP, "inp"),
        given(_ZH_TAR, "tar"),
        given(_ZH_EMB_INP, "emb_inp (2, 8, 4)"),
        given(_ZH_EMB_TAR, "emb_tar (2, 10, 4)"),
        Printed(_ZH_PAD, lambda x: (x["inp"] == 0).astype(float), "create_padding_mask(inp)"),
        Printed(_ZH_MASK, lambda x: (x["inp"] == 0).astype(float), "mask beside seq"),
        given(_ZH_SEQ, "seq"),
        given(_ZH_EMB_TAR_AGAIN, "emb_tar (printed again)"),
        Printed(_ZH_LOOK, lambda x: 1.0 - np.tril(np.ones((10, 10))), "look_ahead_mask"),
        Printed(
            _ZH_LOOK_NOTED,
            lambda x: 1.0 - np.tril(np.ones((10, 10))),
            "look_ahead_mask (annotated)",
        ),
        given(_ZH_V, "v (seeded uniform > 0.5)"),
        Printed(_ZH_OUT, single_precision(_zh_output, _ZH_OUT), "output"),
        Printed(_ZH_WEIGHTS, single_precision(_zh_weights, _ZH_WEIGHTS), "attention_weights"),
        Printed(
            _ZH_ROW,
            single_precision(lambda x: _zh_weights(x)[0, 0], _ZH_ROW),
            "attention_weights[0, 0, :]",
        ),
        given(_ZH_GUESS, "weights after training, imagined"),
        given(_ZH_MHA, "multi-head output (random Dense layers)"),
    ),
    notes=(
        "Traditional Chinese Markdown study notes on a TensorFlow translation Transformer: two "
        "padded index sequences, 4-d embeddings printed with per-row comments, the padding mask "
        "(inp == 0) printed and set beside the sequence, the look-ahead mask (1 - tril) twice, a "
        "seeded 0/1 value tensor, then unmasked scaled dot-product self-attention over the "
        "English embeddings (q = k = emb_inp, sqrt(4)): its output and weights in float32, the "
        "weights wrapped over two lines per row, and the first row again; an imagined trained "
        "row and the multi-head layer's output (random Dense weights) are given. Symbolic "
        "'-max' masks are not numbers. All right."
    ),
)

JUDGE_DOCS_10B: list[Doc] = [EN_TRAX, ZH_TF_NOTES]
