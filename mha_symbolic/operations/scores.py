"""The scores: every query compared with every key, ``S = Q K^T`` (step ``head{n}.scores``).

The builder makes the step from a head's last queries and keys (rotated, with RoPE); the
exact evaluator multiplies every entry out, unless an operation that made Q and K writes the
product its own way (RoPE: by relative position). In code the product stays two factors, so
the torch printer can hand it to ``scaled_dot_product_attention``. Given scores (a document's
printed Q K^T) are read by :mod:`mha_symbolic.spec.given_scores`.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from mha_symbolic.exact import ops
from mha_symbolic.operations.operation import Operation


def place(builder: Any, n: int, on: bool, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's scores Q K^T from its last queries and keys (none when the spec gives them)."""
    if "q" not in parts:
        return parts
    expr = sp.MatMul(parts["q"], parts["k"].T)
    name = _name(builder.spec.names, n, parts["q"], parts["k"])
    return {**parts, "scores": builder.add(f"head{n}.scores", "scores", name, expr, n)}


def _name(names: dict[str, str], n: int, q: sp.MatrixSymbol, k: sp.MatrixSymbol) -> str:
    """S_n; or, when a document names its scaled scores (seed 002's ``Scores_1 = (Q_1 K_1^T) /
    sqrt(d_k)``) and not Q K^T itself, the product as it writes it, Q_1 K_1^T: S_1 beside its
    Scores_1 read as a second name for one quantity."""
    if f"head{n}.scaled" not in names:
        return f"S_{{{n}}}"
    key = k.name if "^" not in k.name else f"{{{k.name}}}"
    return rf"{q.name} {key}^{{\top}}"


def _step(evaluator: Any, node: Any) -> Any:
    """Q K^T with every entry multiplied out, or as the operation that made Q and K writes it
    (RoPE: by relative position)."""
    from mha_symbolic.operations import BY_NODE  # the table of every operation, this one too

    q, k = node.expr.args if isinstance(node.expr, sp.MatMul) else (None, None)
    if not isinstance(k, sp.Transpose) or len(node.expr.args) != 2:
        return evaluator.generic(node)
    made = (evaluator.exprs.get(q), evaluator.exprs.get(k.arg))
    op = BY_NODE.get(type(made[0]))
    value = None if op is None or op.scores is None else op.scores(*made, evaluator)
    if value is not None:
        return value
    return ops.scores(evaluator.value(q), evaluator.value(k.arg))


def _code(lowering: Any, node: Any) -> sp.Basic:
    """Q K^T over the code of the head's queries and keys, not multiplied together."""
    q, k_t = node.expr.args
    return sp.MatMul(lowering.operand(q, None), lowering.operand(k_t, None), evaluate=False)


OPERATION = Operation(
    kind="scores",
    roles=frozenset({"scores", "query_by_key"}),
    steps=("scores",),
    stage="scores",
    place=place,
    step=_step,
    code=_code,
)
