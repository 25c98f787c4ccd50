"""The eighth held-out batch, an English Markdown page on why attention scores are divided by
sqrt(d_k): small dot products by hand, then the softmax of [12, 2, -1] unscaled and divided by 8,
with slips as published. Truth computed with numpy; see tests/corpus/heldout_judge8.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Doc, Printed

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
    file="heldout/en-md-why-scale-dot-products-softmax-collapse-slips.md",
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
        "and softmax([12, 2, -1] / 8) with their exponentials. Mistakes as published: exp(12) "
        "is 162754.79, printed truncated as 162754; the unscaled probabilities print 0.00004 "
        "and 0.00001 for 4.54e-5 and 2.3e-6 (the first only right to 0.99995); the scaled "
        "softmax prints [0.59, 0.17, 0.24] where the exponentials it lists give [0.674, "
        "0.193, 0.133] (all three wrong, and the last larger than the middle one)."
    ),
)

JUDGE_DOCS_8D: list[Doc] = [EN_SCALE]
