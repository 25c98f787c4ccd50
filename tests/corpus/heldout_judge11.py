"""The eleventh held-out batch's one page still held out (its other pages moved to dev in
session 33): an English HTML book chapter (a sentence's keys printed transposed, one sentiment
value per word, rounded attention; numpy cells on unprinted random inputs). It stays held out
because a held-out notebook of the twelfth batch shares its source. Truth computed with numpy;
registered in tests/corpus/truth_heldout.py."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np

from tests.corpus.heldout_help import Rows, a, block, given, one, tex
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_HELD = Path(__file__).resolve().parents[1] / "data/corpus/heldout"

# --- English HTML book chapter: keys printed transposed, sentiment values, random code cells ----

_DMOL_FILE = _HELD / "en-html-book-dmol-keys-transposed-sentiment-values-random-code.html"


def _dmol_outputs() -> list[Rows]:
    text = html.unescape(_DMOL_FILE.read_text(encoding="utf-8"))
    found = re.findall(r'<div class="cell_output"><pre>(.*?)</pre>', text, flags=re.S)
    return [block(out.replace("b =", "")) for out in found]


_DO = _dmol_outputs()
_DO[0] = (tuple(e for row in _DO[0] for e in row),)  # numpy wraps the printed vector
_WORDS = (("0", "0", "0"), ("2", "0", "1"), ("1", "-1", "-2"), ("2", "3", "1"))
_WORDS += (("-2", "0", "0"), ("0", "2", "1"))
_K_SHOWN = tex("0 & 2 & 1 & 2 & -2 & 0\\\\ 0 & 0 & -1 & 3 & 0 & 2\\\\ 0 & 1 & -2 & 1 & 0 & 1\\\\")


def _dmol_scores(x: Arrays) -> np.ndarray:
    return x["k"] @ x["q"]


def _dmol_b(x: Arrays) -> np.ndarray:
    return softmax(_dmol_scores(x))


EN_DMOL = Doc(
    file="heldout/en-html-book-dmol-keys-transposed-sentiment-values-random-code.html",
    url="https://dmol.pub/dl/attention.html",
    kind="book-chapter-html",
    language="en",
    inputs={
        "k": np.array([[float(e) for e in row] for row in _WORDS]),
        "v": a([0, -0.2, 0.3, 0.4, 0, 0.1]),
        "q": a([0, 2, 1]),
    },
    printed=(
        given(one("2", "0", "1"), "'sleepy' embedding (prose)"),
        given(_WORDS, "embedding table"),
        given(_K_SHOWN, "K, printed features x words"),
        given(one("0", "-0.2", "0.3", "0.4", "0", "0.1"), "V"),
        given(one("0", "2", "1"), "q"),
        given(one("0", "2", "1"), "q in the equation"),
        given(_K_SHOWN, "K in the equation"),
        Printed(one("0", "1", "-4", "7", "0", "5"), _dmol_scores, "q . K"),
        Printed(one("0", "0", "0", "0.88", "0", "0.12"), _dmol_b, "b"),
        Printed(one("0", "0", "0", "0.88", "0", "0.12"), _dmol_b, "b in V b"),
        given(one("0", "-0.2", "0.3", "0.4", "0", "0.1"), "V in V b"),
        Printed(one("0.36"), lambda x: np.array([_dmol_b(x) @ x["v"]]), "V b"),
        given(_DO[0], "b of random query and keys (never printed)"),
        given(_DO[1], "attention_layer output (random inputs)"),
        given(_DO[2], "self_attention output (random inputs)"),
        given(_DO[3], "trainable_self_attention output (random weights)"),
        given(_DO[4], "multihead_attention output (random weights)"),
    ),
    notes=(
        "An English HTML book chapter (Jupyter Book, MathJax): 'The sleepy child reads a book' "
        "with 3-d integer embeddings in a table, the keys written as a 3 x 6 matrix (features by "
        "words, the transpose of the (6, 3) shape the text gives), one sentiment value per word, "
        "the query 'book', the unscaled scores q . K = [0, 1, -4, 7, 0, 5], the attention "
        "vector rounded to two decimals [0, 0, 0, 0.88, 0, 0.12] and the reduction V b = 0.36; "
        "then numpy cells (tensor-dot, self-attention, trainable and two-head attention) on "
        "unseeded random inputs that are never printed, so their outputs are given. All right."
    ),
)


JUDGE_DOCS_11: list[Doc] = [EN_DMOL]
