"""One step's block: its title, caption, formula written out with values, exact value, notes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import sympy as sp

from mha_symbolic.exact.derivation import Step
from mha_symbolic.language.locales import generic_key, step_title
from mha_symbolic.solution import claim_marks, entries, latex, notes, plain, textbook
from mha_symbolic.solution.chosen_step import chosen_lines
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.remarks import remarks, temperature
from mha_symbolic.solution.view import StepBlock, TokenRow

# Steps whose substituted form would only repeat the value (or a slice of an earlier value);
# and the heads joined, whose values were just shown side by side.
_NO_SUBSTITUTION = ("input", "slice")
_LINE = 72  # characters of a worked entry per line: a page's width of full-size maths


def title_key(step: Step) -> str:
    """The key the locale tables hold for ``step``: per-head keys without their number."""
    return step.key if step.head is None else generic_key(step.key)


def _shape(matrix: Any) -> str:
    return f"({matrix.shape[0]}, {matrix.shape[1]})"


def shape_text(step: Step) -> str:
    r"""Seed 002's shape arithmetic: ``(8, 2) \times (2, 2) = (8, 2)``."""
    formula = step.formula
    if isinstance(formula, sp.MatAdd):
        formula = formula.args[0] if isinstance(formula.args[0], sp.MatMul) else formula
    result = _shape(step.entries)
    if isinstance(formula, sp.MatMul):
        factors = [a for a in formula.args if getattr(a, "is_Matrix", False)]
        if len(factors) > 1:
            return r" \times ".join(_shape(f) for f in factors) + f" = {result}"
    if isinstance(formula, sp.BlockMatrix):
        parts = ", ".join(_shape(b) for b in formula.blocks)
        return rf"\operatorname{{Concat}}[{parts}] = {result}"
    return result


def step_block(context: Context, step: Step) -> StepBlock:
    """The block of ``step``; its value becomes what later formulas are written with."""
    shown = context.show(step)
    options = context.options
    compact = textbook.compact(context, step, shown)
    book = textbook.textbook(step, textbook.letters(context.d.steps)) if shown.named else compact
    exact, said, passed_on = _value_lines(context, step, shown, book, compact is not None)
    worked = None if step.kind == "input" or book else substituted(context, step)
    pulled = _pulled_out(context, step, shown, worked)
    if pulled is not None:  # (1/2) S: its entries are not written again, each over 2
        worked, exact = worked or pulled, None
    entry = None if passed_on else _first_entry(context, step, shown, book)
    if compact is not None:
        entry = textbook.first_entry(context, step, compact)
    numbers = _numbers(context, step)
    chosen, chosen_said = chosen_lines(context, step, shown)
    block = StepBlock(
        key=step.key,
        kind=step.kind,
        head=step.head,
        title=step_title(step.key, step.head, options.lang, options.templates),
        caption=caption(context, step),
        insight=_said(context, "insights", step, numbers),
        without=_said(context, "without", step, numbers),
        tokens=token_rows(context, step) if step.kind == "input" else (),
        symbol=step.symbol.name,
        formula=None if step.kind == "input" else latex.formula(step.formula),
        substituted=worked,
        exact=exact,
        approx=None if passed_on else shown.approx,
        shape=shape_text(step),
        entry=entry,
        notes=(*said, *remarks(context, step)),
        marks=claim_marks.marks(context, step),
        assumptions=notes.assumptions(context, step),
        analogy=_said(context, "analogies", step, numbers),
        chosen=chosen,
        chosen_said=chosen_said,
        operands=_operands(context, step) if worked else (),
    )
    if context.facts.is_a(step.kind, "final") and context.output_unknown:
        return _unknown_output(block)
    if not shown.named:
        context.substitutes[step.symbol] = shown.exact
    return block


def _operands(context: Context, step: Step) -> tuple[tuple[str, str], ...]:
    """Each matrix written into the step's working and its name; a value two operands share
    (K_1 = Q_1) names neither."""
    factored = _factored(context, step)
    symbols = step.formula.free_symbols | (factored.free_symbols if factored is not None else set())
    names: dict[str, set[str]] = {}
    for symbol in symbols:
        text = context.substitutes.get(symbol)
        if text is not None and r"\begin{" in text:
            names.setdefault(text, set()).add(latex.formula(symbol))
    return tuple((text, min(said)) for text, said in sorted(names.items()) if len(said) == 1)


