"""The report's shortcuts give what the plain computations give: an entry's decimals with a
finite enclosure (SymPy is not asked whether the value is infinite), and exact values printed
once and kept (LaTeX for JSON, one line for the text table)."""

from __future__ import annotations

from typing import Any

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.check.report import _Plain, _plain
from mha_symbolic.check.verdicts import ClaimVerdict, _decimal, _latex, decimal_text
from mha_symbolic.exact import balls
from mha_symbolic.exact.rounding import decimal_of


def _plain_decimal(value: sp.Expr, ball: Any, places: int) -> str | None:
    """The decimals as written before the shortcut: SymPy asked first, every time."""
    if value.is_infinite:
        return "-∞" if value.is_extended_negative else "∞"
    if ball is not None and not value.is_Rational:
        quick = decimal_of(ball, places)
        if quick is not None:
            return quick
    return decimal_text(value, places)


_RATIONALS = st.builds(sp.Rational, st.integers(-40, 40), st.integers(1, 9))


@st.composite
def _entries(draw: st.DrawFn) -> sp.Expr:
    """A softmax-like entry: a ratio of sums of exponentials, times a rational, plus a root."""
    exps = [sp.exp(draw(_RATIONALS)) for _ in range(draw(st.integers(1, 4)))]
    value = draw(_RATIONALS) * exps[0] / sp.Add(*exps)
    if draw(st.booleans()):
        value += sp.sqrt(draw(st.integers(2, 7)))
    return draw(st.sampled_from([value, draw(_RATIONALS), sp.S.NegativeInfinity, sp.oo]))


@settings(max_examples=60, deadline=None)
@given(_entries(), st.integers(2, 12), st.booleans())
def test_decimal_with_or_without_an_enclosure_is_the_plain_one(
    value: sp.Expr, places: int, enclosed: bool
) -> None:
    ball = None
    if enclosed:
        with balls.precision(100):
            ball = balls.to_arb(value, {})
    assert _decimal(value, ball, places) == _plain_decimal(value, ball, places)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(_entries(), min_size=1, max_size=3), min_size=1, max_size=3))
def test_exact_values_printed_once_are_printed_as_sympy_prints_them(
    rows: list[list[sp.Expr]],
) -> None:
    width = min(len(row) for row in rows)
    matrix = sp.ImmutableMatrix([row[:width] for row in rows])
    verdict = ClaimVerdict(None, matrix, "exact", (), None, ())  # type: ignore[arg-type]
    for _ in range(2):  # printed, then read back from what was kept
        if matrix.shape == (1, 1):
            assert verdict.exact_latex == sp.latex(matrix[0, 0])
        else:
            assert verdict.exact_latex == sp.latex(matrix, mat_str="bmatrix", mat_delim="")
        for value in matrix:
            assert _latex(value) == sp.latex(value)
            assert _plain(value) == _Plain().doprint(value)
