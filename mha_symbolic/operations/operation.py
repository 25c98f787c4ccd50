"""What one kind of step means, in one object: the walkers look it up instead of branching.

An :class:`Operation` gathers, for one node kind, every rule a walker needs: the spec key it
reads, where the program builder places it, its exact step and its limit, its structured
(FLINT) and arb evaluation, its reverse-mode rule, its backward forms, its stable numeric
form, its code and the backend helpers that code calls. Rules of an expression are keyed by
the matrix-expression class they apply to, so the walkers (``model.rules``, ``exact.values``,
``exact.structured``, ``exact.structured_grad``, ``exact.backward``, ``numeric``) merge them
into their tables; rules of a step are found by the node's kind (``BY_KIND``). A walker
passes itself to a rule (the evaluator, the limit walk, the reverse pass, the lowering), so
an operation imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr

Rule = Callable[..., Any]
# Where in a head the builder places an operation, in order: on the streams (q, k, v), to
# make the scores, to scale them, on the logits, to make the weights, to make the output.
STAGES = ("streams", "scores", "scale", "logits", "weights", "output")
# After the heads (``place`` gets head 0): the heads joined, then the output made of them.
AFTER_HEADS = ("join", "out")
STREAMS = ("q", "k", "v")  # a head's queries, keys and values
SOURCE = {"q": "query", "k": "key", "v": "value"}  # the input each stream projects
# When the spec reader reads an operation's fields (``Operation.fields``): with the spec's
# settings (heads, layout, convention known); once the inputs are read (their lengths
# known); the [weights] table, its grouped-query heads spread.
READ_AT = ("settings", "inputs", "weights")


def each(program: Any, kind: str, change: Callable[[Any], Any]) -> Any:
    """The program with every node of ``kind`` changed (a rewrite: see ``Operation.rewrites``)."""
    return program.replace(tuple(change(n) if n.kind == kind else n for n in program.nodes))


class Unary(MatrixExpr):
    """A node that acts on one matrix ``arg`` (its first argument) and keeps its shape; an
    operation's own settings (RoPE's base, ALiBi's slopes) follow as further arguments."""

    def __new__(cls, arg: Any, *settings: Any) -> Unary:
        return MatrixExpr.__new__(cls, sp.sympify(arg), *settings)

    @property
    def arg(self) -> MatrixExpr:
        return self.args[0]

    @property
    def shape(self) -> tuple[Any, Any]:
        return self.arg.shape


