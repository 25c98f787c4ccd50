"""A LLaMA-style layer (RoPE, grouped-query attention, a causal mask, no biases) held in the
exact structure and enclosed to 50 digits, against a reference written here from the formulas
with mpmath at 80 digits; and verify() of a kernel that turns q and k (rotate-half) before
torch's SDPA."""

from __future__ import annotations

from typing import Any

import flint
import mpmath
import numpy as np
import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.exact.rope_arb import Rotated, RotatedScores
from mha_symbolic.exact.structured_values import Logits, Weights
from tests.mp_value import mp_value

L, E, HEADS, KV = 8, 64, 4, 2  # d_k = 16: two query heads share each key/value head
D = E // HEADS
BASE = 10000


def _arrays(seed: int) -> dict[str, Any]:
    """float32 input and torch-layout (out x in) weights, about the scale of trained ones."""
    rng = np.random.default_rng(seed)

    def f(*shape: int) -> Any:
        return (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)

    return {"x": f(L, E), "w_q": f(E, E), "w_k": f(KV * D, E), "w_v": f(KV * D, E), "w_o": f(E, E)}


def _spec(arrays: dict[str, Any], pairs: str = "halves") -> AttentionSpec:
    weights = {name: arrays[name] for name in ("w_q", "w_k", "w_v", "w_o")}
    return AttentionSpec(
        x=arrays["x"], heads=HEADS, kv_heads=KV, layout="fused", convention="xWT",
        mask="causal", rope={"base": BASE, "pairs": pairs}, floats="binary", weights=weights,
    )  # fmt: skip


def _product(a: list[list[Any]], b_t: list[list[Any]]) -> list[list[Any]]:
    """a b^T (b given by its rows)."""
    return [[mpmath.fsum(x * y for x, y in zip(row, col)) for col in b_t] for row in a]


def _rotated(rows: list[list[Any]], pairs: str) -> list[list[Any]]:
    """RoPE: row p's pair (a, b) turned by p * base^(-2j/d); halves pair j with j + d/2."""
    half = D // 2
    out = [list(row) for row in rows]
    for p, row in enumerate(rows):
        for j in range(half):
            a, b = (j, j + half) if pairs == "halves" else (2 * j, 2 * j + 1)
            t = p * mpmath.mpf(BASE) ** (mpmath.mpf(-2 * j) / D)
            out[p][a] = row[a] * mpmath.cos(t) - row[b] * mpmath.sin(t)
            out[p][b] = row[a] * mpmath.sin(t) + row[b] * mpmath.cos(t)
    return out


def _reference(arrays: dict[str, Any], pairs: str = "halves") -> list[list[Any]]:
    """The layer at 80 digits: Q = X W_Q^T, K and V per key/value head, query head i reading
    key/value head i // (HEADS // KV); RoPE on q and k; causal softmax(q k^T / sqrt(d)) v;
    heads side by side times W_O^T."""
    m = {name: [[mpmath.mpf(float(v)) for v in row] for row in a] for name, a in arrays.items()}
    q, k, v = (_product(m["x"], m[name]) for name in ("w_q", "w_k", "w_v"))
    heads: list[list[list[Any]]] = []
    for i in range(HEADS):
        g = i // (HEADS // KV)
        q_i = _rotated([row[i * D : (i + 1) * D] for row in q], pairs)
        k_g = _rotated([row[g * D : (g + 1) * D] for row in k], pairs)
        v_g = [row[g * D : (g + 1) * D] for row in v]
        scores = _product(q_i, k_g)
        out = []
        for p in range(L):
            logits = [s / mpmath.sqrt(D) for s in scores[p][: p + 1]]  # keys 0..p only
            exps = [mpmath.exp(s - max(logits)) for s in logits]
            total = mpmath.fsum(exps)
            out.append([mpmath.fsum(e * v_g[r][c] for r, e in enumerate(exps)) / total
                        for c in range(D)])  # fmt: skip
        heads.append(out)
    concat = [[x for head in heads for x in head[p]] for p in range(L)]
    return _product(concat, m["w_o"])


