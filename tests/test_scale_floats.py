"""from_torch(..., floats="binary"): every float read as its exact binary value."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive

torch = pytest.importorskip("torch", reason="torch is optional (pip install 'mha-symbolic[torch]')")


def _module(dtype: torch.dtype) -> torch.nn.MultiheadAttention:
    torch.manual_seed(3)
    module = torch.nn.MultiheadAttention(4, 2, bias=True).to(dtype).eval()
    with torch.no_grad():
        module.in_proj_weight[0, 0] = 0.1
    return module


def test_float32_weight_is_its_binary_value() -> None:
    module = _module(torch.float32)
    x = torch.full((2, 4), 0.1, dtype=torch.float32)
    binary = AttentionSpec.from_torch(module, x, floats="binary")
    decimal = AttentionSpec.from_torch(module, x)
    assert binary.query[0, 0] == sp.Rational(13421773, 134217728)
    # the default reads the float64 widening's shortest decimal, not the binary value
    assert decimal.query[0, 0] == sp.Rational(2500000037252903, 25000000000000000)
    w = module.in_proj_weight.detach().double().numpy()
    w_q = binary.weights["w_q"][0]  # fused layout: one (E, E) matrix, kept as torch holds it
    assert w_q[0, 0] == sp.Rational(13421773, 134217728)
    held = [Fraction(*float(v).as_integer_ratio()) for v in w[:4].ravel()]
    assert [Fraction(int(v.p), int(v.q)) for v in w_q] == held


def test_binary_float64_derivation_equals_the_module() -> None:
    module = _module(torch.float64)
    torch.manual_seed(4)
    x = torch.randn(3, 4, dtype=torch.float64)
    spec = AttentionSpec.from_torch(module, x, floats="binary")
    exact = derive(spec)["output"]
    got = module(x, x, x, need_weights=False)[0].detach().numpy()
    for i in range(3):
        for j in range(4):
            assert float(sp.N(exact[i, j], 30)) == pytest.approx(got[i, j], rel=1e-12, abs=1e-14)


def test_unknown_floats_option_is_one_line() -> None:
    module = _module(torch.float32)
    with pytest.raises(
        ValueError, match=r"^from_torch: floats must be 'decimal' or 'binary', got 'bin'$"
    ):
        AttentionSpec.from_torch(module, torch.zeros(2, 4), floats="bin")
