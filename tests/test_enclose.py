"""enclose: arb balls contain the exact value (oracle: mpmath at 80 digits), radius < 10^-digits."""

from __future__ import annotations

import flint
import mpmath
import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.exact.enclose import enclose
from tests.mp_value import mp_value

CLOSED = ["one-token", "pytorch-style", "rope", "split-scaled", "two-tokens"]


def _near(value: mpmath.mpf) -> flint.arb:
    """An 80-digit mpmath value as a ball of radius 1e-75 (parsed at 400 bits, not 53)."""
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        return flint.arb(mpmath.nstr(value, 80, strip_zeros=False), "1e-75")
    finally:
        flint.ctx.prec = old


def _contains_mpmath_value(d: object, key: str, digits: int) -> None:
    value = d[key]  # type: ignore[index]
    balls = enclose(d, key, digits)  # type: ignore[arg-type]
    with mpmath.workdps(80):
        for i in range(value.rows):
            for j in range(value.cols):
                oracle = mp_value(value[i, j])
                assert balls[i][j].overlaps(_near(oracle)), (key, i, j)
                assert balls[i][j].rad() < flint.arb(10) ** -digits


@pytest.mark.parametrize("name", CLOSED)
@pytest.mark.parametrize("digits", [15, 50])
def test_examples_every_step_enclosed(name: str, digits: int) -> None:
    d = derive(AttentionSpec.example(name))
    for key in ("scores", "output") if "scores" in d else ("output",):
        _contains_mpmath_value(d, key, digits)


def test_free_symbols_are_refused() -> None:
    d = derive(AttentionSpec.example("temperature"))
    with pytest.raises(ValueError, match=r"^enclose: step 'output' has free symbols"):
        enclose(d, "output")


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("masked", [False, True])
def test_random_binary_float_modules(seed: int, masked: bool) -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional (pip install 'mha-symbolic[torch]')"
    )
    torch.manual_seed(seed)
    module = torch.nn.MultiheadAttention(4, 2, bias=bool(seed % 2)).eval()
    x = torch.randn(3, 4)
    mask = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1) if masked else None
    spec = AttentionSpec.from_torch(module, x, attn_mask=mask, floats="binary")
    _contains_mpmath_value(derive(spec), "output", 50)


def test_derivation_method_and_a_shifted_value_is_outside() -> None:
    d = derive(AttentionSpec.example("pytorch-style"))
    ball = d.enclose("output", 30)[0][0]
    assert ball.rad() < flint.arb(10) ** -30
    with mpmath.workdps(80):
        exact = mp_value(d["output"][0, 0])
        assert ball.overlaps(_near(exact))
        assert not ball.overlaps(_near(exact + mpmath.mpf("1e-28")))
