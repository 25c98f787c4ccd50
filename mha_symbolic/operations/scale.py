"""The scale: the scores times the factor s of softmax(s Q K^T) (step ``head{n}.scaled``).

The spec's ``scale`` is ``sqrt_dk`` (s = 1/sqrt(d_k), d_k a leaf of the program), ``none``
(s = 1) or an exact number, maybe in declared parameters (``1/tau``); it is read by
:mod:`mha_symbolic.spec.attention`. In code the factor multiplies the cheaper of the
product's factors; in the backward forms it is a generator of the ring of its own.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from mha_symbolic.operations.operation import Operation


def _code(lowering: Any, node: Any) -> sp.Basic:
    """s Q K^T as one product of the scores' code (or the given scores) and the factor."""
    factor, scores = node.expr.args if isinstance(node.expr, sp.MatMul) else (1, node.expr)
    factor = sp.sympify(factor).xreplace(lowering.scalars)
    code = lowering.operand(scores, None)
    factors = code.args if isinstance(code, sp.MatMul) else (code,)  # Q K^T, or given
    if factor == 1:
        return sp.MatMul(*factors, evaluate=False)
    return sp.MatMul(factor, *factors, evaluate=False)


def _factors(node: Any, scalars: dict[sp.Basic, Any]) -> list[sp.Expr]:
    """The factor (1/sqrt(2), 1/tau), d_k replaced by its value."""
    if not isinstance(node.expr, sp.MatMul):
        return []
    return [node.expr.args[0].xreplace(scalars)]


OPERATION = Operation(kind="scale", steps=("scaled",), code=_code, ring_factors=_factors)
