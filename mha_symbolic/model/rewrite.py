"""Rewrites of a program: the same attention with one thing done differently.

The checker's likely mistakes are these rewrites, re-evaluated (``exact.evaluate.walk``):
each changes the nodes or the leaves of the one program, never builds a second attention.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.model.program import Leaf, Node, Program
from mha_symbolic.operations.softmax import RowSoftmax

Rewrite = Callable[[Program], Program]


def _nodes(program: Program, kind: str, change: Callable[[Node], Node]) -> Program:
    """Every node of ``kind`` changed."""
    return program.replace(tuple(change(n) if n.kind == kind else n for n in program.nodes))


def _leaves(program: Program, change: Callable[[Leaf], Leaf]) -> Program:
    return program.replace(leaves=tuple(change(leaf) for leaf in program.leaves))


def _scores_of(node: Node) -> sp.Basic:
    """The scores symbol S that a scaled node multiplies."""
    return node.expr if isinstance(node.expr, sp.MatrixSymbol) else node.expr.args[-1]


def scaled_by(factor: sp.Expr) -> Rewrite:
    """Scores multiplied by ``factor`` instead of the spec's scale."""

    def change(node: Node) -> Node:
        s = _scores_of(node)
        return replace(node, expr=sp.MatMul(factor, s) if factor != 1 else s)

    return lambda program: _nodes(program, "scale", change)


def transposed_square_weights(program: Program) -> Program:
    """Square projection weights read the other way round (the others fit one way only)."""

    def change(leaf: Leaf) -> Leaf:
        value = leaf.value
        square = leaf.role.startswith("w_") and value.rows == value.cols
        return replace(leaf, value=Matrix(value.T)) if square else leaf

    return _leaves(program, change)


def column_softmax(program: Program) -> Program:
    """Softmax over each column (the keys' axis confused with the queries')."""

    def change(node: Node) -> Node:
        logits = node.expr.arg
        return replace(node, expr=sp.Transpose(RowSoftmax(sp.Transpose(logits))))

    return _nodes(program, "softmax", change)


def unmasked(program: Program) -> Program:
    """The mask left out: the masked scores are the scaled ones."""
    return _nodes(program, "mask", lambda node: replace(node, expr=node.expr.args[0]))


def without_output_projection(program: Program) -> Program:
    """The concatenated heads taken as the output (W_O forgotten)."""
    concat = program.node("concat").symbol
    return _nodes(program, "output", lambda node: replace(node, expr=concat))


def stream_for(target: str, source: str) -> Rewrite:
    """Stream ``target``'s projection (q, k or v) computed as ``source``'s (K in place of V)."""

    def run(program: Program) -> Program:
        def change(node: Node) -> Node:
            if node.stream != target:
                return node
            twin = node.key.replace(f".{target}", f".{source}") if node.head else source
            return replace(node, expr=program.node(twin).expr)

        return _nodes(program, "project", change)

    return run