def _value_lines(
    context: Context,
    step: Step,
    shown: latex.Shown,
    book: textbook.Textbook | None,
    compact: bool = False,
) -> tuple[str | None, tuple[str, ...], bool]:
    """The exact value's line, the notes on how it is written, and whether the step only
    passes its input on (O = C: C was just written, exactly or by its blocks or its general
    entry, so O's exact matrix again, its decimals, a grid of its names or its first entry
    would add nothing: rope's and causal-dropout's O = C printed C's matrix a second time)."""
    final = context.facts.is_a(step.kind, "final")
    passed_on = isinstance(step.formula, sp.MatrixSymbol) and final
    if passed_on:
        return None, (), True
    block = _one_block(step)
    if block is not None:  # one head's "concatenation" is that head's output, just shown
        return latex.formula(block), (), True
    if book is not None:
        said = textbook.note(context, step, book, compact)
        return None, () if said is None else (said,), False
    written = _by_formula(context, step, shown)
    if written is None:
        return shown.exact, _notes(context, step, shown), False
    return written[0], (written[1],), False


def _one_block(step: Step) -> sp.Basic | None:
    """The one matrix a concatenation of one block is (temperature's Concat(head_1))."""
    formula = step.formula
    if isinstance(formula, sp.BlockMatrix) and formula.blocks.shape == (1, 1):
        return formula.blocks[0, 0]
    return None


def _pulled_out(context: Context, step: Step, shown: latex.Shown, worked: str | None) -> str | None:
    """``\\frac{1}{2} S_{1}``: scores scaled by a fraction (RoPE's 1/sqrt(4)), the fraction
    pulled out of the scores just shown, not written into every entry again; also another
    factor (1/sqrt(3)) beside the scores written out (``worked``); None for any other step."""
    scaled = _factored(context, step)
    if scaled is None or shown.named or _numbers_only(context, step):
        return None  # plain numbers (ALiBi's 0.5, 1, 2) are worked out, not left as (1/2) S
    factor = sp.Mul(*[a for a in scaled.args if not getattr(a, "is_Matrix", False)])
    if factor == 1 or not (factor.is_Rational or (worked is not None and _several(step))):
        return None  # one score times 1/sqrt(2) is worked out: 17 sqrt(2)
    return latex.formula(scaled)


def _several(step: Step) -> bool:
    """More than one entry: a factor such as 1/sqrt(3) or 1/tau pulled out of them, not
    written into each (pytorch-style's 4 x 4 of sqrt(3)/3 took a third of a page again)."""
    rows, cols = step.entries.shape
    return bool(rows * cols > 1)


def _numbers_only(context: Context, step: Step) -> bool:
    """Every shown entry a plain number (a lazy step's hidden entries are never made)."""
    return all(e.is_Rational for e in latex.cells(step.entries, context.settings.max_size))


def _unknown_output(block: StepBlock) -> StepBlock:
    """``O = C W_O`` with W_O named but not given: no value, for O is not C; the note after
    it writes O with W_O unknown."""
    formula = rf"{block.formula} W_{{O}}"
    return replace(block, formula=formula, substituted=None, exact=None, approx=None, entry=None)


def _said(context: Context, section: str, step: Step, numbers: dict[str, Any]) -> str | None:
    """An insight, "what if" or picture, once, and only where it is true of this spec: no
    ``\\sqrt{d_k}`` where the scores are not scaled by it, no W_O where there is none."""
    facts, key = context.facts, title_key(step)
    if step.kind == "input" and step.head is not None and section != "analogies":
        return None  # a given Q, scores or weights: nothing was projected or computed here
    if (
        key == "head.scaled"
        and section == "analogies"
        and not facts.scale(step.head or 1).is_default
    ):
        return None
    tau = temperature(context) if key == "head.scaled" and section == "insights" else None
    if tau is not None:  # not a d_k saying: what dividing by tau does, its limits at softmax
        key, numbers = key + "_temperature", {**numbers, "name": sp.latex(tau[1])}
    if key == "head.q" and section != "analogies" and not facts.is_a(step.kind, "projection"):
        return None  # a head's slice of the projected Q: the projection said these
    if key == "head.q" and section == "without":
        if _by_identity(context, step):
            return None  # X itself: nothing projected here to do without
        # one head, or heads that each see their own columns of X: no two see the same vectors
        key += "_raw" if len(facts.heads) == 1 or facts.layout == "split" else ""
    masked = facts.mask is not None or facts.renormalised  # before the softmax or after it
    if key == "head.output" and section == "insights" and masked:
        key += "_masked"  # not "all value rows": only those the mask lets the token see
    if key == "head.x" and section == "insights" and facts.layout == "split":
        key += "_split"  # cutting X is not standard MHA: the capacity saying is not true here
    if key == "output" and (section == "insights" or not facts.output_projection):
        return None  # the whole block: the summary's closed form says it, in these names
    return context.once(section, key, numbers)


