"""The streamed softmax of enclose (blocks of query rows, the scale kept as a factor): every
ball contains the value mpmath computes at 80 digits from the formulas, and agrees with the
unstreamed product (all exponentials at once, then E V)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import flint
import mpmath
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.exact import fixed_point, softmax_blocks
from mha_symbolic.exact import structured as st
from mha_symbolic.exact.enclose import _logit_balls, _logit_blocks, enclose
from mha_symbolic.exact.rope_arb import exps, scaled_rows
from tests.test_enclose import _near

L, E, HEADS = 7, 8, 2  # d_k = 4: the scale 1/2 is rational, kept as a factor
Grid = list[list[Fraction]]


def _inputs(seed: int, scale: int = 1) -> dict[str, Any]:
    """Random inputs; ``scale`` multiplies the input x (the logits by its square: 16 makes
    them hundreds to thousands, beyond what a softmax row takes unshifted)."""
    rng = random.Random(seed)

    def matrix(rows: int, cols: int) -> Grid:
        return [[Fraction(rng.randint(-9, 9), 8) for _ in range(cols)] for _ in range(rows)]

    d = E // HEADS
    weights: dict[str, Any] = {
        n: [matrix(E, d) for _ in range(HEADS)] for n in ("w_q", "w_k", "w_v")
    }
    x = [[scale * v for v in row] for row in matrix(L, E)]
    return {"x": x, "weights": {**weights, "w_o": matrix(E, E)}}


def _spec(inputs: dict[str, Any]) -> AttentionSpec:
    return AttentionSpec(heads=HEADS, layout="per_head", mask="causal", **inputs)


def _times(a: Grid, b: Grid) -> Grid:
    return [[sum((x * y for x, y in zip(row, col)), Fraction(0)) for col in zip(*b)] for row in a]


def _mp(number: Fraction) -> mpmath.mpf:
    return mpmath.mpf(number.numerator) / number.denominator


def _reference(inputs: dict[str, Any]) -> list[list[mpmath.mpf]]:
    """Attention from its formulas at 80 digits: softmax(Q K^T / 2 + causal mask) V per head,
    the heads side by side, times W_O."""
    x, w = inputs["x"], inputs["weights"]
    joined: list[list[mpmath.mpf]] = [[] for _ in range(L)]
    with mpmath.workdps(80):
        for h in range(HEADS):
            q, k, v = (_times(x, w[n][h]) for n in ("w_q", "w_k", "w_v"))
            scores = _times(q, [list(col) for col in zip(*k)])
            for i in range(L):
                e = [mpmath.exp(_mp(scores[i][j] / 2)) for j in range(i + 1)]
                total = mpmath.fsum(e)
                for c in range(len(v[0])):
                    joined[i].append(mpmath.fsum(e[j] * _mp(v[j][c]) for j in range(i + 1)) / total)
        return [
            [mpmath.fsum(joined[i][k] * _mp(w["w_o"][k][c]) for k in range(E)) for c in range(E)]
            for i in range(L)
        ]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("rows", [1, 2, 3, 100])
@pytest.mark.parametrize("scale", [1, 16])
def test_streamed_balls_contain_the_formulas_value(
    seed: int, rows: int, scale: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = _inputs(seed, scale)
    d = derive(_spec(inputs))
    logits = d.structured["head1.masked"]  # type: ignore[index]
    scores = d.structured["head1.scores"]  # type: ignore[index]
    # the scores are their integer factors and one factor (not multiplied out); the scale
    # 1/2 joins the factor, no matrix is made
    assert isinstance(scores, st.Logits) and isinstance(scores.matrix, st.Scores)
    assert isinstance(logits, st.Logits) and logits.factor == scores.factor * sp.Rational(1, 2)
    assert logits.matrix is scores.matrix
    monkeypatch.setattr(softmax_blocks, "ROWS", rows)
    balls = enclose(d, "output", 50)
    reference = _reference(inputs)
    for i in range(L):
        for c in range(E):
            assert balls[i][c].overlaps(_near(reference[i][c])), (i, c)
            assert balls[i][c].rad() < flint.arb(10) ** -50


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("scale", [1, 16])
def test_the_fixed_point_projection_contains_the_formulas_value(
    seed: int, scale: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The output projection made in fixed point (as for a layer of 2048 columns or more)
    holds the reference as arb's own product does."""
    monkeypatch.setattr(fixed_point, "COLUMNS", 1)
    inputs = _inputs(seed, scale)
    balls = enclose(derive(_spec(inputs)), "output", 50)
    reference = _reference(inputs)
    for i in range(L):
        for c in range(E):
            assert balls[i][c].overlaps(_near(reference[i][c])), (i, c)
            assert balls[i][c].rad() < flint.arb(10) ** -50


