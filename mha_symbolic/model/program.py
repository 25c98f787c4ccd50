"""The model: a spec's attention as ONE ordered program of typed nodes, built once.

Every consumer walks this program: exact evaluation (``exact``), code printing (``numeric``),
limits, lambdify, the gradients (one table of reverse-mode rules) and the checker's likely
mistakes (rewrites of the program, see :mod:`mha_symbolic.model.rewrite`).

A :class:`Node` is one step of attention: its stable step key, its kind, its head, the matrix
symbol that names it in formulas (``Q_{1}``, ``S'_{1}``, ``A_{1}``), ``expr``: what it computes
as a structural matrix expression over the program's leaves and earlier nodes, and
``formula``: the same in paper notation (``\\frac{Q_1 K_1^\\top}{\\sqrt{d_k}}`` for the scaled
scores, whose ``expr`` is ``S_1 / \\sqrt{d_k}``). Leaves are the inputs, weights, biases and the
mask, each with its exact value and its name in generated code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import operations
from mha_symbolic.errors import SpecError
from mha_symbolic.spec.attention import AttentionSpec
from mha_symbolic.spec.step_decimals import check_steps
from mha_symbolic.text import did_you_mean

# Node kinds in pipeline order; renderers and the checker key their behaviour on these.
KINDS = (
    "input",
    "project",
    "slice",
    # rope, scores, scale, alibi, mask, softmax, attend; concat, output
    *(op.kind for stage in operations.ALL_STAGES for op in operations.staged(stage)),
    "loss",  # the backward pass: the scalar loss, then grad.* steps
    "grad",
)
# The steps of one head, in the order the program makes them (``head{i}.q`` ... ``head{i}.output``);
# a head holds those its spec asks for. The backward pass goes through them in reverse.
STREAMS = operations.STREAMS
# A head's steps in the order build() makes them (the token working and the gradients' order
# read it): the streams, what the operations do to them (RoPE), the scores and their scaling,
# what the operations do to the logits (ALiBi's bias, then the mask), the softmax, the output.
HEAD_STEPS = (
    *STREAMS,
    *(step for stage in operations.STAGES for op in operations.staged(stage) for step in op.steps),
)
SOURCE = operations.SOURCE  # the input each stream projects
INPUTS = ("x", *SOURCE.values())  # the input steps: one for self-attention, or three
# The steps after the heads, in the order build() makes them.
OUTER_STEPS = ("concat", "output")
# Each projection step's weight and bias (leaf roles), in the order the gradients list them.
PROJECTED = {
    "q": ("w_q", "b_q"),
    "k": ("w_k", "b_k"),
    "v": ("w_v", "b_v"),
    "output": ("w_o", "b_o"),
}
# The stages a spec may give each head, with the field that holds them and their letter.
_GIVEN = (("weights", "attention_weights", "A"), ("scores", "scores", "S"))
_Part = tuple[str, sp.Basic]  # (kind, expr) of a head's q, k or v before it is a node


@dataclass(frozen=True)
class Leaf:
    """A value the program reads: an input, a weight, a bias, the mask, or a scalar."""

    symbol: sp.Basic  # MatrixSymbol (matrices) or Symbol (d_k)
    role: str  # x, query, key, value, w_q, ..., b_o, mask, d_k
    head: int | None  # 0-based head of a per-head weight; None if shared
    value: Any  # the exact value (weights as given, in the spec's convention)
    # What the value is when its numbers do not say: the mask's ``causal``; a weight's
    # ``identity`` (left out, filled in) or ``symbolic`` (given as a matrix of symbols).
    kind: str | None = None


@dataclass(frozen=True)
class Node:
    """One step: ``symbol`` = ``expr`` (computed), written ``formula`` in paper notation."""

    key: str
    kind: str
    head: int | None  # 1-based, like the documents
    symbol: sp.MatrixSymbol
    expr: sp.Basic
    formula: sp.Basic
    stream: str | None = None  # q, k or v for projections, slices and rotations

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.symbol.shape[0]), int(self.symbol.shape[1]))


@dataclass(frozen=True)
class Program:
    """The ordered nodes of one attention computation and the leaves they read."""

    spec: AttentionSpec
    leaves: tuple[Leaf, ...]
    nodes: tuple[Node, ...]
    loss: str = "sum"  # the scalar the gradients start from: sum of the output, or mse
    # The declared parameters its numbers may be written in (``tau``), by name.
    parameters: Mapping[str, sp.Symbol] = field(default_factory=dict)
    _by_key: dict[str, Node] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_key.update({node.key: node for node in self.nodes})

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def node(self, key: str) -> Node:
        return self._by_key[key]

    @property
    def result(self) -> Node:
        """The step the program ends with: attention's output."""
        return self.nodes[-1]

    def heads(self) -> range:
        """The head numbers, 1-based."""
        return range(1, self.spec.heads + 1)

    def logits(self, head: int) -> Node:
        """The node softmax reads for ``head``: the last before it (masked, scaled, ...)."""
        read = self.node(f"head{head}.weights").expr.atoms(sp.MatrixSymbol)
        return [node for node in self.nodes if node.symbol in read][-1]

    @property
    def bindings(self) -> dict[sp.Basic, Any]:
        """Leaf symbol -> exact value."""
        return {leaf.symbol: leaf.value for leaf in self.leaves}

    def replace(
        self, nodes: tuple[Node, ...] | None = None, leaves: tuple[Leaf, ...] | None = None
    ) -> Program:
        """A copy with other nodes or leaves (the rewrites of the checker's mistakes)."""
        return dataclasses.replace(
            self, leaves=leaves or self.leaves, nodes=nodes or self.nodes, _by_key={}
        )


