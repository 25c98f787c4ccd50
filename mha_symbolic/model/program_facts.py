"""What a worked solution and the checker ask of the model, answered from the program.

The presentation (``solution``, ``check``) asks these questions instead of reading the spec's
fields: is there a scale and what is it, is there a mask and how does it fill, is there an
output projection, which layout made the heads, where does the example start. Most answers are
read off the nodes and leaves (the scaled node's factor, the mask leaf, the W_O leaf, a node of
kind ``rope``, the layout and the convention from the projections). Those the nodes do not hold
(the loss, the declared parameters, which weights were left out or given as symbols, the
inputs' shapes past a given stage) are read here from the program's spec, once.

A node's operation may also speak for its caption: an object in a node's ``expr`` (or the node
itself) that defines ``caption_numbers(self) -> dict`` adds those numbers to the ones its
caption may name, and one that defines ``caption_variant(self) -> str`` appends that suffix
(``"_none"``, ``"_divided"``) to its caption's locale key; see :func:`Facts.caption`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.model.affine import affine_parts
from mha_symbolic.model.program import SOURCE, Node, Program
from mha_symbolic.operations.mask import MaskedFill


@dataclass(frozen=True)
class Scale:
    """The factor s of a head's ``softmax(s Q K^T)``."""

    factor: sp.Expr  # as the formulas write it: 1/sqrt(d_k) with d_k a symbol, 1/tau, 1
    is_identity: bool  # s = 1: the scores are the logits
    is_default: bool  # s = 1/sqrt(d_k) of the head's own width, as the spec's default makes it

    @property
    def given(self) -> bool:
        """A factor the spec gives (neither 1 nor the default)."""
        return not (self.is_identity or self.is_default)


@dataclass(frozen=True)
class Mask:
    """The mask every head's scores take."""

    kind: str  # "causal" or "matrix"
    fill: sp.Expr  # -oo: blocked scores are dropped; a number: they are set to it (masked_fill)

    @property
    def filled(self) -> bool:
        return self.fill != -sp.oo


