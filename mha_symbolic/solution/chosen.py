"""Numbers for a derivation with symbols: values the solution chooses, said once, shown at
every step beside the general (symbolic) working, so that no step is left without numbers.

A document that gives no weights (seed 002) or a parameter (a temperature tau) leaves every
later step symbolic; a student still computes each one with numbers. The solution picks the
simplest values that keep every step meaningful (each symbolic weight matrix the identity, a
parameter 1), says so in the setup, and evaluates each step's exact value at them. Query and
key weights are 3 times the identity: with the identity the scores are the inputs' own dot
products, small for embeddings between 0 and 1 (seed 002's lie between 0.1 and 1.1), and every
attention weight comes out close to uniform, a heatmap with nothing to see.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import flint
import sympy as sp

from mha_symbolic.exact import balls
from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.exact.rounding import decimal_of
from mha_symbolic.model.program_facts import is_a
from mha_symbolic.solution import latex
from mha_symbolic.solution.subterms import Subterms

# Query and key weights chosen as this times the identity: each score is SHARPER**2 times the
# inputs' dot product, enough for the weights of seed 002's eight tokens to range from 0.01 to
# 0.56 instead of 0.10 to 0.15.
SHARPER = 3


def chosen_values(d: Derivation, free: set[sp.Basic] | None = None) -> dict[sp.Symbol, sp.Expr]:
    """Symbol -> the value chosen for it: a symbolic matrix's entry (i, j) is 0 off the
    diagonal, and on it 3 for query and key weights (:func:`sharpened`), 1 for the others (the
    identity); a declared parameter is 1. Empty when the derivation's values have no symbols
    (nothing to choose). ``free``: the values' symbols (``d.free_symbols``), when known."""
    free = d.free_symbols if free is None else free
    if not free:
        return {}
    values: dict[sp.Symbol, sp.Expr] = {}
    for name, value in d.bindings.items():
        if not isinstance(value, sp.MatrixBase):
            continue
        diagonal = sp.Integer(SHARPER if _query_or_key(name) else 1)
        for i in range(value.rows):
            for j in range(value.cols):
                entry = value[i, j]
                if isinstance(entry, sp.Symbol) and entry in free:
                    values[entry] = diagonal if i == j else sp.Integer(0)
    for symbol in d.facts.parameters.values():
        if symbol in free:
            values[symbol] = sp.Integer(1)
    return values


def _chosen_matrices(
    d: Derivation, values: Mapping[sp.Symbol, sp.Expr]
) -> dict[sp.Basic, sp.Basic]:
    """Each given matrix whose entries were all chosen -> its value at them (the identity as
    ``Identity``, which a product drops)."""
    chosen: dict[sp.Basic, sp.Basic] = {}
    for symbol, value in d.bindings.items():
        if not isinstance(value, sp.MatrixBase) or not isinstance(symbol, sp.MatrixSymbol):
            continue
        entries = value.free_symbols
        if entries and entries <= values.keys():
            matrix = sp.ImmutableMatrix(value.subs(values))
            square = matrix.rows == matrix.cols
            chosen[symbol] = sp.Identity(matrix.rows) if square and matrix.is_Identity else matrix
    return chosen


def is_earlier_step(
    d: Derivation, values: Mapping[sp.Symbol, sp.Expr], step: Step, name: str
) -> bool:
    """Whether ``step``'s formula, with the chosen matrices put in, is the earlier step named
    ``name`` exactly (``MultiHead W_O`` with W_O chosen the identity is MultiHead: O = MultiHead,
    not only to the printed decimals)."""
    if not isinstance(step.formula, sp.MatrixExpr):
        return False
    at = step.formula.subs(_chosen_matrices(d, values)).doit()
    return isinstance(at, sp.MatrixSymbol) and at.name == name


def identity_factors(d: Derivation, values: Mapping[sp.Symbol, sp.Expr], step: Step) -> list[str]:
    """The matrices of ``step``'s formula chosen as the identity, by LaTeX name (``W_{O}``)."""
    formula = step.formula
    if not isinstance(formula, sp.MatrixExpr):
        return []
    return [
        sp.latex(symbol)
        for symbol, value in _chosen_matrices(d, values).items()
        if isinstance(value, sp.Identity) and formula.has(symbol)
    ]


def _query_or_key(name: sp.Basic) -> bool:
    return str(name).startswith(("W_{Q}", "W_{K}"))


def chosen_matrices(d: Derivation, values: Mapping[sp.Symbol, sp.Expr]) -> list[str]:
    """The given matrices whose entries were chosen, by name (``W_{Q}^{1}``)."""
    return [
        str(symbol)
        for symbol, value in d.bindings.items()
        if isinstance(value, sp.MatrixBase) and any(e in values for e in value)
    ]


def sharpened(names: list[str]) -> tuple[list[str], int]:
    """Of the chosen matrices, the query and key weights (chosen 3 times the identity), and how
    many times larger that makes a score (9 when a head's W_Q and W_K both are)."""
    sharp = [name for name in names if _query_or_key(name)]
    both = any(n.startswith("W_{Q}") for n in sharp) and any(n.startswith("W_{K}") for n in sharp)
    return sharp, SHARPER ** (2 if both else 1)


