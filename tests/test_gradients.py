"""Exact gradients: hand-checked values, the [loss] table, rendering, and torch autograd."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, SpecError, check, derive
from mha_symbolic.cli import main
from mha_symbolic.exact.forms import Algebra
from mha_symbolic.exact.values import evaluate

E = sp.E


def two_tokens_mse() -> AttentionSpec:
    spec = AttentionSpec.example("two-tokens")
    raw = {"x": [[1, 0], [0, 1]], "heads": 2, "scale": "none", "tokens": ["I", "love"]}
    raw["weights"] = {
        "w_q": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
        "w_k": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
        "w_v": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
        "w_o": [["1/2", 0], [0, "1/2"], ["1/2", 0], [0, "1/2"]],
    }
    raw["loss"] = {"kind": "mse", "target": [[1, 0], [0, 1]]}
    built = AttentionSpec.from_dict(raw)
    assert built.weights == spec.weights
    return built


# ------------------------------------------------------------------ values checked by hand
def test_two_tokens_sum_loss_exact_values() -> None:
    d = derive(AttentionSpec.example("two-tokens"), gradients=True)
    assert d["loss"] == sp.Matrix([[2]])
    assert d["grad.output"] == sp.ones(2, 2)
    # every row of A sums to 1 and W_O halves: each value row gets 1/2 from both queries
    assert d["grad.head1.v"] == sp.Matrix([[sp.Rational(1, 2)] * 2] * 2)
    # abar is 1/2 everywhere, so the softmax passes back exactly 0
    assert d["grad.head1.scaled"] == sp.zeros(2, 2)
    assert d["grad.head2.w_q"] == sp.zeros(2, 2)
    assert d["grad.x"] == sp.ones(2, 2)


def test_two_tokens_mse_loss_exact_values() -> None:
    d = derive(two_tokens_mse())  # a [loss] table turns gradients on
    half = sp.Rational(1, 2)
    assert d["loss"] == sp.Matrix([[half]])
    assert d["grad.output"] == sp.Matrix([[-half, half], [half, -half]])
    assert d["grad.head1.weights"] == sp.Matrix([[-half / 2, half / 2], [half / 2, -half / 2]])
    # a = e/(1+e): abar . (diag(a) - a a^T) = a (1 - a) (-1/4 - 1/4) = -e / (2 (1 + e)^2)
    entry = -E / (2 * (1 + E) ** 2)
    assert d["grad.head1.scaled"] == sp.Matrix([[entry, -entry], [-entry, entry]])
    assert d["grad.head1.w_q"][0, 0] == entry
    assert d["grad.w_o"][0, 0] == (1 - sp.exp(2)) / (2 * (1 + E) ** 2)
    assert d["grad.x"] == sp.zeros(2, 2)


def test_step_order_keys_and_formulas() -> None:
    d = derive(AttentionSpec.example("two-tokens"), gradients=True)
    keys = [s.key for s in d.steps if s.kind in ("loss", "grad")]
    assert keys[:5] == ["loss", "grad.output", "grad.w_o", "grad.concat", "grad.head1.output"]
    assert keys[5:11] == [
        "grad.head1.v",
        "grad.head1.weights",
        "grad.head1.scaled",
        "grad.head1.scores",
        "grad.head1.q",
        "grad.head1.k",
    ]
    assert keys[-7:] == [
        "grad.head1.w_q",
        "grad.head1.w_k",
        "grad.head1.w_v",
        "grad.head2.w_q",
        "grad.head2.w_k",
        "grad.head2.w_v",
        "grad.x",
    ]
    assert d.latex("grad.output") == r"\begin{bmatrix} 1 & 1 \\ 1 & 1 \end{bmatrix}"
    step = d.step("grad.head1.weights")
    assert (step.kind, step.head, step.title) == (
        "grad",
        1,
        "Gradient of the attention weights, head 1",
    )
    assert str(step.formula) == r"\overline{\mathrm{head}}_{1}*V_{1}.T"
    assert str(d.step("grad.head1.scaled").formula) == r"softmax_backward(A_{1}, \bar{A}_{1})"
    assert str(d.step("grad.head1.k").formula) == r"\bar{S}_{1}.T*Q_{1}"


def test_no_gradients_without_a_loss_table_or_the_flag() -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    assert "grad.x" not in d and "loss" not in d
    assert "loss" not in derive(two_tokens_mse(), gradients=False)


def test_formulas_evaluate_to_the_exact_values() -> None:
    """Each grad step's structural formula, evaluated on the exact values, gives its value."""
    spec = AttentionSpec(
        x=[[1, 0, 2], [0, 1, -1], [1, 1, 0]],
        heads=1,
        mask="causal",
        weights={"w_q": [[1, 0], [0, 1], [1, 1]], "w_k": [[0, 1], [1, 0], [1, -1]]},
    )
    d = derive(spec, gradients=True)
    values = {**d.bindings, **{s.symbol: s.value for s in d.steps}}
    for step in d.steps:
        if step.kind in ("loss", "grad"):
            got = np.array(evaluate(step.formula, values).evalf(30).tolist(), dtype=float)
            want = np.array(step.value.evalf(30).tolist(), dtype=float)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=step.key)
    assert d["grad.head1.masked"][0, 1:] == sp.zeros(1, 2)  # blocked: exactly 0


