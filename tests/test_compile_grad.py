"""compile(spec, gradients=True): the generated backward pass against exact and torch gradients."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, compile, derive

INPUTS = ("x", "query", "key", "value")


def floats(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array(matrix.evalf(30).tolist(), dtype=float)


def two_tokens_mse() -> AttentionSpec:
    return AttentionSpec(
        x=[[1, 0], [0, 1]],
        heads=2,
        scale="none",
        weights={
            "w_q": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
            "w_k": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
            "w_v": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
            "w_o": [["1/2", 0], [0, "1/2"], ["1/2", 0], [0, "1/2"]],
        },
        loss={"kind": "mse", "target": [[1, 0], [0, 1]]},
    )


def exact_gradients(spec: AttentionSpec, values: dict[sp.Symbol, Any]) -> dict[str, Any]:
    """derive(spec, gradients=True)'s loss and leaf gradients, keyed like the compiled ones."""
    d = derive(spec, gradients=True)
    out: dict[str, Any] = {"loss": floats(d["loss"].xreplace(values))[0, 0]}
    for step in d.steps:
        parts = step.key.split(".")
        leaf = parts[-1]
        weight = leaf[:2] in ("w_", "b_")
        if step.kind != "grad" or not (weight or (leaf in INPUTS and len(parts) == 2)):
            continue
        value = floats(step.value.xreplace(values))
        value = value[0] if leaf.startswith("b_") else value
        if len(parts) == 3:  # grad.head{i}.w_q
            out.setdefault(leaf, []).append(value)
        else:
            out[leaf] = value
    return out


def assert_same(got: dict[str, Any], want: dict[str, Any], tol: float) -> None:
    assert set(got) == set(want)
    for name, expected in want.items():
        pairs = zip(got[name], expected) if isinstance(expected, list) else [(got[name], expected)]
        if isinstance(expected, list):
            assert len(got[name]) == len(expected), name
        for actual, wanted in pairs:
            np.testing.assert_allclose(np.asarray(actual), wanted, rtol=tol, atol=tol, err_msg=name)


# ------------------------------------------------------------------ exact gradients
NUMERIC = {
    "two-tokens": AttentionSpec.example("two-tokens"),
    "two-tokens, mse": two_tokens_mse(),
    "one-token": AttentionSpec.example("one-token"),
    "split-scaled": AttentionSpec.example("split-scaled"),
    "pytorch-style": AttentionSpec.example("pytorch-style"),
    "temperature": AttentionSpec.example("temperature"),
}


@pytest.mark.parametrize("name", NUMERIC)
def test_examples_equal_the_exact_gradients(name: str) -> None:
    spec = NUMERIC[name]
    values = {symbol: sp.Rational(1, 2) for symbol in spec.parameters.values()}
    numbers = {n: 0.5 for n in spec.parameters}
    got = compile(spec, gradients=True)(floats(spec.query), **numbers)
    assert_same(got, exact_gradients(spec, values), 1e-12)


def test_two_tokens_mse_values_by_hand() -> None:
    got = compile(two_tokens_mse(), gradients=True)(np.eye(2))
    entry = -np.e / (2 * (1 + np.e) ** 2)  # the exact derivation's -e / (2 (1 + e)^2)
    assert got["loss"] == 0.5
    np.testing.assert_allclose(got["w_q"][0], [[entry, -entry], [-entry, entry]], rtol=1e-14)
    np.testing.assert_allclose(got["x"], np.zeros((2, 2)), atol=1e-16)


