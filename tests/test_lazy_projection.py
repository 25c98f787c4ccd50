"""The output projection kept apart from the heads (``concat_h(A_h V_h) W_O``, never
``V_h W_O^h``) and grouped-query keys and values projected once per key/value head: the
same exact values and the same certified enclosures as the products formed head by head."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import flint
import mpmath
import numpy as np
import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.exact import structured as st
from mha_symbolic.exact.enclose import _ball_matrix
from mha_symbolic.spec.binary_arrays import BinaryMatrix, flint_of, fraction_matrix

DIGITS = 50


def _floats(seed: int, *shape: int) -> Any:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)


def _binary_spec(length: int, width: int, heads: int, kv: int, **extra: Any) -> AttentionSpec:
    shared = kv * (width // heads)
    weights = {
        "w_q": _floats(1, width, width),
        "w_k": _floats(2, shared, width),
        "w_v": _floats(3, shared, width),
        "w_o": _floats(4, width, width),
    }
    return AttentionSpec(
        x=_floats(0, length, width), heads=heads, kv_heads=kv, layout="fused",
        convention="xWT", floats="binary", weights=weights, **extra,
    )  # fmt: skip


def _folded(mix: st.Mix) -> st.Mix:
    """The same mix as it was held before: each head's ``V_h W_O^h`` formed exactly."""
    assert mix.after is not None
    after = mix.after.entries()
    cols = mix.after.ncols()
    terms = []
    for term in mix.terms:
        rows = term.matrix.ncols()
        block = after[term.offset * cols : (term.offset + rows) * cols]
        terms.append(st.Term(term.weights, term.matrix * flint.fmpq_mat(rows, cols, block), 0))
    return st.Mix(mix.rows, mix.cols, tuple(terms), mix.rational)


def _balls(form: Any, bits: int = 200) -> list[list[flint.arb]]:
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        matrix = _ball_matrix(form, "output")
        return [[matrix[i, j] for j in range(matrix.ncols())] for i in range(matrix.nrows())]
    finally:
        flint.ctx.prec = old


def _same_enclosure(a: list[list[flint.arb]], b: list[list[flint.arb]]) -> None:
    tiny = flint.arb(10) ** -DIGITS
    for row_a, row_b in zip(a, b, strict=True):
        for x, y in zip(row_a, row_b, strict=True):
            assert x.overlaps(y)
            assert x.rad() < tiny and y.rad() < tiny
            assert abs(x.mid() - y.mid()) < tiny


def test_the_projection_is_held_apart_and_encloses_as_the_formed_products() -> None:
    d = derive(_binary_spec(6, 16, 4, 4, mask="causal"))
    mix = d.structured["output"]
    assert isinstance(mix, st.Mix) and mix.after is not None
    assert [term.matrix.ncols() for term in mix.terms] == [4, 4, 4, 4]  # V_h, not V_h W_O^h
    _same_enclosure(_balls(mix), _balls(_folded(mix)))


def test_a_bias_after_the_projection_encloses_as_the_formed_products() -> None:
    rng = np.random.default_rng(7)
    width = 8
    spec = AttentionSpec(
        x=_floats(0, 5, width), heads=2, layout="fused", convention="xWT", floats="binary",
        weights={
            "w_q": _floats(1, width, width), "w_k": _floats(2, width, width),
            "w_v": _floats(3, width, width), "w_o": _floats(4, width, width),
            "b_o": rng.standard_normal(width).astype(np.float32),
        },
    )  # fmt: skip
    mix = derive(spec).structured["output"]
    assert isinstance(mix, st.Mix) and mix.rational is not None and mix.after is not None
    _same_enclosure(_balls(mix), _balls(_folded(mix)))


def test_an_exact_entry_reads_one_column_of_the_products() -> None:
    spec = _binary_spec(4, 8, 2, 2)
    lazy = derive(spec)
    plain = derive(spec, large=True)
    assert lazy.step("output").entries[1, 3] == plain["output"][1, 3]


def test_every_output_against_mpmath_at_80_digits() -> None:
    x = [[Fraction(1, 2), Fraction(-1, 3)], [Fraction(2, 5), Fraction(1, 7)]]
    w = {
        "w_q": [[Fraction(1, 3), 0], [Fraction(-1, 2), 1]],
        "w_k": [[1, Fraction(1, 4)], [0, Fraction(2, 3)]],
        "w_v": [[Fraction(3, 5), -1], [Fraction(1, 6), Fraction(1, 2)]],
        "w_o": [[Fraction(1, 2), Fraction(-2, 7)], [Fraction(1, 9), 1]],
    }
    spec = AttentionSpec(
        x=[[str(v) for v in row] for row in x], heads=2, layout="fused", convention="xW",
        weights={k: [[str(v) for v in row] for row in m] for k, m in w.items()},
    )  # fmt: skip
    balls = derive(spec).enclose("output", DIGITS)
    with mpmath.workdps(80):
        ref = _reference(x, w)
        for i, row in enumerate(balls):
            for j, ball in enumerate(row):
                assert abs(mpmath.mpf(ball.mid().str(70, radius=False)) - ref[i][j]) < 1e-50


