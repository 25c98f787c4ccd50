"""What a teacher adds at a step, computed from this derivation's own values: said only where
it is true here (one key: weights of 1; every token the same output; a standard scaling's
what-if), never keyed to an example's name or holding a number written by hand."""

from __future__ import annotations

import sympy as sp

from mha_symbolic.exact.derivation import Step
from mha_symbolic.exact.limits import limit
from mha_symbolic.solution import latex
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.entries import entry_name


def remarks(context: Context, step: Step) -> tuple[str, ...]:
    """The remarks that hold at ``step`` (most steps have none)."""
    if not any(context.facts.is_a(step.kind, role) for role in ("final", "weights")):
        return ()
    if context.chosen:  # symbols: a remark on one choice of numbers would not hold in general
        found = [_temperature_limits(context, step)]
    else:
        found = [
            _single_key(context, step),
            _what_if_scaled(context, step),
            _same_rows(context, step),
            _why_exact(context, step),
            _what_w_o_does(context, step),
            _transposed_w_o(context, step),
        ]
    return tuple(text for text in found if text is not None)


def temperature(context: Context) -> tuple[str, sp.Symbol] | None:
    """The positive parameter the scores are divided by (a temperature tau), by name."""
    parameters = [
        (name, symbol)
        for name, symbol in context.facts.parameters.items()
        if context.facts.scale().factor == 1 / symbol
    ]
    if len(parameters) != 1 or not parameters[0][1].is_positive:
        return None
    return parameters[0]


def _temperature_limits(context: Context, step: Step) -> str | None:
    """Scores divided by a positive parameter: the weights' exact limits, cold and hot."""
    found = temperature(context)
    if not context.facts.is_a(step.kind, "weights") or found is None:
        return None
    name, symbol = found
    # The limits themselves, not d.limit(): that loads the whole public API (the extractor
    # too) to find them, a third of a second before the first number.
    cold = limit(context.d, name, "0+")[step.key]
    hot = limit(context.d, name, "oo")[step.key]
    # as fractions both (1/2 and 1/3, not 0.5 beside 1/3): the limits are exact shares
    numbers = {"name": sp.latex(symbol), "cold": latex.fractions(cold), "hot": latex.fractions(hot)}
    return context.once("remarks", "temperature_limits", numbers)


def _single_key(context: Context, step: Step) -> str | None:
    """One key: softmax of one score is 1, whatever the score and its scaling."""
    if not context.facts.is_a(step.kind, "weights") or step.shape[1] != 1:
        return None
    return context.once("remarks", "single_key", {})


def _what_if_scaled(context: Context, step: Step) -> str | None:
    """Unscaled scores: what token 1's weights would be with the standard 1/sqrt(d_k)."""
    facts = context.facts
    if not facts.is_a(step.kind, "weights") or step.head != 1 or not facts.scale().is_identity:
        return None
    key = step.key.replace(".weights", ".scores")
    q = step.key.replace(".weights", ".q")
    if key not in context.d or q not in context.d or step.shape[1] < 2:
        return None
    dk = context.d.step(q).shape[1]
    scores = context.d.step(key).entries  # made entry by entry: never the whole SymPy value
    exps = [sp.exp(scores[0, j] / sp.sqrt(dk)) for j in range(step.shape[1])]
    scaled = [e / sp.Add(*exps) for e in exps]
    places = context.settings_for(step.key).decimals
    numbers = {
        "dk": dk,
        "scaled": _row([latex.decimal(w, places) for w in scaled]),
        "weights": _row([latex.decimal(step.entries[0, j], places) for j in range(len(exps))]),
    }
    return context.once("remarks", "what_if_scaled", numbers)


def _same_rows(context: Context, step: Step) -> str | None:
    """Every token's output the same: what the heads found about each token is gone."""
    rows, cols = step.shape
    if step.key != "output" or not context.facts.output_projection or rows < 2:
        return None
    if max(rows, cols) > context.settings.max_size:
        return None  # only what is shown whole is compared whole
    value = step.entries
    if any(value[i, j] != value[0, j] for i in range(rows) for j in range(cols)):
        return None
    row = _row([context.exact(value[0, j]) for j in range(cols)])
    return context.once("remarks", "same_rows", {"row": row})


