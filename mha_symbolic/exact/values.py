"""Any structural matrix expression of the model evaluated exactly on explicit matrices."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import operations
from mha_symbolic.exact import ops
from mha_symbolic.model.nodes import (
    EntrySum,
    HalfSquaredNorm,
    OnesLike,
    PadColumns,
)

_ONE = sp.Integer(1)


def evaluate(expr: sp.Basic, values: Mapping[sp.Basic, Any]) -> Any:
    """``expr`` with every symbol replaced by its value (``values``: symbol -> value), exactly.

    Matrix symbols map to matrices, scalar symbols (``d_k``, parameters) to numbers.
    """
    if isinstance(expr, sp.MatrixSymbol):
        return Matrix(values[expr])
    rule = _RULES.get(type(expr))
    if rule is not None:
        return rule(expr, values)
    return expr.xreplace({k: v for k, v in values.items() if not isinstance(v, sp.MatrixBase)})


def _product(expr: sp.MatMul, values: Mapping[sp.Basic, Any]) -> Matrix:
    product: Any = _ONE
    for arg in expr.args:
        product = ops.times(product, evaluate(arg, values))
    return Matrix(product)


def _sum(expr: sp.MatAdd, values: Mapping[sp.Basic, Any]) -> Matrix:
    """The entrywise sum; where a part is -oo (a mask's blocked entry) the entry is -oo.

    Every other value of the model is finite, but SymPy cannot know that a symbolic score
    is: ``s - oo`` would stay unevaluated and reach the softmax as a logit, not a block."""
    parts = [evaluate(arg, values) for arg in expr.args]
    total = Matrix(sum(parts[1:], parts[0]))
    blocked = {(i, j) for part in parts for (i, j), entry in _entries(part) if entry == -sp.oo}
    if not blocked:
        return total
    return Matrix(total.rows, total.cols, lambda i, j: -sp.oo if (i, j) in blocked else total[i, j])


def _entries(part: Any) -> Any:
    """(position, entry) of a matrix; nothing for a scalar part."""
    if not isinstance(part, sp.MatrixBase):
        return ()
    return (((i, j), part[i, j]) for i in range(part.rows) for j in range(part.cols))


def _slice(expr: sp.MatrixSlice, values: Mapping[sp.Basic, Any]) -> Matrix:
    rows, cols = expr.rowslice, expr.colslice
    return Matrix(evaluate(expr.parent, values)[rows[0] : rows[1], cols[0] : cols[1]])


def _half_squared_norm(expr: HalfSquaredNorm, values: Mapping[sp.Basic, Any]) -> Matrix:
    m = evaluate(expr.args[0], values)
    return Matrix([[sum(e**2 for e in m) / 2]])


_RULES: dict[type, Any] = {
    sp.OneMatrix: lambda e, v: Matrix(sp.ones(*e.shape)),
    sp.Transpose: lambda e, v: evaluate(e.arg, v).T,
    sp.MatrixSlice: _slice,
    sp.BlockMatrix: lambda e, v: Matrix(sp.Matrix.hstack(*(evaluate(b, v) for b in e.blocks))),
    sp.MatMul: _product,
    sp.MatAdd: _sum,
    HalfSquaredNorm: _half_squared_norm,
    EntrySum: lambda e, v: Matrix([[sum(evaluate(e.args[0], v))]]),
    OnesLike: lambda e, v: Matrix(sp.ones(*e.shape)),
    PadColumns: lambda e, v: _pad(evaluate(e.args[0], v), int(e.args[1]), int(e.args[2])),
    **{cls: partial(rule, evaluate=evaluate) for cls, rule in operations.rules("exact").items()},
}


def _pad(matrix: Matrix, before: int, after: int) -> Matrix:
    rows = matrix.rows
    return Matrix(sp.Matrix.hstack(sp.zeros(rows, before), matrix, sp.zeros(rows, after)))
