"""The report's shortcuts give what the plain computations give: an entry's decimals with a
finite enclosure (SymPy is not asked whether the value is infinite), and exact values printed
once and kept (LaTeX for JSON, one line for the text table), and a claim tested against a
mistake's values judged only up to its first entry that does not hold."""

from __future__ import annotations

from typing import Any

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.check.claims import Claim, read_claim
from mha_symbolic.check.report import _Plain, _plain
from mha_symbolic.check.verdicts import (
    ClaimVerdict,
    _decimal,
    _latex,
    decimal_text,
    holds_for,
    judge_side,
)
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


def _plain_holds_for(claim: Claim, value: sp.ImmutableMatrix) -> bool:
    """Every entry of every side judged, then all asked to hold (before the shortcut)."""
    target = claim.target(value)
    for side in claim.sides:
        entries = judge_side(claim, side, target)
        if entries is None or not all(e.holds for e in entries):
            return False
    return True


_PRINTS = st.sampled_from(["0.27", "0.73", "0.269", "0.731", "0.5", "1", "0", "1/3", "e/(1+e)"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_PRINTS, min_size=2, max_size=2), min_size=1, max_size=2), st.booleans())
def test_holds_for_stops_at_the_first_miss_and_answers_as_judging_every_entry(
    rows: list[list[str]], whole: bool
) -> None:
    """A value whose rows are softmax([0, 1]) = [1/(1+e), e/(1+e)]: claims of one row or
    of the whole, some right, some rounded, some wrong, some of another shape."""
    row = [1 / (1 + sp.E), sp.E / (1 + sp.E)]
    value = sp.ImmutableMatrix([row, row])
    text = "[" + ", ".join("[" + ", ".join(r) + "]" for r in rows) + "]"
    key = "w" if whole else "w[1]"
    claim = read_claim(key, text if whole else "[" + ", ".join(rows[0]) + "]", {"w": (2, 2)}, str)
    assert holds_for(claim, value) == _plain_holds_for(claim, value)
