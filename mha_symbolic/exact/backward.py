"""Exact backpropagation: the model's reverse-mode rules (``model.rules``) evaluated exactly.

The rules turn the per-head program into one gradient formula per forward step (``grad.<key>``)
and per weight; each formula is evaluated in the compact exact arithmetic of
:mod:`mha_symbolic.exact.forms`, so a softmax gradient reads ``-e / (2 (1 + e)^2)`` and terms
that cancel give an exact 0.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from mha_symbolic import operations
from mha_symbolic.exact import ops
from mha_symbolic.exact.derivation import Derivation, Progress, Step
from mha_symbolic.exact.forms import Algebra, Forms, coefficients_of, columns, hstack, transpose
from mha_symbolic.model import rules
from mha_symbolic.model.nodes import (
    EntrySum,
    HalfSquaredNorm,
    OnesLike,
    PadColumns,
)
from mha_symbolic.model.program import (
    HEAD_STEPS,
    INPUTS,
    OUTER_STEPS,
    PROJECTED,
    STREAMS,
    Leaf,
    Node,
    Program,
    build,
)

# A step's name: a letter, maybe under an accent an operation gives it (\tilde, \hat, \check).
_NAME = re.compile(r"(\\mathrm\{[^}]*\}|\\[a-z]+\{[^}]*\}|[A-Za-z])(.*)")


def bar_label(name: str) -> str:
    """The gradient's name: ``S_{1}`` -> ``\\bar{S}_{1}``, ``\\mathrm{head}_{1}`` ->
    ``\\overline{\\mathrm{head}}_{1}``, ``W_{Q}^{1}`` -> ``\\bar{W}_{Q}^{1}``."""
    match = _NAME.fullmatch(name)
    assert match is not None, name
    base, rest = match.groups()
    over = r"\overline" if base.startswith(r"\mathrm") else r"\bar"
    return f"{over}{{{base}}}{rest}"


def _names(symbol: sp.MatrixSymbol, leaf: bool) -> tuple[str, str]:
    return bar_label(symbol.name), symbol.name


EXACT = rules.Policy(_names, every_step=True, temporaries=False, batch_sum=False, own_steps=False)


class _Forms:
    """Evaluates forward and gradient formulas in the exact arithmetic of one Algebra."""

    def __init__(self, d: Derivation, program: Program, target: sp.MatrixSymbol | None) -> None:
        self.d, self.program = d, program
        self.scalars = {lf.symbol: lf.value for lf in program.leaves if lf.role == "d_k"}
        # What an operation keeps of its step (the softmax: its rows over one denominator),
        # whose exponentials and sums join the ring.
        self.kept: dict[sp.Basic, ops.Softmax] = {}
        for node in program.nodes:
            op = operations.BY_KIND.get(node.kind)
            if op is not None and op.kept is not None:
                self.kept[node.symbol] = op.kept(d, program, node)
        self.alg = Algebra(self._leaves(target), self._factors())
        self.forms: dict[sp.Basic, Forms] = {}  # filled as the gradients' formulas ask
        self.values: dict[sp.Basic, sp.MatrixBase] = {
            lf.symbol: lf.value for lf in program.leaves if isinstance(lf.value, sp.MatrixBase)
        }
        if target is not None:
            loss = d.spec.loss
            assert loss is not None and loss.target is not None
            self.values[target] = loss.target
        self.nodes = {node.symbol: node for node in program.nodes}
        self.gradients: dict[sp.Basic, sp.Basic] = {}  # gradient symbol -> its formula

    def _leaves(self, target: sp.MatrixSymbol | None) -> list[sp.Expr]:
        """Every number and symbol a coefficient is built from (so one ring holds them all)."""
        kinds = ("input", "slice", *(op.kind for op in operations.OPERATIONS if op.ring_values))
        matrices = [s.value for s in self.d.steps if s.kind in kinds]
        matrices += [lf.value for lf in self.program.leaves if _is_weight(lf)]
        loss = self.d.spec.loss
        matrices += [loss.target] if loss is not None and loss.target is not None else []
        extras = [e for s in self.kept.values() for row in s.exps for e in row]
        extras += [z.value for s in self.kept.values() for z in s.sums]
        return [e for m in matrices for e in m] + coefficients_of(extras)

    def _factors(self) -> list[sp.Expr]:
        """The numbers the nodes multiply by (the score scales 1/sqrt(2), 1/tau): generators
        of their own in the ring."""
        out = []
        for node in self.program.nodes:
            op = operations.BY_KIND.get(node.kind)
            if op is not None and op.ring_factors is not None:
                out += op.ring_factors(node, self.scalars)
        return out

    def forward(self, node: Node) -> Forms:
        """A forward step's forms: its exact value, or as its operation builds them (from the
        softmax onwards)."""
        op = operations.BY_KIND.get(node.kind)
        if op is not None and op.forward_forms is not None:
            return op.forward_forms(self, node)
        return self.alg.constants(self.d[node.key])

    def of(self, expr: sp.Basic) -> Forms:
        if isinstance(expr, sp.MatrixSymbol):
            if expr not in self.forms:
                self.forms[expr] = self.symbol(expr)
            return self.forms[expr]
        return _RULES[type(expr)](self, expr)

    def symbol(self, symbol: sp.MatrixSymbol) -> Forms:
        """A leaf's, a forward step's or a gradient's forms, made the first time it is used."""
        if symbol in self.gradients:
            return self.of(self.gradients[symbol])
        if symbol in self.values:
            return self.alg.constants(self.values[symbol])
        return self.forward(self.nodes[symbol])

    def matmul(self, expr: sp.MatMul) -> Forms:
        coefficient, matrices = expr.as_coeff_matrices()
        out = self.of(matrices[0])
        for m in matrices[1:]:
            out = self.alg.matmul(out, self.of(m))
        return out if coefficient == 1 else self.alg.times(out, coefficient.xreplace(self.scalars))

    def add(self, expr: sp.MatAdd) -> Forms:
        parts = [self.of(arg) for arg in expr.args]
        out = parts[0]
        for part in parts[1:]:
            out = self.alg.combine(out, part)
        return out

    def pad(self, expr: PadColumns) -> Forms:
        before, after = int(expr.args[1]), int(expr.args[2])
        return [[{}] * before + row + [{}] * after for row in self.of(expr.args[0])]


