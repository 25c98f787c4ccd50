"""The structural program of a spec's attention and its code printers, one per backend.

:func:`program` writes attention as a few assignments of SymPy matrix expressions over
MatrixSymbols (inputs, mask, weights); the printers turn each assignment into one line of
batched array code: ``@`` products, ``.swapaxes(-1, -2)`` transposes (a weight's ``.T``),
``[..., r, c]`` slices, and calls of the helpers in each backend's prelude (``softmax``
subtracts the row max first).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sympy as sp
from sympy.printing.numpy import NumPyPrinter

from mha_symbolic import operations
from mha_symbolic.model.nodes import (
    BatchSum,
    HeadOf,
    MergeHeads,
    OnesLike,
    PadColumns,
    SplitHeads,
    StackHeads,
)
from mha_symbolic.model.program import build
from mha_symbolic.numeric import preludes
from mha_symbolic.numeric.lower import INPUTS, lower
from mha_symbolic.numeric.lower import Argument as Argument
from mha_symbolic.numeric.lower import CodeProgram as Program
from mha_symbolic.spec.attention import AttentionSpec

# Nodes that print as a name, a call, an attribute or an index: no parentheses needed.
_ATOMIC = (
    sp.MatrixSymbol,
    sp.Transpose,
    sp.MatrixSlice,
    sp.BlockMatrix,
    SplitHeads,
    MergeHeads,
    StackHeads,
    HeadOf,
    BatchSum,
    PadColumns,
    OnesLike,
    *operations.NODES,  # each prints as a call of its helper
)


def program(spec: AttentionSpec, explicit_weights: bool = False) -> Program:
    """The spec's attention as assignments of structural matrix expressions, lowered from the
    model (``explicit_weights``: each softmax ``A`` is an assignment of its own, as the
    backward pass needs; otherwise ``softmax(S) V`` is one expression, one helper call)."""
    return lower(build(spec), explicit_weights)


# --------------------------------------------------------------------------- printers
class ArrayPrinter(NumPyPrinter):
    """Prints structural matrix expressions as batched array code (NumPy syntax)."""

    printmethod = "_numpycode"
    backend = "numpy"  # a node's code may differ by backend (torch's attention is one call)

    def __init__(self, names: dict[sp.Basic, str], flat: Iterable[sp.Basic] = ()) -> None:
        super().__init__()
        self.names = names
        # The weights: arrays of exactly their 2-D shape (the call checks it), whose
        # transpose ``.T`` takes a third of the time of ``.swapaxes(-1, -2)``.
        self.flat = frozenset(flat)

    def _print_MatrixSymbol(self, expr: sp.MatrixSymbol) -> str:
        return self.names[expr]

    def _operand(self, expr: sp.Basic) -> str:
        text = self._print(expr)
        return text if isinstance(expr, _ATOMIC) else f"({text})"

    def _number(self, value: sp.Expr) -> str:
        # A Python float keeps the arrays' dtype (a NumPy float64 scalar would upcast float32).
        if value.free_symbols:  # declared parameters, passed as Python floats (math functions)
            return f"({sp.pycode(value.xreplace(parameter_names(value.free_symbols)))})"
        return repr(float(value))

    def _print_MatMul(self, expr: sp.MatMul) -> str:
        coefficient, matrices = expr.as_coeff_matrices()
        product = getattr(matrices[0], "_print_product", None)
        if coefficient == 1 and len(matrices) == 2 and product is not None:
            return str(product(self, matrices[1]))  # a node that prints its product (softmax V)
        if isinstance(matrices[0], sp.OneMatrix) and matrices[0].shape[0] == 1:
            # a row of ones times a matrix: its column sums (a bias's gradient)
            rest = sp.MatMul(coefficient, *matrices[1:], evaluate=False)
            return f"column_sums({self._print(rest)})"
        if isinstance(matrices[0], sp.OneMatrix) and matrices[0].shape[1] == 1:
            matrices = matrices[1:]  # a column of ones times a row: the row, broadcast
        parts = [self._operand(m) for m in matrices]
        if coefficient != 1:
            # Scaling a factor (L x d) is cheaper than scaling the product (L x L): the first
            # factor with the fewest lengths (symbolic dimensions).
            target = min(range(len(matrices)), key=lambda i: _lengths(matrices[i]))
            parts[target] = f"({self._number(coefficient)} * {parts[target]})"
        return " @ ".join(parts)

    def _print_MatAdd(self, expr: sp.MatAdd) -> str:
        text = ""
        for term in expr.args:
            negated = _negated(term)
            text += f" + {self._print(term)}" if negated is None else f" - {self._operand(negated)}"
        return text[3:] if text.startswith(" + ") else "-" + text[3:]

    def _print_Transpose(self, expr: sp.Transpose) -> str:
        if expr.arg in self.flat:
            return f"{self._operand(expr.arg)}.T"
        return f"{self._operand(expr.arg)}.swapaxes(-1, -2)"

    def _print_MatrixSlice(self, expr: sp.MatrixSlice) -> str:
        def part(bounds: tuple[Any, Any, Any], size: Any) -> str:
            start, stop, step = bounds
            if start == 0 and stop == size and step == 1:
                return ":"
            return f"{start}:{stop}" + ("" if step == 1 else f":{step}")

        rows, cols = expr.parent.shape
        index = f"{part(expr.rowslice, rows)}, {part(expr.colslice, cols)}"
        return f"{self._operand(expr.parent)}[..., {index}]"

    def _print_BlockMatrix(self, expr: sp.BlockMatrix) -> str:
        """A row of blocks (the only kind a program has): the blocks side by side."""
        return f"concat_columns({', '.join(self._print(b) for b in expr.blocks)})"


def _negated(term: sp.Basic) -> sp.Basic | None:
    """M when the term is -M (printed as a subtraction), else None."""
    if not isinstance(term, sp.MatMul):
        return None
    coefficient, matrices = term.as_coeff_matrices()
    if coefficient != -1:
        return None
    return matrices[0] if len(matrices) == 1 else sp.MatMul(*matrices, evaluate=False)


def _lengths(matrix: sp.Basic) -> int:
    return len(sp.Tuple(*matrix.shape).free_symbols)


class TorchPrinter(ArrayPrinter):
    """torch code (softmax(s Q K^T + M) V prints itself as ``scaled_dot_product_attention``)."""

    printmethod = "_torchcode"
    backend = "torch"


class JaxPrinter(ArrayPrinter):
    printmethod = "_jaxcode"
    backend = "jax"


# --------------------------------------------------------------------------- preludes
BACKENDS: dict[str, tuple[type[ArrayPrinter], str]] = {
    "numpy": (ArrayPrinter, preludes.text("numpy_forward", "array_heads")),
    "torch": (TorchPrinter, preludes.text("torch_forward")),
    "jax": (JaxPrinter, preludes.text("jax_forward", "array_heads")),
}
GRADIENT_PRELUDES = {
    backend: "\n\n" + preludes.text("array_backward", f"{backend}_backward") for backend in BACKENDS
}


def helpers(assignments: Iterable[tuple[sp.Basic, sp.Basic]], backend: str) -> str:
    """The helpers of the operations these assignments' code calls (``softmax``, RoPE's
    ``rope``, ...) for ``backend`` (``numpy_backward``...: those of the backward pass)."""
    found = {type(e) for _, formula in assignments for e in formula.atoms(*operations.NODES)}
    return operations.prelude(backend, {operations.BY_NODE[cls].kind for cls in found})


def _shape_comment(program: Program, symbol: sp.MatrixSymbol) -> str:
    rows, cols = symbol.shape
    stacked = program.head_axis and symbol.name in ("Q", "K", "V", "H")
    heads = f"{program.spec.heads}, " if stacked else ""
    return f"  # (..., {heads}{rows}, {cols})"


def parameter_names(symbols: Any) -> dict[sp.Symbol, sp.Symbol]:
    """A declared parameter ``tau`` is the argument ``param_tau`` (no clash with ``mask``...)."""
    return {s: sp.Symbol(f"param_{s.name}") for s in symbols}


def source(program: Program, backend: str) -> str:
    """Python source of the backend's prelude and an ``attention`` function."""
    printer_class, prelude = BACKENDS[backend]
    prelude += helpers(program.assignments, backend)
    printer = printer_class(program.names, (a.symbol for a in program.arguments))
    declared = parameter_names(program.spec.parameters.values()).values()
    parameters = [*INPUTS, "mask", *(a.code for a in program.arguments), *map(str, declared)]
    lines = [f"def attention({', '.join(parameters)}):"]
    for symbol, formula in program.assignments:
        code = program.names[symbol]
        lines.append(f"    {code} = {printer.doprint(formula)}{_shape_comment(program, symbol)}")
    lines.append(f"    return {program.names[program.assignments[-1][0]]}")
    return prelude + "\n\n" + "\n".join(lines) + "\n"