class _Builder:
    """Appends the nodes of attention for one spec, in order."""

    def __init__(self, spec: AttentionSpec) -> None:
        self.spec = spec
        self.leaves: list[Leaf] = []
        self.nodes: list[Node] = []

    # ------------------------------------------------------------------ bookkeeping
    def add(
        self,
        key: str,
        kind: str,
        name: str,
        expr: sp.Basic,
        head: int | None = None,
        formula: sp.Basic | None = None,
        stream: str | None = None,
    ) -> sp.MatrixSymbol:
        symbol = sp.MatrixSymbol(self.spec.names.get(key, name), *expr.shape)
        shown = expr if formula is None else formula
        self.nodes.append(Node(key, kind, head, symbol, expr, shown, stream))
        return symbol

    def leaf(
        self, name: str, role: str, value: Matrix, head: int | None = None, kind: str | None = None
    ) -> sp.MatrixSymbol:
        symbol = sp.MatrixSymbol(name, value.rows, value.cols)
        self.leaves.append(Leaf(symbol, role, head, value, kind))
        return symbol

    # ------------------------------------------------------------------ the pipeline
    def inputs(self) -> dict[str, sp.MatrixSymbol]:
        spec = self.spec
        if not spec.has_inputs:  # the example starts at Q, K and V, the scores or the weights
            return {}
        if spec.self_attention:
            x = self.leaf("X", "x", spec.query)
            self.add("x", "input", "X", x)
            return dict.fromkeys(STREAMS, x)
        out = {}
        for stream in STREAMS:
            source = SOURCE[stream]
            label = f"X_{{{source[0]}}}"
            leaf = self.leaf(label, source, getattr(spec, source))
            out[stream] = self.add(source, "input", label, leaf)
        return out

    def streams(self, inputs: dict[str, sp.MatrixSymbol]) -> list[dict[str, _Part]]:
        """Per head (0-based): how its q, k and v are made (kind, expr): given, or made from
        the inputs by the operation that does it (the projections, by layout)."""
        if not inputs:
            return [self.given_streams(i) for i in range(self.spec.heads)]
        (make,) = (op.streams for op in operations.OPERATIONS if op.streams is not None)
        return list(make(self, inputs))

    def given_streams(self, i: int) -> dict[str, _Part]:
        """Head i's (0-based) given Q, K and V, each a leaf (only V past the scores)."""
        spec = self.spec
        streams = STREAMS if spec.q is not None else ("v",)
        return {s: ("input", self.given(s, i)) for s in streams}

    def given(self, name: str, i: int) -> sp.MatrixSymbol:
        """Head i's (0-based) given matrix ``name`` (q, k, v, scores or attention_weights)."""
        value = getattr(self.spec, name)[i]
        symbol = {"attention_weights": "A", "scores": "S"}.get(name, name.upper())
        return self.leaf(f"{symbol}_{{{i + 1}}}", name, value, i)

    def own(self, n: int, parts: dict[str, _Part]) -> dict[str, sp.MatrixSymbol]:
        """Head n's q, k and v as nodes of their own."""
        return {
            stream: self.add(
                f"head{n}.{stream}", kind, f"{stream.upper()}_{{{n}}}", expr, n, None, stream
            )
            for stream, (kind, expr) in parts.items()
        }

    def place(self, stage: str, n: int, parts: dict[str, Any]) -> dict[str, Any]:
        """Head n's ``parts`` at ``stage`` passed through each operation the spec turns on
        there (RoPE on the streams, the scores, ..., ALiBi and the mask on the logits): see
        :mod:`mha_symbolic.operations`."""
        for op in operations.staged(stage):
            setting = op.setting(self.spec)
            if setting is not None and op.place is not None:
                parts = op.place(self, n, setting, parts)
        return parts

    def given_parts(self, n: int, made: dict[str, _Part]) -> dict[str, sp.MatrixSymbol]:
        """Head n's q, k and v as nodes; only its v and the given scores or weights when the
        spec starts there."""
        for stage, name, symbol in (
            ("weights", "attention_weights", "A"),
            ("scores", "scores", "S"),
        ):
            if getattr(self.spec, name) is not None:
                v = self.own(n, {"v": made["v"]})["v"]
                given = self.given(name, n - 1)
                node = self.add(f"head{n}.{stage}", "input", f"{symbol}_{{{n}}}", given, n)
                return {"v": v, stage: node}
        return self.own(n, made)

    def head(self, n: int, made: dict[str, _Part]) -> sp.MatrixSymbol:
        """Head n through every stage of attention (see ``STAGES``): its output."""
        parts = self.given_parts(n, made)
        for stage in operations.STAGES:
            parts = self.place(stage, n, parts)
        return parts["output"]

    def scalar(self, symbol: sp.Symbol, role: str, value: sp.Expr) -> None:
        """A number the program reads (d_k), a leaf of its own."""
        self.leaves.append(Leaf(symbol, role, None, value))

    def finish(self, heads: list[sp.MatrixSymbol]) -> None:
        """The steps after the heads (see ``AFTER_HEADS``): joined, then the output."""
        parts: dict[str, Any] = {"heads": heads}
        for stage in operations.AFTER_HEADS:
            parts = self.place(stage, 0, parts)


