"""The output: ``O = Concat(heads) W_O (+ 1 b_O)`` (step ``output``), or the heads joined when
the spec has no output projection.

The exact value is formed from each head's ``V_h W_O^h`` over the softmax's one denominator
per row (:func:`mha_symbolic.exact.ops.output_projection`), so fractions that cancel read 1/2.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.exact import ops
from mha_symbolic.model.affine import affine_parts
from mha_symbolic.operations.operation import Operation, each
from mha_symbolic.operations.projection import affine


def _parts(walk: Any, node: Any) -> tuple[list[Any], list[Matrix], Matrix, Matrix | None] | None:
    """(each head's softmax rows, each head's V, W_O, b_O or None), or None when the output is
    no projection or a head's softmax is not kept over one denominator."""
    parts = affine_parts(node.expr)
    heads = [n for n in walk.program.nodes if n.kind == "attend"]
    softmaxes = [walk.softmaxes.get(n.expr.args[0]) for n in heads]
    if parts is None or any(s is None for s in softmaxes):
        return None
    _, w, bias = parts
    values = [walk.value(n.expr.args[1]) for n in heads]
    return softmaxes, values, walk.value(w), None if bias is None else walk.value(bias)


def _code(lowering: Any, node: Any) -> Any:
    """The joined heads' code, times W_O (+ b_O) when the spec projects them."""
    if isinstance(node.expr, sp.MatrixSymbol):
        return lowering.operand(node.expr, None)
    return lowering.affine_code(node)


def _step(evaluator: Any, node: Any) -> Matrix:
    """Concat(heads) W_O (+ b_O), formed from each head's V W_O^h."""
    parts = _parts(evaluator, node)
    return evaluator.generic(node) if parts is None else ops.output_projection(*parts)


def _limit(walk: Any, node: Any) -> Matrix:
    """Kept compact where its parts are finite; else the limit of the exact value."""
    parts = _parts(walk, node)
    if parts is None:
        return walk.original(node)
    softmaxes, values, w, b = parts
    if all(e.is_finite for m in [w, *values, *([b] if b is not None else [])] for e in m):
        return ops.output_projection(softmaxes, values, w, b)
    return walk.original(node)


def without_output_projection(program: Any) -> Any:
    """The likely mistake of W_O forgotten: the concatenated heads taken as the output."""
    concat = program.node("concat").symbol
    return each(program, "output", lambda node: replace(node, expr=concat))


def place(builder: Any, n: int, on: bool, parts: dict[str, Any]) -> dict[str, Any]:
    """The output: the joined heads times W_O (+ b_O), or the joined heads when the spec has
    no output projection."""
    c = parts["concat"]
    expr = affine(builder, c, "w_o", 0, False) if "w_o" in builder.spec.weights else c
    return {**parts, "output": builder.add("output", "output", "O", expr)}


OPERATION = Operation(
    kind="output",
    roles=frozenset({"final"}),
    stage="out",
    place=place,
    step=_step,
    limit=_limit,
    forward_forms=lambda f, node: f.of(node.expr),
    stable=lambda stages, node: stages.value(node.expr),
    code=_code,
    rewrites={"without_output_projection": without_output_projection},
)
