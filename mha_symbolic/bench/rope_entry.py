"""The RoPE row of ``bench --only scale``'s exact entries: one output entry of a LLaMA-style
layer (RoPE, grouped-query attention, causal) made from the structure, beside SymEngine
building the same expression from the same structure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ROPE_SHAPE = (64, 1024, 8, 2)  # (L, E, query heads, key/value heads): 64 feature pairs a head
QUICK_SHAPE = (16, 256, 8, 2)


def rope_mix(quick: bool) -> Any:
    """The output's structure (a mix of heads over rotated scores) of the layer."""
    from mha_symbolic.bench.llama import llama_arrays, llama_spec
    from mha_symbolic.exact.evaluate import derive

    length, width, heads, kv = QUICK_SHAPE if quick else ROPE_SHAPE
    d = derive(llama_spec(llama_arrays(length, width, heads, kv), heads, kv))
    assert d.structured is not None
    return d.structured["output"]


def symengine_rope_entry(mix: Any, i: int, c: int) -> Any:
    """Entry (i, c) built by SymEngine: each head's logits from the rational rows of Q and K
    and the cos and sin of each pair's angle at the tokens' distance, shifted by the row's
    smallest (told apart in floats), their exponentials, and the weighted values."""
    import symengine as se

    def rational(number: Any) -> Any:
        return se.Rational(int(number.p), int(number.q))

    total = se.Integer(0) if mix.rational is None else rational(mix.rational[i, c])
    for term, column in mix.parts(c):
        logits = term.weights.logits
        keys = [j for j in range(logits.matrix.ncols()) if _open(logits.allowed, i, j)]
        row = [se.sympify(logits.factor) * _score(logits.matrix, i, j) for j in keys]
        low = min(row, key=float)
        exps = [se.exp(value - low) for value in row]
        top = se.Add(*(e * rational(column[j]) for j, e in zip(keys, exps)))
        total = total + top / se.Add(*exps)
    return total


def _open(allowed: Any, i: int, j: int) -> bool:
    return allowed is None or bool(allowed[i][j])


def _score(scores: Any, p: int, r: int) -> Any:
    """Score (p, r) of the rotated queries and keys, in SymEngine."""
    import symengine as se

    q, k = scores.q.matrix, scores.k.matrix
    terms = []
    for step, (a, b) in zip(scores.q.steps, scores.q.pairs):
        phi = (r - p) * se.sympify(step)
        same = q[p, a] * k[r, a] + q[p, b] * k[r, b]
        cross = q[p, b] * k[r, a] - q[p, a] * k[r, b]
        terms.append(se.Rational(int(same.p), int(same.q)) * se.cos(phi))
        terms.append(se.Rational(int(cross.p), int(cross.q)) * se.sin(phi))
    return se.Add(*terms)


def rope_contenders(mix: Any, first: int) -> dict[str, Callable[[], object]]:
    """Entry (i, 0) of the output from the structure, cold (no softmax row, cos or sin made
    before: a first entry), and by SymEngine; then (``again``) the same entry once more with
    the cos and sin of its distances made (as any earlier entry of a row as long leaves
    them), its softmax rows not. Each takes rows first, first + 1, ... in the same order."""
    from mha_symbolic.exact import rope_rows
    from mha_symbolic.exact.rows import Softmaxes, entry_maker

    rows = {name: iter(range(first, 10**9)) for name in ("entry", "symengine", "again")}

    def made(name: str) -> object:
        return entry_maker(mix, Softmaxes())(next(rows[name]) % mix.rows, 0)  # type: ignore[misc]

    def entry() -> object:
        rope_rows.trig_of.cache_clear()
        rope_rows.split_trig.cache_clear()
        return made("entry")

    return {
        "entry": entry,
        "symengine": lambda: symengine_rope_entry(mix, next(rows["symengine"]), 0),
        "again": lambda: made("again"),
    }
