"""User values become exact SymPy numbers: decimals as written, fractions, LaTeX."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, SpecError
from mha_symbolic.exact.ops import _times
from mha_symbolic.exact.ops import canonical_add as _add
from mha_symbolic.spec.exact_numbers import symbolic_matrix, to_matrix, to_number
from mha_symbolic.spec.latex_adapter import parse_latex

R = sp.Rational

NUMBERS = [
    (3, sp.Integer(3)),
    (0.1, R(1, 10)),
    (-2.5, R(-5, 2)),
    (1e-3, R(1, 1000)),
    (Decimal("0.730"), R(73, 100)),
    (Fraction(2, 6), R(1, 3)),
    ("0.1", R(1, 10)),
    ("-3/4", R(-3, 4)),
    (" 7 ", sp.Integer(7)),
    ("1.5e2", sp.Integer(150)),
    ("\\sqrt{2}", sp.sqrt(2)),
    ("\\frac{1}{\\sqrt{3}}", sp.sqrt(3) / 3),
    ("\\frac{e}{1+e}", sp.E / (1 + sp.E)),
    ("e^{\\frac{\\sqrt{2}}{2}}", sp.exp(sp.sqrt(2) / 2)),
    ("x_{1}", sp.Symbol("x_1")),
    ("W_{Q1,12}", sp.Symbol("W_{Q1,12}")),
    (np.float32(0.1), R(1, 10)),
    (np.float64(0.3), R(3, 10)),
    (np.int64(-4), sp.Integer(-4)),
    (sp.Rational(2, 7), R(2, 7)),
]


@pytest.mark.parametrize(("value", "expected"), NUMBERS, ids=[repr(v) for v, _ in NUMBERS])
def test_to_number_is_exact(value, expected):
    result = to_number(value, "x[1,1]")
    assert result == expected
    assert sp.srepr(result) == sp.srepr(expected)


def test_toml_floats_keep_their_decimals(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("x = [[0.1, 0.2], [0.30, 1e-2]]\nscale = 0.5\n")
    spec = AttentionSpec.from_toml(path)
    assert spec.query == sp.Matrix([[R(1, 10), R(1, 5)], [R(3, 10), R(1, 100)]])
    assert spec.scale == R(1, 2)


def test_numpy_and_sympy_matrices_are_accepted():
    assert to_matrix(np.array([[0.5, 1.0]], dtype=np.float32), "x") == sp.Matrix([[R(1, 2), 1]])
    assert to_matrix(sp.Matrix([[1, sp.sqrt(2)]]), "x") == sp.Matrix([[1, sp.sqrt(2)]])
    latex = "\\begin{bmatrix} 1 & 0.5 \\\\ 0 & 1 \\end{bmatrix}"
    assert to_matrix(latex, "w") == sp.Matrix([[1, R(1, 2)], [0, 1]])


def test_keyword_arguments_take_numpy_weights():
    spec = AttentionSpec(
        x=np.eye(2), heads=2, weights={"w_q": np.stack([np.eye(2), np.eye(2)[::-1]])}
    )
    assert spec.weights["w_q"][1] == sp.Matrix([[0, 1], [1, 0]])


NOT_NUMBERS = [
    ("abc", 'w_q[1][1,1]: cannot read "abc" as a number (\'abc\' is not a declared parameter; '
            "declare it under [parameters], or put \\cdot between letters for a product)"),
    ("1..2", 'w_q[1][1,1] = "1..2": two decimal points in one number (1..2)'),
    ("1.2.3", 'w_q[1][1,1] = "1.2.3": two decimal points in one number (1.2.3)'),
    ("2 3", 'w_q[1][1,1] = "2 3": two numbers side by side (2 3); write 2 \\cdot 3 for a product'),
    ("", 'w_q[1][1,1]: cannot read "" as a number'),
    ("0x10", 'w_q[1][1,1] = "0x10": a hexadecimal number (0x10) is not read; write 16'),
    ("2e", 'w_q[1][1,1] = "2e": a letter right after a number (2e); write 2 \\cdot e, '
           "or 2e3 for scientific notation"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), NOT_NUMBERS)
def test_text_that_is_not_a_number(text, message):
    with pytest.raises(SpecError) as caught:
        to_number(text, "w_q[1][1,1]")
    assert str(caught.value) == message


def test_symbolic_names_round_trip_through_latex():
    matrix = symbolic_matrix("W", "Q1", 2, 2)
    assert matrix[0, 1] == sp.Symbol("W_{Q1,12}")
    for entry in matrix:
        assert parse_latex(sp.latex(entry)) == entry
    assert symbolic_matrix("W", "O", 10, 10)[9, 0] == sp.Symbol("W_{O,10,1}")


def test_symbolic_weights_have_textbook_shapes():
    spec = AttentionSpec(
        x=[[1, 2, 3, 4]],
        heads=2,
        weights={"w_q": "symbolic", "w_k": "symbolic", "w_v": "symbolic", "w_o": "symbolic"},
    )
    assert spec.weights["w_q"][1].shape == (4, 2)
    assert spec.weights["w_q"][1][3, 1] == sp.Symbol("W_{Q2,42}")
    assert spec.weights["w_o"][0].shape == (4, 4)
    assert spec.weights["w_k"][0][0, 0] == sp.Symbol("W_{K1,11}")
    assert spec.symbolic == {"w_q", "w_k", "w_v", "w_o"}
    assert spec.omitted == set()


exps = st.builds(
    lambda p, q, s: sp.exp(sp.Rational(p, q) + (sp.sqrt(2) if s else 0)),
    st.integers(-6, 6), st.integers(1, 4), st.booleans(),
)  # fmt: skip


@given(st.lists(st.tuples(st.sampled_from([1, 2, -1, -3, 5]), exps), min_size=1, max_size=6,
                unique_by=lambda t: t[1]))  # fmt: skip
def test_fast_sum_is_sympys_canonical_add(terms):
    built = [_times(k, atom) for k, atom in terms]
    fast, slow = _add(built), sp.Add(*built)
    assert fast == slow
    assert fast.args == slow.args
    assert hash(fast) == hash(slow)
