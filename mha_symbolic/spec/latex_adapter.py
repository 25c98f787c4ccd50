"""The one adapter over latex2sympy2: LaTeX text -> SymPy objects."""

from __future__ import annotations

import threading
from typing import Any

import sympy as sp

# latex2sympy2 keeps module-level state (its ANTLR parser and variable table): one call at a time.
_LOCK = threading.Lock()


class LatexParseError(ValueError):
    """The text is not LaTeX that latex2sympy2 can read."""


def _latex2sympy() -> Any:
    from latex2sympy2 import latex2sympy  # imported lazily: about 0.3 s

    return latex2sympy


def parse_latex(text: str) -> sp.Basic:
    """Parse LaTeX into an evaluated SymPy object (expression or matrix).

    latex2sympy2 returns unevaluated products such as ``Mul(1, 1/sqrt(3))``; ``doit``
    evaluates them so that equal values compare equal.
    """
    parse = _latex2sympy()
    with _LOCK:
        try:
            result = parse(text)
        except Exception as exc:  # the ANTLR runtime raises many unrelated types
            raise LatexParseError(
                str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            ) from None
    if isinstance(result, sp.MatrixBase):
        return sp.ImmutableMatrix(result.applyfunc(lambda v: v.doit()))
    if not isinstance(result, sp.Basic):
        raise LatexParseError(f"parsed to {type(result).__name__}")
    return result.doit()
