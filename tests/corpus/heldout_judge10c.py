"""The tenth held-out batch, continued: an English Markdown transcript of a tutoring chat that works
self-attention by hand for "I love cats" (Q, K, V, scores, softmax row by row, the weighted sum),
then closes with a summary whose numbers are not the body's. Truth computed with numpy; see
tests/corpus/heldout_judge10.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Rows, Truth, block, column, given, one
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_X = ((0.1, 0.2, 0.3, 0.4), (0.5, 0.6, 0.7, 0.8), (0.9, 0.0, 0.1, 0.2))
_WQ = ((0.1, 0.0, 0.2, 0.1), (0.0, 0.1, 0.1, 0.0), (0.1, 0.2, 0.0, 0.1), (0.0, 0.1, 0.1, 0.2))
_WK = ((0.2, 0.1, 0.0, 0.0), (0.1, 0.0, 0.2, 0.1), (0.0, 0.1, 0.1, 0.0), (0.1, 0.0, 0.2, 0.1))
_WV = ((0.0, 0.1, 0.1, 0.0), (0.1, 0.0, 0.0, 0.2), (0.0, 0.1, 0.1, 0.0), (0.2, 0.0, 0.1, 0.1))


def _rows(values: tuple[tuple[float, ...], ...]) -> Rows:
    return tuple(tuple(f"{v:.1f}" for v in row) for row in values)


def _q(x: Arrays) -> np.ndarray:
    return x["x"] @ x["wq"]


def _k(x: Arrays) -> np.ndarray:
    return x["x"] @ x["wk"]


def _v(x: Arrays) -> np.ndarray:
    return x["x"] @ x["wv"]


def _scores(x: Arrays) -> np.ndarray:
    return _q(x) @ _k(x).T


def _scaled(x: Arrays) -> np.ndarray:
    return _scores(x) / 2.0


def _weights(x: Arrays) -> np.ndarray:
    return softmax(_scaled(x))


def _exps(x: Arrays) -> np.ndarray:
    return np.exp(_scaled(x))


def _vec(compute: Truth, label: str, text: str, follows: bool = False) -> Printed:
    return Printed(block(text), compute, label, follows=follows)


def _softmax_row(i: int, name: str, divisions_split: bool) -> tuple[Printed, ...]:
    """The worked softmax of row i: scaled row, exponentials, their sum, the divisions."""
    exps = (("1.01369", "1.03500", "1.01329"), ("1.03749", "1.09725", "1.03541"))
    exps += (("1.02429", "1.06099", "1.01857"),)
    scaled = (("0.0136", "0.0344", "0.0132"), ("0.0368", "0.0928", "0.0348"))
    scaled += (("0.0240", "0.0592", "0.0184"),)
    sums = ("3.06198", "3.17015", "3.10385")
    weights = (("0.3310", "0.3380", "0.3310"), ("0.3273", "0.3461", "0.3266"))
    weights += (("0.3300", "0.3418", "0.3282"),)
    out: list[Printed] = [
        Printed(one(*scaled[i]), lambda x: _scaled(x)[i], f"scaled row {name}"),
        Printed(
            tuple((scaled[i][j], exps[i][j]) for j in range(3)),
            lambda x: np.stack([_scaled(x)[i], _exps(x)[i]], axis=1),
            f"e^s for {name}",
        ),
        Printed(one(*exps[i]), lambda x: _exps(x)[i], f"sum terms for {name}", follows=i == 1),
        Printed(
            one(sums[i]),
            lambda x: _exps(x)[i].sum(keepdims=True),
            f"sum for {name}",
            follows=i == 1,
        ),
    ]

    def division(j: int) -> Truth:
        return lambda x: np.array([_exps(x)[i, j], _exps(x)[i].sum(), _weights(x)[i, j]])

    rows = tuple((exps[i][j], sums[i], weights[i][j]) for j in range(3))
    if divisions_split:
        out += [Printed((rows[j],), division(j), f"division {j} for {name}") for j in range(3)]
        out.append(Printed(one(*weights[i]), lambda x: _weights(x)[i], f"weights for {name}"))
    else:
        out.append(
            Printed(
                rows,
                lambda x: np.stack([division(j)(x) for j in range(3)]),
                f"{name} divisions",
                follows=i == 1,
            )
        )
    return tuple(out)


_PRODUCTS = {
    0: (
        ("0.03310", "0.01324", "0.02648", "0.02648"),
        ("0.07436", "0.04056", "0.06760", "0.06760"),
        ("0.01324", "0.03310", "0.03972", "0.00662"),
        ("0.12070", "0.08690", "0.13380", "0.10070"),
    ),
    1: (
        ("0.03273", "0.01309", "0.02618", "0.02618"),
        ("0.07614", "0.04153", "0.06922", "0.06922"),
        ("0.01306", "0.03266", "0.03919", "0.00653"),
        ("0.12193", "0.08728", "0.13459", "0.10193"),
    ),
    2: (
        ("0.03300", "0.01320", "0.02640", "0.02640"),
        ("0.07520", "0.04102", "0.06836", "0.06836"),
        ("0.01313", "0.03282", "0.03938", "0.00656"),
        ("0.12133", "0.08704", "0.13414", "0.10132"),
    ),
}


def _weighted(i: int, name: str) -> tuple[Printed, ...]:
    """w_ij v_j for the three keys (columns), then their sum; row 0's weights were printed
    wrong, so its products and sum follow from them."""
    out: list[Printed] = []
    for j in range(3):
        out.append(
            Printed(
                column(*_PRODUCTS[i][j]),
                lambda x, j=j: (_weights(x)[i, j] * _v(x)[j])[:, None],
                f"{name}: weight {j} times V row {j}",
                follows=i == 0 and j != 1,
            )
        )
    out.append(
        Printed(
            column(*_PRODUCTS[i][3]),
            lambda x: (_weights(x)[i] @ _v(x))[:, None],
            f"{name}: output",
            follows=i == 0,
        )
    )
    return tuple(out)


_OUT_ROWS = tuple(_PRODUCTS[i][3] for i in range(3))
_Q_ROWS = block("0.04  0.12  0.08  0.12\n0.12  0.28  0.24  0.28\n0.10  0.04  0.20  0.14")
_K_ROWS = block("0.08  0.04  0.15  0.06\n0.24  0.12  0.35  0.14\n0.20  0.10  0.05  0.02")
_KT_ROWS = block("0.08 0.24 0.20\n0.04 0.12 0.10\n0.15 0.35 0.05\n0.06 0.14 0.02")
_S_ROWS = block("0.0272 0.0688 0.0264\n0.0736 0.1856 0.0696\n0.0480 0.1184 0.0368")
_SS_ROWS = block("0.0136 0.0344 0.0132\n0.0368 0.0928 0.0348\n0.0240 0.0592 0.0184")
_W_ROWS = block("0.3310 0.3380 0.3310\n0.3273 0.3461 0.3266\n0.3300 0.3418 0.3282")
_TABLE = tuple(
    tuple(f"{v:.1f}" for v in _X[i])
    + _Q_ROWS[i]
    + _K_ROWS[i]
    + block("0.10 0.04 0.08 0.08\n0.22 0.12 0.20 0.20\n0.04 0.10 0.12 0.02")[i]
    for i in range(3)
)


def _table(x: Arrays) -> np.ndarray:
    return np.hstack([x["x"], _q(x), _k(x), _v(x)])


def _body() -> tuple[Printed, ...]:
    return (
        given(_rows(_X), "embeddings (table)"),
        given(_rows(_X), "X"),
        given(_rows(_WQ), "WQ"),
        given(_rows(_WK), "WK"),
        given(_rows(_WV), "WV"),
        _vec(lambda x: _q(x)[0], "Query for I", "[0.04, 0.12, 0.08, 0.12]"),
        _vec(lambda x: _k(x)[0], "Key for I", "[0.08, 0.04, 0.15, 0.06]"),
        _vec(lambda x: _v(x)[0], "Value for I", "[0.10, 0.04, 0.08, 0.08]"),
        _vec(lambda x: _q(x)[1], "Query for love", "[0.12, 0.28, 0.24, 0.28]"),
        _vec(lambda x: _q(x)[2], "Query for cats", "[0.10, 0.04, 0.20, 0.14]"),
        _vec(lambda x: _k(x)[1], "Key for love", "[0.24, 0.12, 0.35, 0.14]"),
        _vec(lambda x: _k(x)[2], "Key for cats", "[0.20, 0.10, 0.05, 0.02]"),
        _vec(lambda x: _v(x)[1], "Value for love", "[0.22, 0.12, 0.20, 0.20]"),
        _vec(lambda x: _v(x)[2], "Value for cats", "[0.04, 0.10, 0.12, 0.02]"),
        Printed(_TABLE, _table, "summary table: embedding, Q, K, V"),
        given(block("0.12 0.84 0.04\n0.21 0.70 0.09\n0.18 0.15 0.67"), "invented example"),
        Printed(_Q_ROWS, _q, "Q"),
        Printed(_K_ROWS, _k, "K"),
        Printed(_KT_ROWS, lambda x: _k(x).T, "K^T"),
        given((("0.04", "0.24"), ("0.12", "0.12"), ("0.08", "0.35"), ("0.12", "0.14")), "pairs"),
        Printed(
            column("0.0096", "0.0144", "0.0280", "0.0168"),
            lambda x: (_q(x)[0] * _k(x)[1])[:, None],
            "Score(I, love) terms",
        ),
        Printed(one("0.0688"), lambda x: _scores(x)[0, 1:2], "Score(I, love)"),
        Printed(_S_ROWS, _scores, "Attention Scores"),
        Printed(_S_ROWS, _scores, "scores table"),
    )


def _scaling() -> tuple[Printed, ...]:
    return (
        given(one("1", "3", "2", "4"), "toy dot product operands"),
        Printed(one("3", "8"), lambda x: np.array([3.0, 8.0]), "toy products"),
        Printed(one("11"), lambda x: np.array([11.0]), "toy dot product"),
        given(one("2", "3", "4"), "toy scores"),
        Printed(one("0.09", "0.24", "0.67"), lambda x: softmax(np.array([2.0, 3.0, 4.0])), "sm"),
        given(one("20", "30", "40"), "large toy scores"),
        Printed(
            one("0.00", "0.00", "1.00"), lambda x: softmax(np.array([20.0, 30, 40])), "peaked sm"
        ),
        Printed(_SS_ROWS, _scaled, "Scaled Attention Scores"),
        Printed(_S_ROWS, _scores, "attention_scores in the code"),
        Printed(_SS_ROWS, _scaled, "print(scaled_scores)"),
    )


def _closing() -> tuple[Printed, ...]:
    """The summary at the end, whose numbers are not the body's."""
    return (
        Printed(
            block("0.0272 0.0596 0.0496\n0.0594 0.1287 0.1083\n0.0468 0.0964 0.0886"),
            _scores,
            "summary Scores",
        ),
        Printed(
            block("0.0136 0.0298 0.0248\n0.0297 0.06435 0.05415\n0.0234 0.0482 0.0443"),
            _scaled,
            "summary Scaled_Scores",
            follows=True,
        ),
        Printed(
            block("0.3303 0.3357 0.3340\n0.3292 0.3421 0.3287\n0.3306 0.3384 0.3310"),
            _weights,
            "summary Attention_Weights",
        ),
        Printed(
            block(
                "0.1302 0.0869 0.1269 0.1002\n0.1352 0.0903 0.1320 0.1054\n"
                "0.1293 0.0864 0.1265 0.0999"
            ),
            lambda x: _weights(x) @ _v(x),
            "summary Output",
        ),
    )


