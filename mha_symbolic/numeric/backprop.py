"""The compiled backward pass: the model's reverse-mode rules applied to the lowered program.

:func:`program` lowers the spec's model (each softmax its own assignment) and walks it
backwards with the one table of rules in :mod:`mha_symbolic.model.rules`, with the code
policy: shared gradients named once, a weight's gradient summed over the batch.
:func:`source` prints them with the forward pass's printers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from mha_symbolic.model import rules
from mha_symbolic.model.nodes import (
    BatchSum,
    HalfSquaredNorm,
    HeadOf,
    MergeHeads,
    SplitHeads,
    StackHeads,
)
from mha_symbolic.numeric import codegen, preludes
from mha_symbolic.numeric.codegen import INPUTS, Program


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
    return backward(codegen.program(spec, explicit_weights=True))


def _code_names(names: dict[sp.Basic, str]) -> rules.Names:
    """Gradients in code: ``\\bar{Q}`` is ``Q_bar``; an argument's is ``grad_w_q``."""

    def name(symbol: sp.MatrixSymbol, leaf: bool) -> tuple[str, str]:
        code = f"grad_{names[symbol]}" if leaf else f"{names[symbol]}_bar"
        return rf"\bar{{{symbol.name}}}", code

    return name


CODE = "code"  # the policy below: temporaries, batch sums, the softmax's backward assigned


def backward(forward: Program) -> GradientProgram:
    """The lowered forward program, its loss, and the backward assignments of the one table
    of reverse-mode rules (``model.rules``)."""
    spec = forward.spec
    names = dict(forward.names)
    inputs = [s for name in INPUTS for s, code in forward.names.items() if code == name]
    weights = [a for a in forward.arguments if a.name not in spec.omitted]
    policy = rules.Policy(_code_names(names), False, True, True, True)
    summed = [a.symbol for a in weights]
    reverse = rules.Reverse(forward.assignments, [*inputs, *summed], policy, summed)
    output = forward.assignments[-1][0]
    loss = rules.loss(output, spec.loss.kind if spec.loss is not None else "sum")
    start, loss_expr = loss.output_bar, loss.expr
    if loss.target is not None:
        names[loss.target] = "target"
        start = reverse.assign(r"\bar{O}", "output_bar", loss.output_bar)
        loss_expr = HalfSquaredNorm(start)
    reverse.run(output, start)
    for symbol in inputs:  # an input the output does not read (given scores: no K)
        if symbol not in reverse.bars:
            label, code = reverse.policy.names(symbol, True)
            zero = sp.MatMul(0, symbol, evaluate=False)
            reverse.bars[symbol] = reverse.assign(label, code, zero)
    names.update(reverse.names)
    gradients = [Gradient(names[s], None, reverse.bars[s]) for s in inputs]
    gradients += [Gradient(a.name, a.head, reverse.bars[a.symbol]) for a in weights]
    assignments = (*forward.assignments, *reverse.assignments)
    stacked: set[sp.MatrixSymbol] = set()
    for symbol, formula in assignments:
        if forward.head_axis and _stacked(formula, stacked):
            stacked.add(symbol)
    return GradientProgram(
        forward, loss_expr, assignments, names, tuple(gradients), frozenset(stacked), loss.target
    )


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
    prelude += codegen.helpers(program.forward.assignments, backend)
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
    prelude += codegen.GRADIENT_PRELUDES[backend]
    prelude += codegen.helpers(program.assignments, f"{backend}_backward")
    return prelude + "\n\n" + "\n".join(lines) + "\n"


def _autograd_source(program: GradientProgram) -> str:
    """torch: the forward program, the loss, and ``torch.autograd.grad`` of the summed loss
    with respect to the inputs and the differentiated weights (``program.gradients``)."""
    printer_class, prelude = codegen.BACKENDS["torch"]
    forward = codegen.program(program.forward.spec)  # softmax(S) V as one SDPA call
    prelude += codegen.helpers(forward.assignments, "torch")
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


TORCH_AUTOGRAD_PRELUDE = "\n\n" + preludes.text("torch_autograd")


def _shape_comment(program: GradientProgram, symbol: sp.MatrixSymbol, formula: sp.Basic) -> str:
    rows, cols = symbol.shape
    if isinstance(formula, BatchSum):
        return f"  # ({rows}, {cols})"
    heads = f"{program.forward.spec.heads}, " if symbol in program.stacked else ""
    return f"  # (..., {heads}{rows}, {cols})"
