"""The compiled backward pass: reverse-mode differentiation of a structural program.

:func:`program` walks the forward assignments of :func:`codegen.program` backwards and turns
each node into its chain-rule rule, as new assignments of matrix expressions: ``Y = c L M R``
gives ``\\bar{M} = c L^\\top \\bar{Y} R^\\top``, a row softmax ``A`` gives
``A \\circ (\\bar{A} - (A \\circ \\bar{A}) 1 1^\\top)``, a head split gives a merge, a slice
gives zero padding, a bias broadcast over the rows gives column sums, and a weight's gradient
is summed over the batch. :func:`source` prints them with the forward pass's printers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from mha_symbolic.model.nodes import (
    BatchSum,
    EntrySum,
    HalfSquaredNorm,
    HeadOf,
    MergeHeads,
    OnesLike,
    PadColumns,
    RowSoftmax,
    SoftmaxBackward,
    SplitHeads,
    StackHeads,
)
from mha_symbolic.numeric import codegen
from mha_symbolic.numeric.codegen import INPUTS, Program
from mha_symbolic.spec.attention import Loss


@dataclass(frozen=True)
class Gradient:
    """One gradient the generated function returns: of an input, or of a weight argument."""

    name: str  # query, key, value, or the weight's keyword (w_q, b_o, ...)
    head: int | None  # 0-based head of a per-head weight
    symbol: sp.MatrixSymbol  # the assignment that holds it


@dataclass(frozen=True)
class GradientProgram:
    """The forward assignments (each softmax its own step), the loss, then the backward ones."""

    forward: Program
    loss: sp.Expr  # the loss of each example, over the output (and the target)
    assignments: tuple[tuple[sp.MatrixSymbol, sp.Basic], ...]  # forward, then backward
    names: dict[sp.Basic, str]
    gradients: tuple[Gradient, ...]
    stacked: frozenset[sp.MatrixSymbol]  # assignments whose code has a head axis
    target: sp.MatrixSymbol | None  # the mse loss's target argument

    @property
    def backward(self) -> tuple[tuple[sp.MatrixSymbol, sp.Basic], ...]:
        return self.assignments[len(self.forward.assignments) :]


def _atomic(expr: sp.Basic) -> bool:
    """Printed as a name: cheap to repeat."""
    arg = expr.arg if isinstance(expr, sp.Transpose) else expr
    return isinstance(arg, sp.MatrixSymbol)


class _Reverse:
    """Accumulates each symbol's gradient terms and emits one assignment per gradient."""

    def __init__(self, forward: Program) -> None:
        self.forward = forward
        self.spec = forward.spec
        self.names = dict(forward.names)
        self.assignments = list(forward.assignments)
        self.inputs = [s for name in INPUTS for s, code in forward.names.items() if code == name]
        self.weights = [a for a in forward.arguments if a.name not in self.spec.omitted]
        assigned = {symbol for symbol, _ in forward.assignments}
        self.differentiable = {*self.inputs, *(a.symbol for a in self.weights), *assigned}
        self.terms: dict[sp.MatrixSymbol, list[sp.Basic]] = {}
        self.temporaries = 0
        self.target: sp.MatrixSymbol | None = None
        self.stacked: set[sp.MatrixSymbol] = set()
        for symbol, formula in forward.assignments:
            if forward.head_axis and _stacked(formula, self.stacked):
                self.stacked.add(symbol)

    def assign(self, label: str, code: str, formula: sp.Basic) -> sp.MatrixSymbol:
        symbol = sp.MatrixSymbol(label, *formula.shape)
        self.names[symbol] = code
        self.assignments.append((symbol, formula))
        if self.forward.head_axis and _stacked(formula, self.stacked):
            self.stacked.add(symbol)
        return symbol

    def named(self, bar: sp.Basic) -> sp.Basic:
        """``bar`` itself when it prints as a name, else a temporary assigned to it."""
        if _atomic(bar):
            return bar
        self.temporaries += 1
        return self.assign(f"G_{{{self.temporaries}}}", f"g{self.temporaries}", bar)

    def shared(self, bar: sp.Basic, uses: int) -> sp.Basic:
        return self.named(bar) if uses > 1 else bar

    def needs(self, expr: sp.Basic) -> bool:
        return any(s in self.differentiable for s in expr.atoms(sp.MatrixSymbol))

    # ------------------------------------------------------------------ the pass
    def run(self) -> GradientProgram:
        output = self.forward.assignments[-1][0]
        loss, output_bar = self.loss(output)
        self.terms[output] = [output_bar]
        for symbol, formula in reversed(self.forward.assignments):
            bar = self.total(symbol, self.terms.pop(symbol))
            if isinstance(formula, RowSoftmax):
                label = self.names[symbol].replace("A", "S", 1)
                backward = SoftmaxBackward(symbol, bar)
                logits = self.assign(rf"\bar{{{label}}}", f"{label}_bar", backward)
                self.vjp(formula.arg, logits)
            else:
                self.vjp(formula, bar)
        gradients = [Gradient(self.names[s], None, self.leaf(s, False)) for s in self.inputs]
        for argument in self.weights:
            symbol = self.leaf(argument.symbol, True)
            gradients.append(Gradient(argument.name, argument.head, symbol))
        return GradientProgram(
            self.forward,
            loss,
            tuple(self.assignments),
            self.names,
            tuple(gradients),
            frozenset(self.stacked),
            self.target,
        )

    def loss(self, output: sp.MatrixSymbol) -> tuple[sp.Expr, sp.Basic]:
        """(the loss, its gradient with respect to the output)."""
        loss = self.spec.loss if self.spec.loss is not None else Loss()
        if loss.kind == "sum":
            return EntrySum(output), OnesLike(output)
        self.target = sp.MatrixSymbol("T", *output.shape)
        self.names[self.target] = "target"
        residual = sp.MatAdd(output, sp.MatMul(-1, self.target), evaluate=False)
        bar = self.assign(r"\bar{O}", "output_bar", residual)
        return HalfSquaredNorm(bar), bar

    def total(self, symbol: sp.MatrixSymbol, terms: list[sp.Basic]) -> sp.Basic:
        """The symbol's gradient as a name: the sum of its terms, assigned."""
        if len(terms) == 1 and _atomic(terms[0]):
            return terms[0]
        total = terms[0] if len(terms) == 1 else sp.MatAdd(*terms, evaluate=False)
        return self.assign(rf"\bar{{{symbol.name}}}", f"{self.names[symbol]}_bar", total)

    def leaf(self, symbol: sp.MatrixSymbol, weight: bool) -> sp.MatrixSymbol:
        """An input's gradient (one per example) or a weight's (summed over the batch)."""
        terms = self.terms.pop(symbol)
        total = terms[0] if len(terms) == 1 else sp.MatAdd(*terms, evaluate=False)
        formula = BatchSum(total) if weight else total
        return self.assign(rf"\bar{{{symbol.name}}}", f"grad_{self.names[symbol]}", formula)

    # ------------------------------------------------------------------ rules
    def vjp(self, expr: sp.Basic, bar: sp.Basic) -> None:
        """Adds expr's share of the gradient ``bar`` to the symbols inside it."""
        if isinstance(expr, sp.MatrixSymbol):
            self.terms.setdefault(expr, []).append(bar)
            return
        rules: dict[type, Callable[[Any, sp.Basic], None]] = {
            sp.Transpose: self.transpose,
            sp.MatAdd: self.add,
            sp.MatMul: self.matmul,
            SplitHeads: lambda e, g: self.vjp(e.arg, MergeHeads(g, e.heads)),
            MergeHeads: lambda e, g: self.vjp(e.arg, SplitHeads(g, e.heads)),
            StackHeads: self.stack,
            sp.BlockMatrix: self.blocks,
            sp.MatrixSlice: self.slice,
        }
        rules[type(expr)](expr, bar)

    def transpose(self, expr: sp.Transpose, bar: sp.Basic) -> None:
        self.vjp(expr.arg, _transpose(bar))

    def add(self, expr: sp.MatAdd, bar: sp.Basic) -> None:
        terms = [term for term in expr.args if self.needs(term)]
        bar = self.shared(bar, len(terms))
        for term in terms:
            self.vjp(term, bar)

    def matmul(self, expr: sp.MatMul, bar: sp.Basic) -> None:
        """Y = c M_1 ... M_n: each M_i gets c (M_1..M_{i-1})^T Ybar (M_{i+1}..M_n)^T."""
        coefficient, matrices = expr.as_coeff_matrices()
        wanted = [i for i, m in enumerate(matrices) if self.needs(m)]
        bar = self.shared(bar, len(wanted))
        for i in wanted:
            left = [_transpose(m) for m in reversed(matrices[:i])]
            right = [_transpose(m) for m in reversed(matrices[i + 1 :])]
            factors = [*left, bar, *right]
            if coefficient != 1:
                factors.insert(0, coefficient)
            share = bar if len(factors) == 1 else sp.MatMul(*factors, evaluate=False)
            self.vjp(matrices[i], share)

    def stack(self, expr: StackHeads, bar: sp.Basic) -> None:
        bar = self.named(bar)
        for i, matrix in enumerate(expr.args):
            self.vjp(matrix, HeadOf(bar, i))

    def blocks(self, expr: sp.BlockMatrix, bar: sp.Basic) -> None:
        """A row of blocks [B_1 | ... | B_k]: each block gets its columns of the gradient."""
        bar = self.named(bar)
        start = 0
        for block in expr.blocks:
            stop = start + block.shape[1]
            if self.needs(block):
                self.vjp(block, bar[:, start:stop])
            start = stop

    def slice(self, expr: sp.MatrixSlice, bar: sp.Basic) -> None:
        """A column slice X[:, a:b]: X gets the gradient padded with zero columns."""
        start, stop, _ = expr.colslice
        self.vjp(expr.parent, PadColumns(bar, start, expr.parent.shape[1] - stop))


