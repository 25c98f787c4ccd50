"""``--detail token``: seed 000's working of one head, query by query, in vectors."""

from __future__ import annotations

import sympy as sp

from mha_symbolic.exact.derivation import Step
from mha_symbolic.solution import latex
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.view import Part, QueryWork, TokenWork

_KEYS = ("q", "k", "v", "scores", "scaled", "masked", "weights", "output")


def token_work(context: Context, head: int) -> TokenWork:
    """Each query's dot products, its softmax row and its weighted sum, or why they are left out."""
    steps = {s.key.split(".", 1)[1]: s for s in context.d.steps if s.head == head}
    title = context.words("tokens", "heading", head=head)
    if "q" not in steps:  # given scores: no query rows to take apart
        return TokenWork(head, title, (), context.words("tokens", "scores_given", head=head))
    if any(_too_long(context, steps[k].entries) for k in _KEYS if k in steps):
        note = context.words("tokens", "too_long", head=head)
        return TokenWork(head, title, (), note)
    rows = latex.layout(steps["q"].entries, context.settings.max_size).rows
    queries = tuple(_query(context, steps, i) for i in rows if i is not None)
    return TokenWork(head, title, queries, None)


def _too_long(context: Context, matrix: sp.MatrixBase) -> bool:
    return any(latex.too_long(context.names(e), context.settings.max_width) for e in matrix)


def _query(context: Context, steps: dict[str, Step], i: int) -> QueryWork:
    words, row = context.words, context.row
    q, k, v = steps["q"].entries, steps["k"].entries, steps["v"].entries
    s, a, z = steps["scores"].entries, steps["weights"].entries, steps["output"].entries
    n = i + 1
    key_rows = [j for j in latex.layout(k, context.settings.max_size).rows if j is not None]
    dots = [rf"q_{{{n}}} = {row(q, i)}"] + [
        rf"q_{{{n}}} \cdot k_{{{j + 1}}} = {row(q, i)} \cdot {row(k, j)} = "
        + context.exact(s[i, j])
        for j in key_rows
    ]
    parts = [Part(words("tokens", "dot"), tuple(dots)), _scaled_row(context, steps, i)]
    logits = steps["scaled"].entries
    if "masked" in steps:
        logits = steps["masked"].entries
        line = rf"\tilde{{s}}_{{{n}}} = {row(logits, i)}"
        parts.append(Part(words("tokens", "masked"), (line,)))
    softmax = (
        rf"a_{{{n}}} = \operatorname{{softmax}}\left({row(logits, i)}\right) = "
        + row(a, i)
        + _approx(context, a, i)
    )
    parts.append(Part(words("tokens", "softmax"), (softmax,)))
    terms = " + ".join(
        f"{_coefficient(context, a[i, j])} {row(v, j)}" for j in key_rows if a[i, j] != 0
    )
    total = rf"z_{{{n}}} = \sum_j a_{{{n}j}}\, v_j = {terms} = {row(z, i)}" + _approx(context, z, i)
    parts.append(Part(words("tokens", "sum"), (total,)))
    title = words("tokens", "query", index=n)
    return QueryWork(n, context.spec.tokens[i], title, tuple(parts))


def _scaled_row(context: Context, steps: dict[str, Step], i: int) -> Part:
    n = i + 1
    scaled, spec = steps["scaled"], context.spec
    if spec.scale == "none":
        return Part(context.words("tokens", "scaled_none"))
    row = sp.MatrixSymbol("s", 1, scaled.shape[1])
    factors = [a for a in scaled.formula.args if not getattr(a, "is_Matrix", False)]
    replace = {row: context.row(steps["scores"].entries, i)}
    replace.update({k: latex.exact(v) for k, v in context.d.bindings.items() if k.is_Symbol})
    written = latex.formula(sp.MatMul(*factors, row, evaluate=False), replace)
    line = rf"s'_{{{n}}} = {written} = {context.row(scaled.entries, i)}"
    line += _approx(context, scaled.entries, i)
    key = "scaled" if spec.scale == "sqrt_dk" else "scaled_value"
    return Part(context.words("tokens", key), (line,))


def _approx(context: Context, matrix: sp.MatrixBase, i: int) -> str:
    row = context.approx_row(matrix, i)
    return "" if row is None else rf" \approx {row}"


def _coefficient(context: Context, value: sp.Expr) -> str:
    text = context.exact(value)
    return rf"\left({text}\right)" if isinstance(value, sp.Add) else text
