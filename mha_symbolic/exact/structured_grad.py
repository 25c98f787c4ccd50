"""Exact gradients on the structured forward pass: the reverse-mode formulas kept as formulas.

Each ``grad.*`` step is its formula from :mod:`mha_symbolic.model.rules` over the forward
steps' structured values: what is rational (the output side of a ``sum`` loss, ``A^T``
times a rational gradient's rational factors, ...) is computed exactly in FLINT, and the
rest stays the exact formula, the softmax Jacobian applied as ``A o (G - (A o G) 1 1^T)``
rather than expanded into exponentials. :func:`balls` evaluates any of them in arb.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import flint
import sympy as sp

from mha_symbolic import operations
from mha_symbolic.exact import structured as st
from mha_symbolic.exact.arb import arb_of
from mha_symbolic.exact.backward import LOSS_SYMBOL, Plan
from mha_symbolic.model.nodes import (
    EntrySum,
    HalfSquaredNorm,
    OnesLike,
    PadColumns,
)
from mha_symbolic.model.program import Program


@dataclass
class Table:
    """The formulas of a backward pass and the structured values they read."""

    formulas: dict[sp.Basic, sp.Basic]  # gradient (or loss) symbol -> its formula
    values: dict[
        sp.Basic, Any
    ]  # symbol -> structured value (leaves, forward steps, rational grads)
    scalars: dict[sp.Basic, sp.Expr]  # d_k -> its value
    cache: dict[tuple[int, sp.Basic], flint.arb_mat] = field(default_factory=dict)


@dataclass(frozen=True)
class Gradient:
    """A gradient step not held as a rational matrix: ``symbol``'s formula in ``table``."""

    symbol: sp.Basic
    table: Table = field(compare=False, repr=False)


def structured_gradients(
    program: Program,
    forward: Mapping[str, st.Value],
    planned: Plan,
    target: sp.MatrixBase | None,
) -> dict[str, Any] | None:
    """``loss`` and every ``grad.*`` step's structured value by key (None: not held)."""
    values: dict[sp.Basic, Any] = {}
    try:
        for leaf in program.leaves:
            values[leaf.symbol] = st._leaf(leaf.value)
        if planned.loss.target is not None and target is not None:
            values[planned.loss.target] = st.rational(target)
    except st.Unstructured:
        return None
    values.update({node.symbol: forward[node.key] for node in program.nodes})
    scalars = {s: v for s, v in values.items() if isinstance(v, sp.Expr)}
    formulas = dict(planned.assignments)
    formulas[LOSS_SYMBOL] = planned.loss.expr
    table = Table(formulas, values, scalars)
    for bar, formula in planned.assignments:  # rational where exactly computable
        try:
            value = st.rational_of(st.value_of(formula, values))
        except (st.Unstructured, KeyError):
            continue
        if isinstance(value, flint.fmpq_mat):
            values[bar] = value
    out: dict[str, Any] = {"loss": Gradient(LOSS_SYMBOL, table)}
    for key, _, bar, _ in planned.steps:
        out[key] = values.get(bar) if isinstance(values.get(bar), flint.fmpq_mat) else None
        out[key] = out[key] if out[key] is not None else Gradient(bar, table)
    return out


# ---------------------------------------------------------------------- arb evaluation


def balls(gradient: Gradient, to_balls: Callable[[Any], flint.arb_mat]) -> flint.arb_mat:
    """The gradient's entries as an arb matrix at the context's precision (``to_balls``
    turns a forward step's structured value into one)."""
    return _Balls(gradient.table, to_balls).of(gradient.symbol)


class _Balls:
    def __init__(self, table: Table, to_balls: Callable[[Any], flint.arb_mat]) -> None:
        self.table, self.to_balls = table, to_balls
        self.bits = flint.ctx.prec

    def of(self, expr: sp.Basic) -> flint.arb_mat:
        if isinstance(expr, sp.MatrixSymbol):
            key = (self.bits, expr)
            if key not in self.table.cache:
                self.table.cache[key] = self.symbol(expr)
            return self.table.cache[key]
        rule = _RULES.get(type(expr))
        if rule is None:
            raise ValueError(f"enclose: cannot enclose a {type(expr).__name__} in a gradient")
        return rule(self, expr)

    def symbol(self, symbol: sp.MatrixSymbol) -> flint.arb_mat:
        if symbol in self.table.formulas and symbol not in self.table.values:
            return self.of(self.table.formulas[symbol])
        return self.to_balls(self.table.values[symbol])

    def scalar(self, value: sp.Expr) -> flint.arb:

        number = value.xreplace(self.table.scalars)
        return arb_of(number if number.free_symbols else number.doit())

    def matmul(self, expr: sp.MatMul) -> flint.arb_mat:
        coefficient, matrices = expr.as_coeff_matrices()
        out = self.of(matrices[0])
        for m in matrices[1:]:
            out = out * self.of(m)
        return out if coefficient == 1 else out * self.scalar(coefficient)

    def add(self, expr: sp.MatAdd) -> flint.arb_mat:
        parts = [self.of(arg) for arg in expr.args]
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        return total

    def slice(self, expr: sp.MatrixSlice) -> flint.arb_mat:
        inner = self.of(expr.parent)
        (r0, r1, _), (c0, c1, _) = expr.rowslice, expr.colslice
        rows, cols = range(int(r0), int(r1)), range(int(c0), int(c1))
        return flint.arb_mat([[inner[i, j] for j in cols] for i in rows])

    def hstack(self, expr: sp.BlockMatrix) -> flint.arb_mat:
        blocks = [self.of(b) for b in expr.blocks]
        rows = blocks[0].nrows()
        return flint.arb_mat(
            [[b[i, j] for b in blocks for j in range(b.ncols())] for i in range(rows)]
        )

    def pad(self, expr: PadColumns) -> flint.arb_mat:
        inner, before, after = self.of(expr.args[0]), int(expr.args[1]), int(expr.args[2])
        zero = flint.arb(0)
        return flint.arb_mat(
            [
                [zero] * before + [inner[i, j] for j in range(inner.ncols())] + [zero] * after
                for i in range(inner.nrows())
            ]
        )

    def ones(self, expr: sp.MatrixExpr) -> flint.arb_mat:
        rows, cols = (int(n) for n in expr.shape)
        return flint.arb_mat([[1] * cols for _ in range(rows)])

    def entry_sum(self, expr: EntrySum) -> flint.arb_mat:
        inner = self.of(expr.args[0])
        return flint.arb_mat([[sum(inner.entries(), flint.arb(0))]])

    def half_squared_norm(self, expr: HalfSquaredNorm) -> flint.arb_mat:
        inner = self.of(expr.args[0])
        return flint.arb_mat([[sum((e * e for e in inner.entries()), flint.arb(0)) / 2]])


_RULES: dict[type, Callable[[_Balls, Any], flint.arb_mat]] = {
    sp.MatMul: _Balls.matmul,
    sp.MatAdd: _Balls.add,
    sp.Transpose: lambda b, e: b.of(e.arg).transpose(),
    sp.MatrixSlice: _Balls.slice,
    sp.BlockMatrix: _Balls.hstack,
    PadColumns: _Balls.pad,
    sp.OneMatrix: _Balls.ones,
    OnesLike: _Balls.ones,
    EntrySum: _Balls.entry_sum,
    HalfSquaredNorm: _Balls.half_squared_norm,
    **operations.rules("balls"),
}
