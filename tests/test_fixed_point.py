"""The fixed-point product of the output projection (exact.fixed_point): every ball contains
the exact product of the balls' values and the rational matrix (computed with Fractions),
whatever the sizes, signs and slices, and its radius stays near arb's own product's."""

from __future__ import annotations

import random
from fractions import Fraction

import flint
import numpy as np
import pytest

from mha_symbolic.exact import fixed_point

ROWS, INNER, COLS = 3, 9, 5


def _weights(rng: np.random.Generator, denominators: str) -> list[list[Fraction]]:
    if denominators == "float32":
        floats = (rng.standard_normal((INNER, COLS)) / 3).astype(np.float32)
        return [[Fraction(float(v)) for v in row] for row in floats]
    return [
        [Fraction(int(rng.integers(-50, 50)), 3 * j + 7) for j in range(COLS)] for _ in range(INNER)
    ]


def _exactly(number: flint.arb) -> Fraction:
    """An arb number with no radius (a ball's midpoint or radius) as a Fraction."""
    mantissa, exponent = (int(n) for n in number.man_exp())
    return Fraction(mantissa) * Fraction(2) ** exponent


def _holds(ball: flint.arb, value: Fraction) -> bool:
    """Whether ``value`` lies in ``ball``, decided in exact rationals."""
    return abs(_exactly(ball.mid()) - value) <= _exactly(ball.rad())


@pytest.mark.parametrize("size", [1e-3, 1.0, 1e6, 1e40], ids=["1e-3", "1", "1e6", "1e40"])
@pytest.mark.parametrize("denominators", ["float32", "sevenths"])
@pytest.mark.parametrize("seed", [0, 1])
def test_each_ball_holds_the_exact_product(
    size: float, denominators: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fixed_point, "COLUMNS", 1)  # the fixed-point way at any size
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    centres = [
        [Fraction(pick.randint(-(10**60), 10**60), 10**60) * Fraction(size) for _ in range(INNER)]
        for _ in range(ROWS)
    ]
    weights = _weights(rng, denominators)
    exact = flint.fmpq_mat(
        INNER, COLS, [flint.fmpq(w.numerator, w.denominator) for row in weights for w in row]
    )
    old = flint.ctx.prec
    flint.ctx.prec = 200
    try:
        radius = flint.arb(2) ** -230 * flint.arb(size)
        balls = flint.arb_mat(
            ROWS,
            INNER,
            [
                flint.arb(flint.fmpq(c.numerator, c.denominator)) + flint.arb(0, radius)
                for row in centres
                for c in row
            ],
        )
        made = fixed_point.times_exact(balls, exact)
        arbs = balls * flint.arb_mat(exact)
    finally:
        flint.ctx.prec = old
    for i in range(ROWS):
        for j in range(COLS):
            value = sum((centres[i][k] * weights[k][j] for k in range(INNER)), Fraction(0))
            ball = made[i, j]
            assert _holds(ball, value), (i, j)
            # rounded 13 bits below the precision: a radius within 2^16 of arb's product's
            # (at 1e40 the integers take three 62-bit slices, the last one signed)
            assert ball.rad() <= arbs[i, j].rad() * 2**16 + flint.arb(2) ** -170 * size, (i, j)


def test_a_ball_far_from_its_centre_still_holds_its_values(monkeypatch) -> None:
    """A wide ball (radius 1e-10) carries its radius through the weights: the products of
    its extreme values lie in the result."""
    monkeypatch.setattr(fixed_point, "COLUMNS", 1)
    old = flint.ctx.prec
    flint.ctx.prec = 200
    try:
        balls = flint.arb_mat(1, 2, [flint.arb(1, 1e-10), flint.arb(-2, 1e-10)])
        exact = flint.fmpq_mat(2, 1, [flint.fmpq(3, 4), flint.fmpq(-5, 8)])
        made = fixed_point.times_exact(balls, exact)
    finally:
        flint.ctx.prec = old
    low = Fraction(1) - Fraction(1, 10**10)
    high = Fraction(-2) - Fraction(1, 10**10)
    for value in (low * Fraction(3, 4) + high * Fraction(-5, 8), Fraction(3, 4) + Fraction(5, 4)):
        assert _holds(made[0, 0], value)
    assert made[0, 0].rad() < 1e-9