def _transpose(expr: sp.Basic) -> sp.Basic:
    """expr^T, a product's factors reversed; a row of blocks stays one (SymPy's ``.T`` would
    make it a column of blocks, which the printers do not write)."""
    if isinstance(expr, sp.Transpose):
        return expr.arg
    if isinstance(expr, sp.MatMul):
        coefficient, matrices = expr.as_coeff_matrices()
        factors = [_transpose(m) for m in reversed(matrices)]
        return sp.MatMul(*([coefficient] if coefficient != 1 else []), *factors, evaluate=False)
    return sp.Transpose(expr) if isinstance(expr, sp.BlockMatrix) else expr.T


def _stacked(expr: sp.Basic, stacked: set[sp.MatrixSymbol]) -> bool:
    """Whether expr's code carries a head axis (before its rows)."""
    if isinstance(expr, (SplitHeads, StackHeads)):
        return True
    if isinstance(expr, (MergeHeads, HeadOf)):
        return False
    if isinstance(expr, sp.MatrixSymbol):
        return expr in stacked
    return any(_stacked(arg, stacked) for arg in expr.args)


def program(spec: Any) -> GradientProgram:
    """The spec's attention, its loss and every gradient, as structural assignments."""
    return _Reverse(codegen.program(spec, explicit_weights=True)).run()


