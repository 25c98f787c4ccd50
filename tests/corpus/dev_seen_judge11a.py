"""The eleventh batch of held-out documents, moved to dev whole in session 33 to be studied (three
of its six pages were refused; new held-out batches replace it). All in English, their truth
computed with numpy from the printed inputs: an HTML book chapter (Jupyter Book) that builds
attention in PyTorch step by step, from dot products of random token vectors to causal
multi-head attention. More in tests/corpus/dev_seen_judge11b.py and after; see
tests/corpus/truth_dev.py."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np

from tests.corpus.dev_seen_judge11b import JUDGE_DOCS_11B
from tests.corpus.dev_seen_judge11c import JUDGE_DOCS_11C
from tests.corpus.dev_seen_judge11d import JUDGE_DOCS_11D
from tests.corpus.heldout_help import Rows, Truth, block, column, given, settled, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_HELD = Path(__file__).resolve().parents[1] / "data/corpus/dev"

# --- English HTML book chapter: attention in torch, weights taken from the unscaled scores -------

_BOOK_FILE = _HELD / "en-html-book-chapter-torch-attention-weights-from-unscaled-scores.html"


def _book_outputs() -> list[Rows]:
    """The printed outputs of the chapter's cells, in order, as rows of entries."""
    text = html.unescape(_BOOK_FILE.read_text(encoding="utf-8"))
    found = re.findall(r'<div class="cell_output"><pre>(.*?)</pre>', text, flags=re.S)
    return [block(out) for out in found]


_BO = _book_outputs()
_HALF = 5e-5  # torch prints four decimals


def _x_scores(x: Arrays) -> np.ndarray:
    return x["x"] @ x["x"].T


def _x_weights(x: Arrays) -> np.ndarray:
    return softmax(_x_scores(x))


