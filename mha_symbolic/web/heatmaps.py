"""The data of the page's heatmaps: each head's attention weights, and for every entry its
exact value, its decimals and its softmax row's formula (MathML the browser draws)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp
from latex2mathml.converter import convert
from sympy.printing.str import StrPrinter

from mha_symbolic.text import decimal_text

MAX_SIDE = 12  # a heatmap of more tokens than this is not drawn (as the PNG heatmaps)
MAX_TERMS = 8  # a softmax row's sum written out term by term up to this many keys


class _Plain(StrPrinter):
    """Plain text as a reader says it: ``e`` for Euler's number, not ``E``."""

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_exp(self, expr: Any) -> str:
        return f"e^({self._print(expr.args[0])})"


def _plain(value: sp.Basic) -> str:
    return str(_Plain().doprint(value))


def heatmaps(d: Any, places: Callable[[str], int]) -> list[dict[str, Any]]:
    """One heatmap per head (softmax steps of at most MAX_SIDE tokens a side), its cells to
    ``places(step key)`` decimals; none for weights with symbols, whose solution says in words
    that it draws none (their colours would be blank, and their MathML took seconds an edit)."""
    out = []
    steps = list(d.steps)
    for index, step in enumerate(steps):
        if (
            not d.facts.is_a(step.kind, "weights")
            or step.head is None
            or max(step.shape) > MAX_SIDE
            or any(entry.free_symbols for entry in step.value)  # (from the first with any)
        ):
            continue
        logits = steps[index - 1]  # what the softmax takes: the step before it
        if logits.head != step.head or logits.shape != step.shape:
            continue
        out.append(_heatmap(d, step, logits, places(step.key)))
    return out


def _heatmap(d: Any, step: Any, logits: Any, places: int) -> dict[str, Any]:
    weights, scores = step.value, logits.value
    rows = [
        [_cell(weights[i, j], places) for j in range(weights.cols)] for i in range(weights.rows)
    ]
    return {
        "key": step.key,
        "head": step.head,
        "queries": list(d.spec.tokens),
        "keys": list(d.spec.key_tokens),
        "rows": rows,
        "formulas": [_row_formula(scores, i) for i in range(weights.rows)],
    }


def _cell(value: sp.Basic, places: int) -> dict[str, Any]:
    decimal = decimal_text(value, places)
    return {
        "text": _plain(value),
        "mathml": convert(sp.latex(value)),
        "decimal": decimal,
        # the colour: what the entry is, to float precision (None when it has symbols)
        "shade": float(value) if decimal is not None else None,
    }


def _row_formula(scores: sp.MatrixBase, i: int) -> str:
    r"""Row ``i``'s softmax as MathML: ``\alpha_{ij} = e^{s_{ij}} / \sum_k e^{s_{ik}}``, then
    the sum written out with this row's exact scores."""
    row = i + 1
    terms = [f"e^{{{sp.latex(scores[i, k])}}}" for k in range(scores.cols)]
    if len(terms) > MAX_TERMS:
        terms = [*terms[: MAX_TERMS - 2], r"\cdots", terms[-1]]
    tex = (
        rf"\alpha_{{{row} j}} = \frac{{e^{{s_{{{row} j}}}}}}{{\sum_{{k}} e^{{s_{{{row} k}}}}}}"
        rf" = \frac{{e^{{s_{{{row} j}}}}}}{{{' + '.join(terms)}}}"
    )
    return str(convert(tex))