def _contains(ball: flint.arb, value: Any) -> bool:
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        return bool(ball.overlaps(flint.arb(mpmath.nstr(value, 80, strip_zeros=False), "1e-75")))
    finally:
        flint.ctx.prec = old


@pytest.mark.parametrize("pairs", ["halves", "interleaved"])
def test_every_output_certified_to_50_digits_against_mpmath(pairs: str) -> None:
    arrays = _arrays(1)
    d = derive(_spec(arrays, pairs))
    assert d.structured is not None  # held as rational matrices and turns, not SymPy values
    balls = d.enclose("output", 50)
    with mpmath.workdps(80):
        exact = _reference(arrays, pairs)
        for p in range(L):
            for c in range(E):
                assert balls[p][c].rad() < flint.arb(10) ** -50, (p, c)
                assert _contains(balls[p][c], exact[p][c]), (p, c)


def test_the_structure_holds_rotations_and_shared_key_value_heads() -> None:
    d = derive(_spec(_arrays(2)))
    form = d.structured
    assert form is not None
    assert form["head1.k"] == form["head2.k"] and form["head3.v"] == form["head4.v"]
    assert form["head1.k"] != form["head3.k"]
    q_rot = form["head2.q_rot"]
    assert isinstance(q_rot, Rotated) and q_rot.matrix == form["head2.q"]
    assert q_rot.pairs[:2] == ((0, 8), (1, 9)) and len(q_rot.steps) == 8
    weights = form["head2.weights"]
    assert isinstance(weights, Weights) and isinstance(weights.logits, Logits)
    assert isinstance(weights.logits.matrix, RotatedScores)
    assert weights.logits.allowed is not None and weights.logits.allowed[1][:3] == (1, 1, 0)


def test_a_tiny_layer_enclosure_contains_its_sympy_value() -> None:
    """The enclosure from the structure against the SymPy value the evaluator makes."""

    spec = AttentionSpec(
        x=[[1, 2], [0, "1/2"], [-1, 1]], heads=2, kv_heads=1, layout="per_head",
        mask="causal", rope=True,
        weights={"w_q": [[[1, 0], [0, 1]], [[0, 1], [1, 1]]], "w_k": [[[1, "1/3"], [0, 1]]],
                 "w_v": [[[2, 0], [1, 1]]], "w_o": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0],
                                                   [0, 0, 1, 1]]},
    )  # fmt: skip
    d = derive(spec)
    assert d.structured is not None
    balls = d.enclose("output", 40)
    value = d["output"]
    for i in range(3):
        for j in range(2):
            with mpmath.workdps(80):
                oracle = mp_value(value[i, j])
            assert _contains(balls[i][j], oracle)


# ---------------------------------------------------------------------- verify


def _torch() -> Any:
    return pytest.importorskip("torch", reason="verify runs torch kernels; torch is not installed")


def _rotate_half(x: Any) -> Any:
    torch = _torch()
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), -1)


def rotary_sdpa(q: Any, k: Any, v: Any) -> Any:
    """The common open-source LLaMA code: cos/sin of position times inverse frequency,
    q * cos + rotate_half(q) * sin (and k), then causal SDPA with grouped key/value heads."""
    torch = _torch()
    length, width = q.shape[-2], q.shape[-1]
    inverse = 1.0 / (BASE ** (torch.arange(0, width, 2, dtype=torch.float64) / width))
    angles = torch.arange(length, dtype=torch.float64)[:, None] * inverse[None, :]
    angles = torch.cat((angles, angles), -1)
    cos, sin = angles.cos().to(q.dtype), angles.sin().to(q.dtype)
    q, k = (t * cos + _rotate_half(t) * sin for t in (q, k))
    return torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=True, enable_gqa=True
    )


def _sdpa_reference(q: Any, k: Any, v: Any) -> list[list[Any]]:
    """One head: RoPE (halves) on q and k, causal softmax(q k^T / sqrt(d)) v, 80 digits."""
    qr, kr = (_rotated([[mpmath.mpf(x) for x in row] for row in t], "halves") for t in (q, k))
    out = []
    for p in range(len(qr)):
        logits = [mpmath.fsum(a * b for a, b in zip(qr[p], kr[r])) / mpmath.sqrt(D)
                  for r in range(p + 1)]  # fmt: skip
        exps = [mpmath.exp(s - max(logits)) for s in logits]
        total = mpmath.fsum(exps)
        out.append([mpmath.fsum(e * mpmath.mpf(v[r][c]) for r, e in enumerate(exps)) / total
                    for c in range(len(v[0]))])  # fmt: skip
    return out