# ------------------------------------------------------------------ the [loss] table
@pytest.mark.parametrize(
    ("loss", "message"),
    [
        ({"kind": "l1"}, "unknown loss.kind 'l1'; choose one of sum, mse"),
        ({"kind": "mse"}, "loss.kind mse needs loss.target, a matrix of the output's shape (2, 2)"),
        (
            {"kind": "mse", "target": [[1, 2, 3]]},
            "loss.target has shape (1, 3) but the output has shape (2, 2)",
        ),
        (
            {"target": [[1, 0], [0, 1]]},
            'loss.target is given but loss.kind is sum; a target needs kind = "mse"',
        ),
        ({"kind": "sum", "taget": 1}, "unknown key 'loss.taget' (did you mean 'target'?)"),
        ("mse", 'loss must be a table (kind = "sum" or "mse", target), got \'mse\''),
    ],
)
def test_loss_table_errors(loss: Any, message: str) -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1, 0], [0, 1]], loss=loss)
    assert error.value.detail == message


def test_target_shape_follows_w_o() -> None:
    spec = AttentionSpec(
        x=[[1, 0], [0, 1]],
        convention="xWT",
        weights={"w_o": [[1, 0], [0, 1], [1, 1]]},
        loss={"kind": "mse", "target": [[0, 0, 0], [0, 0, 0]]},
    )
    assert spec.loss is not None and spec.loss.target is not None
    assert derive(spec)["grad.w_o"].shape == (3, 2)  # the shape w_o was given in


# ------------------------------------------------------------------ rendering and the CLI
def test_markdown_has_the_backpropagation_section() -> None:
    md = derive(two_tokens_mse()).to_markdown()
    assert "## Backpropagation" in md and "## Head 1, backwards" in md
    assert "### Gradient through the softmax" not in md  # no mask: the Jacobian is 'scaled'
    assert (
        r"\bar{S}'_{1} &= A_{1} \circ \left(\bar{A}_{1} - \left(A_{1} \circ \bar{A}_{1}\right) "
        r"\mathbf{1}\mathbf{1}^{\top}\right)" in md
    )
    assert r"- \frac{e}{2 \left(1 + e\right)^{2}}" in md
    bn = derive(two_tokens_mse()).to_markdown(lang="bn")
    assert "## ব্যাকপ্রোপাগেশন (পেছনের দিকে গ্রেডিয়েন্ট)" in bn


@pytest.mark.parametrize("fmt", ["tex", "html", "json"])
def test_other_formats_render_the_grad_steps(fmt: str) -> None:
    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    text = render(derive(two_tokens_mse()), fmt, Options())
    assert "Gradient of the query weights" in text


def test_cli_gradients_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["derive", "--example", "two-tokens", "--gradients"]) == 0
    out = capsys.readouterr().out
    assert '<a id="grad.x"></a>' in out and '<a id="grad.head2.w_v"></a>' in out


def test_claims_on_gradients_are_checked() -> None:
    d = derive(two_tokens_mse())
    report = check(d, {"grad.head1.scaled[1,1]": "-0.098", "grad.output": [[-0.5, 0.5], [0.5, 0]]})
    assert [c.verdict for c in report.claims] == ["rounded", "wrong"]


