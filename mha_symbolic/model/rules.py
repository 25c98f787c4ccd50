"""The chain rule, once: one reverse-mode rule per node kind, written as matrix expressions.

:class:`Reverse` walks forward assignments ``symbol = expr`` backwards and turns each
expression into its rules: ``Y = c L M R`` gives ``\\bar{M} = c L^\\top \\bar{Y} R^\\top``, a row
softmax ``A`` gives ``A \\circ (\\bar{A} - (A \\circ \\bar{A}) 1 1^\\top)``, a rotation gives the
opposite rotation, a head split gives a merge, a slice gives zero padding (a row of slices
that tile a matrix gives its blocks back). The same rules serve both evaluators: the exact
one walks the model's per-head program and evaluates every gradient exactly (the ``grad.*``
steps); the numeric one walks the lowered, batched program and prints the backward pass.
A :class:`Policy` says how each wants the result: named temporaries and batch sums for code,
one assignment per forward step for the exact derivation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from mha_symbolic import operations
from mha_symbolic.model.nodes import (
    BatchSum,
    EntrySum,
    HalfSquaredNorm,
    HeadOf,
    MergeHeads,
    OnesLike,
    PadColumns,
    SplitHeads,
    StackHeads,
)

# (symbol, is it a leaf) -> (the label and the code name of its gradient)
Names = Callable[[sp.MatrixSymbol, bool], tuple[str, str]]


@dataclass(frozen=True)
class Policy:
    """How the backward assignments are written."""

    names: Names  # the label and code name of a symbol's gradient
    every_step: bool  # a gradient assignment for every forward symbol (the exact steps)
    temporaries: bool  # shared gradients named once (G_1, ...) rather than repeated
    batch_sum: bool  # a weight's gradient summed over the batch axes (code)
    own_steps: bool  # an operation's backward assigned on its own (code: the softmax's S_bar)


@dataclass(frozen=True)
class Loss:
    """The scalar loss of each example and the gradient it starts the backward pass with."""

    expr: sp.Basic  # over the output (and the target)
    output_bar: sp.Basic  # dL/dO
    target: sp.MatrixSymbol | None  # T of the mse loss


def loss(output: sp.MatrixSymbol, kind: str) -> Loss:
    """``sum``: L = 1^T O 1, dL/dO = 1; ``mse``: L = 1/2 ||O - T||^2, dL/dO = O - T."""
    if kind == "sum":
        return Loss(EntrySum(output), OnesLike(output), None)
    target = sp.MatrixSymbol("T", *output.shape)
    residual = sp.MatAdd(output, sp.MatMul(-1, target), evaluate=False)
    return Loss(HalfSquaredNorm(residual), residual, target)


def _atomic(expr: sp.Basic) -> bool:
    """Printed as a name: cheap to repeat."""
    arg = expr.arg if isinstance(expr, sp.Transpose) else expr
    return isinstance(arg, sp.MatrixSymbol)


class Reverse:
    """Accumulates each symbol's gradient terms and emits one assignment per gradient."""

    def __init__(
        self,
        forward: Iterable[tuple[sp.MatrixSymbol, sp.Basic]],
        leaves: Iterable[sp.MatrixSymbol],
        policy: Policy,
        summed: Iterable[sp.MatrixSymbol] = (),
    ) -> None:
        self.forward = list(forward)
        self.leaves = list(leaves)
        self.policy = policy
        self.summed = set(summed)  # the weights: their gradient is summed over the batch
        self.differentiable = {*self.leaves, *(s for s, _ in self.forward)}
        self.terms: dict[sp.MatrixSymbol, list[sp.Basic]] = {}
        self.assignments: list[tuple[sp.MatrixSymbol, sp.Basic]] = []
        self.bars: dict[sp.MatrixSymbol, sp.MatrixSymbol] = {}  # forward symbol -> its gradient
        self.names: dict[sp.Basic, str] = {}
        self.temporaries = 0

    def assign(self, label: str, code: str, formula: sp.Basic) -> sp.MatrixSymbol:
        rows, cols = formula.shape
        symbol = sp.MatrixSymbol(label, rows, cols)
        self.names[symbol] = code
        self.assignments.append((symbol, formula))
        return symbol

    def named(self, bar: sp.Basic) -> sp.Basic:
        """``bar`` itself when it prints as a name (or temporaries are off), else a temporary."""
        if _atomic(bar) or not self.policy.temporaries:
            return bar
        self.temporaries += 1
        return self.assign(f"G_{{{self.temporaries}}}", f"g{self.temporaries}", bar)

    def shared(self, bar: sp.Basic, uses: int) -> sp.Basic:
        return self.named(bar) if uses > 1 else bar

    def needs(self, expr: sp.Basic) -> bool:
        return any(s in self.differentiable for s in expr.atoms(sp.MatrixSymbol))

    # ------------------------------------------------------------------ the pass
    def run(self, output: sp.MatrixSymbol, output_bar: sp.Basic) -> Reverse:
        """Backpropagates ``output_bar`` from ``output`` to every forward symbol and leaf."""
        self.terms[output] = [output_bar]
        for symbol, formula in reversed(self.forward):
            terms = self.terms.pop(symbol, None)
            if terms is None:
                continue  # nothing downstream of it reaches the output
            bar = self.total(symbol, terms)
            rule = ASSIGNED.get(type(formula))  # a rule that reads the step's name (A)
            if rule is not None:
                rule(self, symbol, formula, bar)
            else:
                self.vjp(formula, bar)
        for leaf in self.leaves:
            if leaf in self.terms:
                self.leaf(leaf)
        return self

    def total(self, symbol: sp.MatrixSymbol, terms: list[sp.Basic]) -> sp.Basic:
        """The symbol's gradient: the sum of its terms, assigned (or the one name it is)."""
        if len(terms) == 1 and _atomic(terms[0]) and not self.policy.every_step:
            return terms[0]
        label, code = self.policy.names(symbol, False)
        bar = self.assign(label, code, _sum(terms))
        self.bars[symbol] = bar
        return bar

    def leaf(self, symbol: sp.MatrixSymbol) -> None:
        """An input's or a weight's gradient (a weight's summed over the batch in code)."""
        total = _sum(self.terms.pop(symbol))
        label, code = self.policy.names(symbol, True)
        summed = self.policy.batch_sum and symbol in self.summed
        self.bars[symbol] = self.assign(label, code, BatchSum(total) if summed else total)

    # ------------------------------------------------------------------ rules
    def vjp(self, expr: sp.Basic, bar: sp.Basic) -> None:
        """Adds expr's share of the gradient ``bar`` to the symbols inside it."""
        if isinstance(expr, sp.MatrixSymbol):
            if expr in self.differentiable:
                self.terms.setdefault(expr, []).append(bar)
            return
        rule = RULES.get(type(expr))
        if rule is None:
            raise TypeError(f"no reverse-mode rule for {type(expr).__name__}")
        rule(self, expr, bar)

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
            left = [transpose(m) for m in reversed(matrices[:i])]
            right = [transpose(m) for m in reversed(matrices[i + 1 :])]
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