def source(program: GradientProgram, backend: str) -> str:
    """Python source of the backend's preludes and an ``attention_gradients`` function that
    returns the loss of each example and the gradients, in ``program.gradients``' order.

    NumPy and JAX print the backward assignments; torch prints the forward pass (one
    ``scaled_dot_product_attention`` call per attention, as ``compile(spec)`` does) and the
    loss, then differentiates them with one ``torch.autograd.grad`` call (SDPA's fused
    backward kernel, several times faster than the printed rules run as separate ops).
    """
    if backend == "torch":
        return _autograd_source(program)
    printer_class, prelude = codegen.BACKENDS[backend]
    printer = printer_class(program.names)
    forward = program.forward
    declared = codegen.parameter_names(forward.spec.parameters.values()).values()
    target = ["target"] if program.target is not None else []
    parameters = [*INPUTS, "mask", *(a.code for a in forward.arguments), *target]
    parameters += map(str, declared)
    lines = [f"def attention_gradients({', '.join(parameters)}):"]
    for symbol, formula in program.assignments:
        comment = _shape_comment(program, symbol, formula)
        lines.append(f"    {program.names[symbol]} = {printer.doprint(formula)}{comment}")
        if symbol in program.loss.atoms(sp.MatrixSymbol):
            lines.append(f"    loss = {printer.doprint(program.loss)}  # (...)")
    returned = ", ".join(program.names[g.symbol] for g in program.gradients)
    lines.append(f"    return loss, {returned}")
    return prelude + codegen.GRADIENT_PRELUDES[backend] + "\n\n" + "\n".join(lines) + "\n"


