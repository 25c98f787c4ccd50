"""The solution's shared-subterm reads give exactly SymPy's own answers."""

from __future__ import annotations

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.subterms import Subterms


def test_symbols_exponentials_and_substitution_match_sympy_on_a_symbolic_example() -> None:
    d = derive(AttentionSpec.example("eight-tokens-split"))
    subterms = Subterms()
    chosen = {s: sp.Integer(1) for s in d.free_symbols}
    for step in d.steps:
        assert subterms.free_symbols(step.value) == step.value.free_symbols, step.key
        assert subterms.exponentials(step.value) == step.value.atoms(sp.exp), step.key
        expected = sp.ImmutableMatrix(step.value.xreplace(chosen))
        assert subterms.substituted(step.value, chosen) == expected, step.key


def test_a_bound_variable_is_not_a_free_symbol_and_each_rule_is_its_own() -> None:
    x, t = sp.symbols("x t")
    integral = sp.Integral(sp.exp(t * x), (t, 0, 1)) + sp.exp(x)
    subterms = Subterms()
    assert subterms.free_symbols(integral) == {x}
    assert subterms.exponentials(integral) == {sp.exp(t * x), sp.exp(x)}
    at_zero = subterms.substituted(integral, {x: sp.Integer(0)})
    assert at_zero == sp.Integral(1, (t, 0, 1)) + 1
    assert subterms.substituted(integral, {x: sp.Integer(2)}) == integral.xreplace({x: 2})


def test_answers_stay_right_when_the_remembered_subterms_are_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mha_symbolic.solution import subterms as module

    monkeypatch.setattr(module, "LIMIT", 3)
    x, y = sp.symbols("x y")
    subterms = Subterms()
    values = [sp.exp(x) / (1 + sp.exp(x + y)), sp.exp(2 * y) + x, sp.exp(x) * y]
    for value in values * 2:
        assert subterms.free_symbols(value) == value.free_symbols
        assert subterms.exponentials(value) == value.atoms(sp.exp)
        assert subterms.substituted(value, {x: sp.Integer(0)}) == value.xreplace({x: 0})
    assert len(subterms._parts) + sum(len(m) for m in subterms._made.values()) < 20


@pytest.mark.parametrize("name", ["eight-tokens-split", "temperature"])
def test_substitution_at_the_chosen_numbers_matches_sympy(name: str) -> None:
    # the chosen numbers put zeros off the diagonal: products of 0 are made without SymPy's
    # question whether each factor is finite, and must be what SymPy makes of them
    from mha_symbolic.solution.chosen import chosen_values

    d = derive(AttentionSpec.example(name))
    chosen = chosen_values(d)
    assert sp.Integer(0) in chosen.values() or name == "temperature"
    subterms = Subterms()
    for step in d.steps:
        expected = sp.ImmutableMatrix(step.value.xreplace(chosen))
        made = subterms.substituted(step.value, chosen)
        assert made == expected, step.key
        assert [e.args for e in made] == [e.args for e in expected], step.key


def test_a_product_of_zero_is_sympys_own_whatever_its_other_factors() -> None:
    x, y = sp.symbols("x y")
    values = [
        x * sp.exp(y) / (1 + sp.exp(y)),  # 0 times finite numbers: 0
        x / (y - 1),  # 0 times 1/0: nan
        x * sp.exp(1 / y),  # 0 times e^(1/0): nan
        x * y * sp.sqrt(y + 2) / sp.sqrt(y - 3),  # 0 times an imaginary number
        x * sp.log(y + 1),  # a function it does not read: SymPy decides
    ]
    for at in ({x: sp.Integer(0), y: sp.Integer(1)}, {x: sp.Integer(0), y: sp.Integer(0)}):
        subterms = Subterms()
        for value in values:
            assert subterms.substituted(value, at) == value.xreplace(at), (value, at)
