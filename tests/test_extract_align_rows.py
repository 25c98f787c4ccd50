"""Numbers worked out in LaTeX alignments, one a row (``e^{0.7842} &= 2.1902 \\\\ ...``): the
rows naming one symbol are one vector, checked as the step their numbers give; a score per
display under its own heading is one vector too; a slip in one row is found; rows of different
symbols are no vector. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document

WORDS = ("Hello", "shiny", "sun", "today")
SCORES = np.array([0.7842, 1.3569, 1.2487, 0.5210])
EXPS = np.exp(SCORES)
WEIGHTS = EXPS / EXPS.sum()


def _page(weights: list[str] | None = None) -> str:
    shown = weights or [f"{w:.4f}" for w in WEIGHTS]
    displays = "\n\n".join(
        f'**Attention score between "{word}" and "shiny"**\n\n$$\n\\begin{{align*}} '
        f"\\text{{score}}_{{\\text{{{word}, shiny}}}} &= {score:.4f} \\end{{align*}}\n$$"
        for word, score in zip(WORDS, SCORES, strict=True)
    )
    exps = " \\\\ ".join(f"e^{{{s:.4f}}} &= {e:.4f}" for s, e in zip(SCORES, EXPS, strict=True))
    total = f"{EXPS.sum():.4f}"
    rows = " \\\\ ".join(
        f"\\alpha_{{\\text{{{word}}}}} &= \\frac{{{e:.4f}}}{{{total}}} = {w}"
        for word, e, w in zip(WORDS, EXPS, shown, strict=True)
    )
    return (
        "# Attention of one query, by hand\n\n## Step 1: scores\n\n"
        f"{displays}\n\n## Step 2: the softmax\n\nThe exponentials:\n\n"
        f"$$\n\\begin{{align*}} {exps} \\end{{align*}}\n$$\n\n"
        f"The weights:\n\n$$\n\\begin{{align*}} {rows} \\end{{align*}}\n$$\n"
    )


def _claims(text: str) -> dict[str, str]:
    found = extract_all(text, "md", reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def test_the_rows_of_one_symbol_are_one_vector() -> None:
    _, items = find_items(read_document(_page(), "md"))
    vectors = [item.rows[0] for item in items if item.kind == "lines"]
    assert tuple(f"{s:.4f}" for s in SCORES) in vectors  # one display each, one heading each
    assert tuple(f"{e:.4f}" for e in EXPS) in vectors
    assert tuple(f"{w:.4f}" for w in WEIGHTS) in vectors
    claims = _claims(_page())
    assert claims.get("head1.weights[1]") == "rounded", claims
    assert claims.get("head1.exp") == "rounded", claims


def test_a_slip_in_one_row_is_found() -> None:
    slipped = [f"{w:.4f}" for w in WEIGHTS]
    slipped[2] = "0.4100"  # 0.3100 truly
    assert abs(WEIGHTS[2] - 0.3100) < 5e-5
    assert _claims(_page(slipped)).get("head1.weights[1]") == "wrong"


def test_rows_of_different_symbols_are_no_vector() -> None:
    text = "# Two sums\n\n$$\\begin{align*} a_{1} &= 0.25 \\\\ b_{2} &= 0.75 \\end{align*}$$\n"
    _, items = find_items(read_document(text, "md"))
    assert not [item for item in items if item.kind == "lines"]