def test_source_is_the_printed_backward_program() -> None:
    g = compile(AttentionSpec.example("pytorch-style"), gradients=True)
    assert g.source.endswith(
        "def attention_gradients(query, key, value, mask, w_q, w_k, w_v, w_o):\n"
        "    Q = split_heads(query @ w_q.swapaxes(-1, -2), 2)  # (..., 2, L_q, 3)\n"
        "    K = split_heads(key @ w_k.swapaxes(-1, -2), 2)  # (..., 2, L_k, 3)\n"
        "    V = split_heads(value @ w_v.swapaxes(-1, -2), 2)  # (..., 2, L_k, 3)\n"
        "    A = softmax((0.5773502691896257 * Q) @ K.swapaxes(-1, -2), mask)"
        "  # (..., 2, L_q, L_k)\n"
        "    H = A @ V  # (..., 2, L_q, 3)\n"
        "    output = merge_heads(H) @ w_o.swapaxes(-1, -2)  # (..., L_q, 6)\n"
        "    loss = entry_sum(output)  # (...)\n"
        "    output_bar = ones_like(output)  # (..., L_q, 6)\n"
        "    H_bar = split_heads(output_bar @ w_o, 2)  # (..., 2, L_q, 3)\n"
        "    A_bar = H_bar @ V.swapaxes(-1, -2)  # (..., 2, L_q, L_k)\n"
        "    S_bar = softmax_backward(A, A_bar)  # (..., 2, L_q, L_k)\n"
        "    V_bar = A.swapaxes(-1, -2) @ H_bar  # (..., 2, L_k, 3)\n"
        "    g1 = merge_heads(V_bar)  # (..., L_k, 6)\n"
        "    K_bar = S_bar.swapaxes(-1, -2) @ (0.5773502691896257 * Q)  # (..., 2, L_k, 3)\n"
        "    g2 = merge_heads(K_bar)  # (..., L_k, 6)\n"
        "    Q_bar = S_bar @ (0.5773502691896257 * K)  # (..., 2, L_q, 3)\n"
        "    g3 = merge_heads(Q_bar)  # (..., L_q, 6)\n"
        "    grad_query = g3 @ w_q  # (..., L_q, 6)\n"
        "    grad_key = g2 @ w_k  # (..., L_k, 6)\n"
        "    grad_value = g1 @ w_v  # (..., L_k, 6)\n"
        "    grad_w_q = batch_sum(g3.swapaxes(-1, -2) @ query)  # (6, 6)\n"
        "    grad_w_k = batch_sum(g2.swapaxes(-1, -2) @ key)  # (6, 6)\n"
        "    grad_w_v = batch_sum(g1.swapaxes(-1, -2) @ value)  # (6, 6)\n"
        "    grad_w_o = batch_sum(output_bar.swapaxes(-1, -2) @ merge_heads(H))  # (6, 6)\n"
        "    return loss, grad_query, grad_key, grad_value, "
        "grad_w_q, grad_w_k, grad_w_v, grad_w_o\n"
    )
    assert str(g.gradient_program.backward[3][1]) == "softmax_backward(A, \\bar{A})"
    assert "def softmax_backward(a, g):" in g.source


# ------------------------------------------------------------------ batches, dtypes, masks
def test_a_batch_equals_its_examples() -> None:
    spec = AttentionSpec.example("pytorch-style")
    g = compile(spec, gradients=True)
    x = np.random.default_rng(1).normal(size=(2, 3, 5, 6))
    batch = g(x, mask="causal")
    assert batch["loss"].shape == (2, 3) and batch["x"].shape == (2, 3, 5, 6)
    singles = [g(x[i, j], mask="causal") for i in range(2) for j in range(3)]
    np.testing.assert_allclose(batch["loss"].ravel(), [s["loss"] for s in singles], rtol=1e-13)
    np.testing.assert_allclose(batch["x"][1, 2], singles[5]["x"], rtol=1e-13)
    for name in ("w_q", "w_k", "w_v", "w_o"):
        np.testing.assert_allclose(batch[name], sum(s[name] for s in singles), rtol=1e-12)