# In characters of the text format's two-dimensional layout; a PDF page holds about 90 at
# full size (pytorch-style's O = C W_O^T, 89, fits).
_WIDEST_SUBSTITUTION = 120


def _by_identity(context: Context, step: Step) -> bool:
    """The step multiplies by an identity weight (temperature's and split-scaled's W_Q, not
    given): its "what if we did not project?" has nothing to take away."""
    factors = [a for a in getattr(step.formula, "args", ()) if isinstance(a, sp.MatrixSymbol)]
    weight = context.d.bindings.get(factors[-1]) if factors else None
    return isinstance(weight, sp.MatrixBase) and weight == sp.eye(weight.rows, weight.cols)


def substituted(context: Context, step: Step) -> str | None:
    """The formula with every operand replaced by its value, or None when unreadable."""
    facts = context.facts
    if step.kind in _NO_SUBSTITUTION or facts.is_a(step.kind, "joined_heads"):
        return None
    if step.formula == step.symbol:
        return None
    if isinstance(step.formula, (sp.MatrixSlice, sp.BlockMatrix, sp.MatrixSymbol)):
        return None  # a gradient cut out, put side by side or passed on: nothing to compute
    if not step.formula.free_symbols:
        return None
    if facts.is_a(step.kind, "final") and not facts.output_projection:
        return None
    factored = _factored(context, step)
    formula = step.formula if factored is None else factored
    replace = {}
    for symbol in formula.free_symbols:
        text = context.substitutes.get(symbol)
        if text is None:
            return None
        replace[symbol] = text
    if _repeats_a_tall_operand(formula, replace):
        return None
    text = latex.formula(formula, replace)
    # Its operands were just shown full size; a product of them too wide for a page would be
    # shrunk past reading (RoPE's scores: two 3x4 matrices of sines and cosines), so leave it.
    return None if plain.drawn_width(text) > _WIDEST_SUBSTITUTION else text


# Lines of the text format's drawing: two rows of fractions (split-scaled's scores) are 7.
_TALLEST_REPEAT = 9


def _repeats_a_tall_operand(formula: sp.Basic, replace: Mapping[sp.Basic, str]) -> bool:
    """``softmax(S')`` with S' written out again: the substitution only repeats the value
    the step before just showed, which for a tall one (pytorch-style's 4 x 4 of fractions)
    fills a third of a page with a copy; a short one stays, as a teacher writes it."""
    if len(formula.args) != 1 or not isinstance(formula.args[0], sp.MatrixSymbol):
        return False
    return plain.drawn_height(replace[formula.args[0]]) > _TALLEST_REPEAT


def _factored(context: Context, step: Step) -> sp.Basic | None:
    """``c Q K^T`` written as ``c S``: the scores were just shown (see ``Facts.factored``);
    None for a step its operation does not write so."""
    factored = context.facts.factored(step.key)
    if factored is None:
        return None
    factor, scores = factored
    given = {k: v for k, v in context.d.bindings.items() if not isinstance(v, sp.MatrixBase)}
    worked = factor.xreplace(given)
    if worked.is_Rational:  # 1/sqrt(4) is 1/2: said as the number it is
        factor = worked
    return sp.MatMul(factor, scores, evaluate=False)


def _first_entry(
    context: Context, step: Step, shown: latex.Shown, book: textbook.Textbook | None
) -> str | None:
    """When entries are written by name, the general entry as a textbook writes it (and the
    first dot product worked), else the first entry in full if it is not too long."""
    entry = step.entries[0, 0]
    if not shown.named:
        return None
    if book is not None:
        return _dot_entry(context, step, book.entry) or textbook.worked(context, step, book)
    name = entries.entry_name(step.symbol, "1", "1")  # C_{11}, as a textbook writes it
    short = _scaled_entry(context, step, name)
    if short is not None or latex.too_long(entry, 4 * context.settings.max_width):
        return short
    lines = _terms_in_lines(context, entry, _LINE)
    if len(lines) == 1:
        return f"{name} = {lines[0]}"
    body = r" \\ &\quad ".join(lines)  # a long sum over lines, full size, not shrunk to fit
    return rf"\begin{{aligned}} {name} &= {body} \end{{aligned}}"


