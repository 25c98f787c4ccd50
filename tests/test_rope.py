"""Rotary position embeddings, one node of the model, against independent references.

The references are written here from the formula (NumPy) and as the rotate-half code of the
common open-source LLaMA implementations (torch); the exact derivation, the compiled
backends, lambdify, limits, gradients and the checker all get RoPE from the one node.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError, check, compile, derive
from tests.random_specs import layout_weights

E = 4  # model width of the specs below


def reference_rope(x: np.ndarray, base: float, pairs: str) -> np.ndarray:
    """RoPE from its definition: pair j of the row at position p turns by p * base^(-2j/d)."""
    length, width = x.shape
    out = x.astype(float).copy()
    for p in range(length):
        for j in range(width // 2):
            a, b = (j, j + width // 2) if pairs == "halves" else (2 * j, 2 * j + 1)
            angle = p * base ** (-2 * j / width)
            c, s = np.cos(angle), np.sin(angle)
            out[p, a] = x[p, a] * c - x[p, b] * s
            out[p, b] = x[p, a] * s + x[p, b] * c
    return out


def reference_attention(spec_raw: dict[str, Any], x_q: np.ndarray, x_k: np.ndarray) -> np.ndarray:
    """One-head-at-a-time attention with RoPE on q and k, written from the formula."""
    rope = spec_raw.get("rope", {})
    base = float(rope.get("base", 10000)) if isinstance(rope, dict) else 10000.0
    pairs = rope.get("pairs", "halves") if isinstance(rope, dict) else "halves"
    w = {k: [np.array(m, dtype=float) for m in v] for k, v in spec_raw["weights"].items()}
    heads = []
    for w_q, w_k, w_v in zip(w["w_q"], w["w_k"], w["w_v"]):
        q = reference_rope(x_q @ w_q, base, pairs)
        k = reference_rope(x_k @ w_k, base, pairs)
        scores = q @ k.T / np.sqrt(q.shape[1])
        weights = np.exp(scores - scores.max(1, keepdims=True))
        weights /= weights.sum(1, keepdims=True)
        heads.append(weights @ (x_k @ w_v))
    return np.hstack(heads)


def floats(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array(matrix.evalf(30).tolist(), dtype=float)


def raw_spec(pairs: str = "halves", base: int = 100, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)

    def ints(*shape: int) -> list:
        return rng.integers(-2, 3, size=shape).tolist()

    return {
        "x": ints(3, E),
        "heads": 2,
        "rope": {"base": base, "pairs": pairs},
        "weights": {"w_q": ints(2, E, 4), "w_k": ints(2, E, 4), "w_v": ints(2, E, 2)},
    }


# ------------------------------------------------------------------ exact values
def test_exact_rotation_of_the_example_holds_cos_and_sin_of_exact_angles() -> None:
    d = derive(AttentionSpec.example("rope"))
    q_rot = d["head1.q_rot"]
    # token 2 ("cat", position 1), query (0, 1, 0, 1): pair 2 = features 2 and 4, angle 1/100
    c, s = sp.cos(sp.Rational(1, 100)), sp.sin(sp.Rational(1, 100))
    assert list(q_rot.row(1)) == [0, c - s, 0, s + c]
    assert d["head1.q_rot"][0, :] == d["head1.q"][0, :]  # position 0 does not turn
    # the scores of rotated vectors depend on the distance: token 2 with itself is q . k
    assert d["head1.scores"][1, 1] == 1
    assert d.step("head1.q_rot").kind == "rope"
    assert d.step("head1.q_rot").title == "Rotated queries, head 1"


@pytest.mark.parametrize("pairs", ["halves", "interleaved"])
def test_exact_values_equal_the_reference(pairs: str) -> None:
    raw = raw_spec(pairs)
    d = derive(AttentionSpec(**raw))
    x = np.array(raw["x"], dtype=float)
    for i in (1, 2):
        w_q = np.array(raw["weights"]["w_q"][i - 1], dtype=float)
        np.testing.assert_allclose(floats(d[f"head{i}.q_rot"]), reference_rope(x @ w_q, 100, pairs))
        q, k = floats(d[f"head{i}.q_rot"]), floats(d[f"head{i}.k_rot"])
        np.testing.assert_allclose(floats(d[f"head{i}.scores"]), q @ k.T, atol=1e-12)
    np.testing.assert_allclose(floats(d["output"]), reference_attention(raw, x, x), atol=1e-12)


def test_cross_attention_rotates_queries_and_keys_by_their_own_positions() -> None:
    rng = np.random.default_rng(3)
    query, key = rng.integers(-2, 3, (2, E)).tolist(), rng.integers(-2, 3, (4, E)).tolist()
    raw = raw_spec("halves", 10000)
    raw.pop("x")
    spec = AttentionSpec(query=query, key=key, **raw)
    d = derive(spec)
    want = reference_attention(raw, np.array(query, float), np.array(key, float))
    np.testing.assert_allclose(floats(d["output"]), want, atol=1e-12)
    got = compile(spec)(np.array(query, float), np.array(key, float))
    np.testing.assert_allclose(got, want, atol=1e-12)


# ------------------------------------------------------------------ compiled, every layout
@pytest.mark.parametrize("layout", ["per_head", "split", "fused"])
@pytest.mark.parametrize("pairs", ["halves", "interleaved"])
def test_compiled_equals_exact_in_every_layout(layout: str, pairs: str) -> None:
    rng = np.random.default_rng(5)
    weights = layout_weights(rng, layout, E)
    spec = AttentionSpec(
        x=rng.integers(-2, 3, (3, E)).tolist(),
        heads=2,
        layout=layout,
        mask="causal",
        rope={"base": 50, "pairs": pairs},
        weights=weights,
    )
    exact = floats(derive(spec)["output"])
    f = compile(spec)
    assert "rope(" in f.source
    np.testing.assert_allclose(f(np.array(spec.query.tolist(), dtype=float)), exact, atol=1e-12)


def test_compiled_runs_any_length_and_batch() -> None:
    spec = AttentionSpec.example("rope")
    f = compile(spec)
    x = np.random.default_rng(0).normal(size=(2, 5, 2))
    raw = {"weights": {k: [m.tolist() for m in v] for k, v in spec.weights.items()}}
    for b in range(2):
        want = reference_attention(raw, x[b], x[b])
        np.testing.assert_allclose(f(x)[b], want, atol=1e-12)


# ------------------------------------------------------------------ torch, the LLaMA way
def _torch_rope(x: Any, base: float) -> Any:
    """The rotate-half RoPE of the common open-source LLaMA implementations."""
    import torch

    length, width = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, width, 2, dtype=torch.float64) / width))
    freqs = torch.outer(torch.arange(length, dtype=torch.float64), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)

    def rotate_half(t: Any) -> Any:
        first, second = t[..., : width // 2], t[..., width // 2 :]
        return torch.cat((-second, first), dim=-1)

    return x * emb.cos() + rotate_half(x) * emb.sin()


def _torch_attention(x: Any, weights: dict[str, Any], base: float) -> Any:
    import torch

    heads = []
    for w_q, w_k, w_v in zip(weights["w_q"], weights["w_k"], weights["w_v"]):
        q, k = _torch_rope(x @ w_q, base), _torch_rope(x @ w_k, base)
        a = torch.softmax(q @ k.T / q.shape[-1] ** 0.5, dim=-1)
        heads.append(a @ (x @ w_v))
    return torch.cat(heads, dim=-1)


def test_values_and_autograd_gradients_match_torch() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional (pip install 'mha-symbolic[torch]')"
    )
    raw = raw_spec("halves", 10000, seed=7)
    spec = AttentionSpec(**raw)
    x = torch.tensor(raw["x"], dtype=torch.float64, requires_grad=True)
    weights = {
        n: [torch.tensor(m, dtype=torch.float64, requires_grad=True) for m in raw["weights"][n]]
        for n in ("w_q", "w_k", "w_v")
    }
    out = _torch_attention(x, weights, 10000.0)
    out.sum().backward()
    d = derive(spec, gradients=True)
    np.testing.assert_allclose(floats(d["output"]), out.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(floats(d["grad.x"]), x.grad.numpy(), atol=1e-10)
    for i in (1, 2):
        want = weights["w_q"][i - 1].grad.numpy()
        np.testing.assert_allclose(floats(d[f"grad.head{i}.w_q"]), want, atol=1e-10)
        want = weights["w_k"][i - 1].grad.numpy()
        np.testing.assert_allclose(floats(d[f"grad.head{i}.w_k"]), want, atol=1e-10)
    for backend in ("numpy", "torch"):
        got = compile(spec, backend=backend, gradients=True)(np.array(raw["x"], dtype=float))
        np.testing.assert_allclose(np.asarray(got["x"]), x.grad.numpy(), atol=1e-10)
        got_w = np.asarray(got["w_k"][1])
        np.testing.assert_allclose(got_w, weights["w_k"][1].grad.numpy(), atol=1e-10)
    assert torch.allclose(
        compile(spec, backend="torch")(torch.tensor(raw["x"], dtype=torch.float64)),
        out.detach(),
        atol=1e-12,
    )


def test_exact_gradient_steps_turn_back_through_the_rotation() -> None:
    d = derive(AttentionSpec.example("rope"), gradients=True)
    assert str(d.step("grad.head1.q").formula) == r"rope(\bar{\hat{Q}}_{1}, 10000.0, 'halves', -1)"
    assert str(d.step("grad.head1.q_rot").formula) == r"\bar{S}_{1}*\hat{K}_{1}"
    keys = [s.key for s in d.steps if s.key.startswith("grad.head1.")]
    assert keys[:8] == [
        "grad.head1.output",
        "grad.head1.v",
        "grad.head1.weights",
        "grad.head1.scaled",
        "grad.head1.scores",
        "grad.head1.q_rot",
        "grad.head1.k_rot",
        "grad.head1.q",
    ]


# ------------------------------------------------------------------ lambdify, limits, check
def test_lambdify_of_symbolic_weights_with_rope() -> None:
    spec = AttentionSpec(
        x=[[1, 0], [0, 1], [1, 1]], heads=1, rope=True, weights={"w_q": "symbolic"}
    )
    d = derive(spec)
    g = d.lambdify("output")
    point = {s: sp.Rational(k + 1, 7) for k, s in enumerate(sorted(d.free_symbols, key=str))}
    got = g(**{s.name: float(v) for s, v in point.items()})
    np.testing.assert_allclose(got, floats(d["output"].xreplace(point)), atol=1e-12)


def test_limits_of_a_temperature_with_rope() -> None:
    spec = AttentionSpec(
        x=[[1, 0], [0, 1], [1, 1]],
        heads=1,
        rope=True,
        scale="1/tau",
        parameters={"tau": "positive"},
    )
    hot = derive(spec).limit("tau", "oo")
    assert hot["head1.weights"] == sp.Matrix(3, 3, lambda i, j: sp.Rational(1, 3))
    cold = derive(spec).limit("tau", "0+")
    assert all(set(row) <= {0, 1} for row in cold["head1.weights"].tolist())


def test_check_finds_a_missing_scale_under_rope() -> None:
    d = derive(AttentionSpec.example("rope"))
    unscaled = derive(AttentionSpec(**{**raw_of("rope"), "scale": "none"}))
    printed = np.round(floats(unscaled["head1.weights"]), 4).tolist()
    report = check(d, {"head1.weights": printed})
    assert report.claims[0].verdict == "wrong"
    assert report.claims[0].mistakes == ("scores not scaled by 1/sqrt(d_k)",)


def raw_of(name: str) -> dict[str, Any]:
    spec = AttentionSpec.example(name)
    return {
        "x": spec.query.tolist(),
        "heads": spec.heads,
        "rope": True,
        "weights": {k: [m.tolist() for m in v] for k, v in spec.weights.items()},
    }


# ------------------------------------------------------------------ spec and rendering
@pytest.mark.parametrize(
    ("rope", "message"),
    [
        ({"pairs": "spiral"}, "unknown rope.pairs 'spiral'; choose halves or interleaved"),
        ({"base": 1}, "rope.base must be an integer of at least 2, got 1"),
        ({"bsae": 10}, "unknown key 'rope.bsae' (did you mean 'base'?)"),
        (
            "yes",
            "rope must be true, false or a table {base = 10000, pairs = \"halves\"}, got 'yes'",
        ),
    ],
)
def test_rope_spec_errors(rope: Any, message: str) -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1, 0], [0, 1]], rope=rope)
    assert str(error.value) == f"<arguments>: {message}"


def test_odd_widths_cannot_turn_in_pairs() -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1, 0, 0], [0, 1, 0]], rope=True)
    assert str(error.value) == (
        "<arguments>: rope rotates features in pairs, but head 1's queries and keys have odd "
        "width 3"
    )


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_rendered_in_every_format(lang: str) -> None:
    d = derive(AttentionSpec.example("rope"))
    md = d.to_markdown(lang=lang)
    assert ("Rotated queries, head 1" if lang == "en" else "ঘোরানো কোয়েরি, হেড 1") in md
    assert r"\cos \varphi - \sin \varphi" in md  # varphi = 1/100, named in the setup
    assert r"\operatorname{RoPE}\left(Q_{1}\right)" in d.to_latex(lang=lang)
    assert "RoPE" in d.to_html(lang=lang)


def test_the_latex_compiles_with_pdflatex(tmp_path: Any) -> None:
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (apt-get install texlive-latex-base)")
    tex = tmp_path / "rope.tex"
    tex.write_text(derive(AttentionSpec.example("rope"), gradients=True).to_latex())
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name],
        cwd=tmp_path,
        capture_output=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:]


@pytest.mark.parametrize(
    ("pairs", "words", "said"),
    [
        ("halves", "in pairs, the first half with the second", r"(q_{1}, q_{3}),\ (q_{2}, q_{4})"),
        ("interleaved", "in pairs of neighbours", r"(q_{1}, q_{2}),\ (q_{3}, q_{4})"),
    ],
)
def test_the_rotated_queries_say_in_words_which_features_turn_together(
    pairs: str, words: str, said: str
) -> None:
    """The introduction said it as a spec fragment (``try rope = {pairs = "interleaved"}``); the
    rotated queries' caption now says it in words and lists the pairs, in every format and in
    Bengali; the keys' caption (the same way) does not repeat it."""
    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    d = derive(AttentionSpec.from_dict(raw_spec(pairs)))
    md = render(d, "md", Options(), images={})
    assert f"each query's features turn {words}" in md and f"${said}$." in md
    assert md.count(said) == 2  # once a head, at its rotated queries
    assert f"{words}" in render(d, "tex", Options(), images={})
    assert f"{words}" in render(d, "html", Options(), images={})
    text = render(d, "text", Options(), images={})
    assert ("(q₁, q₃), (q₂, q₄)" if pairs == "halves" else "(q₁, q₂), (q₃, q₄)") in text
    bengali = render(d, "md", Options(lang="bn"), images={})
    assert ("প্রথম অর্ধেক" if pairs == "halves" else "পাশাপাশি জোড়ায়") in bengali
    assert f"${said}$।" in bengali


def test_a_wide_head_s_pairs_are_said_by_the_first_two_and_the_last() -> None:
    raw = raw_spec("interleaved")
    raw["weights"]["w_q"] = raw["weights"]["w_k"] = [[[1] * 8] * E] * 2
    md = derive(AttentionSpec.from_dict(raw)).to_markdown()
    assert r"$(q_{1}, q_{2}),\ (q_{3}, q_{4}),\ \dots,\ (q_{7}, q_{8})$" in md


def test_no_example_s_words_hold_a_spec_fragment() -> None:
    """A teacher hands the introduction out: it says the pairing in words, not as TOML."""
    from mha_symbolic.spec.attention import example_names

    for name in example_names():
        spec = AttentionSpec.example(name)
        texts = [spec.description, *(t.get("description", "") for t in spec.translations.values())]
        assert not [t for t in texts if "= {" in t or '= "' in t], name
