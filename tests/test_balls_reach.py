"""Signs of exact constants near an exponential out of arb's reach (a -1e9 mask's weights).

No precision separates 1 - 1/(1 + 2e^{-10^9}) from zero, so none above the cheap attempts is
tried (at the cap each such number cost about half a second); a term within reach in the same
number (e^{-10^5}) still gets the bits it needs.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

import flint
import pytest
import sympy as sp

from mha_symbolic.exact import balls

MASKED = sp.exp(-(10**9) - sp.sqrt(2) / 2)


def _precisions_tried(number: sp.Expr, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    tried: list[int] = []
    precision = balls.precision

    def recording(bits: int) -> AbstractContextManager[None]:
        tried.append(bits)
        return precision(bits)

    monkeypatch.setattr(balls, "precision", recording)
    balls.sign(number)
    return tried


def test_a_difference_beyond_reach_tries_only_cheap_precisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    difference = 1 - 1 / (2 * MASKED + 1)
    assert balls.beyond_reach(difference)
    assert balls.sign(difference) is None
    assert max(_precisions_tried(difference, monkeypatch)) <= 1024


def test_a_term_within_reach_beside_one_beyond_still_gets_its_bits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 1 - w with w = 1/(1 + e^{-10^5} + e^{-10^9}): positive, by about e^{-10^5}
    difference = 1 - 1 / (1 + sp.exp(-(10**5)) + MASKED)
    assert balls.sign(difference) == 1
    assert max(_precisions_tried(difference, monkeypatch)) > 10**5


def test_a_number_far_from_zero_is_settled_at_once() -> None:
    assert balls.sign(MASKED) == 1
    assert balls.sign(MASKED - sp.Rational(1, 10**4)) == -1
    assert flint.ctx.prec == 53
