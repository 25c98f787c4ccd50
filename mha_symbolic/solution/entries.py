"""A step's general entry, as a teacher writes a matrix too big to print entry by entry:
``(S_1)_{ij} = \\sum_k (Q_1)_{ik} (K_1)_{jk}`` instead of a grid of names."""

from __future__ import annotations

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


def _product(formula: sp.MatMul) -> str | None:
    """``c A B`` (``B`` maybe transposed), entry by entry: ``c \\sum_k A_{ik} B_{kj}``."""
    factors = [a for a in formula.args if getattr(a, "is_Matrix", False)]
    scalars = [a for a in formula.args if not getattr(a, "is_Matrix", False)]
    if len(factors) != 2 or not all(leaf(f) for f in factors):
        return None
    left, right = factors
    inner = left.shape[1]
    body = rf"\sum_{{k=1}}^{{{inner}}} {_entry(left, 'i', 'k')} {_entry(right, 'k', 'j')}"
    if not scalars:
        return body
    return rf"{latex.formula(sp.Mul(*scalars))} {body}"


def leaf(factor: sp.Basic) -> bool:
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


def span(first: int, last: int) -> str:
    """``1, 2`` or ``1, \\dots, 8``: the values an index takes."""
    if last - first < 3:
        return ", ".join(str(n) for n in range(first, last + 1))
    return rf"{first}, \dots, {last}"