@pytest.mark.parametrize("rows", [1, 2, 3, 7])
def test_streamed_matches_the_unstreamed_product(rows: int) -> None:
    d = derive(_spec(_inputs(2)))
    mix = d.structured["output"]  # type: ignore[index]
    assert isinstance(mix, st.Mix)
    old = flint.ctx.prec
    flint.ctx.prec = 200
    try:
        for term in mix.terms:
            logits = term.weights.logits
            balls, values = _logit_balls(logits), flint.arb_mat(term.matrix)
            made, sums = exps(balls, logits.allowed, "output")
            whole = scaled_rows(made * values, [1 / total for total in sums])
            streamed = softmax_blocks.weighted_values(balls, logits.allowed, values, "output", rows)
            # the scores' blocks made from their factors, each only as wide as the mask opens
            blocks = _logit_blocks(logits)
            assert isinstance(blocks, softmax_blocks.Blocks)
            made_by_blocks = softmax_blocks.weighted_values(
                blocks, logits.allowed, values, "output", rows
            )
            for a, b, c in zip(whole.entries(), streamed.entries(), made_by_blocks.entries()):
                assert a.overlaps(b) and a.overlaps(c)
                assert abs(a.mid() - b.mid()) < flint.arb(10) ** -55
                assert abs(a.mid() - c.mid()) < flint.arb(10) ** -55
                assert b.rad() < flint.arb(10) ** -55 and c.rad() < flint.arb(10) ** -55
    finally:
        flint.ctx.prec = old


@pytest.mark.parametrize("scale", [1, 16])
def test_blocks_of_the_scores_are_the_logits_balls(scale: int) -> None:
    """The blocks the enclosure makes from the scores' integer factors, exactly, are the
    logits' balls (the whole product's), for any rows and keys."""
    d = derive(_spec(_inputs(4, scale)))
    logits = d.structured["head1.masked"]  # type: ignore[index]
    assert isinstance(logits, st.Logits) and isinstance(logits.matrix, st.Scores)
    old = flint.ctx.prec
    flint.ctx.prec = 200
    try:
        blocks, whole = _logit_blocks(logits), _logit_balls(logits)
        assert isinstance(blocks, softmax_blocks.Blocks)
        for start, stop, reach in ((0, 3, 3), (3, 7, 7), (2, 5, 6), (0, 7, 7)):
            made = blocks.make(start, stop, reach)
            expected = [whole[i, j] for i in range(start, stop) for j in range(reach)]
            assert len(made) == len(expected)
            for a, b in zip(made, expected):
                assert a.overlaps(b) and a.rad() <= b.rad() + flint.arb(2) ** -190
    finally:
        flint.ctx.prec = old


def test_scaled_step_is_exactly_the_scores_over_the_factor() -> None:
    d = derive(_spec(_inputs(3)))
    scaled = d.structured["head2.scaled"]  # type: ignore[index]
    scores = d.structured["head2.scores"]  # type: ignore[index]
    assert isinstance(scaled, st.Logits) and isinstance(scores, st.Logits)
    assert scaled.factor == scores.factor / 2 and scaled.matrix is scores.matrix
    assert d["head2.scaled"] == d["head2.scores"] / 2
    assert d.step("head2.scaled").entries[3, 1] == d["head2.scores"][3, 1] / 2


def test_a_row_with_every_key_blocked_is_refused() -> None:
    logits = flint.arb_mat(2, 2, [0, 1, 2, 3])
    with pytest.raises(ValueError, match=r"^enclose: step 'x' has a row with every key blocked$"):
        softmax_blocks.weighted_values(
            logits, ((True, False), (False, False)), flint.arb_mat(2, 1, [1, 1]), "x", 1
        )


@pytest.mark.parametrize("big", [10, 1000, 10**300], ids=["10", "1000", "1e300"])
def test_large_logits_are_shifted_and_stay_certified(big: int) -> None:
    """Rows near 0 are exponentiated as they are, rows beyond 64 shifted by their largest
    logit: a logit of 10^300 (e to it overflows arb) is still a weight of about 1."""
    logits = [[big, big - 1, big - 3], [-big, 1 - big, 0], [2, -1, 1]]
    values = [[1, 2], [3, -4], [5, 7]]
    old = flint.ctx.prec
    flint.ctx.prec = 200
    try:
        balls = softmax_blocks.weighted_values(
            flint.arb_mat(logits), None, flint.arb_mat(values), "x", 2
        )
    finally:
        flint.ctx.prec = old
    with mpmath.workdps(80):
        for i, row in enumerate(logits):
            top = max(row)
            e = [mpmath.exp(mpmath.mpf(r - top)) for r in row]
            for c in range(2):
                exact = mpmath.fsum(w * v[c] for w, v in zip(e, values)) / mpmath.fsum(e)
                assert balls[i, c].overlaps(_near(exact)), (i, c)
                assert balls[i, c].rad() < flint.arb(10) ** -50
