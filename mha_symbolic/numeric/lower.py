"""The model's program lowered to batched code: a few assignments the printers turn into lines.

Each node kind's operation has a code rule (``mha_symbolic.operations``: ``BY_KIND[kind].code``)
that rebuilds its expression over code symbols
(inputs of any length ``L_q``/``L_k``, the weights as arguments, the additive mask) without
SymPy's evaluation, so ``Q K^T`` stays two products and ``softmax(s Q K^T + M) V`` stays one
helper call (one ``scaled_dot_product_attention`` in torch). Only a head's q, k, v, its output
(and its weights A, for the backward pass) and the final output are assigned; the scores,
scaling and mask are inlined into the softmax. When every head has the same widths the heads
are stacked on an axis (``split_heads``/``stack_heads``): one line serves them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from mha_symbolic import operations
from mha_symbolic.model.affine import affine_parts
from mha_symbolic.model.nodes import SplitHeads, StackHeads
from mha_symbolic.model.program import SOURCE, STREAMS, Leaf, Node, Program

INPUTS = ("query", "key", "value")
GIVEN = ("q", "k", "v", "scores", "attention_weights")  # stages a spec may give per head


@dataclass(frozen=True)
class Argument:
    """One weight argument of the generated function: a matrix, or one head's matrix."""

    name: str  # the user's keyword: w_q, b_o, ...
    head: int | None  # 0-based head for per-head weights
    symbol: sp.MatrixSymbol
    code: str  # its name in the generated code: w_q, w_q_1, ...

    @property
    def label(self) -> str:
        return self.name if self.head is None else f"{self.name}[{self.head + 1}]"


@dataclass(frozen=True)
class CodeProgram:
    """Assignments ``symbol = formula`` in order; the last one is the output."""

    spec: Any  # AttentionSpec
    assignments: tuple[tuple[sp.MatrixSymbol, sp.Basic], ...]
    names: dict[sp.Basic, str]  # MatrixSymbol -> name in code
    arguments: tuple[Argument, ...]
    head_axis: bool  # True: heads are stacked on an axis; the mask needs one too

    @property
    def expr(self) -> sp.Basic:
        """The output as one expression over the inputs, the mask and the weights."""
        expr = self.assignments[-1][1]
        for symbol, formula in reversed(self.assignments[:-1]):
            expr = expr.xreplace({symbol: formula})
        return expr


def _affine(x: sp.Basic, w: sp.Basic, bias: sp.Basic | None) -> sp.Basic:
    """x w, plus the bias row on every row of x (not evaluated: the factors stay apart)."""
    product = sp.MatMul(x, w, evaluate=False)
    if bias is None:
        return product
    ones = sp.OneMatrix(x.shape[0], 1)
    return sp.MatAdd(product, sp.MatMul(ones, bias, evaluate=False), evaluate=False)


def _parts(expr: sp.Basic) -> tuple[sp.Basic, sp.Basic, sp.Basic | None]:
    parts = affine_parts(expr)
    assert parts is not None, f"not a projection: {expr}"
    return parts


