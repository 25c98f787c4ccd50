"""The fresh held-out documents' truth, continued (see tests/corpus/heldout_judge.py)."""

from __future__ import annotations

from tests.corpus.heldout_help import Truth, a, block, given, one
from tests.corpus.helpers import softmax
from tests.corpus.model import Doc, Printed

_ROUNDED_4 = 5e-5

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

JUDGE_DOCS_2: list[Doc] = [GRID, FR_NOTES, BLOG_SAT]