# ------------------------------------------------------------------ lambdify
def test_lambdify_of_a_gradient_matches_the_exact_value() -> None:
    d = derive(AttentionSpec.example("split-scaled"), gradients=True)
    assert AttentionSpec.example("split-scaled").weights  # numeric: no free symbols
    got = d.lambdify("grad.x")()
    want = np.array(d["grad.x"].evalf(30).tolist(), dtype=float)
    np.testing.assert_allclose(got, want, rtol=1e-13)


def test_lambdify_of_a_symbolic_gradient_is_stable_and_vectorised() -> None:
    spec = AttentionSpec(
        x=[[1, 0], [0, 1]],
        scale="none",
        weights={"w_q": "symbolic"},
        loss={"kind": "mse", "target": [[1, 0], [0, 0]]},
    )
    d = derive(spec, gradients=True)
    g = d.lambdify("grad.head1.w_q")
    assert g.names == ("W_{Q1,11}", "W_{Q1,12}", "W_{Q1,21}", "W_{Q1,22}")
    values = {"W_{Q1,11}": np.array([0.5, 1e4]), "W_{Q1,12}": 2.0, "W_{Q1,21}": -1.0}
    out = g(**values, **{"W_{Q1,22}": 0.25})
    assert out.shape == (2, 2, 2) and np.isfinite(out).all()
    exact = d["grad.head1.w_q"].xreplace(
        {
            s: {"W_{Q1,11}": 0.5, "W_{Q1,12}": 2, "W_{Q1,21}": -1, "W_{Q1,22}": 0.25}[s.name]
            for s in d.free_symbols
        }
    )
    want = np.array(exact.evalf(30).tolist(), dtype=float)
    assert np.abs(want).min() > 0.01
    np.testing.assert_allclose(out[0], want, rtol=1e-12)


# ------------------------------------------------------------------ exact arithmetic
coefficients = st.fractions(min_value=-3, max_value=3, max_denominator=7).map(sp.Rational)


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(0, 1)),
        coefficients,
        max_size=8,
    ),
    st.sampled_from([sp.sqrt(2) / 2, 1 / sp.Symbol("tau", positive=True), sp.Rational(1, 2)]),
)
def test_coefficients_come_back_as_the_multiplied_out_polynomial(
    terms: dict[tuple[int, int, int], sp.Rational], factor: sp.Expr
) -> None:
    """A ring coefficient, the scale factor put back, is exactly the polynomial multiplied
    out: as Poly writes it (x (1 + 3 sqrt(2)/2)), or by expand when tau is in a denominator."""
    x, y = sp.symbols("x y")
    algebra = Algebra([x, y], [factor])
    s = algebra.coefficient(factor)
    c = sum(
        (algebra.coefficient(k * x**i * y**j) * s**f for (i, j, f), k in terms.items()),
        algebra.zero,
    )
    slow = sum((k * x**i * y**j * factor**f for (i, j, f), k in terms.items()), sp.Integer(0))
    want = sp.expand(slow) if factor.free_symbols else sp.Poly(slow, x, y).as_expr()
    got = algebra.expr(c)
    assert got == want
    assert got.args == want.args


def test_a_symbolic_scale_is_a_generator_of_its_own() -> None:
    x, tau = sp.Symbol("x"), sp.Symbol("tau", positive=True)
    algebra = Algebra([x], [sp.sqrt(2) / 2, 1 / tau])
    assert algebra.ring.domain == sp.QQ and algebra.ring.ngens == 3
    c = algebra.coefficient(sp.sqrt(2) / 2) * algebra.coefficient(3 * x) + algebra.coefficient(x)
    assert algebra.expr(c) == x * (1 + 3 * sp.sqrt(2) / 2)
    # a factor whose symbol appears elsewhere stays in the domain
    assert Algebra([tau * x], [1 / tau]).ring.ngens == 1


# ------------------------------------------------------------------ torch autograd
try:
    import torch
except ImportError:  # each test below says so by itself; the tests above still run
    torch = None
needs_torch = pytest.mark.skipif(
    torch is None, reason="torch is optional (pip install 'mha-symbolic[torch]')"
)


def _t(value: Any) -> Any:
    def num(v: Any) -> float:
        return float(Fraction(v)) if isinstance(v, str) else float(v)

    rows = value if isinstance(value[0], list) else [value]
    return torch.tensor([[num(v) for v in row] for row in rows], dtype=torch.float64)