def test_broadcast_inputs_get_gradients_of_their_own_shape() -> None:
    spec = AttentionSpec.example("pytorch-style")
    g = compile(spec, gradients=True)
    rng = np.random.default_rng(2)
    q, k, v = rng.normal(size=(3, 4, 6)), rng.normal(size=(5, 6)), rng.normal(size=(1, 5, 6))
    batch = g(q, k, v)
    assert set(batch) == {"loss", "query", "key", "value", "w_q", "w_k", "w_v", "w_o"}
    assert (batch["key"].shape, batch["value"].shape) == ((5, 6), (1, 5, 6))
    singles = [g(q[i], k, v[0]) for i in range(3)]
    np.testing.assert_allclose(batch["key"], sum(s["key"] for s in singles), rtol=1e-12)
    np.testing.assert_allclose(batch["value"][0], sum(s["value"] for s in singles), rtol=1e-12)
    shared = g(q, k)  # value defaults to key: the key's gradient holds the value's share
    assert set(shared) == {"loss", "query", "key", "w_q", "w_k", "w_v", "w_o"}
    apart = g(q, k, k)
    np.testing.assert_allclose(shared["key"], apart["key"] + apart["value"], rtol=1e-12)


def test_dtype_is_preserved() -> None:
    spec = two_tokens_mse()
    g = compile(spec, gradients=True)
    x = np.random.default_rng(3).normal(size=(4, 2, 2))
    low, high = g(x.astype(np.float32)), g(x)
    for name in ("loss", "x", "w_o"):
        assert np.asarray(low[name]).dtype == np.float32
        assert np.asarray(high[name]).dtype == np.float64
        np.testing.assert_allclose(low[name], high[name], rtol=1e-4, atol=1e-5)
    assert low["w_q"][1].dtype == np.float32
    assert g(np.eye(2, dtype=int))["x"].dtype == np.float64


def test_blocked_positions_get_zero_gradient_and_huge_logits_stay_finite() -> None:
    spec = AttentionSpec(x=[[100, 0], [-100, 0], [0, 100]], heads=1, scale="none", weights={})
    g = compile(spec, gradients=True)
    x, rng = floats(spec.query), np.random.default_rng(4)
    allowed = np.array([[True, False, True], [True, False, True], [True, False, False]])
    q = rng.normal(size=(3, 2))
    out = g(q, x, x, mask=allowed)
    np.testing.assert_array_equal(out["key"][1], [0.0, 0.0])  # no query attends key 2
    np.testing.assert_array_equal(out["value"][1], [0.0, 0.0])
    huge = g(x, target=None)
    assert all(np.isfinite(np.asarray(v)).all() for v in huge.values())
    np.testing.assert_allclose(huge["x"], exact_gradients(spec, {})["x"], rtol=1e-12, atol=1e-12)


def test_mse_target_is_an_argument() -> None:
    spec = two_tokens_mse()
    g = compile(spec, gradients=True)
    x = np.random.default_rng(5).normal(size=(2, 3, 2))
    target = np.random.default_rng(6).normal(size=(2, 3, 2))
    out = g(x, target=target)
    output = compile(spec)(x)
    np.testing.assert_allclose(out["loss"], 0.5 * ((output - target) ** 2).sum((-2, -1)))
    assert "output_bar = output - target" in g.source
    assert "loss = half_squared_norm(output_bar)" in g.source