def _dot_entry(context: Context, step: Step, general: str) -> str | None:
    """Seed 002's score of symbols as what it is, a dot product of two rows, after its general
    entry: ``q_1 \\cdot k_1 = (0.2 W_{Q1,11} + ...)(...) + ...``, not its expansion."""
    factors = [a for a in step.formula.args if getattr(a, "is_Matrix", False)]
    if (
        not context.facts.is_a(step.kind, "scores")
        or len(factors) != 2
        or not isinstance(factors[1], sp.Transpose)
    ):
        return None
    by_symbol = {s.symbol: s for s in context.d.steps}
    q_step, k_step = by_symbol.get(factors[0]), by_symbol.get(factors[1].arg)
    if q_step is None or k_step is None or q_step.shape[1] > 4:
        return None
    q, k = q_step.entries, k_step.entries
    terms = [
        rf"\left({context.exact(q[0, c])}\right) \left({context.exact(k[0, c])}\right)"
        for c in range(q_step.shape[1])
    ]
    body = r" \\ &\quad + ".join(terms)
    lhs, _, rhs = general.partition(" = ")
    first = rhs.replace("_{i}", "_{1}").replace("_{j}", "_{1}")
    return rf"\begin{{aligned}} {lhs} &= {rhs} \\ {first} &= {body} \end{{aligned}}"


def _scaled_entry(context: Context, step: Step, name: str) -> str | None:
    """``(S'_1)_{1,1} = (S_1)_{1,1} / \\sqrt{2}``: the score just written, scaled."""
    scaled = _factored(context, step)
    if scaled is None:
        return None
    scores = [a for a in scaled.args if isinstance(a, sp.MatrixSymbol)]
    factor = sp.Mul(*[a for a in scaled.args if not getattr(a, "is_Matrix", False)])
    if len(scores) != 1:
        return None
    entry = rf"\left({scores[0].name}\right)_{{1,1}}"
    divisor = latex.divisor(factor)
    if divisor is not None:
        return rf"{name} = \frac{{{entry}}}{{{latex.exact(divisor)}}}"
    return rf"{name} = {latex.exact(factor)} \, {entry}"


def _chars(expr: sp.Basic) -> int:
    """How many characters ``expr`` takes written out in one line (``a/25``, not a stacked
    fraction): the page's measure of a long sum."""
    return len(plain.inline(latex.exact(expr)))


def _terms_in_lines(context: Context, entry: sp.Basic, line_width: float) -> list[str]:
    r"""A long sum (or a constant times one: ``\frac{\sqrt{2}}{2} \Big( ... \Big)``) with its
    terms, signs kept, gathered into lines at most ``line_width`` characters wide."""
    written = context.names(entry)
    factor, total = _constant_times_sum(written)
    if total is None or _chars(written) <= line_width:
        return [context.exact(entry)]
    lines = _sum_lines(total, line_width)
    below = _chars(1 / factor)
    if factor.atoms(sp.Function) and (
        len(lines) == 1 or _chars(total) <= below <= 2 * line_width
    ):  # (1 + e^x) / (1 + e^x + e^y): one fraction, no wider than its denominator (two lines
        # at most), not "(1" alone on a line
        return [context.exact(entry)]
    if factor != 1:
        lines[0] = rf"{latex.exact(factor)} \Big( {lines[0]}"
        lines[-1] += r" \Big)"
    return lines


def _constant_times_sum(expr: sp.Basic) -> tuple[sp.Expr, sp.Add | None]:
    """``c (t_1 + t_2 + ...)`` as ``(c, t_1 + t_2 + ...)``; ``(1, None)`` for anything else."""
    if isinstance(expr, sp.Add):
        return sp.S.One, expr
    if not isinstance(expr, sp.Mul):
        return sp.S.One, None
    sums = [part for part in expr.args if isinstance(part, sp.Add)]
    rest = [part for part in expr.args if not isinstance(part, sp.Add)]
    if len(sums) != 1 or any(part.free_symbols for part in rest):
        return sp.S.One, None
    return sp.Mul(*rest), sums[0]