@dataclass(frozen=True)
class Operation:
    """One node kind and everything it means (empty fields: the walker's generic rule)."""

    kind: str  # the node kind (``Node.kind``) and the name the tables know it by
    steps: tuple[str, ...] = ()  # the per-head steps it adds (``head{n}.<step>``), in order
    nodes: tuple[type, ...] = ()  # the matrix-expression classes it owns
    # The spec key and its reader: (raw value, the spec's values read so far) -> its setting,
    # None when the operation is off. Errors are one SpecError line naming the key.
    spec_key: str | None = None
    read: Callable[[Any, Mapping[str, Any]], Any] | None = None
    # Or the spec's own fields it reads (the scale's ``scale``; the mask's ``mask_kind``,
    # ``mask``, ``mask_fill``; the projections' ``weights``): (raw spec, the spec's values
    # read so far) -> those fields, called at ``read_at`` (one of READ_AT).
    fields: Callable[[Mapping[str, Any], Mapping[str, Any]], Mapping[str, Any]] | None = None
    read_at: str = "settings"
    # Where it goes in a head (one of STAGES) and how: place(builder, head n, setting, parts)
    # -> the parts the head goes on with, by name: q, k, v (their last steps), scores, logits,
    # weights, output. A part a spec gives (its scores, say) is there before the stage. After
    # the heads (one of AFTER_HEADS) n is 0 and the parts are the heads, concat, output.
    stage: str | None = None
    rank: int = 0  # its order among the operations of its stage (then by kind)
    place: Callable[[Any, int, Any, Any], Any] | None = None
    # How the heads' streams are made from the inputs (the projections', by layout; one
    # operation has it): (builder, inputs by stream) -> per head, {stream: (kind, expr)}.
    streams: Rule | None = None
    exact: Mapping[type, Rule] = field(default_factory=dict)  # (expr, values, evaluate)
    # Its step's exact value by a rule of its own rather than its expression evaluated (the
    # softmax keeps each row over one denominator): (evaluator, node) -> Matrix; and the same
    # as a parameter goes to a limit (default: the limit of the step's exact value).
    step: Rule | None = None
    limit: Rule | None = None
    structured: Mapping[type, Rule] = field(default_factory=dict)  # (expr, values, value_of)
    # A gradient formula's node in arb balls (exact.structured_grad): (balls walker, expr).
    balls: Mapping[type, Rule] = field(default_factory=dict)
    vjp: Mapping[type, Rule] = field(default_factory=dict)  # (reverse, expr, bar)
    # The rule of an assignment ``symbol = expr`` whose gradient is written with the step's
    # own name (the softmax's A): (reverse, symbol, expr, bar).
    assigned_vjp: Mapping[type, Rule] = field(default_factory=dict)
    forms: Mapping[type, Rule] = field(default_factory=dict)  # (forms walker, expr)
    # What the backward forms keep of its step (the softmax: its rows over one denominator,
    # whose exponentials join the ring): (derivation, program, node) -> ops.Softmax.
    kept: Rule | None = None
    # Its forward step's forms when a gradient reads it, built rather than taken as the exact
    # value's constants (from the softmax onwards): (forms walker, node) -> Forms.
    forward_forms: Rule | None = None
    # Q K^T of two of its outputs, exactly (RoPE: by relative position), or None: a product.
    scores: Rule | None = None  # (q expr, k expr, evaluator) -> Matrix | None
    # Its step's values are numbers the backward ring is built from (like the projections).
    ring_values: bool = False
    # The numbers its node multiplies by (the scale's 1/sqrt(2)): generators of that ring.
    ring_factors: Rule | None = None  # (node, scalar leaves -> values) -> list of numbers
    # Its step for numeric evaluation (lambdify), entries named once and the softmax made
    # stable: (stages, node) -> Matrix; None: the exact value (before the softmax).
    stable: Rule | None = None
    code: Rule | None = None  # (lowering, node) -> the node as a code expression
    # The name its code is assigned under when the backward pass reads its value (the
    # softmax's weights: A); None: inlined into the next step's code.
    assigned_as: str | None = None
    # backend (numpy, torch, jax; numpy_backward...: the backward pass's) -> helpers' source
    prelude: Mapping[str, str] = field(default_factory=dict)
    # The likely mistakes a reader makes at this operation, as rewrites of the program by name
    # (:mod:`mha_symbolic.model.rewrite` lists them): program -> program (``column_softmax``),
    # or a maker of one (``scaled_by(factor)``). The checker re-walks the rewritten program.
    rewrites: Mapping[str, Rule] = field(default_factory=dict)
    # The first kind of step a rewrite can change, by its name, when it is not this
    # operation's own (earlier steps keep their values, so the checker skips them there).
    first_changed: Mapping[str, str] = field(default_factory=dict)
    # What the presentation asks the model of this operation, by name (the scale's ``scale``,
    # the mask's ``mask``, RoPE's ``rope``): program -> the answer; ``Facts.<name>`` asks it.
    facts: Mapping[str, Rule] = field(default_factory=dict)
    # What its step is to the presentation (``Facts.is_a``): ``weights`` (rows that add up
    # to 1: a heatmap, limits, the default parameter plot), ``scores`` (queries' dot
    # products with keys: the token-by-token working), ``query_by_key`` (entry i, j is
    # query i's about key j: a plot labels it by the two tokens), ``projection`` (a stream
    # made from the inputs by weights: the given weights are written before it),
    # ``weighted_values`` (a head's output, its weights times its values: what a document
    # assumes of a head), ``joined_heads`` (the heads side by side: a printed row is checked
    # head by head), ``final`` (the output, after W_O when the spec has one: W_O is written
    # before it, and without W_O it passes the joined heads on), ``inside_softmax`` (the
    # closed form ``softmax(Q K^T / sqrt(d_k)) V`` writes it out inside the head's formula
    # rather than by its symbol: the scale, the mask, the softmax; not ALiBi's bias).
    roles: frozenset[str] = frozenset()
    # What its step's caption adds: (program, node) -> (numbers as exact values, which the
    # solution writes as LaTeX; a suffix of the caption's locale key: ``_none``, ``_fill``).
    caption: Rule | None = None
    # Its step as (factor, the earlier step's symbol it multiplies), which a worked solution
    # writes over that step just shown (the scale's ``c S`` for ``c Q K^T``): (program, node).
    factored: Rule | None = None

    def setting(self, spec: Any) -> Any:
        """The spec's value for this operation (None: off); an operation without a key is
        always on (True), one without a reader of its own has a field of the spec (the mask's)."""
        if self.spec_key is None:
            return True
        if self.read is None:
            return getattr(spec, self.spec_key, None)
        return spec.operations.get(self.spec_key)