@pytest.mark.parametrize(
    ("spec", "call", "message"),
    [
        (
            AttentionSpec.example("two-tokens"),
            lambda g: g(np.eye(2), target=np.eye(2)),
            "target is only for the mse loss; the spec's loss is the sum",
        ),
        (
            two_tokens_mse(),
            lambda g: g(np.ones((3, 2))),
            "the spec's target has shape (2, 2) but the output has shape (..., 3, 2); pass target=",
        ),
        (
            two_tokens_mse(),
            lambda g: g(np.ones((3, 2)), target=np.ones((3, 4))),
            "target has shape (3, 4) but the output has shape (..., 3, 2)",
        ),
        (
            two_tokens_mse(),
            lambda g: g(np.ones((2, 2, 2)), target=np.ones((3, 2, 2))),
            "the batch shapes of the inputs and target do not broadcast: (2,), (3,)",
        ),
        (
            two_tokens_mse(),
            lambda g: g(np.ones((2, 2)), target=np.ones((3, 2, 2))),
            "target has batch shape (3,) but the inputs have (); give one target per example",
        ),
        (
            two_tokens_mse(),
            lambda g: g(np.eye(2), mask=np.array([[True, True], [False, False]])),
            "mask blocks every key in query row 2; softmax over no keys is undefined",
        ),
        (
            two_tokens_mse(),
            lambda g: g(np.eye(2), w_q=[np.eye(2)]),
            "w_q has 1 matrices but the spec has 2 heads",
        ),
        (
            two_tokens_mse(),
            lambda g: g(np.eye(2), b_q=np.ones(2)),
            "unknown weight 'b_q'; this spec takes w_q, w_k, w_v, w_o",
        ),
    ],
)
def test_bad_arguments_raise_one_line(spec: AttentionSpec, call: Any, message: str) -> None:
    g = compile(spec, gradients=True)
    with pytest.raises(ValueError) as error:
        call(g)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_jax_backend_matches_numpy() -> None:
    pytest.importorskip("jax", reason="JAX is optional (pip install 'mha-symbolic[jax]')")
    spec = AttentionSpec.example("pytorch-style")
    x = np.random.default_rng(7).normal(size=(2, 5, 6))
    got = compile(spec, backend="jax", gradients=True)(x.astype(np.float32), mask="causal")
    want = compile(spec, gradients=True)(x, mask="causal")
    assert_same({k: np.asarray(v) for k, v in got.items()}, want, 1e-4)


# ------------------------------------------------------------------ torch autograd
def torch_gradients(
    spec: AttentionSpec, xq: Any, xk: Any, xv: Any, allowed: Any, target: Any
) -> dict[str, Any]:
    """The loss and its gradients by torch autograd, from attention written head by head."""
    torch = pytest.importorskip("torch")
    h, fused = spec.heads, spec.layout == "fused"
    leaves: dict[str, Any] = {}

    def leaf(name: str, head: int) -> Any:
        value = floats(spec.weights[name][head])
        tensor = torch.tensor(value[0] if name.startswith("b_") else value, requires_grad=True)
        leaves.setdefault(name, []).append(tensor)
        return tensor.T if spec.convention == "xWT" and name.startswith("w_") else tensor

    sources = [torch.tensor(x, requires_grad=True) for x in (xq, xk, xv)]
    projected = {}
    for letter, x in zip("qkv", sources):
        if fused:
            y = x @ leaf(f"w_{letter}", 0)
            projected[letter] = y + leaf(f"b_{letter}", 0) if f"b_{letter}" in spec.weights else y
            continue
        parts = []
        for i in range(h):
            xi = torch.chunk(x, h, dim=-1)[i] if spec.layout == "split" else x
            y = xi @ leaf(f"w_{letter}", i)
            parts.append(y + leaf(f"b_{letter}", i) if f"b_{letter}" in spec.weights else y)
        projected[letter] = parts
    heads = []
    for i in range(h):
        q, k, v = (
            torch.chunk(projected[n], h, dim=-1)[i] if fused else projected[n][i] for n in "qkv"
        )
        scale = q.shape[-1] ** -0.5 if spec.scale == "sqrt_dk" else 1.0
        scores = scale * q @ k.transpose(-1, -2)
        if allowed is not None:
            scores = scores.masked_fill(~torch.as_tensor(allowed), -torch.inf)
        heads.append(torch.softmax(scores, dim=-1) @ v)
    out = torch.cat(heads, dim=-1)
    if spec.has_output_projection:
        out = out @ leaf("w_o", 0)
        out = out + leaf("b_o", 0) if "b_o" in spec.weights else out
    if target is None:
        losses = out.sum((-2, -1))
    else:
        losses = 0.5 * ((out - torch.tensor(target)) ** 2).sum((-2, -1))
    losses.sum().backward()
    grads: dict[str, Any] = {"loss": losses.detach().numpy()}
    grads.update({n: s.grad.numpy() for n, s in zip(("query", "key", "value"), sources)})
    for name, tensors in leaves.items():
        if name not in spec.omitted:
            values = [t.grad.numpy() for t in tensors]
            grads[name] = (
                values if spec.layout != "fused" and name != "w_o" and name != "b_o" else values[0]
            )
    return grads


