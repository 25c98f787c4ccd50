"""Structural matrix-expression nodes of the forward and backward passes (heads, sums, the
loss); each operation's own nodes (softmax, RoPE, ALiBi, masked_fill) are in its module of
:mod:`mha_symbolic.operations`.

Each node prints itself as LaTeX, as text, and as a call of a helper that every backend's
generated code defines (``split_heads``, ``merge_heads``, ``stack_heads``), so
one symbolic object both renders and compiles. In generated code a matrix may carry leading
batch axes: a head-split matrix is a stack of per-head matrices on the axis before its rows.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr

from mha_symbolic.operations.operation import Unary


class _HeadsOp(MatrixExpr):
    """A reshaping of the heads: ``arg`` and the number of ``heads``."""

    def __new__(cls, arg: Any, heads: int) -> _HeadsOp:
        return MatrixExpr.__new__(cls, sp.sympify(arg), sp.Integer(heads))

    @property
    def arg(self) -> MatrixExpr:
        return self.args[0]

    @property
    def heads(self) -> int:
        return int(self.args[1])


class SplitHeads(_HeadsOp):
    """The (L x h d) matrix cut into h column blocks of width d, one per head.

    Its shape is one head's (L x d); generated code stacks the heads on a new axis before
    the rows, (..., L, h d) -> (..., h, L, d), so the rest of the pipeline runs for all heads
    in one call.
    """

    @property
    def shape(self) -> tuple[Any, Any]:
        rows, cols = self.arg.shape
        return (rows, cols // self.heads)

    def _latex(self, printer: Any) -> str:
        return rf"\operatorname{{split}}_{{{self.heads}}}\left({printer._print(self.arg)}\right)"

    def _sympystr(self, printer: Any) -> str:
        return f"split_heads({printer._print(self.arg)}, {self.heads})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class MergeHeads(_HeadsOp):
    """The inverse of :class:`SplitHeads`: the heads side by side, [head_1 | ... | head_h]."""

    @property
    def shape(self) -> tuple[Any, Any]:
        rows, cols = self.arg.shape
        return (rows, cols * self.heads)

    def _latex(self, printer: Any) -> str:
        return rf"\operatorname{{concat}}\left({printer._print(self.arg)}\right)"

    def _sympystr(self, printer: Any) -> str:
        return f"merge_heads({printer._print(self.arg)})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class StackHeads(MatrixExpr):
    """One matrix per head, stacked like the heads of :class:`SplitHeads` (all one shape)."""

    def __new__(cls, *matrices: Any) -> StackHeads:
        return MatrixExpr.__new__(cls, *map(sp.sympify, matrices))

    @property
    def shape(self) -> tuple[Any, Any]:
        return self.args[0].shape

    def _latex(self, printer: Any) -> str:
        inner = ", ".join(printer._print(m) for m in self.args)
        return rf"\operatorname{{stack}}\left({inner}\right)"

    def _sympystr(self, printer: Any) -> str:
        return f"stack_heads({', '.join(printer._print(m) for m in self.args)})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class HeadOf(MatrixExpr):
    """Head ``index`` (0-based) of a head-stacked matrix: ``M[..., index, :, :]`` in code."""

    def __new__(cls, arg: Any, index: int) -> HeadOf:
        return MatrixExpr.__new__(cls, sp.sympify(arg), sp.Integer(index))

    @property
    def arg(self) -> MatrixExpr:
        return self.args[0]

    @property
    def index(self) -> int:
        return int(self.args[1])

    @property
    def shape(self) -> tuple[Any, Any]:
        return self.arg.shape

    def _latex(self, printer: Any) -> str:
        return rf"\left[{printer._print(self.arg)}\right]_{{{self.index + 1}}}"

    def _sympystr(self, printer: Any) -> str:
        return f"{printer._print(self.arg)}[..., {self.index}, :, :]"

    _numpycode = _torchcode = _jaxcode = _sympystr


class BatchSum(Unary):
    """The sum over the batch: a weight's gradient is the sum of every example's."""

    def _latex(self, printer: Any) -> str:
        return rf"\sum_{{b}} {printer._print(self.arg)}"

    def _sympystr(self, printer: Any) -> str:
        return f"batch_sum({printer._print(self.arg)})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class PadColumns(MatrixExpr):
    """``[0 | M | 0]``: ``before`` zero columns, M, ``after`` zero columns (a slice's gradient)."""

    def __new__(cls, arg: Any, before: Any, after: Any) -> PadColumns:
        return MatrixExpr.__new__(cls, sp.sympify(arg), sp.sympify(before), sp.sympify(after))

    @property
    def shape(self) -> tuple[Any, Any]:
        rows, cols = self.args[0].shape
        return (rows, self.args[1] + cols + self.args[2])

    def _latex(self, printer: Any) -> str:
        return rf"\left[0 \mid {printer._print(self.args[0])} \mid 0\right]"

    def _sympystr(self, printer: Any) -> str:
        arg, before, after = (printer._print(a) for a in self.args)
        return f"pad_columns({arg}, {before}, {after})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class OnesLike(Unary):
    """A matrix of ones of M's shape: the gradient of the sum of M's entries."""

    def _latex(self, printer: Any) -> str:
        return r"\mathbf{1}"

    def _sympystr(self, printer: Any) -> str:
        return f"ones_like({printer._print(self.arg)})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class _Reduction(sp.Expr):
    """A matrix reduced to one number (per example in code): LaTeX form and code name."""

    latex_form = ""
    code_name = ""

    def __new__(cls, arg: Any) -> _Reduction:
        return sp.Expr.__new__(cls, arg)

    def _latex(self, printer: Any) -> str:
        return self.latex_form.replace("ARG", printer._print(self.args[0]))

    def _sympystr(self, printer: Any) -> str:
        return f"{self.code_name}({printer._print(self.args[0])})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class EntrySum(_Reduction):
    """``1^T M 1``, the sum of M's entries."""

    latex_form = r"\mathbf{1}^{\top} ARG \mathbf{1}"
    code_name = "entry_sum"


class HalfSquaredNorm(_Reduction):
    """``\\frac{1}{2} \\lVert M \\rVert^2``, the sum of the squared entries halved."""

    latex_form = r"\frac{1}{2} \left\lVert ARG \right\rVert^{2}"
    code_name = "half_squared_norm"
