"""verify(): kernels against certified exact values, checked with mpmath written here."""

from __future__ import annotations

import mpmath
import pytest

from mha_symbolic.verify import _ulp, _unravel


def _torch():  # type: ignore[no-untyped-def]
    return pytest.importorskip("torch", reason="verify runs torch kernels; torch is not installed")


def _sdpa_mpmath(q, k, v):  # type: ignore[no-untyped-def]
    """softmax(q k^T / sqrt(d)) v at 60 digits from the float inputs, written from the formula."""
    with mpmath.workdps(60):
        d = len(q[0])
        out = []
        for qi in q:
            scores = [
                mpmath.fsum(mpmath.mpf(a) * mpmath.mpf(b) for a, b in zip(qi, kj)) / mpmath.sqrt(d)
                for kj in k
            ]
            top = max(scores)
            weights = [mpmath.exp(s - top) for s in scores]
            total = mpmath.fsum(weights)
            out.append([mpmath.fsum(w * mpmath.mpf(vj[c]) for w, vj in zip(weights, v)) / total
                        for c in range(len(v[0]))])  # fmt: skip
        return out


def test_ulp_and_unravel_need_no_torch() -> None:
    import numpy

    info = numpy.finfo(numpy.float32)
    assert _ulp(1.0, info) == float(numpy.spacing(numpy.float32(1.0)))
    assert _ulp(0.75, info) == float(numpy.spacing(numpy.float32(0.75)))
    assert _ulp(0.0, info) == float(info.smallest_normal) * float(info.eps)
    assert _unravel(7, (2, 2, 3)) == (1, 0, 1)


def test_sdpa_float32_against_mpmath() -> None:
    torch = _torch()
    from mha_symbolic import verify

    generator = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, 3, 4, generator=generator) for _ in range(3))
    found = verify(torch.nn.functional.scaled_dot_product_attention, q, k, v)
    assert found.dtype == "float32" and found.entries == 24
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    worst = 0.0
    for b in range(2):
        exact = _sdpa_mpmath(q[b].tolist(), k[b].tolist(), v[b].tolist())
        for i in range(3):
            for c in range(4):
                worst = max(worst, float(abs(mpmath.mpf(out[b, i, c].item()) - exact[i][c])))
    assert found.max_error == pytest.approx(worst, rel=1e-9, abs=1e-300)
    assert found.scale_ulps < 16  # float32 softmax and products: a few ulps, not a wrong kernel
    assert found.median_ulps < 8
    assert found.float64_scale_ulps is not None and found.float64_scale_ulps < 16
    assert str(found).startswith(
        "scaled_dot_product_attention in float32: 24 output entries against exact values "
        "certified to 50 digits\n"
    )


def test_a_float64_module_is_within_a_few_ulps() -> None:
    torch = _torch()
    from mha_symbolic import verify

    torch.manual_seed(0)
    module = torch.nn.MultiheadAttention(8, 2).double().eval()
    x = torch.randn(5, 8, dtype=torch.float64)
    found = verify(module, x)
    assert found.dtype == "float64" and found.entries == 40
    assert found.scale_ulps < 8  # a few ulps at the output's scale
    assert found.median_ulps < 8
    assert found.float64_within_one_ulp is (found.float64_scale_ulps <= 1.0)
    assert len(found.worst) == 5 and found.worst[0].ulps == found.max_ulps


def test_a_float32_module_with_a_causal_mask() -> None:
    torch = _torch()
    from mha_symbolic import verify

    torch.manual_seed(1)
    module = torch.nn.MultiheadAttention(4, 2).eval()
    x = torch.randn(3, 4)
    causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
    found = verify(module, x, attn_mask=causal)
    assert found.dtype == "float32" and found.entries == 12
    assert found.scale_ulps < 16
    assert found.float64_scale_ulps is not None and found.float64_scale_ulps < 16


def test_a_wrong_kernel_is_many_ulps_off() -> None:
    torch = _torch()
    from mha_symbolic import verify

    def unscaled(q, k, v):  # type: ignore[no-untyped-def]
        return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v  # forgot 1/sqrt(d)

    generator = torch.Generator().manual_seed(5)
    q, k, v = (torch.randn(3, 4, generator=generator) for _ in range(3))
    wrong = verify(unscaled, q, k, v, float64=False)
    assert wrong.scale_ulps > 1e4 and wrong.float64_within_one_ulp is None


def test_refusals() -> None:
    torch = _torch()
    import numpy

    from mha_symbolic import verify

    x = torch.randn(2, 4)
    with pytest.raises(TypeError, match=r"verify takes an nn\.MultiheadAttention or a callable"):
        verify(3, x)
    with pytest.raises(TypeError, match=r"query must be a torch\.Tensor .* got ndarray"):
        verify(torch.nn.functional.scaled_dot_product_attention, numpy.ones((2, 4)))
    with pytest.raises(ValueError, match=r"masks go with an nn\.MultiheadAttention kernel"):
        verify(torch.nn.functional.scaled_dot_product_attention, x, attn_mask=x)