def _why_exact(context: Context, step: Step) -> str | None:
    """``O_{11} = 1/2 (e/(1+e) + 1/(1+e)) = 1/2``: a rational output entry made of
    irrational weights that add up to a whole, when W_O weighs them all alike."""
    if step.key != "output" or not context.facts.output_projection:
        return None
    factors = [a for a in step.formula.args if isinstance(a, sp.MatrixSymbol)]
    steps = {s.symbol: s for s in context.d.steps}
    w_o = context.d.bindings.get(factors[-1]) if len(factors) == 2 else None
    before = steps.get(factors[0]) if len(factors) == 2 else None
    if w_o is None or before is None:
        return None
    entry = step.entries[0, 0]
    parts = [(before.entries[0, k], w_o[k, 0]) for k in range(w_o.rows) if w_o[k, 0] != 0]
    weights = {w for _, w in parts}
    if not entry.is_Rational or len(weights) != 1 or all(c.is_Rational for c, _ in parts):
        return None
    (weight,) = weights
    # The document's one form of its numbers: 0.5 where W_O and O print 0.5 (not 1/2 beside
    # them), a fraction where its values are fractions.
    write = latex.notation([weight, entry, entry / weight], context.settings.fractions)
    numbers = {
        "name": entry_name(step.symbol, "1", "1"),  # O_{11}, as C_{11} is written
        "weight": write(weight),
        "inner": " + ".join(context.exact(c) for c, _ in parts),
        "total": write(entry / weight),  # what the bracket adds up to, exactly
        "entry": write(entry),
    }
    return context.once("remarks", "why_exact", numbers)


def _what_w_o_does(context: Context, step: Step) -> str | None:
    """``columns 1-3 of O are head_1 + head_2``, read from W_O's entries: said when each
    output column is a sum or difference of the same column of the heads, and some of them
    mix heads (an identity W_O, which only keeps them apart, says nothing)."""
    if step.key != "output" or not context.facts.output_projection:
        return None
    factors = step.formula.args
    if len(factors) != 2 or not isinstance(factors[0], sp.MatrixSymbol):
        return None
    mixed = sp.Matrix(factors[1].xreplace(context.d.bindings).doit())  # C @ mixed is O
    heads = len(context.facts.heads)
    if mixed.free_symbols or mixed.rows % heads or mixed.cols % (mixed.rows // heads):
        return None
    width = mixed.rows // heads
    names = [context.d.step(f"head{n}.output").symbol.name for n in context.facts.heads]
    found = [_signed_heads(mixed, width, first, names) for first in range(0, mixed.cols, width)]
    groups = [g for g in found if g is not None]
    if len(groups) != len(found) or not any(g.startswith("-") or "+" in g for g in groups):
        return None
    said = [
        context.words("remarks", "w_o_columns", first=i * width + 1, last=(i + 1) * width, heads=g)
        for i, g in enumerate(groups)
    ]
    return context.once("remarks", "what_w_o_does", {"columns": "; ".join(said)})


def _transposed_w_o(context: Context, step: Step) -> str | None:
    """PyTorch's convention: W_O is stored (out x in), so O = C W_O^T, while the paper's
    Concat(head_1, ..., head_h) W_O, which tutorials in this convention print too (seed 004
    writes both), means the (in x out) matrix: said once at the output, with whether the two
    readings give the same O here (a symmetric W_O) or not."""
    if step.key != "output" or not context.facts.output_projection:
        return None
    if context.facts.convention != "xWT":
        return None
    mixed = step.formula.args[-1].xreplace(context.d.bindings).doit()  # W_O^T as C meets it
    if not isinstance(mixed, sp.MatrixBase):
        return None
    same = "transposed_w_o_symmetric" if mixed == mixed.T else "transposed_w_o_differs"
    joined = step.formula.args[0]  # C in C W_O^T, under its document's name if it has one
    return context.once("remarks", same, {"joined": latex.formula(joined)})


def _signed_heads(mixed: sp.MatrixBase, width: int, first: int, names: list[str]) -> str | None:
    """``\\mathrm{head}_{1} - \\mathrm{head}_{2}`` (the heads' ``names``) when output columns
    ``first`` .. of a head's width are, column by column, each head's same column times +1 or
    -1; else None."""
    signs: list[tuple[int, int]] = []
    for block in range(mixed.rows // width):
        part = mixed[block * width : (block + 1) * width, first : first + width]
        for sign in (1, -1):
            if part == sign * sp.eye(width):
                signs.append((block + 1, sign))
        if not part.is_zero_matrix and (not signs or signs[-1][0] != block + 1):
            return None
    if not signs:
        return None
    text = ""
    for head, sign in signs:
        text += ("-" if sign < 0 else ("+" if text else "")) + f" {names[head - 1]} "
    return text.strip()


def _row(cells: list[str | None]) -> str:
    return r"\left[" + r",\; ".join(str(c) for c in cells) + r"\right]"
