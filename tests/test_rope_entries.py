"""RoPE layers read entry by entry from the structure (exact/rope_rows.py): ``d[key][i, j]``
and ``d[key][i, :]`` at model scale are the SymPy path's very expressions (cos and sin of the
exact angles in them, never floats), and their values agree with mpmath at 60 digits."""

from __future__ import annotations

from typing import Any

import mpmath
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError, derive
from mha_symbolic.exact import ops
from mha_symbolic.exact.rope_rows import softmax_row
from mha_symbolic.exact.rows import LargeValue
from mha_symbolic.spec import bounds

X = [[1, 2, 0, -1], [0, "1/2", 1, 1], [-1, 1, 2, 0], [2, 0, "-1/3", 1], [1, 1, 1, 1]]
W_Q = [[1, 0, 2, 0], [0, 1, 0, -1], [1, 1, 0, 0], ["1/2", 0, 1, 1]]
W_K = [[0, 1, 1, 0], [1, 0, 0, "1/3"]]  # one key/value head of width 2 for two query heads
W_V = [[2, 0, 1, 0], [1, 1, 0, -1]]
W_O = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, -1]]


def _spec(**changes: Any) -> AttentionSpec:
    """A LLaMA-style layer in small: RoPE (base 100), two query heads sharing one key/value
    head, causal, no biases (``changes``: another mask, scale or pairing)."""
    fields: dict[str, Any] = {
        "x": X, "heads": 2, "kv_heads": 1, "layout": "fused", "convention": "xWT",
        "mask": "causal", "rope": {"base": 100}, "weights": {
            "w_q": W_Q, "w_k": W_K, "w_v": W_V, "w_o": W_O},
    }  # fmt: skip
    merged = {**fields, **changes}
    return AttentionSpec.from_dict({k: v for k, v in merged.items() if v is not None})


SPECS = {
    "llama-style": {},
    "one head of 4, base 10: an irrational turn": {
        "heads": 1,
        "kv_heads": None,
        "rope": {"base": 10},
        "weights": {"w_q": W_Q, "w_k": W_O, "w_v": W_Q, "w_o": W_O},
    },
    "interleaved, no mask, scale 1/2": {
        "mask": "none",
        "scale": "1/2",
        "rope": {"base": 100, "pairs": "interleaved"},
    },
}


@pytest.mark.parametrize("changes", SPECS.values(), ids=list(SPECS))
def test_every_entry_is_the_sympy_paths_entry_tree_for_tree(changes: dict[str, Any]) -> None:
    d = derive(_spec(**changes))
    assert d.structured is not None and d.refusal is None
    keys = [s.key for s in d.steps if s.kind != "input"]
    assert "head1.q_rot" in keys and "head1.scores" in keys
    for key in keys:
        lazy, whole = d.step(key).entries, d[key]
        assert not isinstance(lazy, sp.MatrixBase), key  # made from the structure
        assert lazy.shape == whole.shape
        for i in range(whole.rows):
            for j in range(whole.cols):
                assert sp.srepr(lazy[i, j]) == sp.srepr(whole[i, j]), (key, i, j)


