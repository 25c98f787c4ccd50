"""The exact operations the page repeats at each edit remember recent results by value: an
equal input gets the same result, a changed one its own, a mutable matrix is still taken."""

from __future__ import annotations

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive
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


def _derived(first: sp.Expr) -> dict[str, sp.Matrix]:
    identity = [[1, 0], [0, 1]]
    weights = {"w_q": identity, "w_k": identity, "w_v": identity}
    d = derive(AttentionSpec(x=[[first, 0], [0, 1]], heads=1, weights=weights))
    return {key: d[key] for key in d}


def _floats(values: dict[str, sp.Matrix]) -> set[str]:
    return {key for key, value in values.items() if value.has(sp.Float)}


@pytest.mark.parametrize("kinds_in_key", [True, False])
@pytest.mark.parametrize("float_first", [True, False])
def test_a_float_spec_and_an_exact_spec_of_equal_values_keep_their_own_kind(
    float_first: bool, kinds_in_key: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SymPy before 1.13 has Float(1.0) == 1: there the key carries the kinds of number too
    monkeypatch.setattr(ops, "KINDS_IN_KEY", kinds_in_key)
    runs = [sp.Float(1.0), sp.Integer(1)]
    if not float_first:
        runs.reverse()
    results = {type(one): _derived(one) for one in runs}
    exact, floats = results[sp.core.numbers.One], results[sp.Float]
    assert _floats(exact) == set()
    assert _floats(floats) == set(floats)  # every step, from x on
    assert len(floats) == 10
    assert exact["head1.weights"][0, 0] == sp.exp(sp.sqrt(2) / 2) / (1 + sp.exp(sp.sqrt(2) / 2))


def test_the_kinds_of_number_are_found_in_matrices_tuples_and_dataclasses() -> None:
    x = sp.Symbol("x")
    softmax = ops.row_softmax(sp.ImmutableMatrix([[x, sp.Float(0.5)]]))
    assert ops.number_kinds((softmax,)) >= {sp.Float}
    exact = ops.number_kinds((sp.ImmutableMatrix([[x + 1, sp.Rational(1, 2)]]), [2]))
    assert exact == {sp.core.numbers.One, sp.core.numbers.Half}


def test_an_error_of_the_operation_itself_is_raised_once_not_computed_twice() -> None:
    calls: list[tuple[object, ...]] = []

    @ops._recent
    def failing(*args: object) -> object:
        calls.append(args)
        raise TypeError("the operation's own error")

    with pytest.raises(TypeError, match="own error"):
        failing(sp.Integer(1))
    assert len(calls) == 1
    with pytest.raises(TypeError, match="own error"):
        failing([1, 2])  # unhashable: no memory, one call
    assert len(calls) == 2


def test_a_small_product_is_remembered_and_a_model_sized_one_is_not() -> None:
    w = sp.ImmutableMatrix(2, 2, sp.symbols("v1:5"))
    x = sp.ImmutableMatrix([[1, 2], [3, 4]])
    assert ops.times(x, w) is ops.times(sp.ImmutableMatrix([[1, 2], [3, 4]]), w)
    assert ops.times(sp.Rational(1, 2), x) == sp.ImmutableMatrix([[1, 2], [3, 4]]) / 2
    big = sp.ImmutableMatrix(ops._SMALL + 1, 1, list(range(ops._SMALL + 1)))
    assert ops.times(2, big) is not ops.times(2, big)
    assert ops.times(2, big) == 2 * big


def test_decimals_read_from_remembered_balls_are_those_made_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mha_symbolic.exact import rounding

    z = sum(sp.exp(sp.Rational(k, 3)) for k in range(6))
    values = [sp.exp(sp.Rational(k, 3)) / z for k in range(6)] + [1 - sp.exp(-300) / z]
    shared = [rounding.proved_decimal(v, 4) for v in values]
    monkeypatch.setattr(rounding, "_MET_LIMIT", 5)  # forgotten at once, again and again
    rounding._MET.clear()
    afresh = [rounding.proved_decimal(v, 4) for v in values]
    assert shared == afresh
    assert shared[-1] == "1.0000"
    assert sum(len(seen) for seen in rounding._MET.values()) < 50