def chosen_parameters(d: Derivation, values: Mapping[sp.Symbol, sp.Expr]) -> str | None:
    """``\\tau = 1``: the parameters' chosen values, or None when none was chosen."""
    said = [
        f"{sp.latex(symbol)} = {latex.exact(values[symbol])}"
        for symbol in d.facts.parameters.values()
        if symbol in values
    ]
    return r",\; ".join(said) or None


# A temperature's table at the softmax: cold, the chosen 1, and hot.
_TEMPERATURES = (sp.Rational(1, 10), sp.Integer(1), sp.Integer(10))


def at_chosen(
    step: Step,
    values: Mapping[sp.Symbol, sp.Expr],
    settings: latex.Settings,
    subterms: Subterms | None = None,
) -> str | None:
    """``Q_{1} = [...]`` or ``A_{1} \\approx [...]``: the step's value at the chosen values;
    None when it has no symbols, or one that was not chosen, or is undefined there.
    ``subterms``: what the solution's earlier steps found of their shared subterms."""
    if not values:
        return None
    subterms = Subterms() if subterms is None else subterms
    value = step.entries
    free = subterms.free_symbols(value)
    if not free or not free <= values.keys():
        return None
    if is_a(step.kind, "weights") and len(free) == 1 and next(iter(free)).is_positive:
        (symbol,) = free  # one positive parameter: its table, not one value of it
        lines = [_at(step, {symbol: t}, settings, subterms) for t in _TEMPERATURES]
        if None in lines:
            return None
        said = [
            rf"{sp.latex(symbol)} = {latex.exact(t)}: &\quad {line}"
            for t, line in zip(_TEMPERATURES, lines, strict=True)
        ]
        return r"\begin{aligned} " + r" \\ ".join(said) + r" \end{aligned}"
    return _at(step, values, settings, subterms)


# The lines of recent steps, by what makes them (the step's name and value, the numbers and the
# settings): the page's edit leaves the other heads' steps as they were.
_LINES: OrderedDict[tuple[Any, ...], str | None] = OrderedDict()
_RECENT = 256


def _at(
    step: Step, values: Mapping[sp.Symbol, sp.Expr], settings: latex.Settings, subterms: Subterms
) -> str | None:
    if not isinstance(step.entries, sp.ImmutableMatrix):  # a lazy step's: made each time
        return _worked(step, values, settings, subterms)
    key = (step.symbol.name, step.entries, frozenset(values.items()), settings)
    if key in _LINES:
        _LINES.move_to_end(key)
        return _LINES[key]
    line = _LINES[key] = _worked(step, values, settings, subterms)
    if len(_LINES) > _RECENT:
        _LINES.popitem(last=False)
    return line


def _worked(
    step: Step, values: Mapping[sp.Symbol, sp.Expr], settings: latex.Settings, subterms: Subterms
) -> str | None:
    approx = _approx_from_balls(step, values, settings, subterms)
    if approx is not None:
        return rf"{step.symbol.name} \approx {approx}"
    numbers = subterms.substituted(step.entries, values)
    if numbers.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    shown = latex.show(numbers, step.symbol.name, settings)
    if shown.approx is not None:
        return rf"{step.symbol.name} \approx {shown.approx}"
    return None if shown.named else rf"{step.symbol.name} = {shown.exact}"


BITS = 128  # the balls' precision: a few decimals are settled at once, near a boundary or not
_LARGEST = flint.arb(10) ** 100  # (far below the digits where a value has no decimals)
_SHORT = 10**6  # a short decimal (one that reads as exact) has at most 6 places


def _approx_from_balls(
    step: Step, values: Mapping[sp.Symbol, sp.Expr], settings: latex.Settings, subterms: Subterms
) -> str | None:
    """The step's decimals at ``values``, from arb balls of its entries (no exact value is
    made at them: SymPy's evaluation of each new subterm took most of a symbolic step's
    time), when the balls settle what the exact values would show: every entry finite (no
    zoo or oo among them), every shown one rounding alike across its ball and holding no
    integer (an integer prints without a point), and one shown surely no short decimal (so
    not all are exact as printed, and the exact values show their decimals too). None: the
    exact values decide."""
    if not all(isinstance(v, sp.Rational) for v in values.values()):
        return None
    entries = step.entries
    shown = latex.layout(entries, settings.max_size)
    cells = [(i, j) for i in shown.rows for j in shown.cols if i is not None and j is not None]
    with balls.precision(BITS):
        seen = subterms.balls(values, BITS)
        found = {}
        for i in range(entries.rows):
            for j in range(entries.cols):
                ball = balls.to_arb(entries[i, j], seen)
                if ball is None or not ball.is_finite() or not abs(ball) < _LARGEST:
                    return None
                found[i, j] = ball
        texts = {cell: decimal_of(found[cell], settings.decimals) for cell in cells}
        if None in texts.values():
            return None
        if all(decimal_of(found[cell] * _SHORT, 0) is None for cell in cells):
            return None  # each may be a short decimal: the exact values say if all are
    return latex.bmatrix(entries, lambda i, j: str(texts[i, j]), shown)
