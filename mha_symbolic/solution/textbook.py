"""A step's general entry as a textbook writes it, in lower-case letters for the rows and
entries it reads: ``s_{ij} = q_i \\cdot k_j / \\sqrt{d_k}``, ``a_{ij} = e^{s_{ij}} / \\sum_k
e^{s_{ik}}``, ``o_i = \\sum_k a_{ik} v_k`` (seed 002's steps, written once for every entry
instead of a grid of names or a sum of bracketed entries)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from mha_symbolic.exact.derivation import Step
from mha_symbolic.solution import latex
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.entries import entry_name, general, leaf, span

# A matrix's name whose rows a textbook writes in lower case: Q_1 -> q, \hat{Q}_{1} -> \hat{q}.
_ROWS = re.compile(r"(?P<pre>\\hat\{)?(?P<letter>[A-Z])(?(pre)\})(?:_\{\d+\})?")


@dataclass(frozen=True)
class Textbook:
    """A step's general entry as a textbook writes it (``s_{ij} = q_i \\cdot k_j / \\sqrt{d_k}``,
    ``a_{ij} = e^{s_{ij}} / \\sum_k e^{s_{ik}}``, ``o_i = \\sum_k a_{ik} v_k``), and what its
    letters stand for: ``(letter, index, name)``, ``index`` None for an entry (i, j)."""

    entry: str
    rows: bool  # a general row (o_i), not a general entry
    letters: tuple[tuple[str, str | None, str], ...]


def row_letter(name: str) -> str | None:
    """``q`` for ``Q_{1}``, ``\\hat{q}`` for ``\\hat{Q}_{1}``; None for a longer name."""
    found = _ROWS.fullmatch(name)
    if found is None:
        return None
    letter = found["letter"].lower()
    return rf"\hat{{{letter}}}" if found["pre"] else letter


def letters(steps: Sequence[Step]) -> dict[sp.Basic, str]:
    """The softmax's logits ``s`` and weights ``a``, by their matrices: the letters of its
    entries that the steps around it are written with."""
    out: dict[sp.Basic, str] = {}
    for step in steps:
        formula = step.formula
        if hasattr(formula, "entry_latex") and isinstance(formula.arg, sp.MatrixSymbol):
            out[formula.arg], out[step.symbol] = "s", "a"
    return out


def textbook(step: Step, named: Mapping[sp.Basic, str]) -> Textbook | None:
    """The general entry of a scores, softmax or weighted-sum step in a textbook's letters;
    None for any other step (written by :func:`general`)."""
    formula = step.formula
    if hasattr(formula, "entry_latex") and formula.arg in named and step.symbol in named:
        s, a, n = named[formula.arg], named[step.symbol], formula.shape[1]
        entry = rf"{a}_{{ij}} = \frac{{e^{{{s}_{{ij}}}}}}{{\sum_{{k=1}}^{{{n}}} e^{{{s}_{{ik}}}}}}"
        return Textbook(entry, False, ((s, None, latex.formula(formula.arg)),))
    if not isinstance(formula, sp.MatMul):
        return None
    factors = [a for a in formula.args if getattr(a, "is_Matrix", False)]
    scalars = sp.Mul(*[a for a in formula.args if not getattr(a, "is_Matrix", False)])
    if len(factors) != 2 or not all(leaf(f) for f in factors):
        return None
    left, right = factors
    found = None
    if isinstance(right, sp.Transpose):
        found = _dot(step, left, right.arg, scalars, named)
    elif left in named and not isinstance(left, sp.Transpose) and scalars == 1:
        found = _weighted(step, named[left], right)
    rhs = general(step)  # any other product: O_{ij} = sum_k C_{ik} (W_O)_{kj}
    if found is None and rhs is not None:
        return Textbook(f"{entry_name(step.symbol, 'i', 'j')} = {rhs}", False, ())
    return found


def _dot(
    step: Step, left: sp.Basic, right: sp.Basic, factor: sp.Expr, named: Mapping[sp.Basic, str]
) -> Textbook | None:
    """``s_{ij} = q_i \\cdot k_j / \\sqrt{d_k}``: a score as the dot product of two rows."""
    q, k = row_letter(latex.formula(left)), row_letter(latex.formula(right))
    if q is None or k is None:
        return None
    dot = rf"{q}_{{i}} \cdot {k}_{{j}}"
    by = latex.divisor(factor)
    if factor != 1:
        dot = rf"\frac{{{dot}}}{{{latex.exact(by)}}}" if by else rf"{latex.exact(factor)} \, {dot}"
    name = named.get(step.symbol)
    lhs = f"{name}_{{ij}}" if name else entry_name(step.symbol, "i", "j")
    said = ((q, "i", latex.formula(left)), (k, "j", latex.formula(right)))
    return Textbook(f"{lhs} = {dot}", False, said)


def _weighted(step: Step, a: str, values: sp.Basic) -> Textbook | None:
    """``o_i = \\sum_k a_{ik} v_k``: each output row the weighted sum of the value rows."""
    v = row_letter(latex.formula(values))
    if v is None or v == "o":
        return None
    n = values.shape[0]
    entry = rf"o_{{i}} = \sum_{{k=1}}^{{{n}}} {a}_{{ik}} \, {v}_{{k}}"
    said = (("o", "i", latex.formula(step.symbol)), (v, "k", latex.formula(values)))
    return Textbook(entry, True, said)


# A symbolic matrix taller than this, whose numbers the solution chose and prints after it, is
# written by its general entry (seed 002's Q_1 of 8 rows of sums: 8 rows again of numbers).
_TALLEST_SYMBOLIC = 4


def compact(context: Context, step: Step, shown: latex.Shown) -> Textbook | None:
    """The general entry of a tall symbolic product whose numbers follow at the chosen values
    (eight-tokens-split's Q_1 = X_1 W_Q^1: its 8 rows of symbolic sums beside the 8 x 2 product
    took half a page per projection, six times); None for any other step."""
    if shown.named or step.shape[0] <= _TALLEST_SYMBOLIC or not context.chosen:
        return None
    free = context.subterms.free_symbols(step.entries)
    if not free or not free <= context.chosen.keys():
        return None
    return textbook(step, {})


def first_entry(context: Context, step: Step, book: Textbook) -> str:
    """``(Q_1)_{ij} = \\sum_k (X_1)_{ik} (W_Q^1)_{kj}`` and, on the same line, its first entry
    written out (``(Q_1)_{11} = 0.2 W_{Q1,11} + 0.5 W_{Q1,21}``)."""
    first = f"{entry_name(step.symbol, '1', '1')} = {context.exact(step.entries[0, 0])}"
    return rf"{book.entry}, \qquad {first}"


def note(context: Context, step: Step, book: Textbook, chosen: bool = False) -> str | None:
    """Why the matrix is written by its general entry (or row), and what its letters are;
    ``chosen``: a tall symbolic matrix whose numbers follow (:func:`compact`)."""
    rows, cols = step.shape
    ranges = {"i_range": span(1, rows), "j_range": span(1, cols)}
    if chosen:  # said once: the general entry of the next such step speaks for itself
        if ("names", "general_chosen") in context.said:
            return None
        context.said.add(("names", "general_chosen"))
        return context.words("names", "general_chosen", rows=rows, cols=cols, **ranges)
    note = context.too_long(
        "general_row" if book.rows else "general", rows=rows, cols=cols, **ranges
    )
    said = []
    for letter, index, name in book.letters:
        if index is None:
            said.append(
                context.words("names", "entry_is", letter=f"${letter}_{{ij}}$", name=f"${name}$")
            )
        else:
            said.append(
                context.words(
                    "names",
                    "row_is",
                    letter=f"${letter}_{{{index}}}$",
                    index=index,
                    name=f"${name}$",
                )
            )
    return f"{note} {context.words('names', 'letters', said=', '.join(said))}" if said else note


def worked(context: Context, step: Step, book: Textbook) -> str:
    """The general entry and, for a scaled score of symbols, its first entry at the chosen
    numbers: ``s_{11} = q_1 \\cdot k_1 / \\sqrt{2} = 2.61 / \\sqrt{2} \\approx 1.85``."""
    formula, chosen = step.formula, context.chosen
    if not chosen or not isinstance(formula, sp.MatMul) or not book.entry.startswith("s_{ij}"):
        return book.entry
    factors = [a for a in formula.args if getattr(a, "is_Matrix", False)]
    scalar = sp.Mul(*[a for a in formula.args if not getattr(a, "is_Matrix", False)])
    by_symbol = {s.symbol: s for s in context.d.steps}
    q, k = by_symbol.get(factors[0]), by_symbol.get(getattr(factors[-1], "arg", None))
    given = {n: v for n, v in context.d.bindings.items() if not isinstance(v, sp.MatrixBase)}
    divisor = latex.divisor(scalar)  # sqrt(d_k), then sqrt(2): d_k as given
    if q is None or k is None or divisor is None:
        return book.entry
    divisor = divisor.xreplace(given)
    at = context.subterms.substituted
    dot = sum(at(q.entries[0, c], chosen) * at(k.entries[0, c], chosen) for c in range(q.shape[1]))
    value = latex.decimal(at(step.entries[0, 0], chosen), context.settings_for(step.key).decimals)
    if not isinstance(dot, sp.Rational) or value is None:
        return book.entry
    first = book.entry.split(" = ", 1)[1].replace("_{i}", "_{1}").replace("_{j}", "_{1}")
    first = first.replace(r"\sqrt{d_{k}}", latex.exact(divisor))
    numbers = rf"\frac{{{latex.exact(dot)}}}{{{latex.exact(divisor)}}} \approx {value}"
    general = book.entry.replace(" = ", " &= ", 1)
    return rf"\begin{{aligned}} {general} \\ s_{{11}} &= {first} = {numbers} \end{{aligned}}"