def reference(raw: dict[str, Any]) -> dict[str, np.ndarray]:
    """Every gradient of the loss by torch autograd, keyed like the grad steps."""
    h = raw.get("heads", 1)
    layout = raw.get("layout", "per_head")
    transposed = raw.get("convention", "xW") == "xWT"
    w = raw.get("weights", {})
    tensors: dict[str, Any] = {}

    def leaf(key: str, value: Any) -> Any:
        tensors[key] = _t(value).requires_grad_(True)
        return tensors[key]

    def keep(key: str, tensor: Any) -> Any:
        tensor.retain_grad()
        tensors[key] = tensor
        return tensor

    def eff(m: Any) -> Any:
        return m.T if transposed else m

    if "x" in raw:
        xq = xk = xv = leaf("grad.x", raw["x"])
    else:
        xq, xk = leaf("grad.query", raw["query"]), leaf("grad.key", raw["key"])
        xv = leaf("grad.value", raw["value"])
    sources = dict(zip("qkv", (xq, xk, xv)))
    parts: list[dict[str, Any]] = [{} for _ in range(h)]
    if layout == "fused":
        for n, x in sources.items():
            y = x @ eff(leaf(f"grad.w_{n}", w[f"w_{n}"]))
            if f"b_{n}" in w:
                y = y + leaf(f"grad.b_{n}", w[f"b_{n}"])
            y = keep(f"grad.{n}", y)
            for i, chunk in enumerate(torch.chunk(y, h, dim=1)):
                parts[i][n] = keep(f"grad.head{i + 1}.{n}", chunk)
    else:
        for i in range(h):
            for n, x in sources.items():
                xi = torch.chunk(x, h, dim=1)[i] if layout == "split" else x
                y = xi @ eff(leaf(f"grad.head{i + 1}.w_{n}", w[f"w_{n}"][i]))
                if f"b_{n}" in w:
                    y = y + leaf(f"grad.head{i + 1}.b_{n}", w[f"b_{n}"][i])
                parts[i][n] = keep(f"grad.head{i + 1}.{n}", y)
    outputs = []
    for i, p in enumerate(parts, start=1):
        scores = keep(f"grad.head{i}.scores", p["q"] @ p["k"].T)
        scaled = keep(f"grad.head{i}.scaled", scores * _factor(raw, p["q"].shape[1]))
        logits = scaled
        mask = raw.get("mask", "none")
        if mask != "none":
            allowed = (torch.ones(scaled.shape).tril() if mask == "causal" else _t(mask)).to(
                torch.bool
            )
            logits = keep(f"grad.head{i}.masked", scaled.masked_fill(~allowed, -torch.inf))
        a = keep(f"grad.head{i}.weights", torch.softmax(logits, dim=-1))
        outputs.append(keep(f"grad.head{i}.output", a @ p["v"]))
    out = keep("grad.concat", torch.cat(outputs, dim=1))
    if "w_o" in w:
        out = out @ eff(leaf("grad.w_o", w["w_o"]))
        if "b_o" in w:
            out = out + leaf("grad.b_o", w["b_o"])
    out = keep("grad.output", out)
    loss = raw.get("loss", {})
    if loss.get("kind") == "mse":
        value = 0.5 * ((out - _t(loss["target"])) ** 2).sum()
    else:
        value = out.sum()
    value.backward()
    return {k: t.grad.numpy() for k, t in tensors.items() if t.grad is not None}


def _factor(raw: dict[str, Any], d_k: int) -> float:
    scale = raw.get("scale", "sqrt_dk")
    if scale == "sqrt_dk":
        return d_k**-0.5
    return 1.0 if scale == "none" else float(Fraction(scale))


def assert_matches_torch(raw: dict[str, Any]) -> None:
    d = derive(AttentionSpec.from_dict(raw), gradients=True)
    want = reference(raw)
    grads = [s.key for s in d.steps if s.kind == "grad"]
    assert set(want) <= set(grads) | {"grad.x", "grad.query", "grad.key", "grad.value"}
    for key, expected in want.items():
        got = np.array(d[key].evalf(30).tolist(), dtype=float)
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-10, err_msg=key)