def _sum_lines(total: sp.Add, line_width: float) -> list[str]:
    lines: list[list[str]] = [[]]
    used = 0.0
    for term in total.as_ordered_terms():
        negative = term.could_extract_minus_sign()
        text = latex.exact(-term if negative else term)
        if lines[-1] and used + _chars(term) > line_width:
            lines.append([])
            used = 0.0
        first = not lines[-1] and len(lines) == 1
        lines[-1].append(text if first and not negative else f"{'-' if negative else '+'} {text}")
        used += _chars(term) + 3
    return [" ".join(parts) for parts in lines]


def _numbers(context: Context, step: Step) -> dict[str, Any]:
    """The numbers a step's locale strings may name: its head, its columns of X, and those
    its operation adds (``caption_numbers``, see :mod:`mha_symbolic.model.program_facts`)."""
    slice_ = step.formula
    first = int(slice_.colslice[0]) if isinstance(slice_, sp.MatrixSlice) else 0
    return {
        "head": step.head,
        "width": step.shape[1],
        "first": first,
        "last": first + step.shape[1] - 1,
        "one_first": first + 1,  # as a reader counts the columns; the slice counts from 0
        "one_last": first + step.shape[1],
        **{
            name: latex.exact(value) if isinstance(value, sp.Basic) else value
            for name, value in context.facts.caption(step.key)[0].items()
        },
    }


def caption(context: Context, step: Step) -> str:
    """What the step does, in words chosen by scaling, W_O, loss and layout."""
    facts, words = context.facts, context.words
    key = title_key(step) + facts.caption(step.key)[1]
    numbers = _numbers(context, step)
    if step.kind == "input" and step.head is not None:
        key += "_given"  # the document's Q, K, V, scores or weights, taken as printed
    if facts.is_a(step.kind, "final") and not facts.output_projection:
        key = "output_unknown" if context.output_unknown else "output_none"
    if step.kind in ("loss", "grad"):
        key = _grad_caption(context, key)
    if facts.fused:
        fused = words.get("captions_fused", key, **numbers)
        if fused is not None:
            return fused
    return words("captions", key, **numbers)


def _grad_caption(context: Context, key: str) -> str:
    """Which caption a backward step takes: by loss, mask, scaling, RoPE and W_O."""
    facts = context.facts
    if key in ("loss", "grad.output"):
        return f"{key}_{facts.loss}"
    if key == "grad.concat" and not facts.output_projection:
        return "grad.concat_none"
    if key == "grad.head.scaled" and facts.mask is not None:
        return "grad.head.scaled_mask"
    # the weights go on through a mask after the softmax (kept), then through dropout
    if key == "grad.head.weights" and facts.renormalised:
        return "grad.head.weights_kept"
    if key in ("grad.head.weights", "grad.head.renormalised") and facts.dropout is not None:
        return f"{key}_dropped"
    if key == "grad.head.scores" and facts.scale().is_identity:
        return "grad.head.scores_none"
    if key in ("grad.head.q", "grad.head.k") and facts.rope:
        return f"{key}_rope"  # back through the rotation, not the scores
    return key


def _notes(context: Context, step: Step, shown: latex.Shown) -> tuple[str, ...]:
    rows, cols = step.shape
    if shown.named:
        return (context.words("text", "named", rows=rows, cols=cols),)
    if shown.elided:
        return (context.words("text", "elided", rows=rows, cols=cols),)
    return ()


def _by_formula(context: Context, step: Step, shown: latex.Shown) -> tuple[str, str] | None:
    """A matrix too long to print entry by entry, put side by side, written as a teacher
    writes it: by its blocks; and the note saying so (a general entry: see textbook.py)."""
    if not shown.named:
        return None
    rows, cols = step.shape
    parts = entries.blocks(step)
    if parts is None:
        return None
    said = ", ".join(
        context.words("names", "block", columns=entries.span(first, last), name=name)
        for name, first, last in parts
    )
    note = context.too_long("blocks", rows=rows, cols=cols, blocks=said)
    return entries.side_by_side(parts), note


def token_rows(context: Context, step: Step) -> tuple[TokenRow, ...]:
    """An input's rows, each with its token's label."""
    spec = context.spec
    labels = spec.key_tokens if step.key in ("key", "value") else spec.tokens
    indices = latex.layout(step.entries, context.settings.max_size).rows
    return tuple(
        TokenRow(i + 1, labels[i], context.row(step.entries, i)) for i in indices if i is not None
    )