def _autograd_source(program: GradientProgram) -> str:
    """torch: the forward program, the loss, and ``torch.autograd.grad`` of the summed loss
    with respect to the inputs and the differentiated weights (``program.gradients``)."""
    printer_class, prelude = codegen.BACKENDS["torch"]
    forward = codegen.program(program.forward.spec)  # softmax(S) V as one SDPA call
    printer = printer_class({**program.names, **forward.names})
    declared = codegen.parameter_names(forward.spec.parameters.values()).values()
    target = ["target"] if program.target is not None else []
    parameters = [*INPUTS, "mask", *(a.code for a in forward.arguments), *target]
    parameters += map(str, declared)
    codes = {(a.name, a.head): a.code for a in forward.arguments}
    leaves = [*INPUTS, *(codes[g.name, g.head] for g in program.gradients[len(INPUTS) :])]
    lines = [
        f"def attention_gradients({', '.join(parameters)}):",
        "    with torch.enable_grad():  # also under torch.no_grad()",
        f"        {', '.join(leaves)} = leaves({', '.join(leaves)})",
    ]
    for symbol, formula in forward.assignments:
        code = f"{forward.names[symbol]} = {printer.doprint(formula)}"
        lines.append(f"        {code}{codegen._shape_comment(forward, symbol)}")
    loss_args = program.loss.atoms(sp.MatrixSymbol)
    for symbol, formula in program.backward:
        if symbol in loss_args:  # the mse residual O - T
            comment = _shape_comment(program, symbol, formula)
            lines.append(f"        {program.names[symbol]} = {printer.doprint(formula)}{comment}")
    lines.append(f"        loss = {printer.doprint(program.loss)}  # (...)")
    lines.append(f"        grads = gradients(loss, [{', '.join(leaves)}])")
    lines.append("    return loss.detach(), *grads")
    return prelude + TORCH_AUTOGRAD_PRELUDE + "\n\n" + "\n".join(lines) + "\n"


TORCH_AUTOGRAD_PRELUDE = '''

def entry_sum(x):
    """1^T X 1 per example: (..., L, n) -> (...)"""
    return x.sum((-2, -1))


def half_squared_norm(x):
    """||X||^2 / 2 per example: (..., L, n) -> (...)"""
    return 0.5 * (x * x).sum((-2, -1))


def leaves(*tensors):
    """New leaves of the autograd graph, sharing memory with the arguments."""
    return [t.detach().requires_grad_() for t in tensors]


def gradients(loss, leaves):
    """The summed loss's gradients: per example for the inputs, summed over the batch for the
    weights (each example's loss depends only on its own inputs)."""
    return torch.autograd.grad(loss.sum(), leaves, allow_unused=True, materialize_grads=True)
'''


def _shape_comment(program: GradientProgram, symbol: sp.MatrixSymbol, formula: sp.Basic) -> str:
    rows, cols = symbol.shape
    if isinstance(formula, BatchSum):
        return f"  # ({rows}, {cols})"
    heads = f"{program.forward.spec.heads}, " if symbol in program.stacked else ""
    return f"  # (..., {heads}{rows}, {cols})"
