"""derive(spec): the model's program walked exactly, one Step per node."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import operations
from mha_symbolic.errors import SpecError
from mha_symbolic.exact import ops
from mha_symbolic.exact.backward import LOSS_SYMBOL, backward, plan
from mha_symbolic.exact.derivation import Derivation, LazyStep, Progress, Step
from mha_symbolic.exact.rows import Entries, Softmaxes, entry_maker, shape_of
from mha_symbolic.exact.structured import structure
from mha_symbolic.exact.structured_grad import structured_gradients
from mha_symbolic.exact.values import evaluate
from mha_symbolic.model.program import Node, Program, affine_parts, build
from mha_symbolic.operations.softmax import RowSoftmax
from mha_symbolic.spec.attention import AttentionSpec, as_spec
from mha_symbolic.spec.bounds import too_large


class Evaluator:
    """Walks a program's nodes in order, keeping each value exact and compact.

    Most nodes are their expression evaluated on the values before them; the scores, the
    softmax, the attention and the output projection have rules of their own (``ops``) that
    keep one denominator per softmax row, so values read ``e/(1+e)`` and cancel to ``1/2``.
    Subclasses (the limits) override the rules of single kinds.
    """

    def __init__(self, program: Program, progress: Progress | None = None) -> None:
        self.program = program
        self.progress = progress
        self.values: dict[sp.Basic, Any] = dict(program.bindings)
        self.softmaxes: dict[sp.Basic, ops.Softmax | None] = {}
        self.exprs = {n.symbol: n.expr for n in program.nodes}  # what made each step
        self.rules: dict[str, Callable[[Node], Matrix]] = {
            "scores": self.scores,
            "softmax": self.softmax,
            "attend": self.attend,
            "output": self.output,
        }

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
        value = Matrix(self.rules.get(node.kind, self.generic)(node))
        self.values[node.symbol] = value
        return value

    def generic(self, node: Node) -> Matrix:
        return Matrix(evaluate(node.expr, self.values))

    def scores(self, node: Node) -> Matrix:
        """Q K^T with every entry multiplied out (as an operation that made Q and K writes
        it: by relative position after RoPE)."""
        q, k = node.expr.args if isinstance(node.expr, sp.MatMul) else (None, None)
        if not isinstance(k, sp.Transpose) or len(node.expr.args) != 2:
            return self.generic(node)
        made = (self.exprs.get(q), self.exprs.get(k.arg))
        for op in operations.OPERATIONS:
            value = None if op.scores is None else op.scores(*made, evaluate, self.values)
            if value is not None:
                return Matrix(value)
        return ops.scores(evaluate(q, self.values), evaluate(k.arg, self.values))

    def row_softmax(self, logits: Matrix) -> ops.Softmax | None:
        return ops.row_softmax(logits)

    def softmax(self, node: Node) -> Matrix:
        """softmax(L), each row over one shared denominator (kept for the attention)."""
        expr = node.expr
        if not isinstance(expr, RowSoftmax):
            return self.generic(node)
        softmax = self.row_softmax(evaluate(expr.arg, self.values))
        self.softmaxes[node.symbol] = softmax
        return softmax.weights if softmax is not None else self.generic(node)

    def attend(self, node: Node) -> Matrix:
        """A V, row i as (sum_j e^{a_ij} v_j) / Z_i."""
        a, v = node.expr.args
        softmax = self.softmaxes.get(a)
        if softmax is None:
            return self.generic(node)
        return ops.attend(softmax, evaluate(v, self.values))

    def output(self, node: Node) -> Matrix:
        """Concat(heads) W_O (+ b_O), formed from each head's V W_O^h (see ops)."""
        parts = affine_parts(node.expr)
        heads = [n for n in self.program.nodes if n.kind == "attend"]
        softmaxes = [self.softmaxes.get(n.expr.args[0]) for n in heads]
        if parts is None or any(s is None for s in softmaxes):
            return self.generic(node)
        _, w, bias = parts
        values = [evaluate(n.expr.args[1], self.values) for n in heads]
        b = None if bias is None else evaluate(bias, self.values)
        return self.project_output(node, softmaxes, values, evaluate(w, self.values), b)  # type: ignore[arg-type]

    def project_output(
        self,
        node: Node,
        softmaxes: list[ops.Softmax],
        values: list[Matrix],
        w: Matrix,
        b: Matrix | None,
    ) -> Matrix:
        return ops.output_projection(softmaxes, values, w, b)


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
            d = backward(walk(self.program))
            self.made = {step.key: step.value for step in d.steps}
        return self.made[key]


def backward_structured(
    d: Derivation, program: Program, progress: Progress | None, refusal: str | None
) -> Derivation | None:
    """``d`` (structured) with the loss and its ``grad.*`` steps kept as exact formulas over
    the structure (see :mod:`mha_symbolic.exact.structured_grad`), or None if not held."""
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
    return backward(d, progress) if backward_too else d
