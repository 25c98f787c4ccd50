"""One form of a number per document: fractions where the inputs are whole numbers and some
value needs a fraction, the document's own decimals where its inputs print decimals."""

from __future__ import annotations

import sympy as sp

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution import latex
from mha_symbolic.spec.attention import example_text
from mha_symbolic.spec.input_files import parse_toml

HALVES = r"\begin{bmatrix} \frac{1}{2} & \frac{1}{2} & 1 \\ \frac{1}{2} & \frac{1}{2} & 1"


def test_alibi_writes_its_scaled_scores_as_fractions_beside_its_biased_scores() -> None:
    """alibi's scaled scores read 0.5 and its biased scores a step later 9/16, 7/16."""
    md = derive(AttentionSpec.example("alibi")).to_markdown()
    assert r"\frac{9}{16}" in md
    assert md.count(HALVES) == 4  # each head's scaled scores, and again in its biased scores
    assert r"0.5 & 0.5" not in md


def test_a_document_given_decimals_keeps_its_decimals() -> None:
    raw = parse_toml(example_text("alibi"), "alibi")
    raw["x"] = [["0.5", 0], [0, 1], [1, 1]]
    md = derive(AttentionSpec.from_dict(raw)).to_markdown()
    assert r"X &= \begin{bmatrix} 0.5 & 0" in md
    assert r"\frac{1}{2} & \frac{1}{2}" not in md


def test_the_rule_for_one_matrix() -> None:
    half, sixteenth = sp.Rational(1, 2), sp.Rational(9, 16)
    assert not latex.needs_fractions([half, sp.Integer(1), sp.oo])
    assert latex.needs_fractions([half, sixteenth])  # 0.5625: four places for a small fraction
    assert latex.needs_fractions([sp.Rational(1, 3)])
    assert latex.notation([half])(half) == "0.5"
    assert latex.notation([half], fractions=True)(half) == r"\frac{1}{2}"
    assert latex.exact(half, fractions=True) == r"\frac{1}{2}"
