"""derive(spec): the model's program walked exactly, one Step per node."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import operations
from mha_symbolic.errors import SpecError
from mha_symbolic.exact import ops
from mha_symbolic.exact.derivation import Derivation, LazyStep, Progress, Step
from mha_symbolic.exact.rows import Entries, Softmaxes, entry_maker, shape_of
from mha_symbolic.exact.structured import structure
from mha_symbolic.exact.values import evaluate
from mha_symbolic.model.program import Node, Program, build
from mha_symbolic.spec.attention import AttentionSpec, as_spec
from mha_symbolic.spec.bounds import too_large


class Evaluator:
    """Walks a program's nodes in order, keeping each value exact and compact.

    Most nodes are their expression evaluated on the values before them; an operation may
    make its step by a rule of its own (``Operation.step``: the scores, the softmax, the
    attention and the output projection keep one denominator per softmax row, so values read
    ``e/(1+e)`` and cancel to ``1/2``). A subclass (the limits) reads another rule of each.
    """

    rule = "step"  # the operations' rule this walk uses (``Operation.step``)

    def __init__(self, program: Program, progress: Progress | None = None) -> None:
        self.program = program
        self.progress = progress
        self.values: dict[sp.Basic, Any] = dict(program.bindings)
        # A softmax's rows over one denominator, by its step's symbol: the steps after it
        # (the attention, the output projection) build on them.
        self.softmaxes: dict[sp.Basic, ops.Softmax | None] = {}
        self.exprs = {n.symbol: n.expr for n in program.nodes}  # what made each step

    def run(self) -> list[Step]:
        steps = []
        for node in self.program.nodes:
            value = self.compute(node)
            steps.append(Step(node.key, node.kind, node.symbol, node.formula, value, node.head))
            if self.progress is not None:
                self.progress(node.key)
        return steps

    def compute(self, node: Node) -> Matrix:
        """Node ``node``'s exact value (every node before it must be computed first)."""
        op = operations.BY_KIND.get(node.kind)
        rule = None if op is None else getattr(op, self.rule)
        value = Matrix(self.generic(node) if rule is None else rule(self, node))
        self.values[node.symbol] = value
        return value

    def generic(self, node: Node) -> Matrix:
        """A step without a rule of its own: its expression evaluated."""
        return self.evaluated(node)

    def evaluated(self, node: Node) -> Matrix:
        return self.value(node.expr)

    def value(self, expr: sp.Basic) -> Any:
        """``expr`` on the values known so far, exactly."""
        return evaluate(expr, self.values)


def walk(program: Program, progress: Progress | None = None) -> Derivation:
    """The program's forward steps, exactly."""
    steps = Evaluator(program, progress).run()
    return Derivation(program.spec, tuple(steps), program.bindings, program=program)


class _OnDemand:
    """SymPy values made in program order, only as far as the step asked for."""

    def __init__(self, program: Program, refusal: str | None = None) -> None:
        self.evaluator = Evaluator(program)
        self.pending = iter(program.nodes)
        self.made: dict[str, Matrix] = {}
        self.refusal = refusal  # why making SymPy values would take minutes (None: go ahead)

    def __call__(self, key: str) -> Matrix:
        if self.refusal is not None and key not in self.made:
            raise SpecError(self.refusal)
        while key not in self.made:
            node = next(self.pending)
            self.made[node.key] = self.evaluator.compute(node)
        return self.made[key]


def walk_structured(
    program: Program, progress: Progress | None = None, refusal: str | None = None
) -> Derivation | None:
    """The program's steps kept in their structured form (SymPy values made on demand, or
    refused with ``refusal`` when that would take minutes), or None when the spec has
    something that form does not hold."""
    values = structure(program, progress)
    if values is None:
        return None
    make = _OnDemand(program, refusal)
    softmaxes = Softmaxes()  # each head's softmax rows, made once for all the steps reading them
    steps = tuple(
        LazyStep(
            node.key,
            node.kind,
            node.symbol,
            node.formula,
            make,
            node.head,
            _entries(values[node.key], softmaxes),
        )
        for node in program.nodes
    )
    return Derivation(
        program.spec, steps, program.bindings, program=program, structured=values, refusal=refusal
    )


