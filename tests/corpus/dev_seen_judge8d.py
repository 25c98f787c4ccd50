"""Development documents (the eighth held-out batch, moved to dev in session 31): an English
Markdown page on why attention scores are divided by sqrt(d_k) (small dot products by hand, then
the softmax of [12, 2, -1] unscaled and divided by 8, with slips as published), and a Russian
seminar notebook in torch that replaces its softmax by a hand-rounded matrix. Truth computed
with numpy; see tests/corpus/dev_seen_judge8.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_PAIRS = (
    ("q1", "k1", ("1", "-1"), ("1", "1")),
    ("q2", "k2", ("2", "-1"), ("1", "3")),
    ("q3", "k3", ("1", "-1", "1", "-1"), ("1", "1", "1", "1")),
    ("q4", "k4", ("2", "-1", "2", "-1"), ("1", "2", "1", "2")),
    ("q5", "k5", ("0.8", "-1.1", "0.5", "1.3", "-0.9"), ("1.0", "0.7", "-0.6", "0.9", "-1.2")),
)


def _dot(q: str, k: str) -> Truth:
    return lambda x: np.array([x[q] @ x[k]])


def _products(q: str, k: str) -> Truth:
    return lambda x: x[q] * x[k]


def _pairs() -> tuple[Printed, ...]:
    out: list[Printed] = []
    for q, k, qs, ks in _PAIRS[:4]:
        out += [given(one(*qs), q), given(one(*ks), k)]
        out.append(Printed(one("-1" if q == "q2" else "0"), _dot(q, k), f"{q} . {k}"))
    q, k, qs, ks = _PAIRS[4]
    out += [given(one(*qs), "q slice (64-d)"), given(one(*ks), "k slice (64-d)")]
    out.append(
        Printed(one("0.8", "-0.77", "-0.3", "1.17", "1.08"), _products(q, k), "first products")
    )
    return tuple(out)


def _exp(name: str) -> Truth:
    return lambda x: np.exp(x[name])


def _probs(name: str) -> Truth:
    return lambda x: softmax(x[name])


EN_SCALE = Doc(
    file="dev/en-md-why-scale-dot-products-softmax-collapse-slips.md",
    url=(
        "https://github.com/noumanshah436/100-days-of-deep-learning/blob/main/"
        "day74_scaled_dot_product_attention/example.md"
    ),
    kind="course-notes-md",
    language="en",
    inputs={
        **{q: a([float(e) for e in qs]) for q, _, qs, _ in _PAIRS},
        **{k: a([float(e) for e in ks]) for _, k, _, ks in _PAIRS},
        "s": a([12, 2, -1]),
        "t": a([12, 2, -1]) / 8,
    },
    printed=(
        *_pairs(),
        Printed(one("8"), lambda x: np.sqrt([64.0]), "sqrt(64)"),
        other(one("6", "9", "-7", "12"), "typical dot products (illustrative)"),
        given(one("12", "2", "-1"), "scores"),
        Printed(one("162754", "7.4", "0.37"), _exp("s"), "exp of the scores"),
        Printed(one("0.99995", "0.00004", "0.00001"), _probs("s"), "softmax of the scores"),
        Printed(one("8"), lambda x: np.sqrt([64.0]), "sqrt(d_k)"),
        Printed(one("1.5", "0.25", "-0.125"), lambda x: x["s"] / 8, "scores / 8"),
        Printed(one("4.48", "1.28", "0.88"), _exp("t"), "exp of the scaled scores"),
        Printed(one("0.59", "0.17", "0.24"), _probs("t"), "softmax of the scaled scores"),
    ),
    notes=(
        "An English Markdown page (course notes in a 100-days repository): dot products of "
        "small q, k by hand, the first products of a 64-d slice, then softmax([12, 2, -1]) "
        "and softmax([12, 2, -1] / 8) with their exponentials. The mistakes as published: exp(12) "
        "is 162754.79, printed truncated as 162754; the unscaled probabilities print 0.00004 "
        "and 0.00001 for 4.54e-5 and 2.3e-6 (the first only right to 0.99995); the scaled "
        "softmax prints [0.59, 0.17, 0.24] where the exponentials it lists give [0.674, "
        "0.193, 0.133] (all three wrong, and the last larger than the middle one)."
    ),
)


# --- Russian seminar notebook: the three-input example in torch, softmax replaced by rounding -----

_X = "[[1., 0., 1., 0.],\n[0., 2., 0., 2.],\n[1., 1., 1., 1.]]"
_WK = "[[0., 0., 1.],\n[1., 1., 0.],\n[0., 1., 0.],\n[1., 1., 0.]]"
_WQ = "[[1., 0., 1.],\n[1., 0., 0.],\n[0., 0., 1.],\n[0., 1., 1.]]"
_WV = "[[0., 2., 0.],\n[0., 3., 0.],\n[1., 0., 3.],\n[1., 1., 0.]]"
_HAND = "[[0.0000, 0.5000, 0.5000],\n[0.0000, 1.0000, 0.0000],\n[0.0000, 0.9000, 0.1000]]"
_EXACT = (
    "[[6.3379e-02, 4.6831e-01, 4.6831e-01],\n[6.0337e-06, 9.8201e-01, 1.7986e-02],\n"
    "[2.9539e-04, 8.8054e-01, 1.1917e-01]]"
)
_WEIGHTED = """
[[[0.0000, 0.0000, 0.0000],
 [0.0000, 0.0000, 0.0000],
 [0.0000, 0.0000, 0.0000]],
[[1.0000, 4.0000, 0.0000],
 [2.0000, 8.0000, 0.0000],
 [1.8000, 7.2000, 0.0000]],
[[1.0000, 3.0000, 1.5000],
 [0.0000, 0.0000, 0.0000],
 [0.2000, 0.6000, 0.3000]]]
