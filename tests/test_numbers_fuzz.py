"""The number reader under fuzzing: any text is a number or one SpecError line, never anything
else; what we print reads back to the same value."""

from __future__ import annotations

import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mha_symbolic import SpecError
from mha_symbolic.solution.latex import exact as latex_of
from mha_symbolic.spec.exact_numbers import from_text

PIECES = st.sampled_from(
    ["1", "0", "2.5", "e", "\\pi", "\\frac{", "}{", "}", "{", "\\sqrt{", "^", "-", "+", "/",
     "\\cdot", "(", ")", "10^{", "1e", "999999", "\\ln(", "\\log_{2}(", "x", " ", "\\,", "_",
     ".", "\\exp(", "\x1b", "\n", "0x", "\\binom{"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=40), st.lists(PIECES, max_size=12).map("".join)))
def test_any_text_is_a_number_or_one_clear_line(text: str) -> None:
    try:
        value = from_text(text, "x[1,1]")
    except SpecError as error:
        message = str(error)
        assert message.startswith("x[1,1]") and "\n" not in message and "\x1b" not in message
        return
    assert isinstance(value, sp.Expr) and not isinstance(value, sp.MatrixBase)


@settings(max_examples=200, deadline=None)
@given(
    st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**9),
    st.sampled_from([sp.Integer(1), sp.sqrt(2), sp.E, sp.exp(sp.Rational(1, 3))]),
)
def test_printed_values_read_back_exactly(fraction, factor) -> None:
    value = sp.Rational(fraction.numerator, fraction.denominator) * factor
    assert from_text(latex_of(value), "x") == value
