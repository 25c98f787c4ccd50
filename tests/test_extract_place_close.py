"""A printed number against an exact entry (extract/place._close): with what it asks of the
entry kept between calls, the answer is the plain one, asked again and again."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.extract.infer.float32_slack import SLACK
from mha_symbolic.extract.place import _close


def _plain_close(printed: str, exact: sp.Expr, float32: bool = False) -> bool:
    """The comparison as written before its readings of ``exact`` were kept."""
    if exact.free_symbols:
        return False
    try:
        number = Decimal(printed.replace("−", "-"))
    except InvalidOperation:
        return False
    exponent = number.as_tuple().exponent
    unit = (
        Decimal(10) ** exponent if isinstance(exponent, int) and exponent < 0 else Decimal("1e-9")
    )
    if exact.is_infinite:
        return number.is_infinite() and (number < 0) == bool(exact.is_extended_negative)
    if number.is_infinite():
        return False
    value = Decimal(str(sp.N(exact, 30)))
    if float32:
        unit = max(unit, Decimal(SLACK) * max(abs(value), Decimal(1)))
    return abs(value - number) <= unit


_EXACT = st.sampled_from(
    [
        sp.E / (1 + sp.E),
        1 / (1 + sp.E),
        sp.Rational(1, 3),
        sp.Integer(2),
        sp.sqrt(2) / 2,
        sp.S.NegativeInfinity,
        sp.oo,
        sp.Symbol("v") / 2,
        sp.exp(sp.Rational(-7, 3)) / (1 + sp.exp(sp.Rational(-7, 3))),
    ]
)
_PRINTED = st.sampled_from(
    [
        "0.731",
        "0.7311",
        "0.269",
        "0.27",
        "0.3333",
        "0.333",
        "2",
        "2.0",
        "0.7071",
        "-inf",
        "inf",
        "−inf",
        "nan",
        "x",
        "0.0884",
        "0.09",
        "1e-9",
        "0.5",
    ]
)


@settings(max_examples=150, deadline=None)
@given(_PRINTED, _EXACT, st.booleans())
def test_close_is_the_plain_comparison(printed: str, exact: sp.Expr, float32: bool) -> None:
    plain = _outcome(_plain_close, printed, exact, float32)
    assert _outcome(_close, printed, exact, float32) == plain
    assert _outcome(_close, printed, exact, float32) == plain  # from what was kept


def _outcome(compare: Callable[..., bool], *args: object) -> object:
    """The answer, or the kind of error raised (a printed "nan" raises in both)."""
    try:
        return compare(*args)
    except ArithmeticError as error:
        return type(error)
