"""The fresh held-out documents' truth, continued (see tests/corpus/heldout_judge.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_4 = 5e-5

# --- beamer slides (LaTeX): a causal mask built from zeros, then its softmax -------------------

_MASKED = "tensor([[0., -inf, -inf],\n[0., 0., -inf],\n[0., 0., 0.]])"


def _tril(n: int) -> np.ndarray:
    return np.tril(np.ones((n, n))) == 1


def _masked_zeros(x: Arrays) -> np.ndarray:
    return np.where(_tril(len(x["wei"])), x["wei"], -np.inf)


SLIDES = Doc(
    file="heldout/en-beamer-slides-masked-self-attention-tril.tex",
    url="https://github.com/oakfr/ensae-dl-course/blob/main/lectures/session-4.pdf",
    kind="latex-slides",
    language="en",
    inputs={"wei": np.zeros((3, 3))},
    printed=(
        given(block("tensor([[1., 0., 0.],\n[1., 1., 0.],\n[1., 1., 1.]])"), "tril"),
        Printed(block(_MASKED), _masked_zeros, "wei.masked_fill(tril == 0, -inf)"),
        Printed(block(_MASKED), _masked_zeros, "wei.masked_fill(tril == 0, -inf), again"),
        Printed(block(_MASKED), _masked_zeros, "wei.masked_fill(tril == 0, -inf), again"),
        Printed(
            block(_MASKED),
            _masked_zeros,
            "wei.masked_fill(tril == 0, -inf), before the softmax",
        ),
        Printed(
            block(
                "tensor([[1.0000, 0.0000, 0.0000],\n[0.5000, 0.5000, 0.0000],\n"
                "[0.3333, 0.3333, 0.3333]])"
            ),
            lambda x: softmax(_masked_zeros(x)),
            "F.softmax(wei, dim=-1)",
        ),
    ),
    notes=(
        "Lecture slides (transcribed as beamer frames) that build a causal mask step by step, "
        "each frame repeating the previous code: tril, zeros filled with -inf above the "
        "diagonal (printed four times), then the row softmax, which averages the visible "
        "positions uniformly. No Q or K: the scores are all zero. All right."
    ),
)

# --- exercise notebook: the expected values of a hand-computed attention, in the code ------------

_ENSAE_X = [[2, 0, 0, 0, 2, 1], [0, 1, 2, 0, 0, 0], [0, 0, 1, 1, 0, 1], [2, 0, 0, 1, 0, 1]]
_ENSAE_WQ = [[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 0], [0, 0, 1], [0, 0, 1]]
_ENSAE_WK = [[0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, -1]]
_ENSAE_WV = [[10, 0, 0], [0, 0, 10], [0, 0, 0], [0, 10, 0], [0, 0, 0], [0, 0, 0]]


def _ensae_attention(x: Arrays) -> np.ndarray:
    q, k, v = x["X"] @ x["WQ"], x["X"] @ x["WK"], x["X"] @ x["WV"]
    return softmax(q @ k.T / np.sqrt(3)) @ v


ENSAE = Doc(
    file="heldout/notebook-exercise-expected-values-ensae-attention.ipynb",
    url="https://github.com/oakfr/ensae-dl-course/blob/main/session_4/problem.ipynb",
    kind="notebook-exercise",
    language="en",
    inputs={"X": a(_ENSAE_X), "WQ": a(_ENSAE_WQ), "WK": a(_ENSAE_WK), "WV": a(_ENSAE_WV)},
    printed=(
        given(block("[[2,0,0,0,2,1],[0,1,2,0,0,0],[0,0,1,1,0,1],[2,0,0,1,0,1]]"), "X"),
        given(block("[[1,0,0], [1,1,0], [0,0,1], [0,1,0], [0,0,1], [0,0,1]]"), "W_QT"),
        given(block("[[0,0,1], [0,1,0], [1,0,0], [0,0,0], [0,0,0], [0,0,-1]]"), "W_KT"),
        given(block("[[10,0,0], [0,0,10], [0,0,0], [0,10,0], [0,0,0], [0,0,0]]"), "W_VT"),
        Printed(
            block(
                "[[10.30759701,  2.83283874,  4.59026201],\n"
                "[10.10551833,  2.97334971,  4.50027071],\n"
                "[15.03361159,  4.13169018,  2.10990693],\n"
                "[ 3.06082018,  1.53041009,  7.70438486]]"
            ),
            _ensae_attention,
            "expected A (sanity check)",
        ),
        given(
            block(
                "[[[-0.46728206,  0.03477207],\n[-0.47425330,  0.05069541]],\n"
                "[[-0.38198256,  0.02403205],\n[-0.39846635,  0.02506737]],\n"
                "[[-0.29631630,  0.12201238],\n[-0.30199534,  0.12650707]]]"
            ),
            "expected head output (random weights)",
        ),
        given(
            block(
                "[[[-0.37939820, -0.16596894],\n[-0.47425330,  0.05069541]],\n"
                "[[-0.14184165,  0.00894911],\n[-0.39846635,  0.02506737]],\n"
                "[[-0.17301908,  0.02442869],\n[-0.30199534,  0.12650707]]]"
            ),
            "expected masked head output (random weights)",
        ),
        given(
            block(
                """
                [[[-0.03730504, -0.07006130, -0.27096999,  0.13144857, -0.45049590,
                  -0.33217290],
                 [-0.06818272, -0.04490501, -0.34806073,  0.15622401, -0.45459983,
                  -0.33084857]],
                [[-0.08914752, -0.03846309, -0.36569631,  0.09802882, -0.39963537,
                  -0.29225215],
                 [-0.04541985,  0.01269679, -0.25225419,  0.08241771, -0.41533324,
                  -0.30674040]],
                [[ 0.15234883, -0.08591781, -0.10099770,  0.19886394, -0.49236685,
                  -0.43605998],
                 [ 0.15418015, -0.01837257, -0.00573672,  0.14228639, -0.48172480,
                  -0.40757987]]]
                """
            ),
            "expected multi-head output (random weights)",
        ),
    ),
    notes=(
        "An unexecuted exercise notebook: the only numbers are in the code. Step 1 gives X "
        "(T = 4, C = 6) and the transposed projections (H = 3); the sanity check holds the "
        "expected A = softmax(QK^T/√3) V (the scale is implied, not written; unscaled would "
        "give [[8.44, 2.15, 5.74], ...]). Those 12 values are right. The later sanity checks "
        "come from nn.Linear layers initialised with a seed (one head, a causally masked head, "
        "three heads concatenated and projected), whose weights are not on the page: nothing "
        "to recompute, given."
    ),
)

# --- HTML page: exact integer scores under a causal mask, softmax left as formulas ---------------


def _grid_row(i: int) -> Truth:
    return lambda x: x["Q"][i : i + 1] @ x["K"][: i + 1].T


GRID = Doc(
    file="heldout/html-exact-causal-grid-named-softmax.html",
    url="https://www.egtry.com/attention-structurally/the-attention-grid/",
    kind="html-mathjax",
    language="en",
    inputs={"Q": a([[1, 0], [0, 1], [1, 1]]), "K": a([[1, 0], [0, 1], [1, 1]])},
    printed=(
        given(one("1", "0"), "Q1"),
        given(one("0", "1"), "Q2"),
        given(one("1", "1"), "Q3"),
        given(one("1", "0"), "K1"),
        given(one("0", "1"), "K2"),
        given(one("1", "1"), "K3"),
        Printed(one("1"), _grid_row(0), "grid row Q1 (K2, K3 masked)"),
        Printed(one("0", "1"), _grid_row(1), "grid row Q2 (K3 masked)"),
        Printed(one("1", "1", "2"), _grid_row(2), "grid row Q3"),
        Printed(one("1"), _grid_row(0), "row 1: scores"),
        Printed(one("1"), lambda x: softmax(_grid_row(0)(x)), "row 1: weights"),
        Printed(one("0", "1"), _grid_row(1), "row 2: scores"),
        Printed(one("1", "1", "2"), _grid_row(2), "row 3: scores"),
        Printed(one("1"), lambda x: softmax(_grid_row(0)(x)), "row 1 weight"),
    ),
    notes=(
        "Unscaled scores S_ij = Q_i · K_j of integer vectors under a causal mask, the masked "
        "cells written as the word 'masked' in the grid; the softmax weights of rows 2 and 3 "
        "are left as exponential formulas (e^0/(e^0+e^1) ...), only row 1's weight 1 is a "
        "number. All right."
    ),
)

# --- French course page: an illustrative attention matrix, nothing computed -----------------------

FR_NOTES = Doc(
    file="heldout/fr-course-notes-attention-illustrative-matrix.md",
    url=(
        "https://github.com/ludivineRB/dbt_snowflake_learning/blob/main/09-Deep-Learning/NLP/"
        "V3/Module6/module6_attention_mechanisms.md"
    ),
    kind="course-notes",
    language="fr",
    inputs={},
    printed=(given(block("0.1 0.3 0.6\n0.2 0.5 0.3\n0.1 0.7 0.2"), "« Le chat mange »"),),
    notes=(
        "Course page with the formulas, the softmax definition and one attention matrix for "
        "« Le chat mange » whose rows sum to 1 but which is made up for the demonstration (no "
        "Q, K or scores anywhere). Nothing can be recomputed; nothing may be claimed."
    ),
)

# --- blog post (markdown): softmax of three scores with a slip in the last weight -----------------

BLOG_SAT = Doc(
    file="heldout/blog-md-transformer-architecture-sat-weights.md",
    url="https://blog.nahian.xyz/blog/transformer-architecture",
    kind="blog",
    language="en",
    inputs={"s": a([[0.7, 2.1, 1.3]])},
    printed=(
        given(one("0.7", "2.1", "1.3"), "scores of 'sat'"),
        Printed(one("0.15", "0.59", "0.27"), lambda x: softmax(x["s"]), "α"),
        Printed(
            one("0.15", "0.59", "0.27"),
            lambda x: softmax(x["s"]),
            "α in 0.15·V_the + 0.59·V_cat + 0.27·V_sat",
        ),
        given(one("0.54", "-0.11", "0.63", "0.08"), "output_sat (V not in the copy)"),
    ),
    notes=(
        "Transcribed from the middle of the post (the stored copy starts after the Q, K, V "
        "vectors). softmax([0.7, 2.1, 1.3]) = [0.1454, 0.5897, 0.2649]: the printed 0.15 and "
        "0.59 are right, 0.27 is wrong (0.26; the three printed weights sum to 1.01), and it "
        "is repeated as a coefficient of the weighted sum. The output vector cannot be "
        "checked without V."
    ),
)

# --- torch notebook: the causal running average as a matrix product and as a masked softmax -----

_X0 = block(
    """
    tensor([[ 0.1808, -0.0700],
            [-0.3596, -0.9152],
            [ 0.6258,  0.0255],
            [ 0.9545,  0.0643],
            [ 0.3612,  1.1679],
            [-1.3499, -0.5102],
            [ 0.2360, -0.2398],
            [-0.9211,  1.5433]])
    """
)
_XBOW = block(
    """
    tensor([[ 0.1808, -0.0700],
            [-0.0894, -0.4926],
            [ 0.1490, -0.3199],
            [ 0.3504, -0.2238],
            [ 0.3525,  0.0545],
            [ 0.0688, -0.0396],
            [ 0.0927, -0.0682],
            [-0.0341,  0.1332]])
    """
)


def _uniform_causal(n: int) -> np.ndarray:
    return softmax(np.where(_tril(n), 0.0, -np.inf))


def _xbow(x: Arrays) -> np.ndarray:
    return _uniform_causal(8) @ x["x"]


BAG = Doc(
    file="heldout/notebook-torch-causal-average-trick-bag-of-words.ipynb",
    url="https://github.com/cyrielladriere/GPT-from-scratch/blob/main/demo.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={"x": a([[float(e) for e in row] for row in _X0])},
    printed=(
        other(one("4", "8", "2"), "torch.Size([4, 8, 2])"),
        given(_X0, "x[0]"),
        Printed(_XBOW, settled(_xbow, {"x": _ROUNDED_4}, _XBOW), "xbow[0] (loops)"),
        Printed(_XBOW, settled(_xbow, {"x": _ROUNDED_4}, _XBOW), "xbow2[0] = (weights @ x)[0]"),
        Printed(
            block(
                """
                tensor([[1.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
                        [0.5000, 0.5000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
                        [0.3333, 0.3333, 0.3333, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
                        [0.2500, 0.2500, 0.2500, 0.2500, 0.0000, 0.0000, 0.0000, 0.0000],
                        [0.2000, 0.2000, 0.2000, 0.2000, 0.2000, 0.0000, 0.0000, 0.0000],
                        [0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.0000, 0.0000],
                        [0.1429, 0.1429, 0.1429, 0.1429, 0.1429, 0.1429, 0.1429, 0.0000],
                        [0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250]])
                """
            ),
            lambda x: _uniform_causal(8),
            "weights = tril / row sums",
        ),
        given(
            block("tensor([[1., 0., 0.],\n[1., 1., 0.],\n[1., 1., 1.]])"), "torch.tril(ones(3, 3))"
        ),
        Printed(
            block(
                """
                tensor([[0., -inf, -inf, -inf, -inf, -inf, -inf, -inf],
                        [0., 0., -inf, -inf, -inf, -inf, -inf, -inf],
                        [0., 0., 0., -inf, -inf, -inf, -inf, -inf],
                        [0., 0., 0., 0., -inf, -inf, -inf, -inf],
                        [0., 0., 0., 0., 0., -inf, -inf, -inf],
                        [0., 0., 0., 0., 0., 0., -inf, -inf],
                        [0., 0., 0., 0., 0., 0., 0., -inf],
                        [0., 0., 0., 0., 0., 0., 0., 0.]])
                """
            ),
            lambda x: np.where(_tril(8), 0.0, -np.inf),
            "zeros masked with -inf",
        ),
        other(one("4", "8", "16"), "torch.Size([4, 8, 16])"),
        given(
            block(
                """
                tensor([[1.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
                [0.1574, 0.8426, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
                [0.2088, 0.1646, 0.6266, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
                [0.5792, 0.1187, 0.1889, 0.1131, 0.0000, 0.0000, 0.0000, 0.0000],
                [0.0294, 0.1052, 0.0469, 0.0276, 0.7909, 0.0000, 0.0000, 0.0000],
                [0.0176, 0.2689, 0.0215, 0.0089, 0.6812, 0.0019, 0.0000, 0.0000],
                [0.1691, 0.4066, 0.0438, 0.0416, 0.1048, 0.2012, 0.0329, 0.0000],
                [0.0210, 0.0843, 0.0555, 0.2297, 0.0573, 0.0709, 0.2423, 0.2391]],)
                """
            ),
            "weights[0] (random keys and queries, unscaled)",
        ),
        given(
            block(
                """
                tensor([[-0.1571,  0.8801,  0.1615, -0.7824, -0.1429,  0.7468,  0.1007, -0.5239,
                -0.8873,  0.1907,  0.1762, -0.5943, -0.4812, -0.4860,  0.2862,  0.5710],
                [ 0.8321, -0.8144, -0.3242,  0.5191, -0.1252, -0.4898, -0.5287, -0.0314,
                0.1072,  0.8269,  0.8132, -0.0271,  0.4775,  0.4980, -0.1377,  1.4025],
                [ 0.6035, -0.2500, -0.6159,  0.4068,  0.3328, -0.3910,  0.1312,  0.2172,
                -0.1299, -0.8828,  0.1724,  0.4652, -0.4271, -0.0768, -0.2852,  1.3875],
                [ 0.6657, -0.7096, -0.6099,  0.4348,  0.8975, -0.9298,  0.0683,  0.1863,
                0.5400,  0.2427, -0.6923,  0.4977,  0.4850,  0.6608,  0.8767,  0.0746],
                [ 0.1536,  1.0439,  0.8457,  0.2388,  0.3005,  1.0516,  0.7637,  0.4517,
                -0.7426, -1.4395, -0.4941, -0.3709, -1.1819,  0.1000, -0.1806,  0.5129],
                [-0.8920,  0.0578, -0.3350,  0.8477,  0.3876,  0.1664, -0.4587, -0.5974,
                0.4961,  0.6548,  0.0548,  0.9468,  0.4511,  0.1200,  1.0573, -0.2257],
                [-0.4849,  0.1655, -0.2221, -0.1345, -0.0864, -0.6628, -0.0936,  0.1050,
                -0.2612,  0.1854,  0.3171, -0.1393,  0.5486, -0.4086, -0.3851,  0.7106],
                [ 0.2042,  0.3772, -1.1255,  0.3995,  0.1489,  0.3590, -0.1791,  1.3732,
                0.1588, -0.2320,  0.1651,  0.7604,  0.3521, -1.0864, -0.7939, -0.3025]],)
                """
            ),
            "v[0] (random value layer)",
        ),
    ),
    notes=(
        "Karpathy's 'mathematical trick' section: x[0] of a random (4, 8, 2) batch is "
        "printed, its causal running mean xbow[0] is computed with loops, then as a product "
        "with the row-normalised lower triangle (printed), then as the softmax of zeros "
        "masked with -inf above the diagonal (printed) — three forms of uniform causal "
        "attention. The last cell prints weights[0] of a real head (random nn.Linear keys and "
        "queries, no 1/√d scale) and v[0]: not recomputable, given. torch.allclose prints "
        "False twice (float tolerance), not a number. All computed prints are right."
    ),
)

JUDGE_DOCS_2: list[Doc] = [SLIDES, ENSAE, GRID, FR_NOTES, BLOG_SAT, BAG]
