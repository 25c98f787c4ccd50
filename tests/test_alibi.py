"""ALiBi, one operation module, against references written here from the paper.

The references: the slopes of the paper's reference code (Press, Smith and Lewis 2021,
``get_slopes``) in floats; attention with the bias -m_h (i - j) written with NumPy; and torch's
``scaled_dot_product_attention`` with the bias (and the causal mask) as an additive
``attn_mask``. The exact derivation, the compiled backends, the gradients, limits, the
checker and the worked solution all get ALiBi from ``mha_symbolic/operations/alibi.py``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError, check, compile, derive
from mha_symbolic.operations.alibi import paper_slopes
from tests.random_specs import layout_weights


def reference_slopes(n: int) -> list[float]:
    """The paper's reference code (its ``get_slopes``), as published."""

    def power_of_2(n: int) -> list[float]:
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + reference_slopes(2 * closest)[0::2][: n - closest]


def reference_attention(
    raw: dict[str, Any], x_q: np.ndarray, x_k: np.ndarray, slopes: list[float], causal: bool
) -> np.ndarray:
    """Each head: softmax(Q K^T / sqrt(d_k) - m_h (i - j) [+ causal mask]) V, with NumPy."""
    w = {k: [np.array(m, dtype=float) for m in v] for k, v in raw["weights"].items()}
    rows, cols = x_q.shape[0], x_k.shape[0]
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    heads = []
    for m, w_q, w_k, w_v in zip(slopes, w["w_q"], w["w_k"], w["w_v"]):
        q, k = x_q @ w_q, x_k @ w_k
        scores = q @ k.T / np.sqrt(q.shape[1]) - m * (i - j)
        if causal:
            scores = np.where(j <= i, scores, -np.inf)
        weights = np.exp(scores - scores.max(1, keepdims=True))
        weights /= weights.sum(1, keepdims=True)
        heads.append(weights @ (x_k @ w_v))
    return np.hstack(heads)


