"""tests/mp_value.py (the oracle several tests read exact values with) against SymPy's own
route to mpmath, lambdify, on the examples' outputs and gradients (rope has cos and sin)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive
from tests.mp_value import mp_value


@pytest.mark.parametrize("name", ["two-tokens", "rope", "split-scaled", "pytorch-style"])
def test_mp_value_is_lambdify_to_mpmath(name: str) -> None:
    d = derive(AttentionSpec.example(name), gradients=True)
    names = list(d.keys())
    gradients = [name for name in names if name.startswith("grad.")][-2:]
    keys = ["output", "head1.weights", "head1.q", *gradients]
    with mpmath.workdps(60):
        for key in keys:
            for value in list(d[key])[:4]:
                ours = mp_value(value)
                theirs = sp.lambdify((), value, modules="mpmath")()
                assert abs(ours - theirs) <= mpmath.mpf(10) ** -55 * max(1, abs(theirs)), key


def test_mp_value_reads_numbers_and_functions() -> None:
    with mpmath.workdps(40):
        assert mp_value(sp.Rational(1, 3)) == mpmath.mpf(1) / 3
        assert mp_value(sp.exp(sp.sqrt(2) / 2)) == mpmath.exp(mpmath.sqrt(2) / 2)
        assert mp_value(sp.cos(sp.Rational(1, 2)) * sp.pi) == mpmath.cos(0.5) * mpmath.pi
        assert mp_value(sp.Max(1, sp.Rational(3, 2))) == mpmath.mpf(1.5)  # by lambdify
        assert mp_value(sp.S.NegativeInfinity) == mpmath.mpf("-inf")