def test_verify_a_rotary_kernel_with_grouped_heads() -> None:
    torch = _torch()
    from mha_symbolic import verify

    generator = torch.Generator().manual_seed(5)
    q = torch.randn(1, 4, 6, D, generator=generator)
    k, v = (torch.randn(1, 2, 6, D, generator=generator) for _ in range(2))
    found = verify(rotary_sdpa, q, k, v, rope=True, is_causal=True)
    assert found.dtype == "float32" and found.entries == 4 * 6 * D
    out = rotary_sdpa(q, k, v)
    worst = mpmath.mpf(0)
    with mpmath.workdps(80):
        for h in range(4):
            exact = _sdpa_reference(q[0, h].tolist(), k[0, h // 2].tolist(), v[0, h // 2].tolist())
            for p in range(6):
                for c in range(D):
                    worst = max(worst, abs(mpmath.mpf(out[0, h, p, c].item()) - exact[p][c]))
    assert found.max_error == pytest.approx(float(worst), rel=1e-9, abs=1e-300)
    assert found.scale_ulps < 64  # float32 rotation, products and softmax: ulps, not a bug
    assert found.float64_within_one_ulp is not None


def test_verify_finds_a_kernel_that_forgets_the_rotation() -> None:
    torch = _torch()
    from mha_symbolic import verify

    def plain(q: Any, k: Any, v: Any) -> Any:
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)

    generator = torch.Generator().manual_seed(6)
    q, k, v = (torch.randn(2, 6, D, generator=generator) for _ in range(3))
    assert verify(plain, q, k, v, is_causal=True, float64=False).scale_ulps < 64
    assert verify(plain, q, k, v, rope=True, is_causal=True, float64=False).scale_ulps > 1e4


def test_verify_refuses_mismatched_heads_and_rope_for_a_module() -> None:
    torch = _torch()
    from mha_symbolic import verify

    q, k = torch.randn(1, 3, 4, D), torch.randn(1, 2, 4, D)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    with pytest.raises(ValueError, match=r"query \(1, 3, 4, 16\), key \(1, 2, 4, 16\) and value"):
        verify(sdpa, q, k, k)
    module = torch.nn.MultiheadAttention(D, 2, batch_first=True)
    with pytest.raises(ValueError, match="rope and is_causal describe a function kernel"):
        verify(module, torch.randn(1, 4, D), rope=True)


def test_bench_llama_quick_row() -> None:
    from mha_symbolic.bench import llama

    lines = list(llama.bench_llama(quick=True))
    assert lines[0] == (
        "LLaMA-style layer: RoPE, 8 query heads sharing 2 key/value heads, causal, no biases, "
        "E = 256, L = 16; all 4,096 outputs to 50 digits"
    )
    labels = [line[:38].strip() for line in lines[1:]]
    assert labels == [
        "read the spec (floats in binary)",
        "derive (exact structure)",
        "enclose every output, 50 digits",
        "derive + enclose",
    ]
    assert float(lines[3].split("widest radius")[1]) < 1e-50
    assert "target" not in lines[4]  # the 60 s target is judged at full size only


def test_grouped_weight_arrays_repeat_as_arrays_and_say_a_bad_width() -> None:
    from mha_symbolic import SpecError

    arrays = _arrays(3)
    spec = _spec(arrays)
    rows = [spec.weights["w_k"][0].shape, spec.weights["w_v"][0].shape]
    assert rows == [(E, E), (E, E)]  # each key/value head's rows once per query head
    with pytest.raises(SpecError) as error:
        _spec({**arrays, "w_k": arrays["w_k"][:31]})
    assert "kv_heads = 2 does not divide the width 31 that w_k projects to" in str(error.value)
