"""``--detail token``: seed 000's working of one head, query by query, in vectors."""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from mha_symbolic.exact.derivation import Step
from mha_symbolic.model.program import HEAD_STEPS
from mha_symbolic.solution import latex
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.view import Part, TokenWork

_HEAD_INDEX = re.compile(r"_\{\d+\}$")  # S_{1}: the head's number
_ROW_LETTER = re.compile(r"(?<![\\A-Za-z])([A-Z])(?![A-Za-z])")  # a capital, not in \Sigma


def token_work(context: Context, head: int) -> TokenWork:
    """Each query's dot products, its softmax row and its weighted sum, or why they are left out."""
    steps = _head_steps(context, head)
    title = context.words("tokens", "heading", head=head)
    # given scores: no query rows to take apart
    if not any(context.facts.is_a(s.kind, "scores") for s in steps):
        return TokenWork(head, title, (), context.words("tokens", "scores_given", head=head))
    work = _Work.of(context, steps)
    if any(_too_long(context, s.entries) for s in work.shown):
        note = context.words("tokens", "too_long", head=head)
        return TokenWork(head, title, (), note)
    rows = latex.layout(work.q.entries, context.settings.max_size).rows
    parts = tuple(part for i in rows if i is not None for part in _query(context, work, i))
    return TokenWork(head, title, parts, None)


def _head_steps(context: Context, head: int) -> list[Step]:
    """Head ``head``'s steps in the program's order (its input slices left out)."""
    return [s for s in context.d.steps if s.head == head and s.key.split(".", 1)[1] in HEAD_STEPS]


@dataclass(frozen=True)
class _Work:
    """The steps one query's working reads, found by what they compute: the queries and keys
    the scores multiply, the scores, each step from the scaled scores to the softmax's logits
    (the scaling, then a mask or a bias, each shown as a row), the weights and the values."""

    q: Step
    k: Step
    v: Step
    scores: Step
    logits: tuple[Step, ...]
    weights: Step
    output: Step

    @classmethod
    def of(cls, context: Context, steps: list[Step]) -> _Work:
        """Found by their operations' roles: the scores, the weights and the head's output."""
        by_symbol = {s.symbol: s for s in steps}
        scores, weights, output = (
            next(s for s in steps if context.facts.is_a(s.kind, role))
            for role in ("scores", "weights", "weighted_values")
        )
        q, k = scores.formula.args
        logits = tuple(steps[steps.index(scores) + 1 : steps.index(weights)])
        v = by_symbol[output.formula.args[1]]
        return cls(by_symbol[q], by_symbol[k.arg], v, scores, logits, weights, output)

    @property
    def shown(self) -> tuple[Step, ...]:
        return (self.q, self.k, self.v, self.scores, *self.logits, self.weights, self.output)


def _too_long(context: Context, matrix: sp.MatrixBase) -> bool:
    return any(latex.too_long(context.names(e), context.settings.max_width) for e in matrix)


def _query(context: Context, work: _Work, i: int) -> list[Part]:
    """Query ``i``'s stages: its dot products, scaled row, softmax row and weighted sum."""
    words, row = context.words, context.row
    q, k, v = work.q.entries, work.k.entries, work.v.entries
    s, a, z = work.scores.entries, work.weights.entries, work.output.entries
    n = i + 1
    key_rows = [j for j in latex.layout(k, context.settings.max_size).rows if j is not None]
    dots = [
        rf"q_{{{n}}} \cdot k_{{{j + 1}}} = {row(q, i)} \cdot {row(k, j)} = "
        + context.exact(s[i, j])
        for j in key_rows
    ]
    parts = [Part(words("tokens", "dot"), tuple(dots), work.scores.key)]
    scaled = next(s for s in work.logits if context.facts.factored(s.key) is not None)
    if not context.facts.scale(scaled.head or 1).is_identity:  # s = 1: the caption says so
        parts.append(_scaled_row(context, work, scaled, i))
    parts += [_logit_row(context, step, i) for step in work.logits if step is not scaled]
    logits = work.logits[-1].entries
    softmax = (
        rf"a_{{{n}}} = \operatorname{{softmax}}\left({row(logits, i)}\right) = "
        + row(a, i)
        + _approx(context, a, i, work.weights.key)
    )
    parts.append(Part(words("tokens", "softmax"), (softmax,), work.weights.key))
    terms = " + ".join(
        f"{_coefficient(context, a[i, j])} {row(v, j)}" for j in key_rows if a[i, j] != 0
    )
    total = rf"z_{{{n}}} = \sum_j a_{{{n}j}}\, v_j = {terms} = {row(z, i)}" + _approx(
        context, z, i, work.output.key
    )
    parts.append(Part(words("tokens", "sum"), (total,), work.output.key))
    return parts


def _scaled_row(context: Context, work: _Work, scaled: Step, i: int) -> Part:
    """Row ``i`` of the scaled scores: the factor its operation writes (``Facts.factored``)
    times the scores' row."""
    n = i + 1
    scale = context.facts.scale(scaled.head or 1)
    factored = context.facts.factored(scaled.key)
    assert factored is not None  # the scaled step is found by its factor
    row = sp.MatrixSymbol("s", 1, scaled.shape[1])
    replace = {row: context.row(work.scores.entries, i)}
    replace.update({k: latex.exact(v) for k, v in context.d.bindings.items() if k.is_Symbol})
    written = latex.formula(sp.MatMul(factored[0], row, evaluate=False), replace)
    line = rf"s'_{{{n}}} = {written} = {context.row(scaled.entries, i)}"
    line += _approx(context, scaled.entries, i, scaled.key)
    key = "scaled" if scale.is_default else "scaled_value"
    return Part(context.words("tokens", key), (line,), scaled.key)


def _logit_row(context: Context, step: Step, i: int) -> Part:
    """Row ``i`` of a step between the scaling and the softmax (the mask, a bias), named as
    its matrix is, in lower case (``\\tilde{S}_{1}`` -> ``\\tilde{s}_{2}`` for query 2)."""
    name = _ROW_LETTER.sub(lambda m: m.group(1).lower(), _HEAD_INDEX.sub("", step.symbol.name))
    line = rf"{name}_{{{i + 1}}} = {context.row(step.entries, i)}"
    return Part(context.words("tokens", step.key.split(".", 1)[1]), (line,), step.key)


def _approx(context: Context, matrix: sp.MatrixBase, i: int, key: str) -> str:
    row = context.approx_row(matrix, i, key)
    return "" if row is None else rf" \approx {row}"


def _coefficient(context: Context, value: sp.Expr) -> str:
    text = context.exact(value)
    return rf"\left({text}\right)" if isinstance(value, sp.Add) else text


def for_step(work: TokenWork, key: str) -> tuple[Part, ...]:
    """The stages that work out step ``key``, every query's lines of a stage in one display
    (none: the step is not detailed), said in place of the step's matrix working."""
    lines: dict[str, list[str]] = {}
    for part in work.parts:
        if part.step == key:
            lines.setdefault(part.text, []).extend(part.lines)
    return tuple(Part(text, tuple(rows), key) for text, rows in lines.items())
