"""The tenth batch of held-out documents, their truth computed with numpy from the printed
inputs: a Russian numpy notebook (a sequence of five numbers embedded by one random row, and a
softmax worked in a code comment) and an English interactive reader page (a playground drawn by
script, and a scratchpad whose printed weights are not the playground's). See
tests/corpus/truth_heldout.py."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from tests.corpus.heldout_help import Rows, block, given, one, other, settled, values
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

JUDGE_DOCS_10: list[Doc] = [RU_SCALAR_SEQUENCE, EN_READER]