@st.composite
def problems(draw: Any) -> tuple[AttentionSpec, tuple[np.ndarray, ...], Any, Any]:
    layout = draw(st.sampled_from(["per_head", "split", "fused"]))
    h, d = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    xwt, rng = draw(st.booleans()), np.random.default_rng(draw(st.integers(0, 2**31)))
    e = h * d if layout != "per_head" else draw(st.integers(1, 3))
    widths = [d] * h
    if layout == "per_head" and h == 2 and draw(st.booleans()):
        widths = [1, 2]  # heads of different widths: compiled one head at a time

    def given_shape(rows: int, cols: int) -> np.ndarray:
        return rng.integers(-2, 3, (cols, rows) if xwt else (rows, cols))

    weights: dict[str, Any] = {}
    for n in "qkv":
        if layout == "fused":
            weights[f"w_{n}"] = given_shape(e, e)
        elif layout == "per_head":
            weights[f"w_{n}"] = [given_shape(e, w) for w in widths]
        elif draw(st.booleans()) or n == "q":
            weights[f"w_{n}"] = [given_shape(d, d) for _ in range(h)]
        if draw(st.booleans()):
            weights[f"b_{n}"] = rng.integers(-2, 3, sum(widths)).tolist()  # flat: every head's
    out = sum(widths)
    if draw(st.booleans()):
        out = draw(st.integers(1, 3)) if layout != "fused" else e
        weights["w_o"] = given_shape(sum(widths), out)
        if draw(st.booleans()):
            weights["b_o"] = rng.integers(-2, 3, out)
    batch = draw(st.sampled_from([(), (2,)]))
    lq = draw(st.integers(1, 3))
    cross = draw(st.booleans())
    lk = draw(st.integers(1, 3)) if cross else lq
    mse = draw(st.booleans())
    loss = {"loss": {"kind": "mse", "target": np.zeros((lq, out), dtype=int)}} if mse else {}
    spec = AttentionSpec(
        x=np.zeros((lq, e), dtype=int),
        heads=h,
        layout=layout,
        convention="xWT" if xwt else "xW",
        scale=draw(st.sampled_from(["sqrt_dk", "none"])),
        weights=weights,
        **loss,
    )
    xq = rng.normal(size=(*batch, lq, e))
    xk, xv = (rng.normal(size=(*batch, lk, e)) for _ in "kv") if cross else (xq, xq)
    mask = draw(st.sampled_from(["none", "causal", "boolean"]))
    allowed = None
    if mask == "causal":
        allowed = np.tri(lq, lk, dtype=bool)
    elif mask == "boolean":
        allowed = rng.random((*batch, lq, lk)) < 0.6
        allowed[..., 0] = True
    target = rng.normal(size=(*batch, lq, out)) if mse else None
    return spec, (xq, xk, xv), allowed, target


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(problems())
def test_random_specs_match_torch_autograd(problem: Any) -> None:
    pytest.importorskip("torch", reason="torch is optional (pip install 'mha-symbolic[torch]')")
    spec, (xq, xk, xv), allowed, target = problem
    want = torch_gradients(spec, xq, xk, xv, allowed, target)
    mask = "none" if allowed is None else allowed
    for backend in ("numpy", "torch"):
        got = compile(spec, backend=backend, gradients=True)(xq, xk, xv, mask=mask, target=target)
        got = {
            k: [np.asarray(a) for a in v] if isinstance(v, list) else np.asarray(v)
            for k, v in got.items()
        }
        assert_same(got, want, 1e-10)


def test_torch_backend_keeps_dtype_and_device() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional (pip install 'mha-symbolic[torch]')"
    )
    spec = AttentionSpec.example("pytorch-style")
    g = compile(spec, backend="torch", gradients=True)
    x = torch.randn(2, 4, 6)
    out = g(x, mask="causal")
    assert out["x"].dtype == torch.float32 and out["w_q"].dtype == torch.float32
    want = compile(spec, gradients=True)(x.double().numpy(), mask="causal")
    np.testing.assert_allclose(out["w_v"].numpy(), want["w_v"], rtol=1e-4, atol=1e-5)


