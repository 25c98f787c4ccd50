"""The held-out documents' truth, a fourth fresh set: code-heavy sources (notebooks with numpy and
PyTorch prints, an R vignette). See tests/corpus/truth_heldout.py.

Every truth is recomputed with numpy float64 from the arrays the document itself gives (its code
literals or its printed inputs).
"""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import (
    a,
    block,
    given,
)
from tests.corpus.heldout_judge4_notebooks import NOTEBOOKS_4
from tests.corpus.helpers import causal, softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- numpy notebook (video companion): toy words, then identity projections and a causal mask ----

_UF_X = [[1.0, 0.0, 0.5], [0.0, 1.0, 0.3], [1.0, 1.0, 0.2]]
_UF_WQ = [[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [0.0, 1.0, 0.5]]
_UF_WV = [[0.5, 1.0, 0.2], [1.0, 0.5, 0.3], [1.0, 0.5, 0.1]]
_UF_X2 = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]]


def _uf_scores(x: Arrays) -> np.ndarray:
    q = x["X"] @ x["WQ"]
    return q @ (x["X"] @ x["WK"]).T


def _uf_weights(x: Arrays) -> np.ndarray:
    return softmax(_uf_scores(x) / np.sqrt(3))


def _uf_masked(x: Arrays) -> np.ndarray:
    return causal(x["X2"] @ x["X2"].T / np.sqrt(3))


_UF_MASKED_W = (
    "[[1., 0., 0.],\n[0.35954252, 0.64045748, 0.],\n[0.26445846, 0.26445846, 0.47108308]]"
)

UNFOLD = Doc(
    file="heldout/notebook-numpy-toy-words-then-causal-identity.ipynb",
    url=(
        "https://github.com/UnfoldDataScience/YouTube-Videos-files/blob/main/"
        "LLM%20for%20application%20development/Attention%20%281%29.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"X": a(_UF_X), "WQ": a(_UF_WQ), "WK": a(_UF_WQ), "WV": a(_UF_WV), "X2": a(_UF_X2)},
    printed=(
        given(block("[1.0, 0.0, 0.5]\n[0.0, 1.0, 0.3]\n[1.0, 1.0, 0.2]"), "embeddings (code)"),
        given(block("[[1. , 0. , 0.5],\n[0. , 1. , 0.3],\n[1. , 1. , 0.2]]"), "X"),
        given(block("[[1.0, 0.0, 0.5], [0.0, 1.0, 0.5],[0.0, 1.0, 0.5]]"), "W_Q (code)"),
        given(block("[[1.0, 0.0, 0.5], [0.0, 1.0, 0.5],[0.0, 1.0, 0.5]]"), "W_K (code)"),
        given(block("[[0.5, 1.0, 0.2], [1.0, 0.5, 0.3],[1.0, 0.5, 0.1]]"), "W_V (code)"),
        Printed(
            block("[[1.  , 1.25, 0.25],\n[1.3 , 0.65, 0.33],\n[1.7 , 1.6 , 0.52]]"),
            lambda x: x["X"] @ x["WV"],
            "V",
        ),
        Printed(
            block("[[1.  , 0.5 , 0.75],\n[0.  , 1.3 , 0.65],\n[1.  , 1.2 , 1.1 ]]"),
            lambda x: x["X"] @ x["WQ"],
            "Q",
        ),
        Printed(
            block("[[1.8125 1.1375 2.425 ]\n[1.1375 2.1125 2.275 ]\n[2.425  2.275  3.65  ]]"),
            _uf_scores,
            "Dot product scores",
        ),
        Printed(
            block(
                "[[1.04644736, 0.65673593, 1.4000744 ],\n[0.65673593, 1.21965244, 1.31347186],\n"
                "[1.4000744 , 1.31347186, 2.10732848]]"
            ),
            lambda x: _uf_scores(x) / np.sqrt(3),
            "scaled_scores",
        ),
        Printed(
            block(
                "[[0.32242711 0.21836449 0.4592084 ]\n[0.21348029 0.37482567 0.41169404]\n"
                "[0.25345618 0.23242983 0.51411399]]"
            ),
            _uf_weights,
            "Attention Weights",
        ),
        Printed(
            block(
                "[[1.38695523 1.27970424 0.39145543]\n[1.40063353 1.16919751 0.39114344]\n"
                "[1.42960874 1.290482   0.40740516]]"
            ),
            lambda x: _uf_weights(x) @ (x["X"] @ x["WV"]),
            "Final Output",
        ),
        given(block("[1.0, 0.0, 1.0]\n[0.0, 1.0, 1.0]\n[1.0, 1.0, 0.0]"), "second X (code)"),
        Printed(
            block(
                "[[1.15470054,       -inf,       -inf],\n[0.57735027, 1.15470054,       -inf],\n"
                "[0.57735027, 0.57735027, 1.15470054]]"
            ),
            _uf_masked,
            "masked_scores",
        ),
        Printed(block(_UF_MASKED_W), lambda x: softmax(_uf_masked(x)), "attn_weights"),
        given(block("[[1. 0. 1.]\n[0. 1. 1.]\n[1. 1. 0.]]"), "Q = X @ eye(3)"),
        given(block("[[1. 0. 1.]\n[0. 1. 1.]\n[1. 1. 0.]]"), "K = X @ eye(3)"),
        given(block("[[1. 0. 1.]\n[0. 1. 1.]\n[1. 1. 0.]]"), "V = X @ eye(3)"),
        Printed(
            block(_UF_MASKED_W.replace(",", " ")),
            lambda x: softmax(_uf_masked(x)),
            "Masked Attention Weights",
        ),
        Printed(
            block(
                "[[1.         0.         1.        ]\n[0.35954252 0.64045748 1.        ]\n"
                "[0.73554154 0.73554154 0.52891692]]"
            ),
            lambda x: softmax(_uf_masked(x)) @ x["X2"],
            "Masked Self-Attention Output",
        ),
    ),
    notes=(
        "Two examples in one notebook, its cells run out of order (V printed at [19] before Q "
        "at [14]). First: 3-d word vectors, W_K equal to W_Q (so K = Q, never printed), scaled "
        "by sqrt(3). Second: identity projections, so Q = K = V = X, scaled by sqrt(3) and "
        "masked with -inf above the diagonal (numpy prints '-inf' padded to the column width). "
        "Plain numpy prints: execute_result arrays with commas, print() arrays without. A "
        "comment calls the 3 x 3 input '3 x 2'. All right."
    ),
)

JUDGE_DOCS_4: list[Doc] = [UNFOLD, *NOTEBOOKS_4]
