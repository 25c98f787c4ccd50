"""The attention: each query's output is the weighted sum of the values, ``A V`` (step
``head{n}.output``).

The exact evaluator writes row i as (sum_j e^{a_ij} v_j) / Z_i over the softmax's one
denominator (:mod:`mha_symbolic.exact.ops`); in code ``softmax(S) V`` is one helper call that
divides after the product (one ``scaled_dot_product_attention`` in torch).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from mha_symbolic.exact import ops
from mha_symbolic.operations.operation import Operation


def place(builder: Any, n: int, on: bool, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's output, its weights times its values."""
    name, expr = f"\\mathrm{{head}}_{{{n}}}", sp.MatMul(parts["weights"], parts["v"])
    return {**parts, "output": builder.add(f"head{n}.output", "attend", name, expr, n)}


def _step(evaluator: Any, node: Any) -> Any:
    """A V, row i as (sum_j e^{a_ij} v_j) / Z_i over the softmax's denominator."""
    a, v = node.expr.args
    softmax = evaluator.softmaxes.get(a)
    if softmax is None:
        return evaluator.generic(node)
    return ops.attend(softmax, evaluator.value(v))


def _limit(walk: Any, node: Any) -> Any:
    """Kept compact where the values are finite; else the limit of the exact value."""
    a, v = node.expr.args
    softmax, value = walk.softmaxes.get(a), walk.value(v)
    if softmax is not None and all(entry.is_finite for entry in value):
        return ops.attend(softmax, value)
    return walk.original(node)


def _code(lowering: Any, node: Any) -> sp.Basic:
    """A V over the code of the weights and the values, not multiplied together."""
    a, v = node.expr.args
    return sp.MatMul(lowering.operand(a, None), lowering.operand(v, None), evaluate=False)


OPERATION = Operation(
    kind="attend",
    roles=frozenset({"weighted_values"}),
    steps=("output",),
    stage="output",
    place=place,
    step=_step,
    limit=_limit,
    forward_forms=lambda f, node: f.of(node.expr),
    stable=lambda stages, node: stages.named(stages.value(node.expr), "h"),
    code=_code,
)
