"""The projections X W (+ 1 b): each head's queries, keys and values (step ``head{n}.q``, ...),
or every head's at once in the fused layout (step ``q``, then each head's columns); kind
``project``. The weight is W or W^T by the spec's convention, and the builder makes them
(:mod:`mha_symbolic.model.program`; the output's W_O is the ``output`` operation's).

Their values are numbers the backward ring is built from; in code a projection is one
product over the stream's input (:func:`mha_symbolic.model.affine.affine_parts` finds its
parts). The likely mistakes a reader makes here: a stream projected as another (K in place
of V), and square weights read the other way round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sympy import ImmutableMatrix as Matrix

from mha_symbolic.operations.operation import Operation, each


def stream_for(target: str, source: str) -> Any:
    """Stream ``target``'s projection (q, k or v) computed as ``source``'s (K in place of V)."""

    def run(program: Any) -> Any:
        def change(node: Any) -> Any:
            if node.stream != target:
                return node
            twin = node.key.replace(f".{target}", f".{source}") if node.head else source
            return replace(node, expr=program.node(twin).expr)

        return each(program, "project", change)

    return run


def transposed_square_weights(program: Any) -> Any:
    """Square projection weights read the other way round (the others fit one way only)."""

    def change(leaf: Any) -> Any:
        value = leaf.value
        square = leaf.role.startswith("w_") and value.rows == value.cols
        return replace(leaf, value=Matrix(value.T)) if square else leaf

    return program.replace(leaves=tuple(change(leaf) for leaf in program.leaves))


OPERATION = Operation(
    kind="project",
    ring_values=True,
    rewrites={"stream_for": stream_for, "transposed_square_weights": transposed_square_weights},
)
