"""Parity with torch.nn.MultiheadAttention: from_torch, exact derivation, both backends."""

from __future__ import annotations

import numpy as np
import pytest

from mha_symbolic import AttentionSpec, SpecError, compile, derive

torch = pytest.importorskip("torch", reason="torch is optional (pip install 'mha-symbolic[torch]')")

CONFIGS = [
    {},
    {"bias": False},
    {"kdim": 3, "vdim": 5},
    {"add_bias_kv": True},
    {"add_zero_attn": True},
    {"add_bias_kv": True, "add_zero_attn": True, "kdim": 3, "vdim": 2, "batch_first": True},
]


def module(seed: int, embed: int = 4, heads: int = 2, **config) -> torch.nn.Module:
    torch.manual_seed(seed)
    mha = torch.nn.MultiheadAttention(embed, heads, dtype=torch.float64, **config).eval()
    with torch.no_grad():
        for name in ("bias_k", "bias_v"):
            if getattr(mha, name) is not None:
                getattr(mha, name).normal_()
        for parameter in (mha.in_proj_bias, mha.out_proj.bias):
            if parameter is not None:
                parameter.normal_()
    return mha


def inputs(config: dict, lq: int, lk: int, batch: tuple[int, ...] = (), embed: int = 4):
    def make(length: int, width: int):
        shape = (*batch, length, width)
        if batch and not config.get("batch_first"):
            shape = (length, *batch, width)
        return torch.randn(*shape, dtype=torch.float64)

    cross = "kdim" in config
    q = make(lq, embed)
    if not cross:
        return q, q, q
    return q, make(lk, config["kdim"]), make(lk, config["vdim"])


def blocked_mask(lq: int, lk: int, seed: int) -> torch.Tensor:
    """torch's convention: True = blocked; every row keeps at least one key."""
    generator = torch.Generator().manual_seed(seed)
    mask = torch.rand(lq, lk, generator=generator) < 0.4
    mask[:, 0] = False
    return mask


@pytest.mark.parametrize("config", CONFIGS)
def test_exact_derivation_of_from_torch_equals_the_module(config: dict) -> None:
    mha = module(1, **config)
    q, k, v = inputs(config, 3, 2 if "kdim" in config else 3)
    mask = blocked_mask(3, k.shape[0], seed=2)
    expected, _ = mha(q, k, v, attn_mask=mask, need_weights=False)
    spec = AttentionSpec.from_torch(mha, q, k, v, attn_mask=mask)
    assert (spec.layout, spec.convention) == ("fused", "xWT")
    exact = np.array(derive(spec)["output"].evalf(30).tolist(), dtype=float)
    np.testing.assert_allclose(exact, expected.detach().numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize(
    "config",
    [c for c in CONFIGS if "add_bias_kv" not in c and "add_zero_attn" not in c]
    + [{"batch_first": True}],
)
def test_compiled_matches_the_module_on_batches(config: dict, backend: str) -> None:
    mha = module(3, embed=6, heads=3, **config)
    lq, lk = 5, 4 if "kdim" in config else 5
    q0, k0, v0 = inputs(config, 1, 1, embed=6)
    spec = AttentionSpec.from_torch(mha, q0, k0, v0)
    f = compile(spec, backend=backend)
    q, k, v = inputs(config, lq, lk, batch=(2,), embed=6)
    mask = blocked_mask(lq, lk, seed=4)
    expected, _ = mha(q, k, v, attn_mask=mask, need_weights=False)
    if not config.get("batch_first"):
        q, k, v, expected = (t.transpose(0, 1) for t in (q, k, v, expected))
    if backend == "numpy":
        q, k, v, allowed = q.numpy(), k.numpy(), v.numpy(), (~mask).numpy()
    else:
        allowed = ~mask
    got = f(q, k, v, mask=allowed)
    np.testing.assert_allclose(np.asarray(got), expected.detach().numpy(), rtol=1e-10, atol=1e-10)


def test_torch_backend_uses_sdpa_and_keeps_dtype() -> None:
    spec = AttentionSpec.example("pytorch-style")
    f = compile(spec, backend="torch")
    assert "scaled_dot_product_attention(Q, K, V, attn_mask=mask, scale=0.577" in f.source
    x = torch.randn(2, 4, 6)
    out = f(x, mask="causal")
    assert out.dtype == torch.float32
    reference = compile(spec)(x.double().numpy(), mask="causal")
    np.testing.assert_allclose(out.numpy(), reference, rtol=1e-5, atol=1e-5)


def test_torch_backend_huge_logits_and_fully_masked_rows() -> None:
    spec = AttentionSpec(x=[[100, 0], [-100, 0]], heads=1, scale="none", weights={})
    f = compile(spec, backend="torch")
    x = torch.tensor([[100.0, 0.0], [-100.0, 0.0]], dtype=torch.float64)
    np.testing.assert_array_equal(f(x).numpy(), x.numpy())
    with pytest.raises(ValueError, match=r"^mask blocks every key in query row 1;"):
        f(x, mask=torch.tensor([[False, False], [True, True]]))


def test_key_padding_mask_is_read() -> None:
    mha = module(5)
    q = torch.randn(3, 4, dtype=torch.float64)
    padding = torch.tensor([False, True, False])
    expected, _ = mha(q, q, q, key_padding_mask=padding, need_weights=False)
    spec = AttentionSpec.from_torch(mha, q, key_padding_mask=padding)
    exact = np.array(derive(spec)["output"].evalf(30).tolist(), dtype=float)
    np.testing.assert_allclose(exact, expected.detach().numpy(), rtol=1e-10, atol=1e-10)


def test_from_torch_errors() -> None:
    mha = module(6)
    with pytest.raises(SpecError, match=r"^from_torch: query has shape \(3, 2, 4\): a spec is one"):
        AttentionSpec.from_torch(mha, torch.randn(3, 2, 4, dtype=torch.float64))
    with pytest.raises(SpecError, match=r"reads nn.MultiheadAttention, got Linear"):
        AttentionSpec.from_torch(torch.nn.Linear(2, 2), torch.randn(3, 4))
    training = torch.nn.MultiheadAttention(4, 2, dropout=0.5)
    with pytest.raises(SpecError, match=r"call module.eval\(\) first"):
        AttentionSpec.from_torch(training, torch.randn(3, 4))


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_grouped_query_attention_matches_sdpa_enable_gqa(backend: str) -> None:
    from torch.nn.functional import scaled_dot_product_attention

    rng = np.random.default_rng(7)
    w = {n: rng.integers(-2, 3, (8, 8 if n == "w_q" else 4)) for n in ("w_q", "w_k", "w_v")}
    spec = AttentionSpec(x=np.eye(1, 8), heads=4, kv_heads=2, layout="fused", weights=w)
    x = torch.randn(2, 5, 8, dtype=torch.float64)

    def heads(t: torch.Tensor, n: int) -> torch.Tensor:
        return t.unflatten(-1, (n, -1)).transpose(-2, -3)

    q, k, v = (
        heads(x @ torch.tensor(w[n], dtype=torch.float64), c)
        for n, c in (("w_q", 4), ("w_k", 2), ("w_v", 2))
    )
    expected = scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    got = compile(spec, backend=backend)(x if backend == "torch" else x.numpy(), mask="causal")
    np.testing.assert_allclose(
        np.asarray(got), expected.transpose(-2, -3).flatten(-2).numpy(), rtol=1e-10, atol=1e-10
    )
