"""What the operations after the softmax keep of their steps for the exact gradients: each
step's rows as e_ij / Z_i (an ``ops.Softmax``), made from the step before it, so that the
backward forms hold the masked, renormalised or dropped-out weights over the softmax's own
exponentials and sums. Given weights (no softmax) are their numbers over 1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from mha_symbolic.exact import ops

_ONE = ops.Sum(sp.Integer(1), sp.Integer(1))


def before(d: Any, program: Any, node: Any) -> ops.Softmax:
    """The weights a step after the softmax reads, as rows over one denominator."""
    from mha_symbolic import operations  # the package lists this module's users

    arg = node.expr.args[0]
    previous = next(n for n in program.nodes if n.symbol == arg)
    op = operations.BY_KIND.get(previous.kind)
    if op is not None and op.kept is not None:
        return op.kept(d, program, previous)
    value = d[previous.key]
    rows = tuple(tuple(value.row(i)) for i in range(value.rows))
    return ops.Softmax(rows, (_ONE,) * value.rows)


def entrywise(
    softmax: ops.Softmax, change: Callable[[int, int, sp.Expr], sp.Expr]
) -> tuple[tuple[sp.Expr, ...], ...]:
    """The numerators changed entry by entry (``change(i, j, e)``)."""
    return tuple(
        tuple(change(i, j, e) for j, e in enumerate(row)) for i, row in enumerate(softmax.exps)
    )


def forward_forms(f: Any, node: Any) -> Any:
    """Its step's forms, from what it keeps: e_ij / Z_i."""
    return f.alg.softmax_forms(f.kept[node.symbol])
