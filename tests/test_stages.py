"""Examples that start past the inputs (q/k/v, scores + v, attention_weights + v) and mask_fill:
the spec keys, their refusals, and the exact values against a float64 oracle in this file."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.errors import SpecError

Q = [[1, 0], [0, 1], [1, 1]]
K = [[1, 0], [0, 1]]
V = [[1, 2, 3], [4, 5, 6]]


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _floats(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array([[float(sp.N(e, 30)) for e in row] for row in matrix.tolist()])


def _oracle_qkv(qs: list, ks: list, vs: list, scale: float, w_o: list | None) -> np.ndarray:
    heads = [
        _softmax(scale * np.array(q, float) @ np.array(k, float).T) @ np.array(v, float)
        for q, k, v in zip(qs, ks, vs)
    ]
    concat = np.concatenate(heads, axis=1)
    return concat if w_o is None else concat @ np.array(w_o, float)


def test_qkv_given_one_head_steps_and_values() -> None:
    d = derive(AttentionSpec(q=Q, k=K, v=V))
    keys = [s.key for s in d.steps]
    assert keys == [
        "head1.q",
        "head1.k",
        "head1.v",
        "head1.scores",
        "head1.scaled",
        "head1.weights",
        "head1.output",
        "concat",
        "output",
    ]
    assert [s.kind for s in d.steps][:3] == ["input", "input", "input"]
    assert d["head1.q"] == sp.ImmutableMatrix(Q)
    assert d["head1.scores"] == sp.ImmutableMatrix([[1, 0], [0, 1], [1, 1]])
    expected = _oracle_qkv([Q], [K], [V], 1 / np.sqrt(2), None)
    np.testing.assert_allclose(_floats(d["output"]), expected, rtol=1e-14)
    assert d["output"][2, :] == sp.ImmutableMatrix(
        [[sp.Rational(5, 2), sp.Rational(7, 2), sp.Rational(9, 2)]]
    )


def test_qkv_given_heads_with_d_v_other_than_d_k_and_w_o() -> None:
    qs = [[[1, 0]], [[0, 1]]]
    ks = [[[1, 0], [0, 1]], [[1, 1], [0, 1]]]
    vs = [[[1], [2]], [[3, 1], [4, 1]]]
    w_o = [[1, 0], [0, 1], [1, 1]]
    d = derive(AttentionSpec(q=qs, k=ks, v=vs, heads=2, weights={"w_o": w_o}))
    a = sp.exp(sp.sqrt(2) / 2)
    assert sp.simplify(d["output"][0, 0] - (1 + (a + 2) / (a + 1))) == 0
    assert d["output"][0, 1] == sp.Rational(9, 2)
    expected = _oracle_qkv(qs, ks, vs, 1 / np.sqrt(2), w_o)
    np.testing.assert_allclose(_floats(d["output"]), expected, rtol=1e-14)


def test_qkv_cross_attention_and_xwt_output_projection() -> None:
    w_o = [[1, 2, 0], [0, 1, 1]]  # (out x in) as PyTorch stores it: concat (3 wide) W_O^T
    spec = AttentionSpec(q=Q, k=K, v=V, scale="none", convention="xWT", weights={"w_o": w_o})
    d = derive(spec)
    assert spec.query.shape == (3, 0) and spec.key.shape == (2, 0) and not spec.has_inputs
    expected = _oracle_qkv([Q], [K], [V], 1.0, None) @ np.array(w_o, float).T
    np.testing.assert_allclose(_floats(d["output"]), expected, rtol=1e-14)


def test_scores_and_values_given() -> None:
    scores = [[[1, 2], [3, 4]], [[0, 0], [1, 0]]]
    vs = [[[1, 0], [0, 1]], [[2], [4]]]
    d = derive(AttentionSpec(scores=scores, v=vs, heads=2))
    assert [s.key for s in d.steps][:3] == ["head1.v", "head1.scores", "head1.scaled"]
    assert str(d["head2.output"]) == "Matrix([[3], [2*(2 + E)/(1 + E)]])"
    heads = [_softmax(np.array(s, float)) @ np.array(v, float) for s, v in zip(scores, vs)]
    np.testing.assert_allclose(_floats(d["output"]), np.concatenate(heads, 1), rtol=1e-14)


def test_attention_weights_and_values_given() -> None:
    a = [["0.5", "0.5"], ["0.25", "0.75"]]
    d = derive(AttentionSpec(attention_weights=a, v=[[4, 0], [0, 8]], weights={"w_o": [[1], [1]]}))
    assert [s.key for s in d.steps] == [
        "head1.v",
        "head1.weights",
        "head1.output",
        "concat",
        "output",
    ]
    assert d.step("head1.weights").kind == "input"
    assert d["head1.output"] == sp.ImmutableMatrix([[2, 4], [1, 6]])
    assert d["output"] == sp.ImmutableMatrix([[6], [7]])


_TINY = sp.exp(-1000000001)


@pytest.mark.parametrize(
    ("fill", "expected", "weight"),
    [
        # logits 10^9 apart shift by the largest: e^{-10^9}, not a 434-million-digit e^{10^9}
        ("-1e9", -(10**9), _TINY / (_TINY + 1)),
        (-10000, -10000, 1 / (1 + sp.exp(10001))),
        ("-1e4", -10000, 1 / (1 + sp.exp(10001))),
        ("-inf", -sp.oo, 0),
    ],
)
def test_mask_fill_values(fill: object, expected: sp.Expr, weight: sp.Expr) -> None:
    spec = AttentionSpec(scores=[[1, 2], [3, 4]], v=[[1, 0], [0, 1]], mask="causal", mask_fill=fill)
    d = derive(spec)
    assert spec.mask_fill == expected
    assert d["head1.masked"] == sp.ImmutableMatrix([[1, expected], [3, 4]])
    assert d["head1.weights"][0, 1] == weight


def test_mask_fill_row_with_every_key_masked_gets_equal_weights() -> None:
    spec = AttentionSpec(x=[[1, 0], [0, 1]], mask=[[0, 0], [1, 1]], mask_fill="-1e9", scale="none")
    d = derive(spec)
    assert d["head1.masked"].row(0) == sp.ImmutableMatrix([[-(10**9), -(10**9)]])
    assert d["head1.weights"].row(0) == sp.ImmutableMatrix([[sp.Rational(1, 2)] * 2])


def test_mask_fill_matches_torch_masked_fill() -> None:
    torch = pytest.importorskip("torch", reason="torch is optional")
    scores = [[1, 2, 0], [3, 4, "0.5"], [0, 1, 2]]
    mask = [[1, 0, 0], [1, 1, 0], [0, 0, 0]]
    v = [[1, 0], [0, 1], [2, 2]]
    d = derive(AttentionSpec(scores=scores, v=v, mask=mask, mask_fill="-1e9"))
    s = torch.tensor([[1, 2, 0], [3, 4, 0.5], [0, 1, 2]], dtype=torch.float64)
    blocked = torch.tensor(mask) == 0
    weights = torch.softmax(s.masked_fill(blocked, -1e9), dim=-1)
    out = weights @ torch.tensor(v, dtype=torch.float64)
    np.testing.assert_allclose(_floats(d["head1.weights"]), weights.numpy(), rtol=1e-14, atol=0)
    np.testing.assert_allclose(_floats(d["output"]), out.numpy(), rtol=1e-14)
    assert f"{float(d['head1.weights'][0, 1]):.4f}" == f"{weights[0, 1].item():.4f}" == "0.0000"


BAD = [
    ({"q": Q, "k": K, "v": V, "x": Q}, "q and x cannot both be given"),
    ({"q": Q, "k": K, "v": V, "query": Q, "key": K}, "q and query cannot both be given"),
    ({"q": Q, "k": K}, "q is given, so v is needed too (Q, K and V)"),
    ({"q": Q, "v": V}, "q is given, so k is needed too (Q, K and V)"),
    ({"k": K, "v": V}, "k is given, so q is needed too (Q, K and V)"),
    ({"q": Q, "k": K, "v": [[1, 2]]}, "v has 1 rows but k has 2"),
    (
        {"q": Q, "k": [[1, 0, 0], [0, 1, 0]], "v": V},
        "k has 3 columns but q has 2; scores need equal widths",
    ),
    (
        {"q": [Q, Q], "k": [K, K], "v": [V, [[1]]], "heads": 2},
        "v[2] has 1 rows but k[2] has 2",
    ),
    ({"q": [Q], "k": [K], "v": [V], "heads": 2}, "q has 1 matrix but heads = 2; give one per head"),
    ({"q": Q, "k": K, "v": V, "weights": {"w_q": K}}, "q and weights.w_q cannot both be given"),
    (
        {"q": Q, "k": K, "v": V, "layout": "fused"},
        "layout fused says how x is projected, but q, k and v are given; remove layout",
    ),
    (
        {"q": Q, "k": K, "v": V, "kv_heads": 1},
        "kv_heads repeats weights, but q, k and v are given; remove kv_heads",
    ),
    (
        {"q": Q, "k": K, "v": V, "weights": {"w_o": [[1, 0]]}},
        "w_o has shape (1, 2) but concat has 3 columns",
    ),
    (
        {"q": Q, "k": K, "v": V, "weights": {"b_o": [1, 2, 3]}},
        "b_o is given but w_o is not; b_o belongs to the output projection",
    ),
    (
        {"scores": [[1, 2], [3, 4]], "v": [[1, 2]]},
        "v has 1 rows but scores has 2 columns (one value row per key)",
    ),
    ({"scores": [[1, 2], [3, 4]], "v": V, "x": K}, "v and x cannot both be given"),
    (
        {"scores": [[1, 2], [3, 4]]},
        "scores are given without x, so v is needed (the values they weigh)",
    ),
    ({"scores": [[1, 2]], "q": Q, "k": K, "v": V}, "scores and q cannot both be given"),
    (
        {"scores": [[1, 2]], "v": [[1], [2]], "weights": {"w_v": K}},
        "v and weights.w_v cannot both be given",
    ),
    (
        {"attention_weights": [[1, 0]]},
        "attention_weights are given, so v is needed (the values they weigh)",
    ),
    (
        {"attention_weights": [[1, 0]], "v": V, "x": K},
        "attention_weights and x cannot both be given",
    ),
    (
        {"attention_weights": [[1, 0]], "v": V, "mask": "causal"},
        "attention_weights are given (after the softmax), so mask does not apply",
    ),
    (
        {"attention_weights": [[1, 0]], "v": V, "scale": "none"},
        "attention_weights are given (after the softmax), so scale does not apply",
    ),
    (
        {"attention_weights": [[1, 0]], "scores": [[1, 0]], "v": V},
        "attention_weights and scores cannot both be given",
    ),
    (
        {"attention_weights": [[1, 0]], "v": [[1]]},
        "v has 1 rows but attention_weights has 2 columns (one value row per key)",
    ),
    ({"v": V, "x": K}, "v is given without q and k, scores or attention_weights; add one"),
    (
        {"x": K, "mask_fill": "-1e9"},
        "mask_fill is given but mask is none; give a mask (causal or 0/1)",
    ),
    (
        {"x": K, "mask": "causal", "mask_fill": "1/0"},
        'mask_fill: "1/0" divides by zero',
    ),
    (
        {"x": K, "mask": "causal", "mask_fill": "-tau", "parameters": {"tau": "positive"}},
        'mask_fill must be "-inf" or an exact real number like "-1e9", got \'-tau\'',
    ),
]


@pytest.mark.parametrize(("raw", "message"), BAD)
def test_bad_combinations_get_one_line(raw: dict, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        AttentionSpec(**raw)
    assert str(caught.value) == f"<arguments>: {message}"


@pytest.mark.parametrize(("inputs", "verdict"), [("exact", "wrong"), ("printed", "within")])
def test_printed_given_weights_are_intervals(inputs: str, verdict: str) -> None:
    """A document's rounded weights (1/3, 2/3 printed 0.33, 0.67) and its output from the
    unrounded ones (2.33): wrong against the digits as exact, within their printed intervals."""
    spec = AttentionSpec(attention_weights=[["0.33", "0.67"]], v=[[1], [3]], inputs=inputs)
    report = check(derive(spec), {"output": "[[2.33]]"})
    assert [c.verdict for c in report.claims] == [verdict]


def test_rope_turns_given_queries_and_keys() -> None:
    d = derive(AttentionSpec(q=[[1, 0], [0, 1]], k=[[1, 0], [0, 1]], v=[[1], [2]], rope={}))
    assert d["head1.q_rot"] == sp.ImmutableMatrix([[1, 0], [-sp.sin(1), sp.cos(1)]])
    assert d["head1.k_rot"] == d["head1.q_rot"]


def test_heads_default_to_the_number_of_given_matrices() -> None:
    qs, ks, vs = [[[1, 0]], [[0, 1]]], [[[1, 0], [0, 1]]] * 2, [[[1], [2]], [[3, 1], [4, 1]]]
    assert AttentionSpec(q=qs, k=ks, v=vs).heads == 2
    assert AttentionSpec(attention_weights=[[[1, 0]]] * 3, v=[[[1], [2]]] * 3).heads == 3
    assert AttentionSpec(q=Q, k=K, v=V).heads == 1
