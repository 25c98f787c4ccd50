"""Development documents whose vectors stand one token per line, several roles on each line
(``"dog": Query = [..], Key = [..], Value = [..]``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.corpus.helpers import array, follows_row, given, row, softmax
from tests.corpus.model import Arrays, Doc, Printed

_Q = "0.2 0.5 0.1\n0.4 0.6 0.2\n0.3 0.4 0.1"  # The, dog, sitting
_K = "0.1 0.3 0.6\n0.2 0.4 0.7\n0.4 0.3 0.5"
_V = "0.3 0.2 0.8\n0.5 0.3 0.9\n0.6 0.4 0.9"


def _scores(a: Arrays) -> np.ndarray:
    """The query of "sitting" against the keys of "The" and "dog" (not its own)."""
    return a["K"][:2] @ a["Q"][2]


def _weights(a: Arrays) -> np.ndarray:
    return softmax(_scores(a) / np.sqrt(3))  # the page's formula: QK^T / sqrt(d_k)


def _term(key: int) -> Callable[[Arrays], np.ndarray]:
    return lambda a: _weights(a)[key] * a["V"][key]


SITTING_DOG = Doc(
    file="dev/en-readme-sitting-dog-by-hand.md",
    url="https://github.com/ArianFotouhi/AITheoriticalConcepts/blob/main/Attention/README.md",
    kind="blog",
    language="en",
    inputs={"Q": array(_Q), "K": array(_K), "V": array(_V)},
    printed=(
        given("0.2, 0.5, 0.1", "The: Query"),
        given("0.1, 0.3, 0.6", "The: Key"),
        given("0.3, 0.2, 0.8", "The: Value"),
        given("0.4, 0.6, 0.2", "dog: Query"),
        given("0.2, 0.4, 0.7", "dog: Key"),
        given("0.5, 0.3, 0.9", "dog: Value"),
        given("0.3, 0.4, 0.1", "sitting: Query"),
        given("0.4, 0.3, 0.5", "sitting: Key"),
        given("0.6, 0.4, 0.9", "sitting: Value"),
        Printed(row("0.13"), lambda a: _scores(a)[:1], "Dot Product (sitting, The)"),
        Printed(row("0.26"), lambda a: _scores(a)[1:], "Dot Product (sitting, dog)"),
        Printed(row("0.4"), lambda a: _weights(a)[:1], "Softmax (sitting, The)"),
        given("0.3, 0.2, 0.8", "Value (The), again"),
        follows_row("0.12, 0.08, 0.32", _term(0), "Weighted Sum (sitting, The)"),
        Printed(row("0.6"), lambda a: _weights(a)[1:], "Softmax (sitting, dog)"),
        given("0.5, 0.3, 0.9", "Value (dog), again"),
        follows_row("0.3, 0.18, 0.54", _term(1), "Weighted Sum (sitting, dog)"),
        follows_row("0.42, 0.26, 0.86", lambda a: _weights(a) @ a["V"][:2], "Weighted sum"),
        follows_row("0.42, 0.26, 0.86", lambda a: _weights(a) @ a["V"][:2], "the vector, again"),
    ),
    notes=(
        "The mistakes: both dot products are added wrong (0.3×0.1+0.4×0.3+0.1×0.6 is 0.21, "
        "and the second is 0.29), the page divides by d_k = 3 where its formula says √d_k, and "
        "its weights 0.4 and 0.6 are no softmax of either (about 0.49 and 0.51); the weighted "
        "sums follow from 0.4 and 0.6. Only two keys: 'sitting' does not attend to itself."
    ),
)

DEV_I22_LINES = [SITTING_DOG]
