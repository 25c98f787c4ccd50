"""Development documents of kinds the checker had not met before: a step-by-step causal
attention notebook in PyTorch whose numbers are also retold in Markdown tables rounded to two
decimals, with a first row that a causal mask makes [1, 0, ...] whatever the scores."""

from __future__ import annotations

import numpy as np

from tests.corpus.helpers import array, causal, given, row, rows, softmax
from tests.corpus.model import Arrays, Doc, Printed

# -------------------------------------------------------- en-causal-attention-step-by-step-dropout
_X = (
    "0.43 0.15 0.89\n0.55 0.87 0.66\n0.57 0.85 0.64\n0.22 0.58 0.33\n0.77 0.25 0.10\n0.05 0.80 0.55"
)
# The weights without a mask, of scores from random projections the page never prints.
_W = (
    "0.1921 0.1646 0.1652 0.1550 0.1721 0.1510\n0.2041 0.1659 0.1662 0.1496 0.1665 0.1477\n"
    "0.2036 0.1659 0.1662 0.1498 0.1664 0.1480\n0.1869 0.1667 0.1668 0.1571 0.1661 0.1564\n"
    "0.1830 0.1669 0.1670 0.1588 0.1658 0.1585\n0.1935 0.1663 0.1666 0.1542 0.1666 0.1529"
)
# The lower triangle of the scores, as the masked print shows it (the rest is -inf there).
_S = (
    "0.2899 0 0 0 0 0\n0.4656 0.1723 0 0 0 0\n0.4594 0.1703 0.1731 0 0 0\n"
    "0.2642 0.1024 0.1036 0.0186 0 0\n0.2183 0.0874 0.0882 0.0177 0.0786 0\n"
    "0.3408 0.1270 0.1290 0.0198 0.1290 0.0078"
)
_DROP = (
    "2. 2. 0. 2. 2. 0.\n0. 0. 0. 2. 0. 2.\n2. 2. 2. 2. 0. 2.\n0. 2. 2. 0. 0. 2.\n"
    "0. 2. 0. 2. 0. 2.\n0. 2. 2. 2. 2. 0."
)
_CAUSAL = (
    "1.0000 0.0000 0.0000 0.0000 0.0000 0.0000\n0.5517 0.4483 0.0000 0.0000 0.0000 0.0000\n"
    "0.3800 0.3097 0.3103 0.0000 0.0000 0.0000\n0.2758 0.2460 0.2462 0.2319 0.0000 0.0000\n"
    "0.2175 0.1983 0.1984 0.1888 0.1971 0.0000\n0.1935 0.1663 0.1666 0.1542 0.1666 0.1529"
)
_CAUSAL2 = (
    "1.00 0.00 0.00 0.00 0.00 0.00\n0.55 0.45 0.00 0.00 0.00 0.00\n0.38 0.31 0.31 0.00 0.00 0.00\n"
    "0.28 0.25 0.25 0.23 0.00 0.00\n0.22 0.20 0.20 0.19 0.20 0.00\n0.19 0.17 0.17 0.15 0.17 0.15"
)


def _kept(a: Arrays) -> np.ndarray:
    return a["W"] * np.tril(np.ones((6, 6)))


def _renormalised(a: Arrays) -> np.ndarray:
    return _kept(a) / _kept(a).sum(axis=1, keepdims=True)


def _masked(a: Arrays) -> np.ndarray:
    return causal(a["S"])


def _weights(a: Arrays) -> np.ndarray:
    return softmax(_masked(a) / np.sqrt(2.0))


def _one(a: Arrays) -> np.ndarray:
    return np.array([[1.0]])