def _matrix(draw: Any, rows: int, cols: int) -> list[list[Any]]:
    entry = st.sampled_from([-2, -1, 0, 1, 2, "1/2", "-1/2", "3/2"])
    return [[draw(entry) for _ in range(cols)] for _ in range(rows)]


@st.composite
def specs(draw: Any, layout: str) -> dict[str, Any]:
    h = draw(st.integers(1, 2))
    d = draw(st.integers(1, 2))
    lq = draw(st.integers(1, 3))
    cross = draw(st.booleans())
    lk = draw(st.integers(1, 3)) if cross else lq
    xwt = draw(st.booleans())
    width = h * d if layout in ("split", "fused") else draw(st.integers(1, 3))
    raw: dict[str, Any] = {
        "heads": h,
        "layout": layout,
        "convention": "xWT" if xwt else "xW",
        "scale": draw(st.sampled_from(["sqrt_dk", "none", "1/2"])),
        "mask": draw(st.sampled_from(["none", "causal"])),
    }
    if cross:
        raw["query"], raw["key"] = _matrix(draw, lq, width), _matrix(draw, lk, width)
        raw["value"] = _matrix(draw, lk, width)
    else:
        raw["x"] = _matrix(draw, lq, width)

    def given(rows: int, cols: int) -> list[list[Any]]:
        return _matrix(draw, cols, rows) if xwt else _matrix(draw, rows, cols)

    weights: dict[str, Any] = {}
    if layout == "fused":
        for n in "qkv":
            weights[f"w_{n}"] = given(width, h * d)
    else:
        rows = width // h if layout == "split" else width
        for n in "qkv":
            weights[f"w_{n}"] = [given(rows, d) for _ in range(h)]
    if draw(st.booleans()):
        for n in "qkv":
            if layout == "fused":
                weights[f"b_{n}"] = _matrix(draw, 1, h * d)[0]
            else:
                weights[f"b_{n}"] = [_matrix(draw, 1, d)[0] for _ in range(h)]
    out = width
    if draw(st.booleans()):
        out = draw(st.integers(1, 3)) if layout != "fused" else width
        weights["w_o"] = given(h * d, out)
        if draw(st.booleans()):
            weights["b_o"] = _matrix(draw, 1, out)[0]
    else:
        out = h * d
    raw["weights"] = weights
    if draw(st.booleans()):
        raw["loss"] = {"kind": "mse", "target": _matrix(draw, lq, out)}
    return raw


SETTINGS = settings(
    max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


@needs_torch
@pytest.mark.parametrize("layout", ["per_head", "split", "fused"])
@SETTINGS
@given(data=st.data())
def test_random_specs_match_torch_autograd(layout: str, data: st.DataObject) -> None:
    assert_matches_torch(data.draw(specs(layout)))


def fixed(layout: str, xwt: bool, cross: bool, full: bool, seed: int) -> dict[str, Any]:
    """Two heads of width 2, three query tokens; ``full``: every bias, W_O, b_O, a mask
    matrix and the mse loss."""
    rng = np.random.default_rng(seed)

    def m(rows: int, cols: int) -> list[list[int]]:
        return rng.integers(-2, 3, size=(rows, cols)).tolist()

    def given(rows: int, cols: int) -> list[list[int]]:
        return m(cols, rows) if xwt else m(rows, cols)

    raw: dict[str, Any] = {"heads": 2, "layout": layout, "convention": "xWT" if xwt else "xW"}
    if cross:
        raw.update(query=m(3, 4), key=m(2, 4), value=m(2, 4))
    else:
        raw["x"] = m(3, 4)
    rows = 2 if layout == "split" else 4
    per_head = layout != "fused"
    w = {f"w_{n}": [given(rows, 2) for _ in range(2)] if per_head else given(4, 4) for n in "qkv"}
    if full:
        for n in "qkv":
            w[f"b_{n}"] = m(2, 2) if per_head else m(1, 4)[0]
        w["w_o"], w["b_o"] = given(4, 3), m(1, 3)[0]
        raw["mask"] = [[1, 0], [0, 1], [1, 1]] if cross else [[1, 0, 1], [1, 1, 0], [0, 1, 1]]
        raw["loss"] = {"kind": "mse", "target": m(3, 3)}
    else:
        raw["mask"] = "causal"
    raw["weights"] = w
    return raw


@needs_torch
@pytest.mark.parametrize("layout", ["per_head", "split", "fused"])
@pytest.mark.parametrize(
    ("xwt", "cross", "full"),
    [(False, False, False), (True, False, True), (False, True, True), (True, True, False)],
)
def test_every_layout_convention_mask_bias_and_cross_matches_torch(
    layout: str, xwt: bool, cross: bool, full: bool
) -> None:
    assert_matches_torch(fixed(layout, xwt, cross, full, seed=7))


@needs_torch
@pytest.mark.parametrize("name", ["two-tokens", "one-token", "split-scaled", "pytorch-style"])
def test_built_in_examples_match_torch_autograd(name: str) -> None:
    spec = AttentionSpec.example(name)
    d = derive(spec, gradients=True)
    want = reference(_raw_of(spec))
    missing = {key for key in want if key not in d}
    assert {key.rsplit(".", 1)[1] for key in missing} <= spec.omitted  # not parameters
    for key in set(want) - missing:
        expected = want[key]
        got = np.array(d[key].evalf(30).tolist(), dtype=float)
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-10, err_msg=key)


