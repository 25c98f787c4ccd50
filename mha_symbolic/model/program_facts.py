"""What a worked solution and the checker ask of the model, answered from the program.

The presentation (``solution``, ``check``) asks these questions instead of reading the spec's
fields: is there a scale and what is it, is there a mask and how does it fill, is there an
output projection, which layout made the heads, where does the example start, how was each
weight given, which loss and which declared parameters. The answers are read off the nodes
and leaves; a question about one operation (``scale``, ``mask``, ``rope``, ``layout``,
``convention``) is answered by that operation (``Operation.facts``), so a new operation adds
its facts in its own module (and their types to ``operations.Answers``).

A node's operation may also speak for its caption: its ``Operation.caption`` rule (the scale's
``_none`` or given factor, the mask's fill), and an object in a node's ``expr`` (or the node
itself) that defines ``caption_numbers(self) -> dict`` adds those numbers to the ones its
caption may name, and one that defines ``caption_variant(self) -> str`` appends that suffix
(``"_none"``, ``"_divided"``) to its caption's locale key; see :func:`Facts.caption`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import operations
from mha_symbolic.model.program import SOURCE, Node, Program


class Facts(operations.Answers):
    """The answers for one program (see the module's docstring); those its operations give
    are typed by :class:`mha_symbolic.operations.Answers`."""

    def __init__(self, program: Program) -> None:
        self.program = program

    if not TYPE_CHECKING:  # to mypy, the facts are Answers' typed attributes and no others

        def __getattr__(self, name: str) -> Any:
            """A fact its operation answers (``scale(head)``, ``mask``, ``rope``, ``layout``,
            ``fused``, ``convention``): see ``Operation.facts``."""
            answer = operations.FACTS.get(name)
            if answer is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            return answer(self.__dict__["program"])

    def is_a(self, kind: str | None, role: str) -> bool:
        """A step of ``kind`` is ``role`` to the presentation: see :func:`is_a`."""
        return is_a(kind, role)

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
        past the inputs, the given stage's rows and 0 columns."""
        leaf = next((lf for lf in self.program.leaves if lf.role in ("x", name)), None)
        if leaf is not None:
            return int(leaf.value.rows), int(leaf.value.cols)
        # Past the inputs: the queries are the rows of head 1's given Q, scores or weights,
        # the keys and values the rows of its V.
        given = {lf.role: lf.value for lf in self.program.leaves if lf.head in (0, None)}
        roles = ("q", "scores", "attention_weights") if name == "query" else ("v",)
        return int(next(given[role] for role in roles if role in given).rows), 0

    # ------------------------------------------------------------------ the output
    @property
    def output_projection(self) -> bool:
        """The concatenated heads are multiplied by W_O (else the output is the concat)."""
        return any(leaf.role == "w_o" for leaf in self.program.leaves)

    @property
    def loss(self) -> str:
        """The loss the gradients start from: ``sum`` (the default) or ``mse``."""
        return self.program.loss

    # ------------------------------------------------------------------ the leaves
    @property
    def parameters(self) -> Mapping[str, sp.Symbol]:
        """The declared parameters, by name (``tau``)."""
        return self.program.parameters

    @property
    def identity(self) -> frozenset[str]:
        """The projections filled in as the identity (not given)."""
        return self._given_as("identity")

    @property
    def symbolic(self) -> frozenset[str]:
        """The weights given as matrices of symbols."""
        return self._given_as("symbolic")

    def _given_as(self, kind: str) -> frozenset[str]:
        return frozenset(lf.role for lf in self.program.leaves if lf.kind == kind)

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
        node = self.program.node(key)
        numbers: dict[str, Any] = {}
        variant = ""
        for part in _parts(node):
            if hasattr(part, "caption_numbers"):
                numbers.update(part.caption_numbers())
            if hasattr(part, "caption_variant"):
                variant += part.caption_variant()
        op = operations.BY_KIND.get(node.kind)
        if op is not None and op.caption is not None:
            more, suffix = op.caption(self.program, node)
            numbers.update(more)
            variant += suffix
        return numbers, variant

    def factored(self, key: str) -> tuple[sp.Expr, sp.Basic] | None:
        """Step ``key`` as (factor, the earlier step's symbol it multiplies) when its
        operation writes it so (the scale's ``c S``: ``Operation.factored``); else None."""
        if key not in self.program:
            return None
        node = self.program.node(key)
        op = operations.BY_KIND.get(node.kind)
        if op is None or op.factored is None:
            return None
        factor, operand = op.factored(self.program, node)
        return factor, operand


def is_a(kind: str | None, role: str) -> bool:
    """A step of ``kind`` is ``role`` to the presentation (``weights``, ``scores``,
    ``query_by_key``): its operation says so (``Operation.roles``)."""
    op = operations.BY_KIND.get(kind or "")
    return op is not None and role in op.roles


def _parts(node: Node) -> list[Any]:
    """The node and every object its expression is made of (earlier nodes are symbols)."""
    expr = node.expr
    return [node, *(sp.preorder_traversal(expr) if isinstance(expr, sp.Basic) else ())]