RULES: dict[type, Callable[[Reverse, Any, sp.Basic], None]] = {
    sp.Transpose: lambda r, e, g: r.vjp(e.arg, transpose(g)),
    sp.MatAdd: Reverse.add,
    sp.MatMul: Reverse.matmul,
    SplitHeads: lambda r, e, g: r.vjp(e.arg, MergeHeads(g, e.heads)),
    MergeHeads: lambda r, e, g: r.vjp(e.arg, SplitHeads(g, e.heads)),
    StackHeads: Reverse.stack,
    sp.BlockMatrix: Reverse.blocks,
    sp.MatrixSlice: Reverse.slice,
    **operations.rules("vjp"),
}
# The rules of an assignment ``symbol = expr`` whose gradient is written with ``symbol``
# (the softmax's: A, not softmax(...)): (reverse, symbol, expr, bar).
ASSIGNED: dict[type, Callable[[Reverse, sp.MatrixSymbol, Any, sp.Basic], None]] = operations.rules(
    "assigned_vjp"
)


def _sum(terms: list[sp.Basic]) -> sp.Basic:
    """The terms added; column paddings that tile a matrix are written as its blocks."""
    if len(terms) == 1:
        return terms[0]
    tiles = _tiles(terms)
    if tiles is not None:
        return tiles
    return sp.MatAdd(*terms, evaluate=False)


def _tiles(terms: list[sp.Basic]) -> sp.Basic | None:
    """[B_1 | ... | B_k] when the terms are B_i padded to consecutive, covering columns."""
    if not all(isinstance(t, PadColumns) for t in terms):
        return None
    ordered = sorted(terms, key=lambda t: int(t.args[1]))
    start = 0
    for t in ordered:
        if int(t.args[1]) != start:
            return None
        start += int(t.args[0].shape[1])
    if int(ordered[-1].args[2]) != 0:
        return None
    return sp.BlockMatrix([[t.args[0] for t in ordered]])


def transpose(expr: sp.Basic) -> sp.Basic:
    """expr^T, a product's factors reversed; a row of blocks stays one (SymPy's ``.T`` would
    make it a column of blocks, which the printers do not write)."""
    if isinstance(expr, sp.Transpose):
        return expr.arg
    if isinstance(expr, sp.MatMul):
        coefficient, matrices = expr.as_coeff_matrices()
        factors = [transpose(m) for m in reversed(matrices)]
        return sp.MatMul(*([coefficient] if coefficient != 1 else []), *factors, evaluate=False)
    return sp.Transpose(expr) if isinstance(expr, sp.BlockMatrix) else expr.T
