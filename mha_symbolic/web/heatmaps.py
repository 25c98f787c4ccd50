"""The data of the page's heatmaps: each head's attention weights, and for every entry its
exact value, its decimals and its softmax row's formula (MathML the browser draws)."""

from __future__ import annotations

import functools
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


def heatmaps(d: Any, places: Callable[[str], int], lang: str = "en") -> list[dict[str, Any]]:
    """One heatmap per head (softmax steps of at most MAX_SIDE tokens a side), its cells to
    ``places(step key)`` decimals, its words (``"words"``) in ``lang``. Weights with symbols
    are drawn at the numbers the solution chose for them (``"chosen": True``), as its PDF and
    HTML draw them: each cell's decimals, which the solution's own line at those numbers
    already worked out, and no exact MathML (that took seconds an edit)."""
    return [{**drawn, "words": _words(lang, drawn)} for drawn in _drawn(d, places)]


def _words(lang: str, drawn: dict[str, Any]) -> dict[str, str]:
    """The page's words for one heatmap in ``lang``: its caption, and the pieces of an
    entry's detail line (``{row}`` left for the browser to fill)."""
    from mha_symbolic.language.locales import load

    words = load(lang)["page"]
    caption = words["heatmap_chosen" if drawn.get("chosen") else "heatmap"]
    keys = ("at_chosen", "chosen_value", "exact", "softmax_row")
    return {"caption": caption.format(head=drawn["head"]), **{k: words[k] for k in keys}}


def _drawn(d: Any, places: Callable[[str], int]) -> list[dict[str, Any]]:
    out = []
    steps = list(d.steps)
    chosen = None
    for index, step in enumerate(steps):
        # a softmax's weights: renormalised ones (after a mask on the weights) are no softmax
        # of the kept weights before them, which each entry's line would say they are
        softmax = d.facts.is_a(step.kind, "weights") and d.facts.is_a(step.kind, "inside_softmax")
        if not softmax or step.head is None:
            continue
        if max(step.shape) > MAX_SIDE:
            continue
        if any(entry.free_symbols for entry in step.value):  # (from the first with any)
            chosen = _chosen(d) if chosen is None else chosen
            drawn = _at_chosen(d, step, chosen, places(step.key)) if chosen else None
            out.extend([drawn] if drawn else [])
            continue
        logits = steps[index - 1]  # what the softmax takes: the step before it
        if logits.head != step.head or logits.shape != step.shape:
            continue
        out.append(_heatmap(d, step, logits, places(step.key)))
    return out


def _chosen(d: Any) -> dict[sp.Symbol, sp.Expr]:
    """The numbers the solution chose for the symbols (see solution/chosen.py)."""
    from mha_symbolic.solution.chosen import chosen_values
    from mha_symbolic.solution.subterms import SHARED

    free = set().union(*(SHARED.free_symbols(s.entries) for s in d.steps))
    return chosen_values(d, free)


def _at_chosen(
    d: Any, step: Any, chosen: dict[sp.Symbol, sp.Expr], places: int
) -> dict[str, Any] | None:
    """The heatmap of symbolic weights at the chosen numbers; None where one is undefined."""
    entries = step.entries
    rows = []
    for i in range(entries.rows):
        cells = [_decimal_at(entries[i, j], chosen, places) for j in range(entries.cols)]
        row = [{"text": c, "mathml": None, "decimal": c, "shade": float(c)} for c in cells if c]
        if len(row) != entries.cols:
            return None
        rows.append(row)
    return {
        "key": step.key,
        "head": step.head,
        "chosen": True,
        "queries": list(d.spec.tokens),
        "keys": list(d.spec.key_tokens),
        "rows": rows,
        "formulas": [_general()] * entries.rows,
    }


def _decimal_at(entry: sp.Expr, chosen: dict[sp.Symbol, sp.Expr], places: int) -> str | None:
    """``entry`` at the chosen numbers to ``places``, as the solution's line has it: from an
    arb ball of it (the solution's, met or made once for both) where the ball settles the
    decimals, else from the exact value there; None where it is undefined."""
    from mha_symbolic.exact import balls
    from mha_symbolic.exact.rounding import decimal_of
    from mha_symbolic.solution import latex
    from mha_symbolic.solution.chosen import BITS
    from mha_symbolic.solution.subterms import SHARED

    if all(isinstance(v, sp.Rational) for v in chosen.values()):
        with balls.precision(BITS):
            ball = balls.to_arb(entry, SHARED.balls(chosen, BITS))
            text = None if ball is None else decimal_of(ball, places)
        if text is not None:
            return text
    return latex.decimal(SHARED.substituted(entry, chosen), places)


@functools.cache
def _general() -> str:
    """The softmax's general entry as MathML: the chosen numbers' rows are not written out."""
    return str(convert(r"\alpha_{ij} = \frac{e^{s_{ij}}}{\sum_{k} e^{s_{ik}}}"))


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
