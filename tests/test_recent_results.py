"""The exact operations the page repeats at each edit remember recent results by value: an
equal input gets the same result, a changed one its own, a mutable matrix is still taken."""

from __future__ import annotations

import sympy as sp

from mha_symbolic.exact import ops


def test_equal_inputs_share_a_result_and_changed_ones_get_their_own() -> None:
    w = sp.Matrix(2, 2, sp.symbols("w1:5"))
    first = ops.expanded_product(sp.ImmutableMatrix([[1, 2], [3, 4]]), sp.ImmutableMatrix(w))
    again = ops.expanded_product(sp.ImmutableMatrix([[1, 2], [3, 4]]), sp.ImmutableMatrix(w))
    changed = ops.expanded_product(sp.ImmutableMatrix([[5, 2], [3, 4]]), sp.ImmutableMatrix(w))
    assert again is first
    assert changed[0, 0] == sp.expand(5 * w[0, 0] + 2 * w[1, 0])
    assert first[0, 0] == sp.expand(w[0, 0] + 2 * w[1, 0])


def test_a_mutable_matrix_is_computed_without_the_memory() -> None:
    logits = sp.Matrix([[0, 1]])
    softmax = ops.row_softmax(logits)
    assert softmax.weights == sp.ImmutableMatrix([[1 / (1 + sp.E), sp.E / (1 + sp.E)]])
