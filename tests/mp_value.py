"""The value of a constant SymPy expression by mpmath at the working precision, read off its
tree: numbers as mpmath numbers, sums by fsum, products, powers and named functions by mpmath's.

What `sp.lambdify((), expr, modules="mpmath")()` computes, without printing the expression as
Python source first: on the gradients' formulas that printing (it orders every sum's terms, by
evalf) was nine tenths of a test's time. Shared subexpressions are evaluated once.
"""

from __future__ import annotations

from typing import Any

import mpmath
import sympy as sp


def mp_value(expr: sp.Expr) -> Any:
    memo: dict[sp.Basic, Any] = {}

    def value(node: sp.Basic) -> Any:
        known = memo.get(node)
        if known is not None:
            return known
        if node.is_Integer:
            result = mpmath.mpf(int(node))
        elif node.is_Rational:
            result = mpmath.mpf(int(node.p)) / int(node.q)
        elif node.is_Float:
            result = mpmath.mpf(node._mpf_)
        elif node is sp.E:
            result = mpmath.e
        elif node is sp.pi:
            result = mpmath.pi
        elif node is sp.S.NegativeInfinity:
            result = mpmath.mpf("-inf")
        elif node.is_Add:
            result = mpmath.fsum(value(arg) for arg in node.args)
        elif node.is_Mul:
            result = mpmath.fprod(value(arg) for arg in node.args)
        elif node.is_Pow:
            base, exponent = node.args
            result = mpmath.power(value(base), value(exponent))
        elif isinstance(node, sp.exp):
            result = mpmath.exp(value(node.args[0]))
        elif isinstance(node, sp.Function) and hasattr(mpmath, type(node).__name__):
            result = getattr(mpmath, type(node).__name__)(*(value(arg) for arg in node.args))
        else:  # anything else: SymPy's own printer to mpmath
            result = sp.lambdify((), node, modules="mpmath")()
        memo[node] = result
        return result

    return value(expr)