def test_torch_backend_differentiates_its_printed_forward_pass() -> None:
    pytest.importorskip("torch", reason="torch is optional (pip install 'mha-symbolic[torch]')")
    g = compile(AttentionSpec.example("pytorch-style"), backend="torch", gradients=True)
    assert g.source.endswith(
        "def attention_gradients(query, key, value, mask, w_q, w_k, w_v, w_o):\n"
        "    with torch.enable_grad():  # also under torch.no_grad()\n"
        "        query, key, value, w_q, w_k, w_v, w_o = "
        "leaves(query, key, value, w_q, w_k, w_v, w_o)\n"
        "        Q = split_heads(query @ w_q.swapaxes(-1, -2), 2)  # (..., 2, L_q, 3)\n"
        "        K = split_heads(key @ w_k.swapaxes(-1, -2), 2)  # (..., 2, L_k, 3)\n"
        "        V = split_heads(value @ w_v.swapaxes(-1, -2), 2)  # (..., 2, L_k, 3)\n"
        "        H = scaled_dot_product_attention(Q, K, V, attn_mask=mask, "
        "scale=0.5773502691896257)  # (..., 2, L_q, 3)\n"
        "        output = merge_heads(H) @ w_o.swapaxes(-1, -2)  # (..., L_q, 6)\n"
        "        loss = entry_sum(output)  # (...)\n"
        "        grads = gradients(loss, [query, key, value, w_q, w_k, w_v, w_o])\n"
        "    return loss.detach(), *grads\n"
    )
    mse = compile(two_tokens_mse(), backend="torch", gradients=True)
    assert "        output_bar = output - target" in mse.source
    assert "        loss = half_squared_norm(output_bar)  # (...)" in mse.source


def test_torch_backend_under_no_grad_with_grad_requiring_inputs_and_twice() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional (pip install 'mha-symbolic[torch]')"
    )
    spec = AttentionSpec.example("pytorch-style")
    g = compile(spec, backend="torch", gradients=True)
    rng = np.random.default_rng(8)
    x = rng.normal(size=(2, 4, 6))
    w_q = rng.normal(size=(6, 6))
    want = compile(spec, gradients=True)(x, mask="causal", w_q=w_q)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w_q, requires_grad=True)
    first = g(tx, mask="causal", w_q=tw)
    with torch.no_grad():
        second = g(tx, mask="causal", w_q=tw)
    third = g(tx.detach(), mask="causal", w_q=tw.detach())
    for got in (first, second, third):
        assert not any(t.requires_grad for t in got.values() if isinstance(t, torch.Tensor))
        assert_same({k: v.numpy() for k, v in got.items()}, want, 1e-12)
    assert tx.grad is None and tw.grad is None  # the caller's tensors are left alone
    assert all(not w.requires_grad for w in g._defaults.values())  # cached defaults too


def test_torch_backend_blocked_positions_get_zero_gradient() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional (pip install 'mha-symbolic[torch]')"
    )
    spec = AttentionSpec(x=[[100, 0], [-100, 0], [0, 100]], heads=1, scale="none", weights={})
    g = compile(spec, backend="torch", gradients=True)
    allowed = np.array([[True, False, True], [True, False, True], [True, False, False]])
    q, x = np.random.default_rng(4).normal(size=(3, 2)), floats(spec.query)
    out = g(torch.tensor(q), torch.tensor(x), torch.tensor(x), mask=torch.tensor(allowed))
    assert out["key"][1].tolist() == [0.0, 0.0] and out["value"][1].tolist() == [0.0, 0.0]
    huge = g(torch.tensor(x))
    assert all(bool(torch.isfinite(v).all()) for v in huge.values())
    np.testing.assert_allclose(huge["x"].numpy(), exact_gradients(spec, {})["x"], rtol=1e-12)
