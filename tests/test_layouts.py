"""per_head, split and fused are the same mathematics: their exact results agree."""

from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, derive

small = st.integers(-2, 2)


def grid(draw, rows: int, cols: int) -> list[list[int]]:
    return [[draw(small) for _ in range(cols)] for _ in range(rows)]


@st.composite
def problems(draw):
    h, d, length = draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(1, 3))
    e = h * d
    return {
        "h": h, "d": d,
        "x": grid(draw, length, e),
        "w": {n: grid(draw, e, e) for n in ("w_q", "w_k", "w_v", "w_o")},
        "blocks": {n: [grid(draw, d, d) for _ in range(h)] for n in ("w_q", "w_k", "w_v")},
        "mask": draw(st.sampled_from(["none", "causal"])),
    }  # fmt: skip


def columns(matrix: list[list[int]], start: int, stop: int) -> list[list[int]]:
    return [row[start:stop] for row in matrix]


@settings(max_examples=25, deadline=None)
@given(problems())
def test_fused_equals_per_head_with_sliced_weights(p):
    h, d = p["h"], p["d"]
    common = {"x": p["x"], "heads": h, "mask": p["mask"]}
    fused = derive(AttentionSpec(layout="fused", weights=p["w"], **common))
    sliced = {
        n: [columns(p["w"][n], i * d, (i + 1) * d) for i in range(h)] for n in ("w_q", "w_k", "w_v")
    }
    per_head = derive(
        AttentionSpec(layout="per_head", weights={**sliced, "w_o": p["w"]["w_o"]}, **common)
    )
    for i in range(1, h + 1):
        for part in ("q", "k", "v", "scores", "scaled", "weights", "output"):
            assert fused[f"head{i}.{part}"] == per_head[f"head{i}.{part}"], (i, part)
    assert fused["concat"] == per_head["concat"]
    assert fused["output"] == per_head["output"]


@settings(max_examples=25, deadline=None)
@given(problems())
def test_split_equals_per_head_and_fused_with_block_weights(p):
    h, d = p["h"], p["d"]
    e = h * d
    common = {"x": p["x"], "heads": h, "mask": p["mask"]}
    split = derive(AttentionSpec(layout="split", weights=p["blocks"], **common))

    def padded(block: list[list[int]], i: int) -> list[list[int]]:
        zero = [[0] * d for _ in range(e)]
        for r in range(d):
            zero[i * d + r] = block[r]
        return zero

    per_head_w = {n: [padded(b, i) for i, b in enumerate(p["blocks"][n])] for n in p["blocks"]}
    per_head = derive(AttentionSpec(layout="per_head", weights=per_head_w, **common))
    diagonal = {n: sp.diag(*[sp.Matrix(b) for b in p["blocks"][n]]) for n in p["blocks"]}
    fused = derive(AttentionSpec(layout="fused", weights=diagonal, **common))
    for other in (per_head, fused):
        for i in range(1, h + 1):
            assert split[f"head{i}.weights"] == other[f"head{i}.weights"]
            assert split[f"head{i}.output"] == other[f"head{i}.output"]
        assert split["output"] == other["output"]


def test_convention_xwt_is_the_transpose():
    x, w = [[1, 2], [0, 1]], [[1, 2], [3, 4]]
    transposed = [list(r) for r in zip(*w)]
    a = derive(AttentionSpec(x=x, layout="fused", weights={"w_q": w, "w_o": w}))
    b = derive(AttentionSpec(x=x, layout="fused", convention="xWT",
                             weights={"w_q": transposed, "w_o": transposed}))  # fmt: skip
    assert a["output"] == b["output"]
    assert a["q"] == sp.Matrix([[7, 10], [3, 4]])


def test_cross_attention_lengths_and_widths():
    d = derive(AttentionSpec(
        query=[[1, 0]], key=[[1, 0, 0], [0, 1, 0], [0, 0, 1]], value=[[1], [2], [3]],
        weights={"w_k": [[[1, 0], [0, 1], [0, 0]]], "w_v": [[[1, 0]]]}, scale="none",
    ))  # fmt: skip
    assert d["head1.scores"] == sp.Matrix([[1, 0, 0]])
    e = sp.E
    assert d["head1.weights"] == sp.Matrix([[e / (e + 2), 1 / (e + 2), 1 / (e + 2)]])
    assert d["output"] == sp.Matrix([[(e + 5) / (e + 2), 0]])
    assert list(d)[:3] == ["query", "key", "value"]


def test_causal_mask_gives_exact_zeros_and_shows_minus_infinity():
    d = derive(AttentionSpec(x=[[1], [2], [3]], mask="causal", scale="none"))
    assert d["head1.masked"][0, 1] == -sp.oo
    assert d["head1.masked"][2, 1] == 6
    assert d["head1.weights"].row(0) == sp.Matrix([[1, 0, 0]])
    assert d["head1.weights"][1, :] == sp.Matrix(
        [[1 / (1 + sp.exp(2)), sp.exp(2) / (1 + sp.exp(2)), 0]]
    )


def test_biases_and_scale_factor():
    d = derive(AttentionSpec(
        x=[[1, 0]], scale="\\frac{1}{\\sqrt{3}}",
        weights={"b_q": [1, 1], "b_k": [0, 1], "b_v": [2, 0],
                 "w_o": [[1], [1]], "b_o": ["1/2"]},
    ))  # fmt: skip
    assert d["head1.q"] == sp.Matrix([[2, 1]])
    assert d["head1.k"] == sp.Matrix([[1, 1]])
    assert d["head1.scaled"] == sp.Matrix([[sp.sqrt(3)]])
    assert d["output"] == sp.Matrix([[sp.Rational(7, 2)]])


def test_one_head_takes_a_bare_matrix():
    spec = AttentionSpec(x=[[1, 2]], weights={"w_q": [[1, 0], [0, 2]], "w_k": "symbolic"})
    assert spec.weights["w_q"] == (sp.Matrix([[1, 0], [0, 2]]),)
    assert spec.weights["w_k"][0][1, 0] == sp.Symbol("W_{K1,21}")
