"""The verdict bugs: declared parameters in claims, huge logits, scientific notation."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from mha_symbolic import check, derive
from mha_symbolic.check import balls
from mha_symbolic.spec.attention import AttentionSpec

IDENTITY = [[[1, 0], [0, 1]]]


def huge(size: int) -> AttentionSpec:
    """One head whose scores are size^2 on the diagonal and 0 elsewhere."""
    weights = {"w_q": IDENTITY, "w_k": IDENTITY, "w_v": IDENTITY}
    return AttentionSpec.from_dict(
        {"heads": 1, "scale": "none", "x": [[size, 0], [0, size]], "weights": weights}
    )


@pytest.mark.parametrize("size", [100, 1000])  # logits 10^4 and 10^6
@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("head1.weights[1]", "[1.00, 0.00]", "rounded"),
        ("head1.weights[1]", "[1, 0]", "wrong"),  # exact 1 and 0 only in the limit
        ("head1.weights[1,1]", "1", "wrong"),
        ("head1.weights[1,1]", "1e0", "rounded"),
        ("head1.weights[1,2]", "0.0", "rounded"),
        ("head1.weights[1,2]", "-0.0", "rounded"),
    ],
)
def test_huge_logits_are_decided(size: int, key: str, value: str, expected: str) -> None:
    assert check(derive(huge(size)), {key: value}).claims[0].verdict == expected


def test_ball_signs_match_mpmath() -> None:
    """The sign of 1 - e^x/(1+e^x) is that of e^{-x}: mpmath at the digits it needs agrees."""
    for x in (10, 1000, 100000):
        value = 1 - sp.exp(x) / (1 + sp.exp(x))
        mpmath.mp.dps = int(x / 2.3) + 30
        reference = 1 - mpmath.exp(x) / (1 + mpmath.exp(x))
        assert balls.sign(value) == (1 if reference > 0 else -1) == 1
        assert balls.sign(-value) == -1
    mpmath.mp.dps = 15
    assert balls.sign(sp.exp(2) - sp.E**2 + 0 * sp.pi) is None  # zero: never proved here
    assert balls.sign(sp.Symbol("t")) is None


def test_claims_with_declared_parameters() -> None:
    """A claim written with the spec's tau (declared positive) is about that tau."""
    d = derive(AttentionSpec.example("temperature"))
    own = sp.latex(d["head1.weights"][0, 0])
    claims = {
        "head1.weights[1,1]": own,
        "head1.weights[1,2]": r"\frac{1}{2 e^{1/\tau} + 1}",
        "head1.weights[3,3]": r"\frac{1}{1 + 2 e^{-1/\tau}}",
        "head1.weights[2,1]": r"\frac{\tau}{2}",
    }
    report = check(d, claims)
    assert [c.verdict for c in report.claims] == ["exact", "exact", "exact", "wrong"]
    assert report.claims[3].diagnosis == "inconsistent with the given inputs and weights"
