"""A step's general entry, as a teacher writes a matrix too big to print entry by entry:
``(S_1)_{ij} = \\sum_k (Q_1)_{ik} (K_1)_{jk}`` instead of a grid of names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from mha_symbolic.exact.derivation import Step
from mha_symbolic.solution import latex


def general(step: Step) -> str | None:
    """The right-hand side of ``(step)_{ij} = ...`` in LaTeX, or None for a formula that has no
    short entry form (a concatenation, a sum of products, a gradient through the softmax)."""
    formula = step.formula
    if hasattr(formula, "entry_latex"):  # a node that writes its own entry (the softmax)
        return formula.entry_latex(_entry)
    if isinstance(formula, sp.MatMul):
        return _product(formula)
    return None


def blocks(step: Step) -> list[tuple[str, int, int]] | None:
    """Named matrices put side by side (the heads' concatenation), each with its first and last
    column; None for anything else."""
    formula = step.formula
    if not isinstance(formula, sp.BlockMatrix) or formula.blockshape[0] != 1:
        return None
    out, first = [], 1
    for block in formula.blocks:
        if not isinstance(block, sp.MatrixSymbol):
            return None
        out.append((latex.formula(block), first, first + block.shape[1] - 1))
        first += block.shape[1]
    return out


def side_by_side(parts: list[tuple[str, int, int]]) -> str:
    """``[ head_1  head_2 ]``: the matrix by its blocks."""
    return rf"\begin{{bmatrix}} {' & '.join(name for name, _, _ in parts)} \end{{bmatrix}}"


def matrix(rhs: str) -> str:
    """The whole matrix by its entries: ``[ ... ]_{i,j}``."""
    return rf"\left[\, {rhs} \,\right]_{{i,j}}"


def _product(formula: sp.MatMul) -> str | None:
    """``c A B`` (``B`` maybe transposed), entry by entry: ``c \\sum_k A_{ik} B_{kj}``."""
    factors = [a for a in formula.args if getattr(a, "is_Matrix", False)]
    scalars = [a for a in formula.args if not getattr(a, "is_Matrix", False)]
    if len(factors) != 2 or not all(_leaf(f) for f in factors):
        return None
    left, right = factors
    inner = left.shape[1]
    body = rf"\sum_{{k=1}}^{{{inner}}} {_entry(left, 'i', 'k')} {_entry(right, 'k', 'j')}"
    if not scalars:
        return body
    return rf"{latex.formula(sp.Mul(*scalars))} {body}"


def _leaf(factor: sp.Basic) -> bool:
    """A named matrix or its transpose: something whose entries can be written ``(M)_{ij}``."""
    inner = factor.arg if isinstance(factor, sp.Transpose) else factor
    return isinstance(inner, sp.MatrixSymbol)


def entry_name(factor: sp.Basic, row: str, col: str) -> str:
    """``C_{11}``, ``(\\mathrm{MultiHead})_{11}``, ``(Q_1)_{11}``: one entry of a named matrix."""
    return _entry(factor, row, col)


def _entry(factor: sp.Basic, row: str, col: str) -> str:
    if isinstance(factor, sp.Transpose):
        return _entry(factor.arg, col, row)
    name = latex.formula(factor)
    if len(name) == 1 and name.isalpha():  # C_{ik}; (Q_1)_{ik} keeps its brackets
        return rf"{name}_{{{row}{col}}}"
    return rf"\left({name}\right)_{{{row}{col}}}"


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
    if len(factors) != 2 or not all(_leaf(f) for f in factors):
        return None
    left, right = factors
    if isinstance(right, sp.Transpose):
        return _dot(step, left, right.arg, scalars, named)
    if left in named and not isinstance(left, sp.Transpose) and scalars == 1:
        return _weighted(step, named[left], right)
    return None


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
    lhs = f"{name}_{{ij}}" if name else _entry(step.symbol, "i", "j")
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
