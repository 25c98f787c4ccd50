"""Numbers of one indexed name given one after another on a line (``z_1 = 3.0, z_2 = -2.0``):
one vector, checked as the step its numbers give, in LaTeX, with Unicode subscripts, counted
from 0 or 1; other names, indices out of order or arithmetic after a value make none. Truths
with numpy."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.spans import Taken

LOGITS = np.array([3.0, -2.0, 0.5])
SHARES = np.exp(LOGITS) / np.exp(LOGITS).sum()


def _page(scores: str, weights: str) -> str:
    return (
        "# Why the softmax saturates\n\nWith the scale the scores are small:\n\n"
        f"{scores}\n\nand the softmax gives\n\n{weights}\n\nso the gradient still flows.\n"
    )


def _vectors(text: str) -> list[tuple[str, ...]]:
    _, items = find_items(read_document(text, "md"))
    return [item.rows[0] for item in items if item.kind == "lines"]


def test_one_names_values_on_a_line_are_one_vector() -> None:
    shares = ", ".join(f"p_{i + 1} = {s:.3f}" for i, s in enumerate(SHARES))
    text = _page("$z_1 = 3.0, z_2 = -2.0, z_3 = 0.5$", f"${shares}$")
    assert _vectors(text) == [("3.0", "-2.0", "0.5"), tuple(f"{s:.3f}" for s in SHARES)]
    found = extract_all(text, "md", reprints=True)
    claims = {c.key: c.verdict for one in found for c in check(one.spec).claims}
    assert claims.get("head1.weights[1]") == "rounded", claims


def test_latex_names_subscripts_and_indices_from_zero() -> None:
    latex = r"$$\sigma_1 \approx 0.99, \quad \sigma_2 \approx 0.01$$"
    assert _vectors(_page("none", latex)) == [("0.99", "0.01")]
    assert _vectors(_page("s₀ = 2.0, s₁ = 1.0", "none")) == [("2.0", "1.0")]


def test_other_names_indices_out_of_order_or_arithmetic_make_no_vector() -> None:
    for line in ("a_1 = 0.5, b_2 = 0.7", "z_1 = 0.5, z_3 = 0.7", "z_1 = 0.5 + 1, z_2 = 0.7 * 2"):
        assert _vectors(_page(line, "none")) == [], line


@given(
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 8)), max_size=12),
    st.integers(0, 70),
    st.integers(1, 8),
)
def test_a_span_meets_the_spans_read_as_a_scan_of_them_says(
    spans: list[tuple[int, int]], start: int, width: int
) -> None:
    """The bisection over merged spans that keeps a page of many prints linear answers as
    comparing the span with every span read."""
    read = [(a, a + w) for a, w in spans]
    expected = any(a < start + width and start < b for a, b in read)
    assert Taken(read).meets(start, start + width) == expected
