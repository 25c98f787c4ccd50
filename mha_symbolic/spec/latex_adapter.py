"""The one adapter over latex2sympy2 (Python < 3.13) or latex2sympy2_extended: LaTeX -> SymPy.

Both give the same exact results: decimals become exact fractions before parsing (the extended
parser returns Floats, also inside a bmatrix), symbols keep their case (it lowercases them by
default), and ``\\mathit{tau}`` reads as the symbol ``tau`` on both.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import sympy as sp

# latex2sympy2 keeps module-level state (its ANTLR parser and variable table): one call at a time.
_LOCK = threading.Lock()
# A decimal literal not inside a longer number or a name ("0.73", ".5", "2."; not "x2.5").
_DECIMAL = re.compile(r"(?<![\w.])(\d+\.\d*|\.\d+)(?![\w.])")
_ITALIC = re.compile(r"\\mathit\{([A-Za-z]+)\}")


class LatexParseError(ValueError):
    """The text is not LaTeX that latex2sympy2 can read."""


def _parser() -> Callable[[str], Any]:
    """The installed parser as one function of the text (imported lazily: about 0.3 s)."""
    if sys.version_info < (3, 13):
        from latex2sympy2 import latex2sympy

        return latex2sympy  # type: ignore[no-any-return,unused-ignore]
    from latex2sympy2_extended import latex2sympy as extended
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig
    from latex2sympy2_extended.math_normalization import NormalizationConfig

    # Its normalization turns \mathit{tau} into tau (without it: "math{tau}"); no units, no
    # "nits" rewriting, and mixed fractions are never guessed.
    normalization = NormalizationConfig(
        basic_latex=True, units=False, malformed_operators=False, nits=False, boxed="none"
    )
    conversion = ConversionConfig(lowercase_symbols=False, interpret_as_mixed_fractions=False)

    def parse(text: str) -> Any:
        return extended(text, normalization_config=normalization, conversion_config=conversion)

    return parse


def _exact_decimals(text: str) -> str:
    """``0.73`` -> ``(\\frac{73}{100})``: both parsers then read decimals exactly."""

    def fraction(match: re.Match[str]) -> str:
        value = Fraction(Decimal(match.group(1)))
        return f"(\\frac{{{value.numerator}}}{{{value.denominator}}})"

    return _DECIMAL.sub(fraction, text)


def _plain_names(value: sp.Basic) -> sp.Basic:
    """``\\mathit{tau}`` (latex2sympy2 1.9.1 keeps the command in the name) -> ``tau``."""
    replace = {}
    for symbol in value.free_symbols:
        match = _ITALIC.fullmatch(str(symbol))
        if isinstance(symbol, sp.Symbol) and match:
            replace[symbol] = sp.Symbol(match.group(1), **symbol.assumptions0)
    return value.xreplace(replace) if replace else value


def parse_latex(text: str) -> sp.Basic:
    """Parse LaTeX into an evaluated SymPy object (expression or matrix).

    latex2sympy2 returns unevaluated products such as ``Mul(1, 1/sqrt(3))``; ``doit``
    evaluates them so that equal values compare equal.
    """
    parse = _parser()
    with _LOCK:
        try:
            result = parse(_exact_decimals(text))
        except Exception as exc:  # the ANTLR runtime raises many unrelated types
            raise LatexParseError(
                str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            ) from None
    if isinstance(result, sp.MatrixBase):
        return sp.ImmutableMatrix(result.applyfunc(lambda v: _plain_names(v.doit())))
    if not isinstance(result, sp.Basic):
        raise LatexParseError(f"parsed to {type(result).__name__}")
    return _plain_names(result.doit())
