"""Structural matrix-expression nodes for formulas: a row-wise softmax."""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr


class RowSoftmax(MatrixExpr):
    """softmax applied to each row of a matrix expression."""

    def __new__(cls, arg: Any) -> RowSoftmax:
        return MatrixExpr.__new__(cls, sp.sympify(arg))

    @property
    def arg(self) -> MatrixExpr:
        return self.args[0]

    @property
    def shape(self) -> tuple[Any, Any]:
        return self.arg.shape

    def _latex(self, printer: Any) -> str:
        return rf"\operatorname{{softmax}}\left({printer._print(self.arg)}\right)"

    def _sympystr(self, printer: Any) -> str:
        return f"softmax({printer._print(self.arg)})"