CAUSAL_STEPS = Doc(
    file="dev/en-causal-attention-step-by-step-dropout.ipynb",
    url="https://github.com/canivel/llm-from-scratch/blob/main/book1/4.Causal-Attention.ipynb",
    kind="step-notebook",
    language="en",
    inputs={
        "W": array(_W),
        "±W": np.full((6, 6), 5e-5),
        "S": array(_S),
        "±S": np.full((6, 6), 5e-5),
        "D": array(_DROP),
    },
    printed=(
        given(_X, "embeddings table (Markdown)"),
        given(_X, "inputs (code)"),
        given("0.5500, 0.8700, 0.6600", "x_2"),
        given(_W, "attn_weights without a mask (scores never printed)"),
        Printed(
            rows(
                "0.19 0.16 0.17 0.16 0.17 0.15\n0.20 0.17 0.17 0.15 0.17 0.15\n"
                "0.20 0.17 0.17 0.15 0.17 0.15\n0.19 0.17 0.17 0.16 0.17 0.16\n"
                "0.18 0.17 0.17 0.16 0.17 0.16\n0.19 0.17 0.17 0.15 0.17 0.15"
            ),
            lambda a: a["W"],
            "the same weights rounded (Markdown table)",
        ),
        given(
            "1. 0. 0. 0. 0. 0.\n1. 1. 0. 0. 0. 0.\n1. 1. 1. 0. 0. 0.\n1. 1. 1. 1. 0. 0.\n"
            "1. 1. 1. 1. 1. 0.\n1. 1. 1. 1. 1. 1.",
            "mask_simple",
        ),
        Printed(
            rows(
                "0.1921 0.0000 0.0000 0.0000 0.0000 0.0000\n"
                "0.2041 0.1659 0.0000 0.0000 0.0000 0.0000\n"
                "0.2036 0.1659 0.1662 0.0000 0.0000 0.0000\n"
                "0.1869 0.1667 0.1668 0.1571 0.0000 0.0000\n"
                "0.1830 0.1669 0.1670 0.1588 0.1658 0.0000\n"
                "0.1935 0.1663 0.1666 0.1542 0.1666 0.1529"
            ),
            _kept,
            "masked_simple",
        ),
        Printed(row("0.19, 0.0, 0.0, 0.0, 0.0, 0.0"), lambda a: _kept(a)[0], "first row"),
        Printed(row("0.19 0.16 0.17 0.16 0.17 0.15"), lambda a: a["W"][0], "before masking"),
        Printed((("1.00",),), lambda a: a["W"][0].sum(), "its sum"),
        Printed(row("0.19 0.00 0.00 0.00 0.00 0.00"), lambda a: _kept(a)[0], "after masking"),
        Printed((("0.19",),), lambda a: _kept(a)[0].sum(), "its sum"),
        Printed(rows(_CAUSAL), _renormalised, "masked_simple_norm"),
        Printed(row("1.00, 0.00, 0.00, 0.00, 0.00, 0.00"), lambda a: _renormalised(a)[0], "Your"),
        Printed((("1.00",),), _one, "sum"),
        Printed(
            row("0.55, 0.45, 0.00, 0.00, 0.00, 0.00"), lambda a: _renormalised(a)[1], "journey"
        ),
        Printed((("1.00",),), _one, "sum"),
        Printed(row("0.38, 0.31, 0.31, 0.00, 0.00, 0.00"), lambda a: _renormalised(a)[2], "starts"),
        Printed((("1.00",),), _one, "sum"),
        Printed(
            rows(
                "0.2899 -inf -inf -inf -inf -inf\n0.4656 0.1723 -inf -inf -inf -inf\n"
                "0.4594 0.1703 0.1731 -inf -inf -inf\n0.2642 0.1024 0.1036 0.0186 -inf -inf\n"
                "0.2183 0.0874 0.0882 0.0177 0.0786 -inf\n"
                "0.3408 0.1270 0.1290 0.0198 0.1290 0.0078"
            ),
            _masked,
            "masked (the scores' lower triangle is given here)",
        ),
        Printed(row("0.29, -inf, -inf, -inf, -inf, -inf"), lambda a: _masked(a)[0], "Your"),
        Printed(row("0.47, 0.17, -inf, -inf, -inf, -inf"), lambda a: _masked(a)[1], "journey"),
        Printed(row("0.46, 0.17, 0.17, -inf, -inf, -inf"), lambda a: _masked(a)[2], "starts"),
        Printed(rows(_CAUSAL), _weights, "attn_weights (causal)"),
        Printed(rows(_CAUSAL2), _weights, "the causal weights rounded (Markdown table)"),
        given(_DROP, "dropout of ones (seed 123)", attention=False),
        Printed(
            rows(
                "2.0000 0.0000 0.0000 0.0000 0.0000 0.0000\n"
                "0.0000 0.0000 0.0000 0.0000 0.0000 0.0000\n"
                "0.7599 0.6194 0.6206 0.0000 0.0000 0.0000\n"
                "0.0000 0.4921 0.4925 0.0000 0.0000 0.0000\n"
                "0.0000 0.3966 0.0000 0.3775 0.0000 0.0000\n"
                "0.0000 0.3327 0.3331 0.3084 0.3331 0.0000"
            ),
            lambda a: _weights(a) * a["D"],
            "dropout(attn_weights), same seed",
        ),
    ),
    notes="A step-by-step causal attention notebook (seed 789, weights never printed), its "
    "tensors retold in Markdown tables to two decimals with the word labels, rows of a "
    "table written out with their sums; the masked scores are the only scores printed "
    "(the unmasked weights come from scores never shown); dropout with the same seed on "
    "ones, then on the weights; a batch whose context vectors only print their shape.",
)

DEV_I22_KINDS = [CAUSAL_STEPS]