def _reference(x: list[list[Fraction]], w: dict[str, Any]) -> list[list[Any]]:
    """Two heads of width 1, d_k = 1 (no scale), straight from the formulas in mpmath."""

    def m(rows: list[list[Any]]) -> list[list[Any]]:
        return [[mpmath.mpf(v.numerator) / v.denominator if isinstance(v, Fraction)
                 else mpmath.mpf(v) for v in row] for row in rows]  # fmt: skip

    def mul(a: list[list[Any]], b: list[list[Any]]) -> list[list[Any]]:
        return [[mpmath.fsum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
                for i in range(len(a))]  # fmt: skip

    xs = m(x)
    q, k, v = (mul(xs, m(w[n])) for n in ("w_q", "w_k", "w_v"))
    heads = []
    for h in range(2):
        out = []
        for i in range(2):
            e = [mpmath.exp(q[i][h] * k[j][h]) for j in range(2)]
            out.append(mpmath.fsum(e[j] * v[j][h] for j in range(2)) / mpmath.fsum(e))
        heads.append(out)
    concat = [[heads[h][i] for h in range(2)] for i in range(2)]
    return mul(concat, m(w["w_o"]))


@pytest.mark.parametrize("rope", [False, True])
def test_grouped_keys_and_values_are_projected_once_per_key_value_head(rope: bool) -> None:
    spec = _binary_spec(6, 16, 4, 2, mask="causal", rope=rope)
    d = derive(spec)
    k = d.structured["k"]
    assert isinstance(k, st.Repeated) and k.base.ncols() == 8  # 2 key/value heads, not 4
    # the heads of a group share one slice of keys and of values (and, with RoPE, the
    # enclosure turns the group's keys once); the groups have their own
    for name in ("k", "v"):
        assert d.structured[f"head3.{name}"] is d.structured[f"head4.{name}"]
        assert d.structured[f"head2.{name}"] is not d.structured[f"head3.{name}"]
    assert d.structured["head2.k"] != d.structured["head3.k"]
    by_hand = AttentionSpec(
        x=_floats(0, 6, 16), heads=4, layout="fused", convention="xWT", floats="binary",
        mask="causal", rope=rope,
        weights={
            "w_q": _floats(1, 16, 16), "w_o": _floats(4, 16, 16),
            "w_k": np.repeat(_floats(2, 8, 16).reshape(2, 4, 16), 2, axis=0).reshape(16, 16),
            "w_v": np.repeat(_floats(3, 8, 16).reshape(2, 4, 16), 2, axis=0).reshape(16, 16),
        },
    )  # fmt: skip
    # (enclose, which turns the keys of a group once, beside the walk of the plain structure)
    _same_enclosure(d.enclose("output", DIGITS), _balls(derive(by_hand).structured["output"]))


@pytest.mark.parametrize("by_rows", [True, False])
def test_a_repeated_matrix_reads_as_the_repeated_array(by_rows: bool) -> None:
    base = _floats(5, 4, 6) if by_rows else _floats(5, 6, 4)
    axis = 0 if by_rows else 1
    blocks = np.split(base, 2, axis=axis)
    whole = np.concatenate([b for b in blocks for _ in range(3)], axis=axis)
    matrix = BinaryMatrix.repeated(fraction_matrix(base), 2, 3, by_rows)
    assert matrix.shape == whole.shape
    assert flint_of(matrix) == fraction_matrix(whole)
    assert matrix == BinaryMatrix.of(fraction_matrix(whole))


def test_heads_enclosed_in_worker_processes_are_the_same_balls_widened_at_most_2_ulp() -> None:
    from functools import partial

    from mha_symbolic.exact.enclose import _head
    from mha_symbolic.exact.head_pool import map_heads

    mix = derive(_binary_spec(6, 16, 4, 2, mask="causal")).structured["output"]
    old = flint.ctx.prec
    flint.ctx.prec = 200
    try:
        here = map_heads(partial(_head, key="output"), mix.terms, 0, workers=1)
        pooled = map_heads(partial(_head, key="output"), mix.terms, 0, workers=2)
        tiny = flint.arb(2) ** -195
        for a, b in zip(here, pooled, strict=True):
            assert (a.nrows(), a.ncols()) == (b.nrows(), b.ncols()) == (6, 4)
            for x, y in zip(a.entries(), b.entries(), strict=True):
                assert y.contains(x)  # every value x held, y holds
                assert y.rad() < tiny
    finally:
        flint.ctx.prec = old


def test_a_daemon_process_encloses_its_heads_itself() -> None:
    import multiprocessing

    from mha_symbolic.exact.head_pool import cores

    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(cores) == 1  # a pool's worker may not fork workers of its own


def test_workers_take_only_idle_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from mha_symbolic.exact import head_pool

    monkeypatch.setattr(head_pool, "cores", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    assert head_pool.idle_cores() == 2  # this process alone: the other core is free
    monkeypatch.setattr(os, "getloadavg", lambda: (6.0, 6.0, 6.0))
    assert head_pool.idle_cores() == 1  # a busy machine: workers would only add CPU
