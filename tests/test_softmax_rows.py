"""Entries made from the FLINT structure directly (exact/softmax_rows.py, mix_entries.py):
the very SymPy expressions the whole-matrix evaluator makes, tree for tree, whatever the
scale, the mask, equal or widely spread logits."""

from __future__ import annotations

from typing import Any

import pytest
import sympy as sp
from sympy.core.cache import CACHE

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.exact import rows
from mha_symbolic.exact.canonical_order import compare_key
from mha_symbolic.exact.mix_entries import mix_entry
from mha_symbolic.exact.rows import Softmaxes

X = [[1, 0, 2, -1], [0, 1, "1/2", 0], [3, -2, 0, 1]]
W = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, -1]]
W_K = [[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 1, 1], [1, -1, 0, 0]]
W_O = [["1/2", 0, 0, 1], [0, 1, 0, 0], [0, 0, "1/3", 0], [1, 0, 0, -1]]
W_TWIN = [[1, 0, 1, 0], [0, 1, 0, 1], [1, -1, 1, -1], [0, 2, 0, 2]]  # heads 1 and 2 alike


def _spec(**changes: Any) -> AttentionSpec:
    raw: dict[str, Any] = {
        "x": X,
        "heads": 2,
        "layout": "fused",
        "weights": {"w_q": W, "w_k": W_K, "w_v": W, "w_o": W_O, "b_o": [1, 0, "-1/2", 0]},
    }
    raw.update(changes)
    return AttentionSpec.from_dict({k: v for k, v in raw.items() if v is not None})


SPECS = {
    "sqrt(2)/2 scale, causal": _spec(mask="causal"),
    "1/2 scale (d_k 4)": _spec(heads=1),
    "no scale": _spec(scale="none"),
    "sqrt(3)/3 scale": _spec(scale="\\frac{1}{\\sqrt{3}}"),
    "a scale that is a sum": _spec(scale="\\frac{1}{1+\\sqrt{2}}"),
    "rational scale 2": _spec(scale="2"),
    "equal logits": _spec(x=[[1, 1, 1, 1]] * 3),
    "logits spread over 10^5": _spec(x=[[400, 400, 0, 0], [0] * 4, [0] * 4], scale="none"),
    "a mask matrix": _spec(mask=[[1, 0, 1], [0, 1, 1], [1, 1, 0]]),
    "cross-attention": _spec(x=None, query=X[:2], key=X, value=X),
}


@pytest.mark.parametrize("name", list(SPECS))
def test_every_entry_is_the_evaluators_expression_tree_for_tree(name: str) -> None:
    d = derive(SPECS[name])
    for step in d.steps:
        entries = step.entries
        value = step.value  # the whole-matrix evaluator's SymPy value
        for i in range(value.rows):
            for j in range(value.cols):
                got, want = entries[i, j], value[i, j]
                assert got == want and sp.srepr(got) == sp.srepr(want), (step.key, i, j)


def test_logits_spread_over_10_5_shift_by_the_largest() -> None:
    d = derive(SPECS["logits spread over 10^5"])
    row = d.step("head1.weights").entries.row(0)
    # query 1's logits: (400, 400) . (400, 400) with its own key, 0 with the two others
    assert (
        row == (1 / (1 + 2 * sp.exp(-320000)),) + (sp.exp(-320000) / (1 + 2 * sp.exp(-320000)),) * 2
    )


@pytest.mark.parametrize(
    "terms",
    [
        [sp.exp(sp.sqrt(2) / 4), 3 * sp.exp(sp.Rational(5, 2)), sp.E, sp.exp(2), sp.exp(-1)],
        [sp.exp(sp.sqrt(2) * sp.Rational(3, 4)), sp.exp(sp.sqrt(2)), 2 * sp.exp(sp.sqrt(3))],
        [sp.exp(sp.Rational(1, 2)), sp.exp(sp.Rational(-1, 2)), sp.exp(sp.Rational(7, 3))],
    ],
)
def test_the_sort_key_orders_terms_as_sympys_add(terms: list[sp.Expr]) -> None:
    assert sorted(terms, key=compare_key) == list(sp.Add(*terms).args)


MIX_SPECS = {
    "two heads alike (one shared denominator)": _spec(
        weights={"w_q": W_TWIN, "w_k": W_TWIN, "w_v": W, "w_o": W_O}
    ),
    "values alike on every key (the fraction cancels)": _spec(
        x=None, query=X[:2], key=X, value=[[1, 2, 0, -1]] * 3
    ),
    "values all 0": _spec(x=None, query=X[:2], key=X, value=[[0] * 4] * 3),
}


@pytest.mark.parametrize("name", list(MIX_SPECS))
def test_mixed_heads_are_the_evaluators_expression_tree_for_tree(name: str) -> None:
    d = derive(MIX_SPECS[name])
    step = d.step("output")
    value = step.value
    for i in range(value.rows):
        for j in range(value.cols):
            got, want = step.entries[i, j], value[i, j]
            assert got == want and sp.srepr(got) == sp.srepr(want), (i, j)


def test_an_output_entry_is_made_from_the_rows_directly() -> None:
    mix = derive(SPECS["1/2 scale (d_k 4)"]).structured["output"]  # type: ignore[index]
    softmaxes = Softmaxes()
    made = mix_entry(mix, softmaxes, 1, 2)
    assert made is not None  # not the general way
    assert sp.srepr(made) == sp.srepr(rows._mix(mix, Softmaxes())(1, 2))
    assert mix_entry(mix, softmaxes, 1, 2) is not made  # made again, not looked up


def test_making_entries_leaves_nothing_in_sympys_caches() -> None:
    """SymPy's cached constructors would keep every entry (64-term sums) alive: a model-sized
    entry then costs more in garbage collection than in making it."""
    d = derive(SPECS["sqrt(3)/3 scale"])
    entries = d.step("output").entries
    entries[0, 0]
    before = {f.__wrapped__.__qualname__: f.cache_info().misses for f in CACHE}
    entries[1, 1], entries[2, 3]
    missed = {
        f.__wrapped__.__qualname__
        for f in CACHE
        if f.cache_info().misses > before[f.__wrapped__.__qualname__]
    }
    assert missed <= {"Integer.__new__"}
