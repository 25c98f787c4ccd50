"""Readings a step-by-step causal attention notebook needs: a one-row X printed after the
matrix with more digits is that token's row; a printed row of zeros and one number is no slip
of a one-hot value; and the first row of a causal mask, [1, 0, 0] whatever the scores, is
evidence of nothing."""

from __future__ import annotations

import numpy as np

from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import printed_arrays
from mha_symbolic.extract.infer.search import search
from mha_symbolic.extract.reading import read
from mha_symbolic.extract.run import _token_rows


def _arrays(page: str) -> list[rel.Printed]:
    _, items = find_items(read_document(page))
    return printed_arrays(items, 20)


def test_a_row_of_x_printed_after_it_with_more_digits_is_that_tokens_row() -> None:
    page = (
        "# Inputs\n\ninputs = [[0.43, 0.15], [0.55, 0.87], [0.57, 0.85]]\n\n"
        "embedding = [0.5500, 0.8700]\n\nattention\n"
    )
    seen = _token_rows(list(read(read_document(page)).seen))
    assert [(s.role, s.row) for s in seen] == [("x", None), ("x", 2)]


def test_zeros_that_hold_make_no_slip_of_the_one_entry_that_does_not() -> None:
    one_hot, printed, spread, slipped = _arrays(
        "a = [1.0, 0.0, 0.0, 0.0, 0.0]\n\nb = [0.19, 0.0, 0.0, 0.0, 0.0]\n\n"
        "c = [0.5, 0.2, 0.3, 0.1, 0.4]\n\nd = [0.5, 0.2, 0.3, 0.1, 0.9]\n"
    )
    assert rel.fit(rel.printed_node(one_hot), printed) is None
    slip = rel.fit(rel.printed_node(spread), slipped)
    assert slip is not None and slip.slips == ((0, 4),)


def test_the_first_causal_row_says_nothing_about_the_scores_it_masks() -> None:
    """[1.00, 0.00, 0.00, 0.00] is the softmax of the first masked row of any scores: with a
    printed 0/1 mask on the page it is still no relation of the arrays printed before it."""
    kept = np.array([[0.19, 0.16, 0.17, 0.16], [0.2, 0.17, 0.17, 0.15], [0.2, 0.17, 0.17, 0.15]])
    kept = np.vstack([kept, [0.19, 0.17, 0.17, 0.16]]) * np.tril(np.ones((4, 4)))
    rows = ", ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in kept)
    mask = "[[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]"
    arrays = _arrays(f"kept = [{rows}]\n\nmask = {mask}\n\nfirst = [1.00, 0.00, 0.00, 0.00]\n")
    found = search(arrays)
    assert found.matches[arrays[-1].index] == []
