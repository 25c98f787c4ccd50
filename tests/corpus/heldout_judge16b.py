"""The sixteenth batch of held-out documents, continued (tests/corpus/heldout_judge16.py holds
the first part and registers these in JUDGE_DOCS_16)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import block, given, one, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Russian notebook (PyTorch): three inputs, the softmax typed in by hand as rounded guesses -

_DT_X = block("[[1, 0, 1, 0],\n [0, 2, 0, 2],\n [1, 1, 1, 1]]")
_DT_WK = block("[[0, 0, 1],\n [1, 1, 0],\n [0, 1, 0],\n [1, 1, 0]]")
_DT_WQ = block("[[1, 0, 1],\n [1, 0, 0],\n [0, 0, 1],\n [0, 1, 1]]")
_DT_WV = block("[[0, 2, 0],\n [0, 3, 0],\n [1, 0, 3],\n [1, 1, 0]]")


def _dt(x: Arrays, name: str) -> np.ndarray:
    return x["x"] @ x[name]


def _dt_weights(x: Arrays) -> np.ndarray:
    return softmax(_dt(x, "wq") @ _dt(x, "wk").T)


def _dt_weighted(x: Arrays) -> np.ndarray:
    # block i (value row i), row j (query j): values[i] * weights[j, i]
    v, w = _dt(x, "wv"), _dt_weights(x)
    return np.concatenate([np.outer(w[:, i], v[i]) for i in range(3)])


RU_ROUNDED_GUESSES = Doc(
    file="heldout/ru-notebook-torch-three-inputs-softmax-replaced-by-rounded-guesses.ipynb",
    url="https://github.com/Dmitrytsg/Attention-and-Self-attention/blob/main/self-attention.ipynb",
    kind="notebook",
    language="ru",
    inputs={"x": values(_DT_X), "wk": values(_DT_WK), "wq": values(_DT_WQ), "wv": values(_DT_WV)},
    printed=(
        given(one("4", "1", "2", "3", "4"), "title and step numbers in the headings"),
        given(_DT_X, "x"),
        given(_DT_WK, "w_key"),
        given(_DT_WQ, "w_query"),
        given(_DT_WV, "w_value"),
        Printed(
            block("[[0., 1., 1.],\n [4., 4., 0.],\n [2., 3., 1.]]"), lambda x: _dt(x, "wk"), "keys"
        ),
        Printed(
            block("[[1., 0., 2.],\n [2., 2., 2.],\n [2., 1., 3.]]"),
            lambda x: _dt(x, "wq"),
            "querys",
        ),
        Printed(
            block("[[1., 2., 3.],\n [2., 8., 0.],\n [2., 6., 3.]]"),
            lambda x: _dt(x, "wv"),
            "values",
        ),
        given(one("5"), "heading"),
        Printed(
            block("[[ 2.,  4.,  4.],\n [ 4., 16., 12.],\n [ 4., 12., 10.]]"),
            lambda x: _dt(x, "wq") @ _dt(x, "wk").T,
            "attn_scores = querys @ keys.T",
        ),
        given(one("-1"), "dim=-1"),
        Printed(
            block("[[0.0, 0.5, 0.5],\n [0.0, 1.0, 0.0],\n [0.0, 0.9, 0.1]]"),
            _dt_weights,
            "the softmax typed into the code by hand (one decimal)",
        ),
        Printed(
            block(
                "[[0.0000, 0.5000, 0.5000],\n [0.0000, 1.0000, 0.0000],\n [0.0000, 0.9000, 0.1000]]"
            ),
            _dt_weights,
            "attn_scores_softmax as printed",
        ),
        given(one("6"), "heading"),
        Printed(
            block(
                "[[0.0000, 0.0000, 0.0000],\n [0.0000, 0.0000, 0.0000],\n"
                " [0.0000, 0.0000, 0.0000]],\n[[1.0000, 4.0000, 0.0000],\n"
                " [2.0000, 8.0000, 0.0000],\n [1.8000, 7.2000, 0.0000]],\n"
                "[[1.0000, 3.0000, 1.5000],\n [0.0000, 0.0000, 0.0000],\n"
                " [0.2000, 0.6000, 0.3000]]"
            ),
            _dt_weighted,
            "weighted_values (from the typed weights)",
            follows=True,
        ),
        given(one("7", "0"), "heading, dim=0"),
        Printed(
            block(
                "[[2.0000, 7.0000, 1.5000],\n [2.0000, 8.0000, 0.0000],\n [2.0000, 7.8000, 0.3000]]"
            ),
            lambda x: _dt_weights(x) @ _dt(x, "wv"),
            "outputs (from the typed weights)",
            follows=True,
        ),
    ),
    notes=(
        "A Russian-headed Jupyter notebook in PyTorch (printed tensors; a retelling of a "
        "well-known illustrated walk-through with three inputs and integer weights): keys, "
        "queries and values, the scores Q K^T (no scaling), then the mistake: softmax(scores) "
        "is computed but thrown away and replaced by weights typed in by hand, [[0.0, 0.5, "
        "0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]], for the true 0.0634 0.4683 0.4683 / "
        "6.0e-06 0.9820 0.0180 / 2.95e-04 0.8805 0.1192. At the one decimal of the code only "
        "the first 0.0 is wrong (1 wrong, 8 right); printed as a tensor to four decimals they "
        "are wrong in 8 of 9 places (only the second row's 0.0000 is right). The weighted "
        "values (printed as three 3 x 3 blocks, one per value row) and their sums follow from "
        "the typed weights: where they differ from the true products they count as follows "
        "(9 wrong, 52 right and 29 follows in all)."
    ),
)

JUDGE_DOCS_16B: list[Doc] = [
    RU_ROUNDED_GUESSES,
]