def floats(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array(matrix.evalf(30).tolist(), dtype=float)


def raw_spec(heads: int = 2, seed: int = 0, length: int = 4) -> dict[str, Any]:
    rng = np.random.default_rng(seed)

    def ints(*shape: int) -> list:
        return rng.integers(-2, 3, size=shape).tolist()

    return {
        "x": ints(length, 4),
        "heads": heads,
        "alibi": True,
        "weights": {"w_q": ints(heads, 4, 4), "w_k": ints(heads, 4, 4), "w_v": ints(heads, 4, 2)},
    }


# ------------------------------------------------------------------ slopes
@pytest.mark.parametrize("heads", [1, 2, 3, 4, 5, 6, 8, 12, 16])
def test_slopes_are_the_papers_exactly(heads: int) -> None:
    exact = paper_slopes(heads)
    assert all(isinstance(m, sp.Expr) and not isinstance(m, sp.Float) for m in exact)
    np.testing.assert_allclose([float(m) for m in exact], reference_slopes(heads), rtol=1e-14)


def test_slopes_of_eight_three_and_sixteen_heads() -> None:
    assert paper_slopes(8) == tuple(sp.Rational(1, 2**h) for h in range(1, 9))
    assert paper_slopes(3) == (sp.Rational(1, 16), sp.Rational(1, 256), sp.Rational(1, 4))
    assert paper_slopes(16)[0] == 1 / sp.sqrt(2)
    assert AttentionSpec(**raw_spec(heads=3)).alibi == paper_slopes(3)


# ------------------------------------------------------------------ exact values
@pytest.mark.parametrize("mask", ["none", "causal"])
def test_exact_values_equal_the_reference(mask: str) -> None:
    raw = {**raw_spec(), "mask": mask}
    d = derive(AttentionSpec(**raw))
    x = np.array(raw["x"], dtype=float)
    want = reference_attention(raw, x, x, reference_slopes(2), mask == "causal")
    np.testing.assert_allclose(floats(d["output"]), want, atol=1e-12)
    for n, m in ((1, sp.Rational(1, 16)), (2, sp.Rational(1, 256))):
        bias = d[f"head{n}.bias"] - d[f"head{n}.scaled"]
        assert bias == sp.Matrix(4, 4, lambda i, j, m=m: -m * (i - j))
    assert d.step("head1.bias").kind == "alibi"
    keys = [s.key for s in d.steps if s.key.startswith("head1.")]
    masked = ["head1.masked"] if mask == "causal" else []
    assert keys[4:] == ["head1.scaled", "head1.bias", *masked, "head1.weights", "head1.output"]


def test_the_example_reads_exact_biases() -> None:
    d = derive(AttentionSpec.example("alibi"))
    assert d["head1.bias"].row(2) == sp.Matrix([[sp.Rational(7, 8), sp.Rational(15, 16), 2]])
    assert d["head1.weights"][1, 0] == 1 / (1 + sp.exp(sp.Rational(1, 16)))
    assert str(d.step("head1.bias").formula) == "alibi(S'_{1}, (0.0625,))"


def test_given_slopes_and_cross_attention() -> None:
    rng = np.random.default_rng(3)
    query, key = rng.integers(-2, 3, (2, 4)).tolist(), rng.integers(-2, 3, (5, 4)).tolist()
    raw = raw_spec()
    raw.pop("x")
    raw["alibi"] = {"slopes": ["1/2", 0.25]}
    spec = AttentionSpec(query=query, key=key, **raw)
    assert spec.alibi == (sp.Rational(1, 2), sp.Rational(1, 4))
    want = reference_attention(
        raw, np.array(query, float), np.array(key, float), [0.5, 0.25], False
    )
    np.testing.assert_allclose(floats(derive(spec)["output"]), want, atol=1e-12)
    got = compile(spec)(np.array(query, float), np.array(key, float))
    np.testing.assert_allclose(got, want, atol=1e-12)


# ------------------------------------------------------------------ compiled
@pytest.mark.parametrize("layout", ["per_head", "split", "fused"])
def test_compiled_equals_exact_in_every_layout(layout: str) -> None:
    rng = np.random.default_rng(5)
    weights = layout_weights(rng, layout, 4)
    spec = AttentionSpec(
        x=rng.integers(-2, 3, (3, 4)).tolist(),
        heads=2,
        layout=layout,
        mask="causal",
        alibi={"slopes": ["1/2", "1/8"]},
        weights=weights,
    )
    exact = floats(derive(spec)["output"])
    f = compile(spec)
    assert "alibi(" in f.source
    np.testing.assert_allclose(f(np.array(spec.query.tolist(), dtype=float)), exact, atol=1e-12)


def test_compiled_runs_any_length_and_batch_in_float32() -> None:
    spec = AttentionSpec.example("alibi")
    raw = {"weights": {k: [m.tolist() for m in v] for k, v in spec.weights.items()}}
    x = np.random.default_rng(0).normal(size=(2, 6, 2))
    got = compile(spec)(x.astype(np.float32))
    assert got.dtype == np.float32
    for b in range(2):
        want = reference_attention(raw, x[b], x[b], reference_slopes(2), causal=True)
        np.testing.assert_allclose(got[b], want, atol=1e-5)


def test_a_spec_without_alibi_compiles_without_its_helper() -> None:
    assert "def alibi(" not in compile(AttentionSpec.example("rope")).source
    assert "def alibi(" in compile(AttentionSpec.example("alibi")).source


# ------------------------------------------------------------------ torch
def _torch_bias(torch: Any, slopes: list[float], rows: int, causal: bool) -> Any:
    """(h, L, L): -m_h (i - j), and -inf above the diagonal when causal."""
    i = torch.arange(rows, dtype=torch.float64)[:, None]
    j = torch.arange(rows, dtype=torch.float64)[None, :]
    bias = -torch.tensor(slopes, dtype=torch.float64)[:, None, None] * (i - j)
    return bias.masked_fill(j > i, float("-inf")) if causal else bias


def test_values_and_gradients_match_torch_sdpa_with_the_bias_as_attn_mask() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional (pip install 'mha-symbolic[torch]')"
    )
    from torch.nn.functional import scaled_dot_product_attention

    raw = {**raw_spec(seed=7), "mask": "causal"}
    spec = AttentionSpec(**raw)
    x = torch.tensor(raw["x"], dtype=torch.float64, requires_grad=True)
    weights = {
        n: torch.tensor(raw["weights"][n], dtype=torch.float64, requires_grad=True)
        for n in ("w_q", "w_k", "w_v")
    }
    q, k, v = (x @ weights[n] for n in ("w_q", "w_k", "w_v"))  # (h, L, d): one per head
    mask = _torch_bias(torch, reference_slopes(2), 4, causal=True)
    heads = scaled_dot_product_attention(q, k, v, attn_mask=mask)
    out = torch.cat(list(heads), dim=-1)
    out.sum().backward()
    d = derive(spec, gradients=True)
    np.testing.assert_allclose(floats(d["output"]), out.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(floats(d["grad.x"]), x.grad.numpy(), atol=1e-10)
    for n in (1, 2):
        want = weights["w_q"].grad[n - 1].numpy()
        np.testing.assert_allclose(floats(d[f"grad.head{n}.w_q"]), want, atol=1e-10)
        assert d[f"grad.head{n}.bias"] == d[f"grad.head{n}.masked"]  # the mask passes it on
        assert d[f"grad.head{n}.scaled"] == d[f"grad.head{n}.bias"]  # the bias passes it on
    for backend in ("numpy", "torch"):
        got = compile(spec, backend=backend, gradients=True)(np.array(raw["x"], dtype=float))
        np.testing.assert_allclose(np.asarray(got["x"]), x.grad.numpy(), atol=1e-10)
        got_w = np.asarray(got["w_k"][1])
        np.testing.assert_allclose(got_w, weights["w_k"].grad[1].numpy(), atol=1e-10)
    compiled = compile(spec, backend="torch")(torch.tensor(raw["x"], dtype=torch.float64))
    assert torch.allclose(compiled, out.detach(), atol=1e-12)


def test_jax_compiles_the_bias_too() -> None:
    pytest.importorskip("jax", reason="jax is optional (pip install 'mha-symbolic[jax]')")
    spec = AttentionSpec.example("alibi")
    x = np.array(spec.query.tolist(), dtype=float)
    got = np.asarray(compile(spec, backend="jax")(x))
    np.testing.assert_allclose(got, compile(spec)(x), atol=1e-6)


# ------------------------------------------------------------------ gradients, limits, check
def test_exact_gradient_steps_pass_through_the_bias() -> None:
    d = derive(AttentionSpec.example("alibi"), gradients=True)
    keys = [s.key for s in d.steps if s.key.startswith("grad.head1.")]
    assert keys[:7] == [
        "grad.head1.output",
        "grad.head1.v",
        "grad.head1.weights",
        "grad.head1.masked",
        "grad.head1.bias",
        "grad.head1.scaled",
        "grad.head1.scores",
    ]
    assert str(d.step("grad.head1.scaled").formula) == r"\bar{\hat{S}}_{1}"


def test_limits_of_a_temperature_with_alibi() -> None:
    spec = AttentionSpec(
        x=[[1, 0], [0, 1], [1, 1]],
        heads=1,
        alibi=True,
        scale="1/tau",
        parameters={"tau": "positive"},
    )
    hot = derive(spec).limit("tau", "oo")  # the scores vanish; the bias alone decides
    m = sp.Rational(1, 256)
    z = 1 + sp.exp(m) + sp.exp(2 * m)
    assert hot["head1.weights"].row(0) == sp.Matrix([[1 / z, sp.exp(m) / z, sp.exp(2 * m) / z]])
    cold = derive(spec).limit("tau", "0+")  # query 1 ties keys 1 and 3: the bias decides
    e = sp.exp(sp.Rational(1, 128))
    assert cold["head1.weights"].row(0) == sp.Matrix([[1 / (1 + e), 0, e / (1 + e)]])
    assert cold["head1.weights"].row(2) == sp.Matrix([[0, 0, 1]])


def test_check_judges_a_claim_on_the_biased_scores() -> None:
    d = derive(AttentionSpec.example("alibi"))
    right = [[0.5, 0.5625, 1.125], [0.4375, 0.5, 1.0625], [0.875, 0.9375, 2]]
    assert check(d, {"head1.bias": right}).ok
    wrong = [[0.5, 0.5, 1], [0.5, 0.5, 1], [1, 1, 2]]  # the scaled scores: no bias added
    assert check(d, {"head1.bias": wrong}).claims[0].verdict == "wrong"


# ------------------------------------------------------------------ solution
@pytest.mark.parametrize(
    ("lang", "title", "caption"),
    [
        ("en", "### Biased scores, head 2", "Head 2's linear bias (ALiBi)"),
        ("bn", "বায়াস যোগ করা স্কোর", "হেড 2-এর রৈখিক বায়াস (ALiBi)"),
    ],
)
def test_the_worked_solution_has_the_bias_step(lang: str, title: str, caption: str) -> None:
    d = derive(AttentionSpec.example("alibi"), gradients=True)
    text = d.to_markdown(lang=lang)
    assert '<a id="head2.bias"></a>' in text and '<a id="grad.head2.bias"></a>' in text
    assert title in text and caption in text
    assert r"\hat{S}_{2} &= S'_{2} + \frac{1}{256} \left[j - i\right]_{i j}" in text


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {"alibi": {"slopes": [0.5]}},
            "alibi.slopes has 1 number but the spec has 2 heads; give one slope per head",
        ),
        ({"alibi": {"slopes": ["1/2", "half"]}}, "alibi.slopes[2]"),
        ({"alibi": {"slopes": "1/2"}}, "alibi.slopes must be a list of 2 numbers, one per head"),
        ({"alibi": {"slope": [1, 2]}}, "unknown key 'alibi.slope' (did you mean 'slopes'?)"),
        ("yes", "alibi must be true, false or a table {slopes = [...]}, got 'yes'"),
    ],
)
def test_bad_alibi_is_one_line_naming_the_field(extra: Any, message: str) -> None:
    raw = raw_spec()
    raw.update(extra if isinstance(extra, dict) else {"alibi": extra})
    with pytest.raises(SpecError) as error:
        AttentionSpec(**raw)
    assert "\n" not in str(error.value)
    assert str(error.value).startswith(f"<arguments>: {message}")


def test_alibi_with_given_scores_or_weights_is_refused() -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1, 0], [0, 1]], heads=1, scores=[[[1, 0], [0, 1]]], alibi=True)
    assert str(error.value) == (
        "<arguments>: scores are given, so alibi (a bias on the scaled scores) cannot apply"
    )
    with pytest.raises(SpecError) as error:
        AttentionSpec(attention_weights=[[1, 0], [0, 1]], v=[[1], [2]], alibi=True)
    assert str(error.value) == (
        "<arguments>: attention weights are given, so alibi (a bias on the scaled scores) "
        "cannot apply"
    )
