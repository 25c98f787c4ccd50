"""The exact operations' fast paths give exactly SymPy's canonical results."""

from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.exact import ops
from mha_symbolic.spec.exact_numbers import symbolic_matrix, symbolic_vector

rationals = st.fractions(min_value=-3, max_value=3, max_denominator=4).map(sp.Rational)


@settings(max_examples=40, deadline=None)
@given(st.lists(rationals, min_size=6, max_size=6), st.booleans(), st.booleans())
def test_expanded_product_is_expand_of_the_product(numbers, bias, irrational):
    x = sp.ImmutableMatrix(3, 2, numbers)
    a = x * symbolic_matrix("W", "A", 2, 2)
    if bias:
        a = a + sp.ones(3, 1) * symbolic_vector("b", "A", 2)
    if irrational:
        a = a * sp.sqrt(2)
    a = sp.ImmutableMatrix(a)
    b = symbolic_matrix("W", "B", 2, 3)
    fast, slow = ops.expanded_product(a, b), sp.ImmutableMatrix((a * b).applyfunc(sp.expand))
    assert fast == slow
    assert [e.args for e in fast] == [e.args for e in slow]


def test_numbers_stay_numbers():
    a = sp.ImmutableMatrix([[1, sp.Rational(1, 2)]])
    assert ops.expanded_product(a, a.T) == sp.ImmutableMatrix([[sp.Rational(5, 4)]])


def test_softmax_row_is_shifted_by_its_minimum():
    softmax = ops.row_softmax(sp.ImmutableMatrix([[2, 1, -sp.oo]]))
    e = sp.E
    assert softmax.weights == sp.ImmutableMatrix([[e / (1 + e), 1 / (1 + e), 0]])


@settings(max_examples=25, deadline=None)
@given(st.lists(rationals, min_size=9, max_size=9), st.sampled_from([1, 2, 3]))
def test_symbolic_weights_and_attention_are_sympys_own_quotients(numbers, changed):
    # the softmax's quotients over symbolic logits are built directly, in canonical order
    x = sp.ImmutableMatrix(3, 3, numbers)
    q, k = (sp.ImmutableMatrix(x * symbolic_matrix("W", n, 3, 2)) for n in ("Q", "K"))
    v = sp.ImmutableMatrix(x * symbolic_matrix("W", "V", 3, 2))
    logits = ops.scale(ops.scores(q, k), 1 / sp.sqrt(2))
    softmax = ops.row_softmax(logits)
    for i, row in enumerate(softmax.exps):
        z = sp.Add(*row)
        for j, e in enumerate(row):
            slow = sp.Mul(e, sp.Pow(z, -1))
            assert softmax.weights[i, j] == slow
            assert softmax.weights[i, j].args == slow.args
    attended = ops.attend(softmax, v)
    for i, (row, z) in enumerate(zip(softmax.exps, softmax.sums)):
        for c in range(v.cols):
            top = ops.linear_sum((e, v[j, c]) for j, e in enumerate(row))
            slow = sp.Mul(top.content / z.content, top.primitive, sp.Pow(z.primitive, -1))
            assert attended[i, c] == slow
            assert attended[i, c].args == slow.args
    # an edit of one row: the rows and entries left as they were are remembered
    edited = sp.ImmutableMatrix(
        3, 3, [*numbers[:changed], numbers[changed] + 1, *numbers[changed + 1 :]]
    )
    w = symbolic_matrix("W", "Q", 3, 2)
    fast = ops.expanded_product(edited, w)
    assert fast == sp.ImmutableMatrix((edited * w).applyfunc(sp.expand))
    assert [e.args for e in fast] == [e.args for e in (edited * w).applyfunc(sp.expand)]