def _qk(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T


def _qk_scaled(x: Arrays) -> np.ndarray:
    return _qk(x) / np.sqrt(4)


def _qk_causal(x: Arrays) -> np.ndarray:
    return softmax(_future(_qk_scaled(x)))


def _by_x(compute: Truth, rows: Rows, label: str) -> Printed:
    return Printed(rows, settled(compute, {"x": _HALF}, rows), label)


def _by_qkv(compute: Truth, rows: Rows, label: str) -> Printed:
    return Printed(rows, settled(compute, {"q": _HALF, "k": _HALF, "v": _HALF}, rows), label)


def _by(name: str, compute: Truth, rows: Rows, label: str) -> Printed:
    return Printed(rows, settled(compute, {name: _HALF}, rows), label)


def _masked(name: str, compute: Truth, rows: Rows, label: str) -> Printed:
    """Scores printed with -inf above the diagonal: the rest settled, then the mask applied."""
    halves = dict.fromkeys(name.split(), _HALF)
    inner = settled(compute, halves, rows)
    return Printed(rows, lambda x: _future(inner(x).reshape(-1, 3, 3)).reshape(-1, 3), label)


_DOTS = column("1.5", "-0.12", "1.27", "-0.12", "5.6", "-0.07", "1.27", "-0.07", "6.01")


def _tril(x: Arrays) -> np.ndarray:
    return np.tril(np.ones((3, 3)))


def _future(scores: np.ndarray) -> np.ndarray:
    """Scores (..., 3, 3) with the entries above the diagonal set to -inf."""
    return np.where(np.tril(np.ones((3, 3))) == 1, scores, -np.inf)


def _dots(x: Arrays) -> np.ndarray:
    return _x_scores(x).reshape(-1, 1)


EN_BOOK_CHAPTER = Doc(
    file="dev/en-html-book-chapter-torch-attention-weights-from-unscaled-scores.html",
    url="https://uhasker.github.io/large-language-models/chapter5/attention.html",
    kind="book-chapter-html",
    language="en",
    inputs={
        "x": values(_BO[0]),
        "q": values(_BO[13]),
        "k": values(_BO[11]),
        "v": values(_BO[22]),
        "s_b": values(_BO[26]).reshape(2, 3, 3),
        "s0": values(_BO[30]).reshape(2, 3, 3),
    },
    printed=(
        given(_BO[0], "X = torch.randn(3, 5)"),
        _by_x(lambda x: 0.5 * (x["x"][0] + x["x"][1]), _BO[1], "average of x_0 and x_1"),
        _by_x(lambda x: x["x"].mean(axis=0), _BO[2], "average of x_0, x_1, x_2"),
        _by_x(_dots, _DOTS, "attention(i, j) = round(x_i . x_j, 2)"),
        _by_x(_x_scores, _BO[4], "S = X X^T"),
        _by_x(_x_weights, _BO[5], "W = softmax(S)"),
        _by_x(lambda x: _x_weights(x)[0] @ x["x"], _BO[6], "y_0"),
        _by_x(lambda x: _x_weights(x)[1] @ x["x"], _BO[7], "y_1"),
        _by_x(lambda x: _x_weights(x)[2] @ x["x"], _BO[8], "y_2"),
        _by_x(lambda x: _x_weights(x) @ x["x"], _BO[9], "Y = W X"),
        given(_BO[10], "k_0 (W_K never printed)"),
        given(_BO[11], "K"),
        given(_BO[12], "q_0 (W_Q never printed)"),
        given(_BO[13], "Q"),
        _by_qkv(_qk, _BO[14], "S = Q K^T"),
        _by_qkv(_qk_scaled, _BO[15], "S_scaled = S / 2"),
        _by_qkv(lambda x: softmax(_qk_scaled(x)), _BO[16], "W, said to be of the scaled scores"),
        Printed(_BO[17], _tril, "mask = tril(ones(3, 3))"),
        _masked("q k", _qk, _BO[18], "S_masked"),
        _masked("q k", _qk_scaled, _BO[19], "S_masked_scaled"),
        _by_qkv(_qk_causal, _BO[20], "W_masked"),
        given(_BO[21], "dropout(W_masked), random"),
        given(_BO[22], "V (W_V never printed)"),
        _by_qkv(lambda x: _qk_causal(x) @ x["v"], _BO[23], "R = W_masked V"),
        _by_qkv(lambda x: _qk_causal(x) @ x["v"], _BO[24], "scaled_dot_product_attention"),
        given(_BO[25], "X_b"),
        given(_BO[26], "S_b (the Linear weights never printed)"),
        Printed(_BO[27], _tril, "mask_b"),
        _masked("s_b", lambda x: x["s_b"].reshape(-1, 3), _BO[28], "S_masked_b"),
        _by("s_b", lambda x: softmax(_future(x["s_b"] / 2.0)).reshape(-1, 3), _BO[29], "W_b"),
        given(_BO[30], "S[0], two heads"),
        Printed(_BO[31], _tril, "mask"),
        _masked("s0", lambda x: x["s0"].reshape(-1, 3), _BO[32], "S_masked[0]"),
        _masked(
            "s0", lambda x: x["s0"].reshape(-1, 3) / 2.0, _BO[33][:6], "S_masked_scaled, batch 0"
        ),
        given(_BO[33][6:], "S_masked_scaled, batch 1 (its scores never printed)"),
        _by("s0", lambda x: softmax(_future(x["s0"] / 2.0)).reshape(-1, 3), _BO[34], "W[0]"),
    ),
    notes=(
        "An English HTML book chapter (Jupyter Book, MathJax, torch prints to four decimals): a "
        "seeded random X (3 x 5), the averages of its rows, the dot products one by one (rounded "
        "to two decimals) and as X X^T, their softmax and the outputs y_i = sum_j w_ij x_j; then "
        "keys and queries from random W_K, W_Q (never printed, so K, Q, V are inputs), Q K^T, "
        "the scores over sqrt(4), a causal mask, the masked and scaled scores, their softmax, a "
        "random dropout (given), the values and the output (twice, the second from PyTorch's "
        "scaled_dot_product_attention); a batch of two with masked scores and weights; two heads "
        "of size 2, scaled by sqrt(4) (the full key width, the document's own choice). One "
        "mistake as published: after printing the scaled scores the text takes the weights 'from "
        "the scaled attention scores' but the code calls softmax(S), so the printed W is the "
        "softmax of the unscaled scores (1.0857e-05, 9.9999e-01, ... against 3.28e-03, 0.9963, "
        "...; 9 entries wrong); the masked weights after it use the scaled scores and are right."
    ),
)

DEV_SEEN_JUDGE11A: list[Doc] = [EN_BOOK_CHAPTER, *JUDGE_DOCS_11B, *JUDGE_DOCS_11C, *JUDGE_DOCS_11D]
