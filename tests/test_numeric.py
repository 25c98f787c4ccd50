"""Exact results, evaluated to 30 digits, against an independent float64 NumPy computation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, derive
from tests.oracle import mha

numbers = st.one_of(
    st.integers(-2, 2),
    st.fractions(min_value=-2, max_value=2, max_denominator=4).map(lambda f: str(f)),
    st.sampled_from([0.5, -0.25, 1.5]),
)


def matrix(draw, rows: int, cols: int) -> list[list]:
    return [[draw(numbers) for _ in range(cols)] for _ in range(rows)]


@st.composite
def raw_specs(draw) -> dict:
    layout = draw(st.sampled_from(["per_head", "split", "fused"]))
    h = draw(st.integers(1, 3))
    d = draw(st.integers(1, 2))
    cross = draw(st.booleans())
    transpose = draw(st.booleans())
    lq = draw(st.integers(1, 3))
    lk = draw(st.integers(1, 3)) if cross else lq
    e = h * d
    ek = h * draw(st.integers(1, 2)) if cross else e
    ev = h * draw(st.integers(1, 2)) if cross else e
    raw: dict = {"heads": h, "layout": layout, "convention": "xWT" if transpose else "xW"}
    if cross:
        raw.update(query=matrix(draw, lq, e), key=matrix(draw, lk, ek), value=matrix(draw, lk, ev))
    else:
        raw["x"] = matrix(draw, lq, e)
    raw["scale"] = draw(st.sampled_from(["sqrt_dk", "none", "1/2", 2]))
    mask_kind = draw(st.sampled_from(["none", "causal", "matrix"]))
    if mask_kind == "matrix":
        rows = [[draw(st.integers(0, 1)) for _ in range(lk)] for _ in range(lq)]
        for i, row in enumerate(rows):
            row[i % lk] = 1
        raw["mask"] = rows
    else:
        raw["mask"] = mask_kind

    def shaped(rows: int, cols: int) -> list[list]:
        m = matrix(draw, rows, cols)
        return [list(r) for r in zip(*m)] if transpose else m

    weights: dict = {}
    widths = {"w_q": e, "w_k": ek, "w_v": ev}
    out_dim = {}
    for name, width in widths.items():
        if name != "w_q" and not cross and draw(st.booleans()) and layout != "per_head":
            continue  # omitted: the identity
        if layout == "fused":
            out_dim[name] = e
            weights[name] = shaped(width, e)
        elif layout == "split":
            out_dim[name] = d
            weights[name] = [shaped(width // h, d) for _ in range(h)]
        else:
            out_dim[name] = d
            weights[name] = [shaped(width, d) for _ in range(h)]
    for bias in ("b_q", "b_k", "b_v"):
        projection = "w" + bias[1:]
        if projection in weights and draw(st.booleans()):
            weights[bias] = [draw(numbers) for _ in range(out_dim[projection] * (
                1 if layout == "fused" else h))]  # fmt: skip
    concat = out_dim.get("w_v", ev // h if layout == "split" else ev) * (
        1 if layout == "fused" else h
    )
    if layout == "split" and "w_v" not in weights:
        concat = ev
    if layout == "per_head" and "w_v" not in weights:
        concat = ev * h
    if draw(st.booleans()):
        out = draw(st.integers(1, 3))
        weights["w_o"] = shaped(concat, out)
        if draw(st.booleans()):
            weights["b_o"] = [draw(numbers) for _ in range(out)]
    raw["weights"] = weights
    return raw


def exact_as_float(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array([[float(sp.N(v, 30)) for v in matrix.row(i)] for i in range(matrix.rows)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw_specs())
def test_exact_output_matches_float_numpy(raw):
    d = derive(AttentionSpec.from_dict(raw))
    expected = mha(raw)
    np.testing.assert_allclose(exact_as_float(d["output"]), expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(raw_specs())
def test_every_softmax_row_sums_to_one(raw):
    d = derive(AttentionSpec.from_dict(raw))
    for step in d.steps:
        if step.kind == "softmax":
            for i in range(step.value.rows):
                total = sp.N(sum(step.value.row(i)), 40)
                assert abs(total - 1) < sp.Float("1e-35")


def test_fraction_strings_are_exact():
    raw = {"x": [["1/3", "0.1"]], "scale": "none"}
    d = derive(AttentionSpec.from_dict(raw))
    assert d["x"] == sp.Matrix([[sp.Rational(1, 3), sp.Rational(1, 10)]])
    assert Fraction(1, 3) == Fraction(str(d["output"][0, 0]))


def test_a_compiled_function_shows_its_signature_and_backend() -> None:
    from mha_symbolic import AttentionSpec
    from mha_symbolic import compile as compile_attention

    f = compile_attention(AttentionSpec.example("eight-tokens-split"))
    assert repr(f) == (
        "<AttentionFunction 'Eight tokens, split heads, symbolic weights' backend=numpy: "
        "f(query, key=None, value=None, *, mask=None, w_q, w_k, w_v, w_o)>"
    )
    g = compile_attention(AttentionSpec.example("temperature"))
    assert (
        g.signature
        == "f(query, key=None, value=None, *, mask=None, w_q=..., w_k=..., w_v=..., tau)"
    )