def _is_weight(leaf: Leaf) -> bool:
    return leaf.role.startswith(("w_", "b_"))


_RULES: dict[type, Callable[[_Forms, Any], Forms]] = {
    sp.MatMul: _Forms.matmul,
    sp.MatAdd: _Forms.add,
    sp.Transpose: lambda f, e: transpose(f.of(e.arg)),
    sp.OneMatrix: lambda f, e: f.alg.constants(sp.ones(*e.shape)),
    OnesLike: lambda f, e: f.alg.constants(sp.ones(*e.shape)),
    sp.MatrixSlice: lambda f, e: columns(f.of(e.parent), int(e.colslice[0]), int(e.colslice[1])),
    sp.BlockMatrix: lambda f, e: hstack([f.of(b) for b in e.blocks]),
    PadColumns: _Forms.pad,
    EntrySum: lambda f, e: [[f.alg.add(*(x for row in f.of(e.args[0]) for x in row))]],
    HalfSquaredNorm: lambda f, e: f.alg.times(
        [[f.alg.squares(f.of(e.args[0]))]], sp.Rational(1, 2)
    ),
    **operations.rules("forms"),
}


def _backwards(steps: tuple[str, ...]) -> tuple[str, ...]:
    """A head's steps as its gradients come: the program's order reversed, the streams of one
    step (q, k, v; q_rot, k_rot) kept in their own order, and v right after the output, whose
    gradient A^T Ō comes straight from it."""

    def step(stage: str) -> str:  # q_rot and k_rot are one step (rot) of two streams
        stream, _, rest = stage.partition("_")
        return rest if stream in STREAMS else stage

    groups = [list(group) for _, group in itertools.groupby(steps, step)]
    out = [stage for group in reversed(groups) for stage in group if stage != "v"]
    return (out[0], "v", *out[1:])


