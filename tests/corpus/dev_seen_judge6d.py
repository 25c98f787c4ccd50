"""Development documents (the sixth held-out batch, moved to dev in session 29), continued:
a Polish blog post working one head over three named words by hand. See
tests/corpus/dev_seen_judge6a.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Polish blog: 'cat chases mouse', identity projections, the softmax weights made up -------

_E = "1.0 0.0\n0.2 1.0\n0.8 0.0"
_I2 = "1 0\n0 1"
_PL_W = "0.35 0.25 0.35\n0.24 0.25 0.35\n0.37 0.25 0.37"


def _pl_weights(x: Arrays) -> np.ndarray:
    q, k = x["E"] @ x["WQ"], x["E"] @ x["WK"]
    return softmax(q @ k.T / np.sqrt(2))


def _pl_output(x: Arrays) -> np.ndarray:
    return _pl_weights(x) @ (x["E"] @ x["WV"])


def _pl_weight(i: int, j: int) -> Truth:
    return lambda x: _pl_weights(x)[i, j : j + 1]


def _pl_out(i: int, j: slice) -> Truth:
    return lambda x: _pl_output(x)[i, j]


def _pl_token(i: int) -> tuple[Printed, ...]:
    """The bullet 'token i' with its weights times V spelled out (token 0 only)."""
    if i > 0:
        return (other(one(str(i)), f"token {i}"),)
    sums = []
    for col, vs in ((0, ("1.0", "0.2", "0.8")), (1, ("0.0", "1.0", "0.0"))):
        for j, v in enumerate(vs):
            sums.append(Printed(one(_PL_W.split()[j]), _pl_weight(0, j), f"weight 0,{j}"))
            sums.append(given(one(v), f"V[{j},{col}]"))
    return (other(one("0"), "token 0"), *sums)


def _pl_prose() -> tuple[Printed, ...]:
    return (
        other(one("0"), "row 0"),
        Printed(one("0.35"), _pl_weight(0, 0), "cat on itself"),
        Printed(one("0.35"), _pl_weight(0, 2), "cat on mouse"),
        other(one("1"), "row 1"),
        other(one("2"), "row 2"),
        Printed(one("0.37"), _pl_weight(2, 0), "mouse on cat"),
        Printed(one("0.37"), _pl_weight(2, 2), "mouse on itself"),
    )


def _pl_embedding(i: int, row: str) -> tuple[Printed, ...]:
    return (other(one(str(i)), f"E[{i}]"), given(one(*row.split()), f"E[{i}]"))


def _pl_qkv() -> tuple[Printed, ...]:
    return (
        other(one("2"), "step 2"),
        given(block(_I2), "W_Q"),
        given(block(_I2), "W_K"),
        given(block(_I2), "W_V"),
        other(one("3"), "step 3"),
        Printed(block(_E), lambda x: x["E"] @ x["WQ"], "Q = E W_Q"),
        Printed(block(_E), lambda x: x["E"] @ x["WK"], "K = E W_K"),
        Printed(block(_E), lambda x: x["E"] @ x["WV"], "V = E W_V"),
        other(one("4"), "step 4"),
        other(one("2"), "d_k = 2"),
    )


PL_CATS = Doc(
    file="dev/pl-blog-md-cat-chases-mouse-weights-wrong.md",
    url=(
        "https://github.com/mpiotro4/mpiotro-pl/blob/2a0827ab1ae3bba082287f9fb5bc22c34b7b8995/"
        "blog/posts/2025-12-29-attention-mechanism.md"
    ),
    kind="blog",
    language="pl",
    inputs={"E": a([[1.0, 0.0], [0.2, 1.0], [0.8, 0.0]]), "WQ": np.eye(2), "WK": np.eye(2)}
    | {"WV": np.eye(2)},
    printed=(
        other(one("3"), "vocabulary size"),
        *(other(one(str(i)), f"token {i}") for i in range(3)),
        other(one("1"), "step 1"),
        other(one("2"), "d = 2"),
        other(one("512"), "real models"),
        other(one("768"), "real models"),
        given(block(_E), "E"),
        *(p for i, row in enumerate(_E.splitlines()) for p in _pl_embedding(i, row)),
        *_pl_qkv(),
        given(block(_E), "Q in the product"),
        given(block("1.0 0.2 0.8\n0.0 1.0 0.0"), "K^T"),
        Printed(
            block("1.0 0.2 0.8\n0.2 1.04 0.16\n0.8 0.16 0.64"),
            lambda x: x["E"] @ x["E"].T,
            "QK^T",
        ),
        other(one("2"), "sqrt(2)"),
        other(one("1.414"), "sqrt(2) ≈ 1.414"),
        other(one("2"), "QK^T / sqrt(2)"),
        Printed(
            block("0.71 0.14 0.57\n0.14 0.74 0.11\n0.57 0.11 0.45"),
            lambda x: x["E"] @ x["E"].T / np.sqrt(2),
            "QK^T / sqrt(2)",
        ),
        other(one("5"), "step 5"),
        other(one("2"), "softmax(QK^T / sqrt(2))"),
        Printed(block(_PL_W), _pl_weights, "Attention Weights"),
        *_pl_prose(),
        other(one("6"), "step 6"),
        Printed(block(_PL_W), _pl_weights, "Attention Weights, in the product"),
        given(block(_E), "V in the product"),
        *_pl_token(0),
        Printed(one("0.68", "0.25"), _pl_out(0, slice(0, 2)), "token 0 output", follows=True),
        *_pl_token(1),
        Printed(one("0.66"), _pl_out(1, slice(0, 1)), "token 1 output, first entry"),
        Printed(one("0.25"), _pl_out(1, slice(1, 2)), "token 1 output, second", follows=True),
        *_pl_token(2),
        Printed(one("0.71", "0.25"), _pl_out(2, slice(0, 2)), "token 2 output"),
        other(one("0"), "close to 0"),
        other(one("1"), "or 1"),
        other(one("1.0"), "rows sum to 1.0"),
    ),
    notes=(
        "The Polish half of a bilingual blog post (Markdown with LaTeX bmatrix), at the stored "
        "commit: 'cat chases mouse' with 2-d embeddings E and identity W_Q, W_K, W_V, one head, "
        "d_k = 2. Q, K, V, QK^T and QK^T / sqrt(2) (two decimals) are right. The softmax weights "
        "are made up (rows sum to 0.95, 0.84, 0.99): softmax of the scaled scores is [[0.4105, "
        "0.2331, 0.3564], [0.2643, 0.4787, 0.2569], [0.3954, 0.2515, 0.3531]], so only 0.25 in "
        "row 2 passes; the matrix is printed twice, four of its entries again in the prose and "
        "row 0's weights twice more in token 0's spelled-out sum. The true output is [[0.742, "
        "0.233], [0.566, 0.479], [0.728, 0.252]]. Token 0's [0.68, 0.25] is spelled out from the "
        "printed weights: it follows. Token 1's 0.66 follows nothing (the printed weights give "
        "0.57): wrong; its 0.25 follows. Token 2's [0.71, 0.25]: 0.71 is wrong (the printed "
        "weights give 0.716), 0.25 is right. These are the document's mistakes as published."
    ),
)

DEV_SEEN_JUDGE6D: list[Doc] = [PL_CATS]