EN_TUTOR = Doc(
    file="heldout/en-md-tutor-transcript-i-love-cats-hand-softmax-summary-slips.md",
    url=(
        "https://github.com/swarnamukhi/self-attention-from-scratch/blob/main/docs/"
        "02_Self_Attention_Internal_Calculations.md"
    ),
    kind="course-notes",
    language="en",
    inputs={
        "x": np.array(_X),
        "wq": np.array(_WQ),
        "wk": np.array(_WK),
        "wv": np.array(_WV),
    },
    printed=(
        *_body(),
        *_scaling(),
        *_softmax_row(0, "I", divisions_split=True),
        *_softmax_row(1, "love", divisions_split=False),
        *_softmax_row(2, "cats", divisions_split=False),
        Printed(_W_ROWS, _weights, "Attention Weights"),
        Printed(_W_ROWS, _weights, "numpy softmax output"),
        *_weighted(0, "I"),
        *_weighted(1, "love"),
        *_weighted(2, "cats"),
        Printed(_OUT_ROWS, lambda x: _weights(x) @ _v(x), "Output Embeddings"),
        *_closing(),
    ),
    notes=(
        "An English Markdown transcript of a chat with a tutoring assistant that works one "
        "self-attention layer by hand for 'I love cats' (X 3 x 4, WQ, WK, WV 4 x 4, pandoc-escaped "
        "inline matrices): Q, K, V (right), an invented 3 x 3 example (given), Q, K, K^T, the "
        "terms of one score, the 3 x 3 scores and scaled scores, a toy dot product and two toy "
        "softmaxes, then the softmax worked row by row (e^s, sums, divisions) and the weighted "
        "sums of the values term by term. Mistakes as published: 1.01369 / 3.06198 and 1.01329 / "
        "3.06198 are written 0.3310 (0.3311 and 0.3309), carried into the weight rows (the "
        "products and sum of row 'I' follow from them); e^0.0928 is written 1.09725 (1.09724), "
        "the sum 3.17015 and its reprints follow; the products and outputs are printed to five "
        "decimals from four-decimal weights, so 0.07614, 0.06836 (twice), the 'love' output "
        "0.12193 0.08728 0.13459 0.10193, two 'cats' outputs and eight entries of the output "
        "matrix miss the last digit; the closing summary reprints different scores (8 of 9 "
        "wrong), halves them (follows), gives weights that match those halves only in the "
        "first row (9 wrong) and an output that matches nothing (11 wrong)."
    ),
)

JUDGE_DOCS_10C: list[Doc] = [EN_TUTOR]