def build(spec: AttentionSpec) -> Program:
    """The spec's attention as one program of nodes."""
    builder = _Builder(spec)
    streams = builder.streams(builder.inputs())
    outputs = [builder.head(i + 1, parts) for i, parts in enumerate(streams)]
    builder.finish(outputs)
    _check_names(spec, builder.nodes, builder.leaves)
    check_steps(spec.step_decimals, [node.key for node in builder.nodes], spec.source)
    loss = spec.loss.kind if spec.loss is not None else "sum"
    nodes, leaves = tuple(builder.nodes), tuple(builder.leaves)
    return Program(spec, leaves, nodes, loss, dict(spec.parameters))


def _check_names(spec: AttentionSpec, nodes: list[Node], leaves: list[Leaf]) -> None:
    """Each key of the spec's [names] is one of its steps, and no two steps or inputs share a
    name (a formula would not say which is meant)."""
    keys = [node.key for node in nodes]
    for key, name in spec.names.items():
        if key not in keys:
            close = did_you_mean(key, keys)
            raise SpecError(
                f"names.{key}: the attention has no step {key!r}{close}", source=spec.source
            )
        if nodes[keys.index(key)].kind == "input":  # its leaf, read by every formula, keeps X
            raise SpecError(f"names.{key}: a given input keeps its name", source=spec.source)
        others = [n.key for n in nodes if n.key != key and n.symbol.name == name]
        others += [leaf.role for leaf in leaves if leaf.symbol.name == name]
        if others:
            raise SpecError(
                f"names.{key} = {name!r} is already the name of {others[0]}; give another",
                source=spec.source,
            )