@pytest.fixture
def minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every derivation estimated to take minutes: what model scale gives."""
    monkeypatch.setattr(bounds, "LARGE_SECONDS", 1e-9)


@pytest.mark.usefixtures("minutes")
def test_at_model_scale_entries_and_rows_are_made_and_only_the_whole_is_refused() -> None:
    spec = _spec()
    lazy, whole = derive(spec), derive(spec, large=True)
    assert lazy.refusal is not None and whole.refusal is None
    for key in ("head1.q_rot", "head2.scores", "head2.weights", "output"):
        value = lazy[key]
        assert isinstance(value, LargeValue)
        assert value[3, :] == whole[key][3, :] and value[4, 1] == whole[key][4, 1]
    # Q's row 2 is (3, 1): position 2 turns the pair by 2 radians, exactly
    row = lazy["head1.q_rot"][2, :]
    assert row == sp.ImmutableMatrix([[3 * sp.cos(2) - sp.sin(2), sp.cos(2) + 3 * sp.sin(2)]])
    assert row.atoms(sp.Float) == set()
    with pytest.raises(SpecError, match="only the whole matrix as one SymPy object"):
        list(lazy["output"])


def _rotate_half(row: list[Any], p: int, base: int) -> list[Any]:
    """RoPE written from its formula: pair (j, j + d/2) turned by p * base^(-2j/d)."""
    half = len(row) // 2
    out = list(row)
    for j in range(half):
        t = p * mpmath.mpf(base) ** (mpmath.mpf(-2 * j) / len(row))
        a, b = row[j], row[j + half]
        out[j], out[j + half] = (
            a * mpmath.cos(t) - b * mpmath.sin(t),
            a * mpmath.sin(t) + b * mpmath.cos(t),
        )
    return out


def _reference(i: int) -> list[Any]:
    """Row i of the layer's output from the formulas, in mpmath: x W^T projections, key/value
    head 0 for both query heads, RoPE, causal softmax(q k^T / sqrt(2)) v, concat, W_O^T."""
    x = [[mpmath.mpf(sp.Rational(v).p) / sp.Rational(v).q for v in row] for row in X]

    def project(w: list[list[Any]], p: int) -> list[Any]:
        return [sum(x[p][c] * mpmath.mpf(sp.Rational(w_r[c]).p) / sp.Rational(w_r[c]).q
                    for c in range(4)) for w_r in w]  # fmt: skip

    heads = []
    for h in range(2):
        q = _rotate_half(project(W_Q, i)[2 * h : 2 * h + 2], i, 100)
        keys = [_rotate_half(project(W_K, r), r, 100) for r in range(i + 1)]
        logits = [sum(a * b for a, b in zip(q, k)) / mpmath.sqrt(2) for k in keys]
        top = max(logits)
        exps = [mpmath.exp(v - top) for v in logits]
        values = [project(W_V, r) for r in range(i + 1)]
        heads += [sum(e * v[c] for e, v in zip(exps, values)) / sum(exps) for c in range(2)]
    return [sum(heads[c] * w_r[c] for c in range(4)) for w_r in W_O]


@pytest.mark.usefixtures("minutes")
def test_an_entry_agrees_with_the_formulas_in_mpmath_at_60_digits() -> None:
    d = derive(_spec())
    with mpmath.workdps(80):
        for i in (2, 4):
            want = _reference(i)
            for c in range(4):
                got = sp.N(d["output"][i, c], 70)
                assert abs(mpmath.mpf(str(got)) - want[c]) < mpmath.mpf(10) ** -60


ROWS = {
    "cosines and sines": [sp.cos(1), sp.sqrt(2) * sp.sin(1), -sp.cos(2) / 3, sp.Rational(1, 2)],
    "a blocked key": [sp.cos(1) / 2, -sp.oo, sp.sin(3) + sp.Rational(1, 7)],
    "spread over 10^5: shifted by the largest": [10**6 * sp.cos(1), sp.sin(1), -sp.oo],
    "equal values written apart": [sp.sqrt(2) + sp.sqrt(3), sp.sqrt(5 + 2 * sp.sqrt(6)), sp.cos(1)],
    "rational": [sp.Rational(1, 3), sp.Integer(2), -sp.oo],
}


@pytest.mark.parametrize("row", ROWS.values(), ids=list(ROWS))
def test_a_softmax_row_is_ops_row_softmax_of_that_row(row: list[sp.Expr]) -> None:
    assert softmax_row(row) == ops.row_softmax(sp.ImmutableMatrix([row]))


def test_scores_by_sympy_arithmetic_are_the_same_trees(monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn whose cos or sin is of another form is multiplied by SymPy: the same trees."""
    from mha_symbolic.exact import rope_rows

    monkeypatch.setattr(rope_rows, "split_trig", lambda steps, distance: None)
    d = derive(_spec(**SPECS["one head of 4, base 10: an irrational turn"]))
    lazy, whole = d.step("head1.scores").entries, d["head1.scores"]
    assert all(sp.srepr(lazy[i, j]) == sp.srepr(whole[i, j]) for i in range(5) for j in range(5))


def test_the_bench_builds_the_same_entry_in_symengine() -> None:
    """bench --only scale times a RoPE entry against SymEngine building the same value."""
    pytest.importorskip("symengine", reason="the bench's baseline; pip install symengine")
    from mha_symbolic.bench.rope_entry import rope_contenders, rope_mix, symengine_rope_entry
    from mha_symbolic.exact.rows import Softmaxes, entry_maker

    mix = rope_mix(quick=True)
    maker = entry_maker(mix, Softmaxes())
    assert maker is not None
    for i, c in ((0, 0), (5, 3), (15, 255)):
        ours, theirs = maker(i, c), symengine_rope_entry(mix, i, c)
        assert abs(float(sp.N(ours, 30)) - float(theirs)) <= 1e-12 * abs(float(theirs))
    contenders = rope_contenders(mix, 4)
    assert sp.N(contenders["entry"]() - maker(4, 0), 30) == 0  # row 4 first, made cold
    assert float(contenders["symengine"]()) == float(symengine_rope_entry(mix, 4, 0))
    assert contenders["again"]() == maker(4, 0)  # the same row again, its cos and sin made


@pytest.mark.parametrize("name", list(SPECS))
def test_a_scores_remembered_compare_key_is_the_one_its_terms_make(name: str) -> None:
    """A score's sum keeps the compare key made from its terms' keys (the exponentials of a
    softmax row are sorted by keys that hold it): the key made from scratch, which orders as
    SymPy does (a sum of exponentials of such scores is SymPy's Add, term for term)."""
    from mha_symbolic.exact import canonical_order

    d = derive(_spec(**SPECS[name]))
    lazy = d.step("head1.scores").entries
    sums = [lazy[i, j] for i in range(5) for j in range(5)]
    sums = [s for s in sums if isinstance(s, sp.Add)]
    assert sums  # (scores of cos and sin with rational numbers beside)
    for made in sums:
        remembered = canonical_order.compare_key(made)
        assert remembered == canonical_order._sum_or_product(made)
        assert remembered == canonical_order._made(sp.Add(*made.args))  # a copy: no memory
    exps = [sp.exp(s) for s in sums]
    assert ops.canonical_add(exps).args == sp.Add(*exps).args
