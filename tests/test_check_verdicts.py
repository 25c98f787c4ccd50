"""The verdict bugs: declared parameters in claims, huge logits, scientific notation."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from mha_symbolic import check, derive
from mha_symbolic.check.claims import read_claim
from mha_symbolic.check.verdicts import judge_side, worst
from mha_symbolic.exact import balls
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


# A weight written as its formula of printed parts, then its value (a blog's softmax line).
ALPHA = sp.exp(sp.Rational(784, 1000)) / sp.Rational(95599, 10000)  # 0.229104...


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\frac{2.1902}{9.5599}", "rounded"),  # 2.1902 and 9.5599 each to half a unit
        (r"\frac{2.1902}{9.5599} = 0.2291", "rounded"),
        (r"\alpha_{\text{Hello}} = \frac{2.1902}{9.5599} \approx 0.2291", "rounded"),
        (r"\frac{2.1902}{9.5599} = 0.2292", "wrong"),  # the quotient holds, 0.2292 does not
        (r"\frac{2.19}{9.61}", "wrong"),  # at most 2.195 / 9.605 = 0.22853
        (r"\frac{2.2}{9.6}", "rounded"),  # as wide as its digits: 2.15/9.65 .. 2.25/9.55
    ],
)
def test_formula_parts_are_printed_numbers(text: str, expected: str) -> None:
    claim = read_claim("x", text, {"x": (1, 1)}, str)
    target = sp.ImmutableMatrix([[ALPHA]])
    entries = [e for side in claim.sides for e in judge_side(claim, side, target) or ()]
    assert worst(e.verdict for e in entries) == expected


def _symbolic_softmax_entry(size: int) -> sp.Expr:
    """One weight of a softmax over ``size`` symbolic scores: e^{s_1} / sum_j e^{s_j}."""
    scores = sp.symbols(f"s1:{size + 1}")
    return sp.exp(scores[0]) / sum(sp.exp(s) for s in scores)


def test_a_large_symbolic_entry_printed_wrong_is_wrong_without_expanding_it() -> None:
    """A document's 0.5 against a softmax entry over 12 symbolic scores: proved wrong at a
    point (arb), never by expanding the difference (which took ten minutes)."""
    from mha_symbolic.check.verdicts import _judge_symbolic

    assert _judge_symbolic(_symbolic_softmax_entry(12) - sp.Rational(1, 2)) == "wrong"


def test_a_large_symbolic_identity_is_undecided_rather_than_simplified() -> None:
    """Equal at both points and past the size where expanding is bounded: undecided."""
    from mha_symbolic.check.verdicts import _judge_symbolic

    entry = _symbolic_softmax_entry(150)
    difference = sp.Add(entry, -sp.together(entry), evaluate=False)
    assert _judge_symbolic(difference) == "undecided"


def test_a_small_symbolic_identity_is_still_exact() -> None:
    from mha_symbolic.check.verdicts import _judge_symbolic

    a, b = sp.symbols("a b")
    assert (
        _judge_symbolic(sp.Add((a + b) ** 2, -(a**2 + 2 * a * b + b**2), evaluate=False)) == "exact"
    )
