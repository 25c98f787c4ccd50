# ruff: noqa: E501  (the tables below hold one case per line)
"""Printed decimals at a rounding boundary are correctly rounded (half to even) for every exact
value, derive and check agree on them, no float conversion overflows; the Python API has the
command line's bounds and takes NumPy integers."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.cli import main
from mha_symbolic.errors import SpecError
from mha_symbolic.text import decimal_text

R, E = sp.Rational, sp.exp
IDENTITY = {"w_q": [[[1, 0], [0, 1]]], "w_k": [[[1, 0], [0, 1]]], "w_v": [[[1, 0], [0, 1]]]}

# (value, places, printed): each a step from a boundary a float or 15-digit evaluation misses
ROWS = [
    (R(1, 8) + E(-100), 2, "0.13"),
    (R(1, 8) - E(-100), 2, "0.12"),
    (R(1, 8), 2, "0.12"),  # exactly on the boundary: half to even
    (R(3, 8), 2, "0.38"),
    (R(5, 2) + E(-60), 0, "3"),
    (R(5, 2), 0, "2"),
    (R(7, 2), 0, "4"),
    (-R(5, 2) - E(-70), 0, "-3"),
    (-R(5, 2) + E(-70), 0, "-2"),
    (-E(-100), 2, "0.00"),  # no "-0.00"
    (R(1, 8) + E(-(10**7)), 2, "0.13"),  # 14 million bits apart: SymPy cancels the 1/8
    (R(1, 8) + E(-E(1000)), 2, "0.13"),
    (1 / (8 - E(-200)), 2, "0.13"),  # no cancellation to help: arb at 500 bits
    (sp.log(2) / sp.log(4) - R(3, 8), 2, "0.12"),  # 1/8 unsimplified: on the boundary
    (R(1, 2) * 10**-30 + E(-200), 30, "0.000000000000000000000000000001"),
    (sp.sqrt(2), 30, "1.414213562373095048801688724210"),
    (E(-(10**25)), 3, "0.000"),
    (E(1000) / (1 + E(1000)), 2, "1.00"),
    (E(E(1000)) / (1 + E(E(1000))), 2, "1.00"),
    (sp.cos(1), 5, "0.54030"),
    (sp.tanh(1), 5, "0.76159"),  # not an arb conversion: SymPy's evaluation
]


@pytest.mark.parametrize(("value", "places", "printed"), ROWS, ids=[str(r[0])[:40] for r in ROWS])
def test_a_value_at_a_rounding_boundary_prints_correctly(value, places, printed):
    assert decimal_text(value, places) == printed


def test_a_value_with_ten_thousand_digits_before_the_point_has_no_decimals():
    assert decimal_text(E(10**6), 2) is None
    with mpmath.workdps(1000):
        nearest = int(mpmath.nint(mpmath.exp(2000)))
    assert decimal_text(E(2000), 0) == str(nearest)  # 869 digits, every one exact


def _mpmath_rounded(value: sp.Expr, places: int) -> str:
    """``value`` at 60 significant digits with mpmath, rounded half to even by Decimal."""
    with mpmath.workdps(60):
        number = sp.lambdify([], value, "mpmath")()
        text = mpmath.nstr(number, 60, min_fixed=-(10**6), max_fixed=10**6)
    with localcontext() as context:  # localcontext(prec=...) is Python 3.11 and later
        context.prec = 200
        rounded = Decimal(text).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    out = f"{rounded:f}"
    return out[1:] if out.startswith("-") and Decimal(out) == 0 else out


@st.composite
def near_boundaries(draw: st.DrawFn) -> tuple[sp.Expr, int]:
    """k/10^d, or a boundary k/10^d ± 1/2·10^-d, moved by an offset down to about 10^-44:
    within what mpmath's 60 digits resolve for a value below 10^4."""
    places = draw(st.integers(0, 6))
    unit = R(1, 10**places)
    k = draw(st.integers(-(10**4), 10**4))
    centre = draw(st.sampled_from([k * unit, k * unit + unit / 2, k * unit - unit / 2]))
    sign = draw(st.sampled_from([-1, 0, 1]))
    n = draw(st.integers(20, 100))
    form = draw(st.sampled_from(["exp", "sqrt", "scaled"]))
    if form == "exp":
        offset = E(-n)
    elif form == "sqrt":
        offset = sp.sqrt(draw(st.integers(2, 50))) * R(1, 10 ** (places + n // 4))
    else:
        offset = E(R(draw(st.integers(-20, 20)), draw(st.integers(1, 9)))) * R(1, 10 ** (n // 4))
    return centre + sign * offset, places


@settings(max_examples=300, deadline=None)
@given(near_boundaries())
def test_printed_decimals_equal_mpmath_correctly_rounded(case):
    value, places = case
    if value.is_Integer:
        assert decimal_text(value, places) == str(int(value))
        return
    assert decimal_text(value, places) == _mpmath_rounded(value, places)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 400), st.integers(1, 400), st.integers(0, 12), st.sampled_from("se"))
def test_sqrt_and_exp_forms_equal_mpmath(p, q, places, kind):
    value = sp.sqrt(R(p, q)) if kind == "s" else E(R(p - 200, 5 * q))  # within 60 digits
    if value.is_Rational:
        return
    assert decimal_text(value, places) == _mpmath_rounded(value, places)


# ------------------------------------------------------------------ derive and check agree
SPEC = (
    'scale = "none"\nx = [["\\\\frac{1}{8} + e^{-100}", 0], [0, 1]]\n[weights]\n'
    "w_q = [[[1, 0], [0, 1]]]\nw_k = [[[1, 0], [0, 1]]]\nw_v = [[[1, 0], [0, 1]]]\n"
)


def test_derive_and_check_agree_at_a_boundary(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    assert main(["derive", str(spec), "--format", "json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert steps[0]["decimals"] == [["0.13", "0"], ["0", "1"]]
    assert main(["check", str(spec), "--claim", "x[1,1]=0.13"]) == 0
    assert main(["check", str(spec), "--claim", "x[1,1]=0.12"]) == 1
    capsys.readouterr()


@pytest.mark.parametrize("entry", ["1e155", "e^{1000}", "\\\\exp(710)", "1e309"])
def test_softmax_past_the_float_range_prints(tmp_path, capsys, entry):
    quoted = entry if entry == "1e309" else f'"{entry}"'
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC.replace('"\\\\frac{1}{8} + e^{-100}"', quoted))
    assert main(["derive", str(spec), "--format", "json"]) == 0
    steps = {s["key"]: s for s in json.loads(capsys.readouterr().out)["steps"]}
    assert steps["head1.weights"]["decimals"] == [["1.00", "0.00"], ["0.27", "0.73"]]


# ------------------------------------------------------------------ the Python API
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda d: d.to_markdown(decimals=10**6), "decimals must be a whole number from 0 to 50, got 1000000"),
        (lambda d: d.to_markdown(decimals=2.5), "decimals must be a whole number from 0 to 50, got 2.5"),
        (lambda d: d.to_latex(max_size=10**9), "max_size must be a whole number from 0 to 50, got 1000000000"),
        (lambda d: d.enclose(digits=10**9), "digits must be a whole number from 1 to 10000, got 1000000000"),
        (lambda d: d.enclose(digits=True), "digits must be a whole number from 1 to 10000, got True"),
    ],
)  # fmt: skip
def test_the_api_has_the_command_lines_bounds(call, message):
    d = derive(AttentionSpec.example("two-tokens"))
    with pytest.raises(SpecError) as error:
        call(d)
    assert str(error.value) == message


def test_numpy_integers_are_integers():
    spec = AttentionSpec(heads=np.int64(1), x=[[1, 0], [0, 1]], weights=IDENTITY)
    assert spec.heads == 1 and type(spec.heads) is int
    assert derive(AttentionSpec.example("two-tokens")).to_markdown(decimals=np.int64(3))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "derive takes an AttentionSpec or a dict of its keys, got NoneType"),
        (5, "derive takes an AttentionSpec or a dict of its keys, got int"),
        ("two-tokens", "derive takes an AttentionSpec or a dict of its keys, got str; for a file pass AttentionSpec.from_toml('two-tokens'), for an example AttentionSpec.example('two-tokens')"),
    ],
)  # fmt: skip
def test_derive_says_what_to_pass(value, message):
    with pytest.raises(SpecError) as error:
        derive(value)
    assert str(error.value) == message


def test_derive_and_check_take_a_dict():
    table = {"x": [[1, 0], [0, 1]], "weights": IDENTITY}
    assert derive(table)["head1.weights"] == derive(AttentionSpec(**table))["head1.weights"]
    assert check(table, {"head1.weights[1,1]": "0.67"}).ok
    with pytest.raises(SpecError) as error:
        check(None)
    assert str(error.value) == (
        "check takes a Derivation, an AttentionSpec or a dict of its keys, got NoneType"
    )