def _raw_of(spec: AttentionSpec) -> dict[str, Any]:
    """The spec's exact numbers back as a raw dict (floats of 30-digit values)."""

    def listed(m: sp.MatrixBase) -> list[list[float]]:
        return np.array(m.evalf(30).tolist(), dtype=float).tolist()

    per_head = spec.layout != "fused"
    weights: dict[str, Any] = {}
    for name, matrices in spec.weights.items():
        if name in spec.omitted:
            weights[name] = [listed(m) for m in matrices] if per_head else listed(matrices[0])
        elif name.startswith("b_"):
            weights[name] = (
                [listed(m)[0] for m in matrices]
                if per_head and name != "b_o"
                else listed(matrices[0])[0]
            )
        else:
            weights[name] = (
                [listed(m) for m in matrices] if per_head and name != "w_o" else listed(matrices[0])
            )
    scale = spec.scale if isinstance(spec.scale, str) else str(float(spec.scale))
    raw: dict[str, Any] = {
        "heads": spec.heads,
        "layout": spec.layout,
        "convention": spec.convention,
        "scale": scale,
        "mask": spec.mask_kind if spec.mask_kind != "matrix" else listed(spec.mask),
        "weights": weights,
    }
    if spec.self_attention:
        raw["x"] = listed(spec.query)
    else:
        raw.update(query=listed(spec.query), key=listed(spec.key), value=listed(spec.value))
    return raw


@needs_torch
def test_symbolic_split_gradients_match_torch_at_a_random_point() -> None:
    """eight-tokens-split's first four tokens, every weight symbolic (W_O too, scale
    1/sqrt(2)): the exact gradients at random rational weights, to 30 digits, are torch's."""
    base = AttentionSpec.example("eight-tokens-split")
    raw: dict[str, Any] = {"heads": 2, "layout": "split", "x": base.query[:4, :].tolist()}
    raw["x"] = [[str(v) for v in row] for row in raw["x"]]
    raw["weights"] = dict.fromkeys(("w_q", "w_k", "w_v", "w_o"), "symbolic")
    spec = AttentionSpec.from_dict(raw)
    d = derive(spec, gradients=True)  # its time is measured by `mha-symbolic bench --only grad`
    rng = np.random.default_rng(3)
    point = {
        s: sp.Rational(int(rng.integers(-20, 21)), 10) for s in sorted(d.free_symbols, key=str)
    }
    assert len(point) == 40

    def at(m: sp.MatrixBase) -> list[list[str]]:
        return [[str(v.xreplace(point)) for v in m.row(i)] for i in range(m.rows)]

    numeric = dict(raw)
    numeric["weights"] = {
        name: [at(m) for m in spec.weights[name]] if name != "w_o" else at(spec.weights[name][0])
        for name in ("w_q", "w_k", "w_v", "w_o")
    }
    want = reference(numeric)
    for key in ("grad.w_o", "grad.head1.w_q", "grad.head2.w_k", "grad.head1.w_v", "grad.x"):
        value = d[key]
        for i, j in [(0, 0), (1, 1), (value.rows - 1, value.cols - 1)]:
            got = float(sp.N(value[i, j].xreplace(point), 30))
            assert got == pytest.approx(want[key][i, j], rel=1e-10, abs=1e-10), (key, i, j)
