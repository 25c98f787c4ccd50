"""Structural matrix-expression nodes: a row-wise softmax and the heads' split and merge.

Each node prints itself as LaTeX, as text, and as a call of a helper that every backend's
generated code defines (``softmax``, ``split_heads``, ``merge_heads``, ``stack_heads``), so
one symbolic object both renders and compiles. In generated code a matrix may carry leading
batch axes: a head-split matrix is a stack of per-head matrices on the axis before its rows.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr


def _terms(expr: sp.Basic) -> tuple[sp.Basic, ...]:
    return expr.args if isinstance(expr, sp.MatAdd) else (expr,)


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

    def _code(self, printer: Any, right: str | None, owned: bool) -> str:
        terms = [printer._print(t) for t in _terms(self.arg)]
        first = _terms(self.arg)[0]
        if not owned and isinstance(first, (sp.MatrixSymbol, sp.MatrixSlice)):
            terms[0] += ".copy()"  # the NumPy helper overwrites its first term
        # The terms of a sum are passed apart, so the helper adds them in one pass and
        # skips a term that is None (no mask).
        return f"softmax({', '.join(terms)}{'' if right is None else f', right={right}'})"

    def _numpycode(self, printer: Any, right: str | None = None) -> str:
        """``softmax(terms..., right=R)``: softmax(sum of the terms) @ R."""
        return self._code(printer, right, owned=False)

    def _torchcode(self, printer: Any, right: str | None = None) -> str:
        return self._code(printer, right, owned=True)

    _jaxcode = _torchcode


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
