"""The shape of a projection in the program: ``X W (+ 1 b)``, read back into its parts."""

from __future__ import annotations

import sympy as sp


def affine_parts(expr: sp.Basic) -> tuple[sp.Basic, sp.Basic, sp.Basic | None] | None:
    """(X, W or W^T, the bias symbol or None) of a projection ``X W (+ 1 b)``; None when
    ``expr`` is not one (SymPy may order the sum either way, and drops a 1 x 1 ones)."""
    terms = expr.args if isinstance(expr, sp.MatAdd) else (expr,)
    products = [
        t for t in terms if isinstance(t, sp.MatMul) and not isinstance(t.args[0], sp.OneMatrix)
    ]
    if len(products) != 1 or len(products[0].args) != 2 or len(terms) > 2:
        return None
    x, w = products[0].args
    rest = [t for t in terms if t is not products[0]]
    if not rest:
        return x, w, None
    bias = rest[0]
    if isinstance(bias, sp.MatMul) and isinstance(bias.args[0], sp.OneMatrix):
        bias = bias.args[1]
    return x, w, bias
