"""The faster ways of writing a solution give the very output of the slower ones they replace:
the same expression tree (``srepr``), the same text, to the character."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.solution import latex, plain
from mha_symbolic.solution.shorthand import lowest_terms
from mha_symbolic.text import decimal_text
from tests.test_hostile_decimals import ROWS

A, B = sp.symbols("a b", positive=True)
LETTERS = {A, B}


def _polynomial(coefficients: list[int], letter: sp.Symbol) -> sp.Expr:
    return sp.Add(*[c * letter**k for k, c in enumerate(coefficients)])


@st.composite
def rational_functions(draw: st.DrawFn) -> sp.Expr:
    """Sums of fractions of small polynomials in a and b, sharing factors on purpose (the
    softmax entries of a solution are such sums once their exponentials are named)."""
    coefficients = st.lists(st.integers(-4, 4), min_size=1, max_size=3)
    shared = _polynomial(draw(coefficients), draw(st.sampled_from([A, B]))) or sp.Integer(1)
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        top = _polynomial(draw(coefficients), A) + draw(st.integers(-2, 2)) * B
        bottom = _polynomial(draw(coefficients), draw(st.sampled_from([A, B])))
        if bottom == 0:
            bottom = sp.Integer(1)
        scale = sp.Rational(draw(st.integers(-3, 3)) or 1, draw(st.integers(1, 4)))
        shared_power = draw(st.integers(0, 2))
        terms.append(scale * top * shared**shared_power / (bottom * shared))
    return sp.Add(*terms)


@settings(max_examples=150, deadline=None)
@given(rational_functions())
def test_lowest_terms_of_a_rational_function_are_factor_of_cancel(entry: sp.Expr) -> None:
    assert sp.srepr(lowest_terms(entry, LETTERS)) == sp.srepr(sp.factor(sp.cancel(entry)))


def test_lowest_terms_as_a_teacher_writes_the_entries_of_a_solution() -> None:
    entries = {
        (A + 1) / (3 * A + 1) + 1 / (A + 3): "(a**2 + 7*a + 4)/((a + 3)*(3*a + 1))",
        A / (3 * A + 1) - A / (A + 3): "-2*a*(a - 1)/((a + 3)*(3*a + 1))",
        -A / (3 * A + 1) + (A**2 + A) / (A**2 + 2 * A + 1): "2*a**2/((a + 1)*(3*a + 1))",
        (2 * A + 2) / (4 * A + 4): "1/2",
        sp.Rational(1, 2) - 1 / (A + 3): "(a + 1)/(2*(a + 3))",
    }
    assert {e: str(lowest_terms(e, LETTERS)) for e in entries} == entries


def test_an_unnamed_exponential_is_cancelled_first() -> None:
    c = sp.exp(sp.cos(1) - sp.sin(1))
    entry = A * c / (A * c + A) + 1 / (c + 1)
    assert lowest_terms(entry, LETTERS) == sp.factor(sp.cancel(entry))
    assert lowest_terms(entry, LETTERS) == 1


@pytest.mark.parametrize(("value", "places", "printed"), ROWS, ids=[str(r[0])[:40] for r in ROWS])
def test_a_decimal_proved_once_is_the_same_when_asked_again(value, places, printed):
    """At a rounding boundary, just below and above it, tiny, huge and negative: the
    solution's decimal (kept once proved) is the correctly rounded one, every time."""
    first, again = latex.decimal(value, places), latex.decimal(value, places)
    assert first == again == decimal_text(value, places) == printed


def test_an_integer_and_a_float_of_the_same_value_keep_their_own_decimals():
    assert latex.decimal(sp.Integer(2), 2) == "2"
    assert latex.decimal(sp.Float(2.0), 2) == "2.00"
    assert latex.decimal(sp.Integer(2), 2) == "2"


MATRIX = r"\begin{bmatrix} \frac{a}{3 a + 1} & 0.5 \\ 1 & \frac{1}{a + 3} \end{bmatrix}"
LAYOUTS = [
    MATRIX,
    rf"S = {MATRIX} {MATRIX}^{{\top}}",
    rf"e^{{{MATRIX}}} + \frac{{{MATRIX}}}{{2}}",  # the same matrix in an exponent: on one line
    rf"\begin{{aligned}} A &= {MATRIX} \\ &= {MATRIX} {MATRIX} {MATRIX} \end{{aligned}}",
    r"\begin{bmatrix} 1 & \frac \end{bmatrix} {x}",  # a fraction missing its parts
    r"\begin{bmatrix} 1 & 2 \end",  # an environment not ended with its name
    r"\begin{bmatrix} 1 & 2 \end{bmatrix}^{2}",
]


def _drawn(texts: list[str]) -> list[tuple[str, str, int, str]]:
    return [
        (t, plain.display(t, 40), plain.drawn_width.__wrapped__(t), plain.inline(t)) for t in texts
    ]


def test_a_matrix_drawn_once_is_drawn_alike_wherever_it_stands_again() -> None:
    plain._DRAWN.clear()
    cold = {text: _drawn([text])[0] for text in LAYOUTS}  # each drawn with nothing kept
    for order in (LAYOUTS, LAYOUTS[::-1]):
        for text in order:
            plain._DRAWN.clear()
            assert _drawn([text])[0] == cold[text]
    warm = _drawn(LAYOUTS[::-1] + LAYOUTS)  # each after all the others were kept
    assert warm == [cold[text] for text in LAYOUTS[::-1] + LAYOUTS]
    assert plain.drawn_width(rf"S = {MATRIX} {MATRIX}^{{\top}}") == 48  # fractions stacked
    exponent = plain.display(rf"e^{{{MATRIX}}} + \frac{{{MATRIX}}}{{2}}", 40).splitlines()
    assert exponent[0] == "e^(⎡ a/(3a + 1) 0.5 ⎤ ⎣ 1 1/(a + 3) ⎦)"  # on one line, as before


def test_lowest_terms_of_a_number_is_the_number() -> None:
    assert [lowest_terms(e, LETTERS) for e in (sp.Integer(0), sp.Rational(-3, 2))] == [
        0,
        sp.Rational(-3, 2),
    ]