class Facts:
    """The answers for one program (see the module's docstring)."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self._spec = program.spec  # only for what the nodes do not hold (module docstring)

    # ------------------------------------------------------------------ heads and stages
    @property
    def heads(self) -> range:
        """The head numbers, 1-based."""
        return self.program.heads()

    def kind(self, key: str) -> str | None:
        """The kind of step ``key``'s node; None when the program has no such step."""
        return self.program.node(key).kind if key in self.program else None

    @property
    def given(self) -> str:
        """Where the example starts: ``inputs``, ``qkv`` (each head's Q, K, V), ``scores`` (the
        scores and V) or ``weights`` (the softmax weights and V)."""
        for stage, key in (("weights", "head1.weights"), ("scores", "head1.scores")):
            if self.kind(key) == "input":
                return stage
        return "qkv" if self.kind("head1.q") == "input" else "inputs"

    @property
    def has_inputs(self) -> bool:
        """x (or query, key, value) is given and projected."""
        return any(n.kind == "input" and n.head is None for n in self.program)

    @property
    def scores_given(self) -> bool:
        """Each head's scores are given (with the values, projected or given)."""
        return self.kind("head1.scores") == "input"

    @property
    def self_attention(self) -> bool:
        """One input x for the queries, keys and values."""
        return "x" in self.program or not any(s in self.program for s in SOURCE.values())

    def shape(self, name: str) -> tuple[int, int]:
        """(rows, columns) of the input ``name`` (``query``, ``key`` or ``value``): its leaf's;
        past the inputs, the spec's, whose rows are the given stage's and columns 0."""
        leaf = next((lf for lf in self.program.leaves if lf.role in ("x", name)), None)
        rows, cols = (leaf.value if leaf is not None else getattr(self._spec, name)).shape
        return int(rows), int(cols)

    # ------------------------------------------------------------------ the operations
    def scale(self, head: int = 1) -> Scale:
        """Head ``head``'s scale (the identity when the weights are given: nothing is scaled)."""
        key = f"head{head}.scaled"
        if key not in self.program:
            return Scale(sp.Integer(1), True, False)
        node = self.program.node(key)
        factor = sp.Mul(*(a for a in node.expr.args if not getattr(a, "is_Matrix", False)))
        return Scale(factor, factor == 1, self._is_default(factor))

    def _is_default(self, factor: sp.Expr) -> bool:
        """1/sqrt(d_k) as the program writes it: over its d_k leaf, or (heads of another
        width) the unevaluated power the spec's numbers never make."""
        if any(leaf.role == "d_k" and factor.has(leaf.symbol) for leaf in self.program.leaves):
            return True
        return (
            isinstance(factor, sp.Pow)
            and factor.exp == sp.Rational(-1, 2)
            and bool(factor.base.is_Integer)
        )

    @property
    def mask(self) -> Mask | None:
        """The mask of the scores; None when nothing is masked."""
        masked = next((n for n in self.program if n.kind == "mask"), None)
        if masked is None:
            return None
        fill = masked.expr.args[2] if isinstance(masked.expr, MaskedFill) else -sp.oo
        leaf = next(lf for lf in self.program.leaves if lf.role == "mask")
        return Mask(leaf.kind or "matrix", fill)

    @property
    def rope(self) -> bool:
        """Rotary position embeddings turn the queries and keys."""
        return any(n.kind == "rope" for n in self.program)

    @property
    def output_projection(self) -> bool:
        """The concatenated heads are multiplied by W_O (else the output is the concat)."""
        return any(leaf.role == "w_o" for leaf in self.program.leaves)

    @property
    def layout(self) -> str:
        """How the heads are made from x: ``fused`` (one projection per stream, then cut),
        ``split`` (x cut into slices, one per head) or ``per_head`` (each head projects x)."""
        if any(n.kind == "project" and n.head is None for n in self.program):
            return "fused"
        inputs = {"x", *SOURCE.values()}
        slices = (n for n in self.program if n.kind == "slice" and n.head is not None)
        return "split" if any(n.key.split(".", 1)[1] in inputs for n in slices) else "per_head"

    @property
    def fused(self) -> bool:
        return self.layout == "fused"

    @property
    def convention(self) -> str:
        """``xW`` (W is in x out, Q = X W) or ``xWT`` (PyTorch's, Q = X W^T): how the
        projections multiply their weights (``xW`` where nothing is projected)."""
        for node in self.program:
            parts = affine_parts(node.expr) if node.kind in ("project", "output") else None
            if parts is not None and isinstance(parts[1], sp.Transpose):
                return "xWT"
            if parts is not None:
                return "xW"
        return "xW"

    @property
    def loss(self) -> str:
        """The loss the gradients start from: ``sum`` (the default) or ``mse``."""
        return self._spec.loss.kind if self._spec.loss is not None else "sum"

    # ------------------------------------------------------------------ the leaves
    @property
    def parameters(self) -> Mapping[str, sp.Symbol]:
        """The declared parameters, by name (``tau``)."""
        return self._spec.parameters

    @property
    def identity(self) -> frozenset[str]:
        """The projections filled in as the identity (not given)."""
        return self._spec.omitted

    @property
    def symbolic(self) -> frozenset[str]:
        """The weights given as matrices of symbols."""
        return self._spec.symbolic

    def weights(self, name: str) -> tuple[Matrix, ...]:
        """The values of weight ``name`` (``w_q``, ..., ``b_o``) the program multiplies, one
        per head or one shared, as given (in the spec's convention); () when it has none."""
        return tuple(leaf.value for leaf in self.program.leaves if leaf.role == name)

    @property
    def weight_names(self) -> tuple[str, ...]:
        """The weights and biases the program reads (``w_q``, ..., ``b_o``)."""
        roles = (leaf.role for leaf in self.program.leaves)
        return tuple(dict.fromkeys(r for r in roles if r[:2] in ("w_", "b_")))

    # ------------------------------------------------------------------ captions
    def caption(self, key: str) -> tuple[dict[str, Any], str]:
        """(numbers, key suffix) that step ``key``'s operation adds to its caption."""
        if key not in self.program:
            return {}, ""
        numbers: dict[str, Any] = {}
        variant = ""
        for part in _parts(self.program.node(key)):
            if hasattr(part, "caption_numbers"):
                numbers.update(part.caption_numbers())
            if hasattr(part, "caption_variant"):
                variant += part.caption_variant()
        return numbers, variant


def _parts(node: Node) -> list[Any]:
    """The node and every object its expression is made of (earlier nodes are symbols)."""
    expr = node.expr
    return [node, *(sp.preorder_traversal(expr) if isinstance(expr, sp.Basic) else ())]