def _entries(form: object, softmaxes: Softmaxes) -> Entries | None:
    maker = entry_maker(form, softmaxes)
    return None if maker is None else Entries(shape_of(form), maker)


class _OnDemandBackward:
    """The gradients' SymPy values, all made the first time one is asked for."""

    def __init__(self, program: Program, refusal: str | None) -> None:
        self.program, self.refusal = program, refusal
        self.made: dict[str, Matrix] = {}

    def __call__(self, key: str) -> Matrix:
        if not self.made:
            if self.refusal is not None:
                raise SpecError(self.refusal)
            from mha_symbolic.exact.backward import backward

            d = backward(walk(self.program))
            self.made = {step.key: step.value for step in d.steps}
        return self.made[key]


def backward_structured(
    d: Derivation, program: Program, progress: Progress | None, refusal: str | None
) -> Derivation | None:
    """``d`` (structured) with the loss and its ``grad.*`` steps kept as exact formulas over
    the structure (see :mod:`mha_symbolic.exact.structured_grad`), or None if not held."""
    from mha_symbolic.exact.backward import LOSS_SYMBOL, plan
    from mha_symbolic.exact.structured_grad import structured_gradients

    planned = plan(program)
    loss = d.spec.loss
    target = loss.target if loss is not None else None
    assert d.structured is not None
    gradients = structured_gradients(program, d.structured, planned, target)
    if gradients is None:
        return None
    make = _OnDemandBackward(program, refusal)
    steps = [LazyStep("loss", "loss", LOSS_SYMBOL, planned.loss.expr, make)]
    steps += [
        LazyStep(k, "grad", bar, formula, make, head) for k, head, bar, formula in planned.steps
    ]
    if progress is not None:
        for step in steps:
            progress(step.key)
    bindings = dict(d.bindings)
    if planned.loss.target is not None and target is not None:
        bindings[planned.loss.target] = target
    return Derivation(
        d.spec,
        d.steps + tuple(steps),
        bindings,
        program=program,
        structured={**d.structured, **gradients},
        refusal=refusal,
    )


def derive(
    spec: AttentionSpec | Mapping[str, Any],
    gradients: bool | None = None,
    progress: Progress | None = None,
    large: bool = False,
) -> Derivation:
    """Every step of multi-head attention for ``spec``, exactly.

    ``gradients``: also backpropagate the spec's loss (the ``loss`` and ``grad.*`` steps);
    by default only when the spec has a ``[loss]`` table. ``progress`` is called with each
    step's key once its value is known (for long work).

    With rational inputs the values are kept in their exact structure (rational matrices,
    softmax rows over one denominator): ``enclose`` and ``verify`` read it directly, in
    seconds at model scale, and ``d[key]`` makes a step's SymPy value when first asked for.
    Where making the SymPy values (or, for other specs, the derivation itself) is estimated
    to take minutes it is refused with a SpecError unless ``large`` is true.
    """
    spec = as_spec(spec, "derive takes an AttentionSpec or a dict of its keys")
    backward_too = gradients if gradients is not None else spec.loss is not None
    refusal = None if large else too_large(spec)
    program = build(spec)
    values_refusal = None if large else too_large(spec, "SymPy values")
    d = walk_structured(program, progress, values_refusal)
    if d is not None and backward_too:
        d = backward_structured(d, program, progress, values_refusal)
    if d is not None:
        return d  # seconds even at model scale; SymPy values are made only when asked for
    if refusal is not None:
        raise SpecError(refusal)
    d = walk(program, progress)
    if not backward_too:
        return d
    from mha_symbolic.exact.backward import backward  # (the gradients: only when asked for)

    return backward(d, progress)
