"""The twelfth batch of held-out documents, all written in languages other than English, their
truth computed with numpy from the printed inputs: Traditional Chinese MkDocs notes (a whole
decoder block on a three-token sentence: causal scores, weights, output projection, then the
residual, LayerNorm, FFN and next-word logits, which are not attention). More in
tests/corpus/heldout_judge12b.py and the modules it imports; see tests/corpus/truth_heldout.py."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from tests.corpus.heldout_help import Rows, block, given, one, other, settled, tex, values
from tests.corpus.heldout_judge12b import JUDGE_DOCS_12B
from tests.corpus.helpers import causal, softmax
from tests.corpus.model import Arrays, Doc, Printed

_HELD = Path(__file__).resolve().parents[1] / "data/corpus/heldout"


def bmatrices(name: str) -> list[Rows]:
    """The bmatrix bodies of a held-out document, in order (-10^9 read as -1e9)."""
    text = (_HELD / name).read_text(encoding="utf-8").replace("-10^9", "-1e9")
    bodies = re.findall(r"\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", text, flags=re.S)
    return [tex(body) for body in bodies]


# --- Traditional Chinese MkDocs notes: one decoder block, next-word probabilities ---------------

_TW_FILE = "zh-tw-html-mkdocs-next-word-causal-block-ffn-logits.html"
_TW = bmatrices(_TW_FILE)
_TW_NAMES = [
    "E",
    "P",
    "X",
    "WQ",
    "WK",
    "WV",
    "Q",
    "K",
    "V",
    "QKT",
    "S",
    "M",
    "S_masked",
    "A",
    "Z",
    "WO",
    "H",
    "R1",
    "LN1",
    "W1",
    "F1",
    "G",
    "W2",
    "F2",
    "R2",
    "LN2",
    "h_last",
    "Wout",
    "logits",
    "probs",
]
_T = dict(zip(_TW_NAMES, _TW, strict=True))


def _tw_x(x: Arrays) -> np.ndarray:
    return x["e"] + x["p"]


def _tw_q(x: Arrays) -> np.ndarray:
    return _tw_x(x) @ x["wq"]


def _tw_k(x: Arrays) -> np.ndarray:
    return _tw_x(x) @ x["wk"]


def _tw_v(x: Arrays) -> np.ndarray:
    return _tw_x(x) @ x["wv"]


def _tw_scaled(x: Arrays) -> np.ndarray:
    return _tw_q(x) @ _tw_k(x).T / 2.0


def _tw_masked(x: Arrays) -> np.ndarray:
    return _tw_scaled(x) + np.triu(np.full((3, 3), -1e9), 1)


def _tw_weights(x: Arrays) -> np.ndarray:
    return softmax(_tw_masked(x))


def _tw_z(x: Arrays) -> np.ndarray:
    return _tw_weights(x) @ _tw_v(x)


def _tw_printed() -> tuple[Printed, ...]:
    truths = {
        "Q": _tw_q,
        "K": _tw_k,
        "V": _tw_v,
        "QKT": lambda x: _tw_q(x) @ _tw_k(x).T,
        "S": _tw_scaled,
        "S_masked": _tw_masked,
        "A": _tw_weights,
        "Z": _tw_z,
        "H": lambda x: _tw_z(x) @ x["wo"],
    }
    inputs = {"E", "P", "WQ", "WK", "WV", "M", "WO"}
    out: list[Printed] = []
    for name in _TW_NAMES:
        rows = _T[name]
        if name in truths:
            out.append(Printed(rows, truths[name], name))
        elif name in inputs or name == "X":
            out.append(given(rows, name))
        else:
            out.append(other(rows, f"{name} (residual, LayerNorm, FFN or logits: not attention)"))
    return tuple(out)


ZH_TW_BLOCK = Doc(
    file=f"heldout/{_TW_FILE}",
    url="https://chioujryu.github.io/ai-notes-mkdocs/llm/core/transformer",
    kind="html-mathjax",
    language="zh-tw",
    inputs={
        "e": values(_T["E"]),
        "p": values(_T["P"]),
        "wq": values(_T["WQ"]),
        "wk": values(_T["WK"]),
        "wv": values(_T["WV"]),
        "wo": values(_T["WO"]),
    },
    printed=_tw_printed(),
    notes=(
        "Traditional Chinese notes published with MkDocs Material (arithmatex, MathJax): the "
        "sentence 今天 天氣 很 as word vectors E plus position vectors P (3 x 4), hand-set W_Q, "
        "W_K, W_V (4 x 4), Q, K, V to three decimals, QK^T and S = QK^T / 2 to six, a causal "
        "mask of -10^9 added, the weights, Z = A V and the output projection Z W_O; then the "
        "residual, LayerNorm, a ReLU FFN, a second Add & Norm and a five-word softmax over "
        "logits, which are not attention and recorded as such. X = E + P is taken as given. "
        "All right."
    ),
)

# --- Korean Markdown debug notes: multi-head attention with head_dim 1, causal tables ----------

_KO_X = block(
    "[ 0.3374, -0.1778, -0.3035]\n[-0.5880,  0.3486,  0.6603]\n"
    "[-0.2196, -0.3792, -0.1606]\n[-0.4015,  0.6957, -1.8061]"
)
_KO_SCORES = block(
    "-0.0070   0.0147  -0.0034  -0.0287\n 0.0161  -0.0336   0.0077   0.0657\n"
    "-0.0303   0.0634  -0.0145  -0.1241\n 0.0157  -0.0328   0.0075   0.0642"
)
_KO_MASKED = block(
    "-0.0070   -inf     -inf     -inf\n 0.0161  -0.0336   -inf     -inf\n"
    "-0.0303   0.0634  -0.0145   -inf\n 0.0157  -0.0328   0.0075   0.0642"
)
_KO_WEIGHTS = block(
    "1.0000   0.0000   0.0000   0.0000\n0.5124   0.4876   0.0000   0.0000\n"
    "0.3211   0.3527   0.3262   0.0000\n0.2504   0.2385   0.2483   0.2628"
)


def _ko_weights(x: Arrays) -> np.ndarray:
    return softmax(causal(x["scores"]) / np.sqrt(1.0))


KO_DEBUG = Doc(
    file="heldout/ko-md-debug-notes-multihead-head-dim-one-causal-table.md",
    url=(
        "https://github.com/ggeutzzang/llm-from-scratch/blob/main/study/"
        "MULTIHEAD_ATTENTION_%EB%B6%84%EC%84%9D.md"
    ),
    kind="study-notes",
    language="ko",
    inputs={"scores": values(_KO_SCORES)},
    printed=(
        given(_KO_X, "input tokens (batch 1)"),
        given(one("0.0346", "0.1871"), "query of the first token (weights unprinted)"),
        given(one("0.0346"), "head 0"),
        given(one("0.1871"), "head 1"),
        given(_KO_SCORES, "scores Q K^T (batch 1, head 1)"),
        Printed(_KO_MASKED, lambda x: causal(x["scores"]), "masked scores"),
        Printed(
            _KO_WEIGHTS,
            settled(_ko_weights, {"scores": 5e-5}, _KO_WEIGHTS),
            "softmax(masked / sqrt(1))",
        ),
        given(one("0.0289"), "context, first token, first head (V unprinted)"),
        given(one("0.0289", "-0.2671"), "concatenated context, first token"),
        given(one("0.0289"), "head 0 output"),
        given(one("-0.2671"), "head 1 output"),
        given(one("-0.5140", "-0.6289"), "after out_proj, first token (W_o unprinted)"),
    ),
    notes=(
        "Korean study notes in Markdown on a multi-head attention debug run (the book "
        "LLMs-from-scratch, chapter 3): batch 2, 4 tokens, d_in 3, d_out 2, two heads of one "
        "dimension; the torch-initialised weights are never printed, so only one head's 4 x 4 "
        "scores can be followed: the causal mask (-inf in a text table), then the softmax "
        "divided by sqrt(1), four decimals with row-sum comments. Single entries (a query, a "
        "context value, the projected output) have no printed inputs and are taken as given. "
        "All right."
    ),
)

# --- Japanese lesson translation: one softmax row worked in an ASCII figure, slipped -------------

_JA_SCORES = block(
    "2.1 0.3 0.1 0.8 0.2\n0.4 1.9 0.7 0.1 0.3\n0.2 0.6 2.3 0.5 0.1\n"
    "0.9 0.1 0.4 1.7 0.6\n0.1 0.3 0.2 0.5 2.0"
)
_JA_WEIGHTS = one("0.52", "0.09", "0.07", "0.14", "0.08")


def _ja_row(x: Arrays) -> np.ndarray:
    return softmax(x["scores"][0])


JA_LESSON = Doc(
    file="heldout/ja-md-lesson-translation-self-attention-softmax-row-slips.md",
    url=(
        "https://github.com/SatoshiSann/ai-engineering-from-scratch/blob/main/phases/"
        "07-transformers-deep-dive/02-self-attention-from-scratch/docs/ja.md"
    ),
    kind="course-notes",
    language="ja",
    inputs={"scores": values(_JA_SCORES)},
    printed=(
        given(_JA_SCORES, "scores Q K^T (5 x 5 ASCII table)"),
        given(one("2.1", "0.3", "0.1", "0.8", "0.2"), "raw scores of q1"),
        Printed(_JA_WEIGHTS, _ja_row, "softmax of q1's raw scores"),
        Printed(_JA_WEIGHTS, _ja_row, "output_1 coefficients", follows=True),
        given(one("2.0", "1.0", "0.1"), "logits in the softmax code (no output printed)"),
    ),
    notes=(
        "A Japanese translation (Markdown, ASCII figures in code blocks) of a lesson on "
        "self-attention from scratch: a 5 x 5 table of raw scores, the first row turned into "
        "weights by softmax, and output_1 written as those weights times v1..v5; the numpy "
        "code that follows prints nothing. Mistake as published: softmax([2.1, 0.3, 0.1, 0.8, "
        "0.2]) is [0.581, 0.096, 0.079, 0.158, 0.087], not [0.52, 0.09, 0.07, 0.14, 0.08] "
        "(which sums to 0.90 while the figure says about 1.0): 5 entries wrong; the same five "
        "numbers repeated as the coefficients of output_1 follow from them (5 follows)."
    ),
)

# --- Japanese Jupyter Book notebook: integer word embeddings, one query, a sentiment value -------

_DM_EMB = block("0 0 0\n2 0 1\n1 -1 -2\n2 3 1\n-2 0 0\n0 2 1")
_DM_K = block("0 2 1 2 -2 0\n0 0 -1 3 0 2\n0 1 -2 1 0 1")
_DM_V = one("0", "-0.2", "0.3", "0.4", "0", "0.1")
_DM_B = one("0", "0", "0", "0.88", "0", "0.12")


def _dm_scores(x: Arrays) -> np.ndarray:
    return x["keys"] @ x["q"]


def _dm_weights(x: Arrays) -> np.ndarray:
    return softmax(_dm_scores(x))


JA_DMOL = Doc(
    file="heldout/ja-notebook-jupyter-book-book-query-integer-embeddings-sentiment.ipynb",
    url="https://github.com/resnant/dmol-book-japanese/blob/main/dl/attention.ipynb",
    kind="book-notebook",
    language="ja",
    inputs={
        "keys": values(_DM_EMB),
        "q": np.array([0.0, 2.0, 1.0]),
        "v": values(_DM_V)[0],
    },
    printed=(
        given(_DM_EMB, "word embeddings (table)"),
        given(_DM_K, "K (3 x 6, a word per column)"),
        given(_DM_V, "V"),
        given(one("0", "2", "1"), "q (book)"),
        given(_DM_K, "K in the softmax line"),
        Printed(one("0", "1", "-4", "7", "0", "5"), _dm_scores, "q . K"),
        Printed(_DM_B, _dm_weights, "b = softmax(q . K)"),
        Printed(_DM_B, _dm_weights, "b in the aggregation line"),
        given(_DM_V, "V in the aggregation line"),
        Printed(one("0.36"), lambda x: np.array([_dm_weights(x) @ x["v"]]), "V b"),
    ),
    notes=(
        "A Japanese translation of a Jupyter Book chapter on attention layers (.ipynb, LaTeX in "
        "Markdown cells, code cells without outputs): six words of 'The sleepy child reads a "
        "book' embedded as integer 3-vectors (a table, then K written 3 x 6 with a word per "
        "column), a value per word (a sentiment), the query 'book' = [0, 2, 1]; q . K = [0, 1, "
        "-4, 7, 0, 5], b = softmax without scaling rounded to [0, 0, 0, 0.88, 0, 0.12] (the "
        "zeros are 0.0008, 0.002, 0.00001, 0.0008), and V b = 0.36 (0.3624). The random-input "
        "code that follows prints nothing. All right."
    ),
)

JUDGE_DOCS_12: list[Doc] = [ZH_TW_BLOCK, KO_DEBUG, JA_LESSON, JA_DMOL, *JUDGE_DOCS_12B]
