"""A rational function of one letter factored by FLINT is SymPy's ``factor`` of it, to the
last node of the expression (the names' tidying reads it; the golden files print it)."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.solution import shorthand
from mha_symbolic.solution.one_letter import factored_parts

a = sp.Symbol("a", positive=True)

CASES = [
    (a / (3 * a + 1) + a / (a + 3), "4*a*(a + 1)/((a + 3)*(3*a + 1))"),
    ((2 - a) / (a + 3), "-(a - 2)/(a + 3)"),
    (1 / (a**2 + 2 * a + 1), "(a + 1)**(-2)"),
    ((a**2 + a) / (a**2 + 2 * a + 1), "a/(a + 1)"),
    (sp.Rational(1, 2) + 1 / (a + 3), "(a + 5)/(2*(a + 3))"),
    (a / (2 * a + 2), "a/(2*(a + 1))"),
    (
        -a / (3 * a + 1) + 1 / (a**2 + 2 * a + 1),
        "-(a - 1)*(a**2 + 3*a + 1)/((a + 1)**2*(3*a + 1))",
    ),
]


@pytest.mark.parametrize(("entry", "factored"), CASES)
def test_one_letter_is_factored_as_sympy_factors_it(entry: sp.Expr, factored: str) -> None:
    assert str(shorthand._factored(entry)) == factored
    assert sp.srepr(shorthand._factored(entry)) == sp.srepr(sp.factor(entry))


def test_one_letter_never_asks_sympys_polynomial_field(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("SymPy's polynomial field was asked")

    monkeypatch.setattr(sp.polys.fields, "field", refused)
    assert str(shorthand._factored(a / (3 * a + 1) + a / (a + 3))) == CASES[0][1]


def test_zero_and_a_division_by_zero_are_left_to_sympy() -> None:
    zero = sp.Add(a, -a, evaluate=False)
    assert factored_parts(zero, a) is None
    assert factored_parts(sp.Mul(a, sp.Pow(zero, -1, evaluate=False), evaluate=False), a) is None
    assert factored_parts(2 * a / (4 * a + 2), a) == (sp.Rational(1, 1), [(a, 1), (2 * a + 1, -1)])


_LEAVES = st.one_of(
    st.just(a),
    st.integers(1, 4).map(lambda k: a**k),
    st.fractions(min_value=-5, max_value=5, max_denominator=4).map(sp.Rational),
)
_ENTRIES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: sp.Add(*xs)),
        st.lists(inner, min_size=2, max_size=2).map(lambda xs: sp.Mul(*xs)),
        st.tuples(inner, st.sampled_from([-2, -1, 2, 3])).map(lambda p: p[0] ** p[1]),
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(_ENTRIES)
def test_any_rational_function_of_one_letter_is_sympys_factor(entry: sp.Expr) -> None:
    if entry.free_symbols != {a} or entry.has(sp.zoo, sp.nan, sp.oo):
        return  # a number, or a division by zero: not a rational function of a
    assert sp.srepr(shorthand._factored(entry)) == sp.srepr(sp.factor(entry))