"""


def _ru(name: str) -> np.ndarray:
    return a([[float(e) for e in row] for row in block(name)])


def _k(x: Arrays) -> np.ndarray:
    return x["x"] @ x["wk"]


def _q(x: Arrays) -> np.ndarray:
    return x["x"] @ x["wq"]


def _v(x: Arrays) -> np.ndarray:
    return x["x"] @ x["wv"]


def _weighted(x: Arrays) -> np.ndarray:
    """Block i, row j: value i times the hand-set weight of query j on key i."""
    return np.concatenate([np.outer(x["A"][:, i], _v(x)[i]) for i in range(3)])


def _by_hand_line(j: int) -> Truth:
    return lambda x: x["A"][0, j] * _v(x)[j]


RU_SEMINAR = Doc(
    file="dev/ru-notebook-torch-self-attention-seminar-approximated-weights.ipynb",
    url=(
        "https://github.com/runnerup96/SBT-Deep-Learning-Seminars/blob/main/"
        "Transformers/self_attention_demo.ipynb"
    ),
    kind="notebook-torch",
    language="ru",
    inputs={
        "x": _ru(_X),
        "wk": _ru(_WK),
        "wq": _ru(_WQ),
        "wv": _ru(_WV),
        "A": _ru(_HAND),
    },
    printed=(
        given(block(_X), "x"),
        given(block(_WK), "w_key"),
        given(block(_WQ), "w_query"),
        given(block(_WV), "w_value"),
        Printed(block("[0, 1, 1]\n[4, 4, 0]\n[2, 3, 1]"), _k, "keys by hand"),
        Printed(block("[1, 2, 3]\n[2, 8, 0]\n[2, 6, 3]"), _v, "values by hand"),
        Printed(block("[1, 0, 2]\n[2, 2, 2]\n[2, 1, 3]"), _q, "queries by hand"),
        Printed(block("[[0., 1., 1.],\n[4., 4., 0.],\n[2., 3., 1.]]"), _k, "Keys"),
        Printed(block("[[1., 0., 2.],\n[2., 2., 2.],\n[2., 1., 3.]]"), _q, "Querys"),
        Printed(block("[[1., 2., 3.],\n[2., 8., 0.],\n[2., 6., 3.]]"), _v, "Values"),
        Printed(block("[0, 4, 2]\n[1, 4, 3]\n[1, 0, 1]"), lambda x: _k(x).T, "keys transposed"),
        Printed(one("2", "4", "4"), lambda x: (_q(x) @ _k(x).T)[0], "scores of query 1"),
        Printed(
            block("[[ 2.,  4.,  4.],\n[ 4., 16., 12.],\n[ 4., 12., 10.]]"),
            lambda x: _q(x) @ _k(x).T,
            "attn_scores",
        ),
        given(one("2", "4", "4"), "softmax argument in the text"),
        Printed(
            one("0.0", "0.5", "0.5"),
            lambda x: softmax(_q(x) @ _k(x).T)[0],
            "softmax([2, 4, 4]) in the text",
        ),
        Printed(block(_EXACT), lambda x: softmax(_q(x) @ _k(x).T), "softmax (exact)"),
        given(block(_HAND), "the weights rounded by hand"),
        *(
            Printed(one(*r), _by_hand_line(j), f"weight x value {j + 1}")
            for j, r in enumerate(
                (("0.0", "0.0", "0.0"), ("1.0", "4.0", "0.0"), ("1.0", "3.0", "1.5"))
            )
        ),
        Printed(block(_WEIGHTED), _weighted, "weighted_values"),
        Printed(one("2.0", "7.0", "1.5"), lambda x: x["A"][0] @ _v(x), "output 1 by hand"),
        Printed(
            block(
                "[[2.0000, 7.0000, 1.5000],\n[2.0000, 8.0000, 0.0000],\n[2.0000, 7.8000, 0.3000]]"
            ),
            lambda x: x["A"] @ _v(x),
            "outputs",
        ),
    ),
    notes=(
        "A Russian seminar notebook (torch) working the three-input example: x, hand-set 4 x 3 "
        "weights, keys, values and queries by hand and in code, unscaled scores, the exact "
        "softmax in e-notation, then a matrix the author sets by hand ('for convenience') "
        "rounding the weights to one decimal; the weighted values (three blocks, value i times "
        "the weights of key i) and outputs are computed from that hand-set matrix, so they are "
        "judged against it. One mistake as published: the text writes softmax([2, 4, 4]) = "
        "[0.0, 0.5, 0.5], whose first entry is 0.063 (0.1 to one decimal)."
    ),
)

DEV_SEEN_JUDGE8D: list[Doc] = [EN_SCALE, RU_SEMINAR]