# The order of the grad steps: the output side, each head's attention, each head's projections,
# the fused projections, then the inputs (as a worked solution goes back through the steps).
_HEAD_STAGES = _backwards(HEAD_STEPS)
_HEAD_WEIGHTS = (*(role for stream in STREAMS for role in PROJECTED[stream]), *INPUTS)
_FUSED = tuple(name for stream in STREAMS for name in (stream, *PROJECTED[stream]))
_OUTER = tuple(name for step in reversed(OUTER_STEPS) for name in (step, *PROJECTED.get(step, ())))
_HEAD_KEY = re.compile(r"grad\.head(\d+)\.(.+)")


def order(key: str) -> tuple[int, ...]:
    """Where the grad step ``key`` goes among the others."""
    if key == "loss":
        return (0,)
    match = _HEAD_KEY.fullmatch(key)
    if match:
        n, stage = int(match.group(1)), match.group(2)
        if stage in _HEAD_STAGES:
            return (2, n, _HEAD_STAGES.index(stage))
        return (3, n, _HEAD_WEIGHTS.index(stage))
    name = key.removeprefix("grad.")
    if name in _OUTER:
        return (1, _OUTER.index(name))
    if name in _FUSED:
        return (4, _FUSED.index(name))
    return (5, INPUTS.index(name))


def _key(program: Program, symbol: sp.Basic) -> tuple[str, int | None]:
    """The grad step key and head of a forward symbol's gradient."""
    for node in program.nodes:
        if node.symbol == symbol:
            return f"grad.{node.key}", node.head
    leaf = next(lf for lf in program.leaves if lf.symbol == symbol)
    if leaf.head is None:
        return f"grad.{leaf.role}", None
    return f"grad.head{leaf.head + 1}.{leaf.role}", leaf.head + 1


@dataclass(frozen=True)
class Plan:
    """The backward pass of a program as formulas: the loss, then each ``grad.*`` step."""

    loss: rules.Loss
    assignments: tuple[tuple[sp.Basic, sp.Basic], ...]  # gradient symbol = formula, in order
    steps: tuple[tuple[str, int | None, sp.MatrixSymbol, sp.Basic], ...]  # key, head, bar, formula


def plan(program: Program) -> Plan:
    """The reverse-mode rules applied to ``program`` for its spec's loss."""
    spec = program.spec
    output = program.result.symbol
    loss = rules.loss(output, spec.loss.kind if spec.loss is not None else "sum")
    forward = [(n.symbol, n.expr) for n in program.nodes if n.kind != "input"]
    inputs = [n.symbol for n in program.nodes if n.kind == "input"]
    weights = [lf.symbol for lf in program.leaves if _is_weight(lf) and lf.role not in spec.omitted]
    reverse = rules.Reverse(forward, [*inputs, *weights], EXACT).run(output, loss.output_bar)
    owners = {bar: symbol for symbol, bar in reverse.bars.items()}
    keyed = sorted(
        ((*_key(program, owners[bar]), bar, formula) for bar, formula in reverse.assignments),
        key=lambda item: order(item[0]),
    )
    return Plan(loss, tuple(reverse.assignments), tuple(keyed))


LOSS_SYMBOL = sp.MatrixSymbol("L", 1, 1)


def backward(d: Derivation, progress: Progress | None = None) -> Derivation:
    """``d`` with the loss and every ``grad.*`` step appended, exactly (``progress`` is told
    each step's key as it is done)."""
    program = d.program if d.program is not None else build(d.spec)
    spec = d.spec
    planned = plan(program)
    loss = planned.loss
    forms = _Forms(d, program, loss.target)
    total = forms.of(loss.expr)
    steps = [Step("loss", "loss", LOSS_SYMBOL, loss.expr, forms.alg.matrix(total))]
    if progress is not None:
        progress("loss")
    forms.gradients.update(planned.assignments)
    for key, head, bar, formula in planned.steps:  # each computed (with what it needs) in order
        steps.append(Step(key, "grad", bar, formula, forms.alg.matrix(forms.of(bar)), head))
        if progress is not None:
            progress(key)
    bindings = dict(d.bindings)
    if loss.target is not None and spec.loss is not None:
        bindings[loss.target] = spec.loss.target
    return Derivation(spec, d.steps + tuple(steps), bindings, program=program)
