"""compile(spec) and Derivation.lambdify(): generated code against the exact derivation."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, compile, derive
from mha_symbolic.spec.attention import example_names


def floats(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array(matrix.evalf(30).tolist(), dtype=float)


def random_values(symbols: set[sp.Symbol], seed: int = 0) -> dict[sp.Symbol, sp.Rational]:
    rng = np.random.default_rng(seed)
    ordered = sorted(symbols, key=lambda s: s.name)
    return {s: sp.Rational(int(rng.integers(-8, 9)), 8) for s in ordered}


def as_arrays(spec: AttentionSpec, values: dict[sp.Symbol, sp.Rational]) -> dict[str, list]:
    """The spec's symbolic weights with the values substituted, in the compiled call's form."""
    out: dict[str, list] = {}
    for name in spec.symbolic:
        matrices = [floats(m.xreplace(values)) for m in spec.weights[name]]
        out[name] = matrices if spec.layout != "fused" and name[-1] in "qkv" else matrices[0]
    return out


@pytest.mark.parametrize("name", example_names())
def test_compiled_equals_exact_for_every_example(name: str) -> None:
    spec = AttentionSpec.example(name)
    d = derive(spec)
    f = compile(spec)
    values = random_values(d.free_symbols)
    exact = floats(d["output"].xreplace(values))
    numbers = {name: float(values[symbol]) for name, symbol in spec.parameters.items()}
    arrays = as_arrays(spec, values)
    got = f(floats(spec.query), floats(spec.key), floats(spec.value), **arrays, **numbers)
    np.testing.assert_allclose(got, exact, rtol=1e-12, atol=1e-12)


def test_source_is_readable_batched_code() -> None:
    f = compile(AttentionSpec.example("pytorch-style"))
    assert f.source.endswith(
        "def attention(query, key, value, mask, w_q, w_k, w_v, w_o):\n"
        "    Q = split_heads(query @ w_q.T, 2)  # (..., 2, L_q, 3)\n"
        "    K = split_heads(key @ w_k.T, 2)  # (..., 2, L_k, 3)\n"
        "    V = split_heads(value @ w_v.T, 2)  # (..., 2, L_k, 3)\n"
        "    H = softmax((0.5773502691896257 * Q) @ K.swapaxes(-1, -2), mask, right=V)"
        "  # (..., 2, L_q, 3)\n"
        "    output = merge_heads(H) @ w_o.T  # (..., L_q, 6)\n"
        "    return output\n"
    )
    assert str(f.expr) == (
        "merge_heads(softmax(M + (sqrt(3)/3)*split_heads(X_{q}*W_{Q}.T, 2)"
        "*split_heads(X_{k}*W_{K}.T, 2).T)*split_heads(X_{v}*W_{V}.T, 2))*W_{O}.T"
    )


def test_batch_axes_and_any_length() -> None:
    spec = AttentionSpec.example("pytorch-style")
    f = compile(spec)
    x = np.random.default_rng(1).normal(size=(2, 3, 7, 6))
    out = f(x)
    assert out.shape == (2, 3, 7, 6)
    np.testing.assert_allclose(out[1, 2], f(x[1, 2]), rtol=1e-14)


def test_dtype_is_preserved() -> None:
    f = compile(AttentionSpec.example("two-tokens"))
    x = np.eye(2)
    assert f(x.astype(np.float32)).dtype == np.float32
    assert f(x.astype(np.float64)).dtype == np.float64
    assert f(np.eye(2, dtype=int)).dtype == np.float64
    np.testing.assert_allclose(f(x.astype(np.float32)), 0.5, rtol=1e-6)


def one_head(x: list[list[int]]) -> AttentionSpec:
    return AttentionSpec(x=x, heads=1, scale="none", weights={})


def test_huge_logits_stay_finite_and_correct() -> None:
    # Scores of +-1e4: exp would overflow without the row max subtracted first.
    spec = one_head([[100, 0], [-100, 0]])
    out = compile(spec)(floats(spec.query))
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out, floats(derive(spec)["output"]), rtol=1e-12, atol=1e-300)
    np.testing.assert_array_equal(out, [[100.0, 0.0], [-100.0, 0.0]])


def test_masks_causal_boolean_and_additive_agree_with_the_exact_mask() -> None:
    x = [[1, 0], [0, 1], [1, 1]]
    causal = AttentionSpec(x=x, heads=1, mask="causal", weights={})
    expected = floats(derive(causal)["output"])
    plain = compile(causal.evolve(mask_kind="none", mask=None))
    allowed = np.tril(np.ones((3, 3), dtype=bool))
    xs = np.array(x, dtype=float)
    np.testing.assert_allclose(compile(causal)(xs), expected, rtol=1e-12)
    np.testing.assert_allclose(plain(xs, mask="causal"), expected, rtol=1e-12)
    np.testing.assert_allclose(plain(xs, mask=allowed), expected, rtol=1e-12)
    np.testing.assert_allclose(plain(xs, mask=allowed.astype(int)), expected, rtol=1e-12)
    np.testing.assert_allclose(plain(xs, mask=np.where(allowed, 0.0, -np.inf)), expected)
    np.testing.assert_allclose(compile(causal)(xs, mask="none"), plain(xs), rtol=1e-14)


def test_key_padding_mask_broadcasts_over_queries_and_heads() -> None:
    f = compile(AttentionSpec.example("pytorch-style"))
    x = np.random.default_rng(2).normal(size=(2, 4, 6))
    padding = np.array([[[True, True, True, False]], [[True, True, True, True]]])
    out = f(x, mask=padding)
    np.testing.assert_allclose(out[0], f(x[0], x[0, :3], x[0, :3]), rtol=1e-12)
    np.testing.assert_allclose(out[1], f(x[1]), rtol=1e-12)


def test_fully_masked_row_raises() -> None:
    f = compile(one_head([[1, 0], [0, 1]]))
    mask = np.array([[True, False], [False, False]])
    with pytest.raises(ValueError, match=r"^mask blocks every key in query row 2; softmax"):
        f(np.eye(2), mask=mask)
    with pytest.raises(ValueError, match=r"query row 1 \(batch index \(1,\)\)"):
        f(np.eye(2), mask=np.array([[[0.0, 0.0]], [[-np.inf, -np.inf]]]))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda f: f(np.ones((2, 3))), "query has shape (2, 3) but the spec needs (..., L, 6)"),
        (
            lambda f: f(np.ones((2, 6)), np.ones((3, 6)), np.ones((2, 6))),
            "key has 3 rows (shape (3, 6)) but value has 2 (shape (2, 6))",
        ),
        (
            lambda f: f(np.ones((2, 4, 6)), np.ones((3, 4, 6))),
            "the batch shapes of query, key and value do not broadcast: (2,), (3,), (3,)",
        ),
        (
            lambda f: f(np.ones((4, 6)), w_q=np.ones((6, 5))),
            "w_q has shape (6, 5) but the spec's is (6, 6)",
        ),
        (lambda f: f(np.ones((4, 6)), w_x=1), "unknown weight 'w_x'; this spec takes"),
        (
            lambda f: f(np.ones((4, 6)), mask=np.ones((4, 3), dtype=bool)),
            "mask has shape (4, 3) but the scores have shape (..., 4, 4)",
        ),
        (lambda f: f(np.ones((4, 6)), mask="upper"), "mask 'upper' is unknown"),
    ],
)
def test_bad_arguments_name_the_argument_and_shapes(call, message: str) -> None:
    f = compile(AttentionSpec.example("pytorch-style"))
    with pytest.raises(ValueError) as error:
        call(f)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_symbolic_weights_are_required_arguments() -> None:
    f = compile(AttentionSpec.example("eight-tokens-split"))
    assert f.required == ("w_q", "w_k", "w_v", "w_o")
    with pytest.raises(ValueError, match=r"^w_q is symbolic in the spec; pass w_q= 2 arrays"):
        f(np.ones((8, 4)))


def test_spec_mask_matrix_fixes_the_lengths() -> None:
    spec = AttentionSpec(x=[[1, 0], [0, 1]], heads=1, mask=[[1, 0], [1, 1]], weights={})
    f = compile(spec)
    np.testing.assert_allclose(f(np.eye(2)), floats(derive(spec)["output"]), rtol=1e-12)
    with pytest.raises(ValueError, match=r"the spec's mask has shape \(2, 2\) but the scores"):
        f(np.eye(3)[:, :2])


def test_heads_of_different_widths_run_one_at_a_time() -> None:
    spec = AttentionSpec(
        x=[[1, 2], [0, 1], [2, 0]],
        heads=2,
        weights={
            "w_q": [[[1], [0]], [[0, 1], [1, 1]]],
            "w_k": [[[0], [1]], [[1, 0], [0, 1]]],
            "w_v": [[[1, 1, 0], [0, 1, 1]], [[1], [2]]],
            "b_q": [1, 0, 2],
        },
    )
    f = compile(spec)
    assert "H1 = softmax" in f.source and "H2 = softmax" in f.source
    np.testing.assert_allclose(f(floats(spec.query)), floats(derive(spec)["output"]), rtol=1e-12)


def test_unknown_backend() -> None:
    with pytest.raises(ValueError, match=r"^unknown backend 'tf'; choose one of numpy, torch, jax"):
        compile(AttentionSpec.example("two-tokens"), backend="tf")


def test_jax_backend_matches_numpy() -> None:
    pytest.importorskip("jax", reason="JAX is optional (pip install 'mha-symbolic[jax]')")
    spec = AttentionSpec.example("pytorch-style")
    x = np.random.default_rng(3).normal(size=(2, 5, 6)).astype(np.float32)
    got = np.asarray(compile(spec, backend="jax")(x, mask="causal"))
    np.testing.assert_allclose(got, compile(spec)(x, mask="causal"), rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ random shapes
def reference(spec: AttentionSpec, xq, xk, xv) -> np.ndarray:
    """Attention written directly from the spec, one head at a time (float64)."""
    h, heads = spec.heads, []
    for i in range(h):
        parts = []
        for name, x in zip("qkv", (xq, xk, xv)):
            fused = spec.layout == "fused"
            w = floats(spec.effective("w_" + name, 0 if fused else i))
            if spec.layout == "split":
                width = x.shape[-1] // h
                x = x[..., i * width : (i + 1) * width]
            p = x @ w + (
                floats(spec.weights["b_" + name][0 if fused else i])
                if "b_" + name in spec.weights
                else 0
            )
            if fused:
                width = p.shape[-1] // h
                p = p[..., i * width : (i + 1) * width]
            parts.append(p)
        q, k, v = parts
        scale = 1 / np.sqrt(q.shape[-1]) if spec.scale == "sqrt_dk" else 1.0
        s = scale * q @ np.swapaxes(k, -1, -2)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        heads.append(e / e.sum(axis=-1, keepdims=True) @ v)
    out = np.concatenate(heads, axis=-1)
    if spec.has_output_projection:
        out = out @ floats(spec.effective("w_o"))
        if "b_o" in spec.weights:
            out = out + floats(spec.weights["b_o"][0])
    return out


@st.composite
def problems(draw):
    layout = draw(st.sampled_from(["per_head", "split", "fused"]))
    h, d = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    e = h * d
    small = st.integers(-3, 3)

    def matrix(rows: int, cols: int) -> list[list[int]]:
        return draw(
            st.lists(st.lists(small, min_size=cols, max_size=cols), min_size=rows, max_size=rows)
        )

    transposed = draw(st.booleans())
    shape_in = {"per_head": (e, d), "split": (d, d), "fused": (e, e)}[layout]
    given = shape_in[::-1] if transposed else shape_in
    count = 1 if layout == "fused" else h
    weights = {}
    for name in ("w_q", "w_k", "w_v"):
        mats = [matrix(*given) for _ in range(count)]
        weights[name] = mats[0] if layout == "fused" else mats
    if draw(st.booleans()):
        weights["w_o"] = matrix(e, e)
        weights["b_o"] = draw(st.lists(small, min_size=e, max_size=e))
    if draw(st.booleans()):
        width = e if layout == "fused" else d
        weights["b_q"] = draw(
            st.lists(
                small,
                min_size=width * (h if layout != "fused" else 1),
                max_size=width * (h if layout != "fused" else 1),
            )
        )
    spec = AttentionSpec(
        x=[[0] * e],
        heads=h,
        layout=layout,
        convention="xWT" if transposed else "xW",
        scale=draw(st.sampled_from(["sqrt_dk", "none"])),
        weights=weights,
    )
    batch = draw(st.sampled_from([(), (2,), (2, 1)]))
    lq, lk = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    return spec, batch, lq, lk, draw(st.integers(0, 2**31))


@settings(max_examples=25, deadline=None)
@given(problems())
def test_random_shapes_match_a_direct_reference(problem) -> None:
    spec, batch, lq, lk, seed = problem
    rng = np.random.default_rng(seed)
    e = spec.query.cols
    xq, xk, xv = (rng.normal(size=(*batch, n, e)) for n in (lq, lk, lk))
    got = compile(spec)(xq, xk, xv)
    np.testing.assert_allclose(got, reference(spec, xq, xk, xv), rtol=1e-10, atol=1e-10)


# ------------------------------------------------------------------ lambdify
def test_lambdify_equals_substitution_with_symbolic_weights() -> None:
    d = derive(AttentionSpec.example("eight-tokens-split"))
    g = d.lambdify()
    values = random_values(d.free_symbols, seed=4)
    got = g(**{s.name: float(v) for s, v in values.items()})
    np.testing.assert_allclose(got, floats(d["output"].xreplace(values)), rtol=1e-12)
    batched = g(**{s.name: np.full(3, float(v)) for s, v in values.items()})
    assert batched.shape == (3, 8, 4)
    np.testing.assert_allclose(batched[2], got, rtol=1e-15)


def test_lambdify_is_stable_for_huge_symbolic_logits() -> None:
    spec = AttentionSpec(x=[["a", 0], [0, "a"]], heads=1, scale="none", weights={})
    d = derive(spec)
    g = d.lambdify("head1.weights")
    assert g.names == ("a",)
    np.testing.assert_allclose(g(a=100.0), [[1.0, 0.0], [0.0, 1.0]], atol=1e-300)
    exact = floats(d["head1.weights"].subs("a", 3))
    np.testing.assert_allclose(g(a=3.0), exact, rtol=1e-14)


def test_lambdify_without_symbols_and_bad_names() -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    np.testing.assert_allclose(d.lambdify()(), 0.5, rtol=1e-15)
    with pytest.raises(ValueError, match=r"^unknown symbol 'x'; the derivation has no symbols"):
        d.lambdify()(x=1)


# ------------------------------------------------------------------ grouped-query attention
def gqa_spec(layout: str) -> AttentionSpec:
    rng = np.random.default_rng(5)
    if layout == "fused":
        w = {n: rng.integers(-2, 3, (8, 8 if n == "w_q" else 4)) for n in ("w_q", "w_k", "w_v")}
        w["b_k"] = [1, 0, -1, 2]
    else:
        w = {
            n: [rng.integers(-2, 3, (8, 2)) for _ in range(4 if n == "w_q" else 2)]
            for n in ("w_q", "w_k", "w_v")
        }
        w["b_v"] = [1, 2, 3, 4]
    x = rng.integers(-2, 3, (3, 8))
    return AttentionSpec(x=x, heads=4, kv_heads=2, layout=layout, weights=w)


@pytest.mark.parametrize("layout", ["per_head", "fused"])
def test_grouped_query_heads_share_keys_and_values(layout: str) -> None:
    spec = gqa_spec(layout)
    d = derive(spec)
    assert d["head1.k"] == d["head2.k"] and d["head3.v"] == d["head4.v"]
    assert d["head2.k"] != d["head3.k"]
    got = compile(spec)(floats(spec.query))
    np.testing.assert_allclose(got, floats(d["output"]), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kv_heads": 3}, "kv_heads = 3 does not divide heads = 4"),
        ({"kv_heads": 0}, "kv_heads must be a positive integer, got 0"),
        ({"layout": "split"}, "kv_heads needs layout per_head or fused"),
        ({"weights": {}}, "kv_heads = 2 < heads = 4 needs w_k given as numbers"),
        (
            {
                "layout": "per_head",
                "weights": {"w_k": [np.eye(8, 2)] * 4, "w_v": [np.eye(8, 2)] * 2},
            },
            "w_k has 4 matrices but kv_heads = 2; give one per key/value head",
        ),
    ],
)
def test_grouped_query_errors(changes: dict, message: str) -> None:
    fields = {
        "x": np.eye(3, 8),
        "heads": 4,
        "kv_heads": 2,
        "layout": "fused",
        "weights": {"w_k": np.eye(8, 4), "w_v": np.eye(8, 4)},
        **changes,
    }
    with pytest.raises(ValueError, match="^<arguments>: " + message.replace("(", r"\(")):
        AttentionSpec(**fields)
