"""Development documents for printed formats: per-word embeddings in a dict stacked into X, with
numpy's tuple outputs ``((3, 3), array(...))``; an attention function called on Q, K and V whose
result a notebook prints twice (the print inside it, then the returned array)."""

from __future__ import annotations

import numpy as np

from tests.corpus.helpers import array, given, row, rows, softmax
from tests.corpus.model import Arrays, Doc, Printed

_WQ = "0.9 0.1 0.1 0.1\n0.1 0.9 0.1 0.1\n0.1 0.1 0.9 0.1\n0.1 0.1 0.1 0.9"
_WV = "0.8 0.2 0.1 0.1\n0.2 0.8 0.2 0.1\n0.1 0.2 0.8 0.1\n0.1 0.1 0.1 0.9"
_X = "0.2 0.9 0.1 0.5\n0.8 0.3 0.7 0.2\n0.4 0.6 0.3 0.9"


def _scores(a: Arrays) -> np.ndarray:
    q, k = a["X"] @ a["W_q"], a["X"] @ a["W_k"]
    return q @ k.T


def _weights(a: Arrays) -> np.ndarray:
    return softmax(_scores(a) / 2.0)


def _q00(a: Arrays) -> np.ndarray:
    return np.array((a["X"] @ a["W_q"])[0, 0])


def _shape(text: str) -> Printed:
    return Printed(rows(text), None, "a shape", attention=False)


XUYUJI = Doc(
    file="dev/en-xuyuji-word-embeddings-dict.ipynb",
    url=(
        "https://github.com/xuyuji9000/machine-learning-playground/blob/main/03_academic-basics/"
        "02_ml-algorithms/05-attention/main.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"X": array(_X), "W_q": array(_WQ), "W_k": array(_WQ), "W_v": array(_WV)},
    printed=(
        given("0.2 0.9 0.1 0.5", "'she'"),
        given("0.8 0.3 0.7 0.2", "'likes'"),
        given("0.4 0.6 0.3 0.9", "'coffee'"),
        _shape("3 4"),
        given(_X, "X"),
        given(_WQ, "W_q"),
        given(_WQ, "W_k"),
        given(_WV, "W_v"),
        Printed(row("0.33000000000000007"), _q00, "W_q[:,0] @ X[0, :]"),
        Printed(row("0.33000000000000007"), _q00, "X[0, :] @ W_q[:,0]"),
        _shape("3 4\n3 4\n3 4"),
        _shape("3 4\n4 3"),
        Printed(
            rows("1.2884 1.064 1.452\n1.064 1.6064 1.4496\n1.452 1.4496 1.8768"), _scores, "scores"
        ),
        _shape("3 3"),
        Printed(
            rows("0.6442 0.532 0.726\n0.532 0.8032 0.7248\n0.726 0.7248 0.9384"),
            lambda a: _scores(a) / 2.0,
            "scaled_scores",
        ),
        Printed(
            rows(
                "1.90446285 1.70233357 2.06679686\n1.70233357 2.23267407 2.0643182\n"
                "2.06679686 2.0643182 2.55588872"
            ),
            lambda a: np.exp(_scores(a) / 2.0),
            "exp_scores",
        ),
        Printed(
            rows("5.67359329\n5.99932583\n6.68700378"),
            lambda a: np.exp(_scores(a) / 2.0).sum(axis=1, keepdims=True),
            "row sums",
        ),
        _shape("3 3"),
        Printed(
            rows(
                "0.33567137 0.30004505 0.36428358\n0.28375415 0.37215416 0.34409169\n"
                "0.30907667 0.308706 0.38221733"
            ),
            _weights,
            "attention_weights",
        ),
        _shape("3 4"),
        Printed(
            rows(
                "0.57530294 0.70527381 0.50530294 0.64177546\n"
                "0.60019479 0.68822737 0.53019479 0.61916155\n"
                "0.58155011 0.7007833 0.51155011 0.64659215"
            ),
            lambda a: _weights(a) @ (a["X"] @ a["W_v"]),
            "output",
        ),
    ),
    notes=(
        "Right throughout. The words' vectors are a dict stacked into X; Q, K and V are never "
        "printed; numpy prints tuples of a shape and an array; Q[0, 0] is printed twice as a "
        "float64 repr (0.33000000000000007)."
    ),
)

_Q = "1 0 1 0\n0 1 0 1"
_V = "1 2 3 4\n5 6 7 8"
_OUTPUT = "2.07576569 3.07576569 4.07576569 5.07576569\n3.92423431 4.92423431 5.92423431 6.92423431"


def _sdpa_weights(a: Arrays) -> np.ndarray:
    return softmax(a["Q"] @ a["K"].T / 2.0)


MANIKANTA = Doc(
    file="dev/en-manikanta-sdpa-call-reprint.ipynb",
    url=(
        "https://github.com/Manikanta-Rajulapati2002/Deep_Learning_NLP_spacy_transformers/blob/"
        "main/Scaled_Dot_Product_Attention.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"Q": array(_Q), "K": array(_Q), "V": array(_V)},
    printed=(
        given(_Q, "Q"),
        given(_Q, "K"),
        given(_V, "V"),
        Printed(
            rows("0.73105858 0.26894142\n0.26894142 0.73105858"), _sdpa_weights, "Attention Weights"
        ),
        Printed(rows(_OUTPUT), lambda a: _sdpa_weights(a) @ a["V"], "Output Matrix"),
        Printed(rows(_OUTPUT), lambda a: _sdpa_weights(a) @ a["V"], "the returned array"),
    ),
    notes=(
        "Right. Q, K and V are passed to scaled_dot_product_attention(Q, K, V); the output is "
        "printed inside the function and again as the cell's returned array."
    ),
)


DEV_I22_FMT = [XUYUJI, MANIKANTA]