class _Lowering:
    """Walks the model's nodes, building each one's code expression by its kind's rule."""

    def __init__(self, model: Program, explicit_weights: bool) -> None:
        self.model = model
        self.spec = model.spec
        self.explicit_weights = explicit_weights
        self.lq, self.lk = sp.Symbol("L_q", positive=True), sp.Symbol("L_k", positive=True)
        self.names: dict[sp.Basic, str] = {}
        self.arguments: list[Argument] = []
        self.by_leaf: dict[sp.Basic, sp.Basic] = {}
        self.assignments: list[tuple[sp.MatrixSymbol, sp.Basic]] = []
        rows = {"query": self.lq, "key": self.lk, "value": self.lk}
        self.inputs = {
            stream: self.symbol(
                f"X_{{{SOURCE[stream][0]}}}",
                rows[SOURCE[stream]],
                getattr(self.spec, SOURCE[stream]).cols,
                SOURCE[stream],
            )
            for stream in STREAMS
        }
        self.mask = self.symbol("M", self.lq, self.lk, "mask")
        self.scalars = {lf.symbol: lf.value for lf in model.leaves if lf.role == "d_k"}
        self.code: dict[tuple[sp.Basic, str | None], sp.Basic] = {}  # (node symbol, stream)
        self.heads_code: list[sp.MatrixSymbol] = []  # each head's output (one when stacked)

    def symbol(self, name: str, rows: Any, cols: Any, code: str) -> sp.MatrixSymbol:
        symbol = sp.MatrixSymbol(name, rows, cols)
        self.names[symbol] = code
        return symbol

    def assign(self, name: str, code: str, formula: sp.Basic) -> sp.MatrixSymbol:
        rows, cols = formula.shape
        symbol = self.symbol(name, rows, cols, code)
        self.assignments.append((symbol, formula))
        return symbol

    # ------------------------------------------------------------------ operands
    def argument(self, leaf: Leaf) -> sp.Basic:
        """The code symbol of a weight or bias leaf (an argument of the function)."""
        if leaf.symbol not in self.by_leaf:
            code = leaf.role if leaf.head is None else f"{leaf.role}_{leaf.head + 1}"
            rows, cols = leaf.symbol.shape
            # A given Q, scores or weights is named by its code: its node's name is taken.
            name = code if leaf.role in GIVEN else leaf.symbol.name
            symbol = self.symbol(name, rows, cols, code)
            self.arguments.append(Argument(leaf.role, leaf.head, symbol, code))
            self.by_leaf[leaf.symbol] = symbol
        return self.by_leaf[leaf.symbol]

    def operand(self, expr: sp.Basic, stream: str | None) -> sp.Basic:
        """A model operand as code: an input, a weight (maybe transposed), a bias or a node."""
        if isinstance(expr, sp.Transpose):
            return self.operand(expr.arg, stream).T
        if isinstance(expr, sp.MatMul) and isinstance(expr.args[0], sp.OneMatrix):
            return self.operand(expr.args[1], stream)
        key = (expr, stream) if (expr, stream) in self.code else (expr, None)
        if key in self.code:
            return self.code[key]
        leaf = next((lf for lf in self.model.leaves if lf.symbol == expr), None)
        if leaf is None:
            raise KeyError(f"no code for {expr}")
        if leaf.role in ("x", *INPUTS):
            return self.inputs[stream or "q"]
        if leaf.role == "mask":
            return self.mask
        return self.argument(leaf)

    def affine_code(self, node: Node, x: sp.Basic | None = None) -> sp.Basic:
        """A projection node ``X W (+ 1 b)`` as code over ``x`` (default: its own input)."""
        model_x, w, bias = _parts(node.expr)
        x = self.operand(model_x, node.stream) if x is None else x
        b = None if bias is None else self.operand(bias, node.stream)
        return _affine(x, self.operand(w, node.stream), b)

    # ------------------------------------------------------------------ the program
    def run(self) -> CodeProgram:
        for node in self.model.nodes:
            if node.kind == "input" and node.head is None:  # x, query, key, value
                for stream in STREAMS:
                    self.code[(node.symbol, stream)] = self.inputs[stream]
        # Heads stacked on an axis only when each is computed from the inputs: a given stage
        # (Q, scores, weights) is one argument per head.
        batched = self.spec.stage == "inputs" and self.uniform()
        self.stacked_heads = batched  # an operation's code may hold one number per head
        outputs = self.batched() if batched else [self.head(n, str(n)) for n in self.model.heads()]
        self.output(outputs)
        head_axis = batched and self.spec.heads > 1  # one head is never stacked
        return CodeProgram(
            self.spec, tuple(self.assignments), self.names, tuple(self.arguments), head_axis
        )

    def uniform(self) -> bool:
        """All heads have one width for Q/K and one for V (always so when fused)."""
        widths = {
            stream: {self.model.node(f"head{n}.{stream}").shape[1] for n in self.model.heads()}
            for stream in ("q", "v")
        }
        return all(len(w) == 1 for w in widths.values())

    def final(self, n: int, stream: str) -> Node:
        """Head n's last q, k or v node (after the operations that turn it, RoPE's)."""
        return [node for node in self.model.nodes if node.head == n and node.stream == stream][-1]

    def chain(self, n: int, stream: str, expr: sp.Basic) -> sp.Basic:
        """Head n's q, k or v as code (``expr``), then each operation that turns it."""
        first = self.model.node(f"head{n}.{stream}")
        self.code[(first.symbol, None)] = expr
        for node in self.model.nodes:
            rule = _rule(node.kind) if node.kind in operations.BY_KIND else None
            if node.head == n and node.stream == stream and rule is not None:
                expr = self.code[(node.symbol, None)] = rule(self, node)
        return expr

    def head(self, n: int, tag: str) -> sp.MatrixSymbol:
        """One head on its own: its q, k, v assigned, then its attention."""
        for stream in (s for s in STREAMS if f"head{n}.{s}" in self.model):
            expr = self.chain(n, stream, self.own(self.model.node(f"head{n}.{stream}")))
            code = self.assign(f"{stream.upper()}_{{{tag}}}", f"{stream.upper()}{tag}", expr)
            self.code[(self.final(n, stream).symbol, None)] = code
        return self.attention(n, f"_{{{tag}}}", tag)

    def own(self, node: Node) -> sp.Basic:
        """A head's q/k/v node as code: its columns of a slice, its projection, or as given."""
        if isinstance(node.expr, sp.MatrixSlice):  # fused: its columns of the projection
            full = self.affine_code(self.node_of(node.expr.parent))
            return self.rebase_slice(node.expr, full)
        parts = affine_parts(node.expr)
        if parts is None:  # given
            return self.operand(node.expr, node.stream)
        parent = parts[0]
        x = self.slice_of(parent, node.stream) if _is_slice_node(self.model, parent) else None
        return self.affine_code(node, x)

    def slice_of(self, symbol: sp.Basic, stream: str | None) -> sp.Basic:
        """The split layout's slice node as code: the columns of the stream's input."""
        node = self.node_of(symbol)
        return self.rebase_slice(node.expr, self.inputs[stream or "q"])

    def rebase_slice(self, expr: sp.MatrixSlice, parent: sp.Basic) -> sp.Basic:
        _, (start, stop, _step) = expr.rowslice, expr.colslice
        return parent[:, start:stop]

    def node_of(self, symbol: Any) -> Node:
        return next(n for n in self.model.nodes if n.symbol == symbol)

    def batched(self) -> list[sp.MatrixSymbol]:
        """Every head at once, heads stacked on an axis: one softmax call for all of them."""
        for stream in STREAMS:
            expr = self.chain(1, stream, self.stacked(stream))
            code = self.assign(stream.upper(), stream.upper(), expr)
            for n in self.model.heads():
                self.code[(self.final(n, stream).symbol, None)] = code
        return [self.attention(1, "", "")]

    def stacked(self, stream: str) -> sp.Basic:
        """The heads' q, k or v stacked (split_heads of one product, or stack_heads)."""
        h, layout = self.spec.heads, self.spec.layout
        nodes = [self.model.node(f"head{n}.{stream}") for n in self.model.heads()]
        if h == 1:
            return self.own(nodes[0])
        if layout == "fused":
            return SplitHeads(self.affine_code(self.node_of(nodes[0].expr.parent)), h)
        parts = [_parts(node.expr) for node in nodes]
        weights = [self.operand(w, stream) for _, w, _ in parts]
        biases = [self.operand(b, stream) for _, _, b in parts if b is not None]
        if layout == "per_head":
            w = sp.BlockMatrix([weights])
            b = sp.BlockMatrix([biases]) if biases else None
            return SplitHeads(_affine(self.inputs[stream], w, b), h)
        stack = StackHeads(*weights)
        bias = StackHeads(*biases) if biases else None
        return _affine(SplitHeads(self.inputs[stream], h), stack, bias)

    # ------------------------------------------------------------------ attention
    def attention(self, n: int, label: str, code: str) -> sp.MatrixSymbol:
        """softmax(s Q K^T + M) V of head n by the code rules of its chain of nodes."""
        for node in self.model.nodes:
            rule = _rule(node.kind)
            if node.head == n and node.stream is None and rule is not None:
                self.code[(node.symbol, None)] = rule(self, node)
            named = _assigned_as(node.kind) if self.explicit_weights else None
            if node.head == n and named is not None:  # the softmax's A, for the backward pass
                made = self.assign(
                    f"{named}{label}", f"{named}{code}", self.code[(node.symbol, None)]
                )
                self.code[(node.symbol, None)] = made
        attend = self.model.node(f"head{n}.output")
        return self.assign(f"H{label}", f"H{code}", self.code[(attend.symbol, None)])

    # ------------------------------------------------------------------ output
    def output(self, heads: list[sp.MatrixSymbol]) -> None:
        """The steps after the heads by their code rules (the heads joined, then W_O), the
        last assigned as the output."""
        self.heads_code = heads
        for node in self.model.nodes:
            rule = _rule(node.kind)
            if node.head is None and node.stream is None and rule is not None:
                self.code[(node.symbol, None)] = rule(self, node)
        self.assign("O", "output", self.code[(self.model.result.symbol, None)])


def _is_slice_node(model: Program, symbol: Any) -> bool:
    return any(n.symbol == symbol and n.kind == "slice" for n in model.nodes)


def _rule(kind: str) -> Callable[[_Lowering, Node], sp.Basic] | None:
    """The code rule of a node kind: its operation's (None: the kind is not computed in a
    head's attention, or is assigned by the lowering itself)."""
    op = operations.BY_KIND.get(kind)
    return None if op is None else op.code


def _assigned_as(kind: str) -> str | None:
    """The name a node kind's code is assigned under when the backward pass reads it."""
    op = operations.BY_KIND.get(kind)
    return None if op is None else op.assigned_as


def lower(model: Program, explicit_weights: bool = False) -> CodeProgram:
    """The model's attention as code assignments (``explicit_weights``: each softmax A is an
    assignment of its own, as the backward pass needs)."""
    return _Lowering(model, explicit_weights).run()
