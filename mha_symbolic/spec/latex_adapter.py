"""The one adapter over latex2sympy2_extended (LaTeX -> SymPy), and the bounds every value
built from its tree is held to.

The strict gate (grammar.py) reads a user's value first and writes it out canonically: every
product with ``\\cdot``, every group in parentheses, numbers as exact integers or fractions,
names as placeholders ``s_{k}``. The library parses that text into an unevaluated SymPy tree;
:func:`convert` then builds the value node by node, so that no power or product passes the
digit and exponent bounds and nothing infinite or undefined is read as a number.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import sympy as sp

from mha_symbolic.spec import bounds
from mha_symbolic.spec.lexer import Refusal

# The library keeps module-level state (its ANTLR parser): one call at a time.
_LOCK = threading.Lock()
# A decimal literal not inside a longer number or a name ("0.73", ".5", "2."; not "x2.5").
_DECIMAL = re.compile(r"(?<![\w.])(\d+\.\d*|\.\d+)(?![\w.])")
_PLACEHOLDER = re.compile(r"s_\{?(\d+)\}?")
_LONE_NAME = re.compile(r"\(s_\{(\d+)\}\)")  # the gate's text of a value that is one name
_LOG10_2 = 0.30103


class LatexParseError(ValueError):
    """The text is not LaTeX that latex2sympy2_extended can read."""


@functools.cache
def _parser(normalized: bool) -> Callable[[str], Any]:
    """The library as one function of the text (imported lazily: about 0.3 s).

    Its defaults guess: symbols are lowercased and ``2 \\frac{1}{2}`` is a mixed number; both
    are off. ``normalized``: its normalization, which reads ``\\mathit{tau}`` as ``tau``
    (without it: ``math{tau}``), for LaTeX this package printed; no units, no rewriting.
    """
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig
    from latex2sympy2_extended.math_normalization import NormalizationConfig

    normalization = NormalizationConfig(
        basic_latex=True, units=False, malformed_operators=False, nits=False, boxed="none"
    )
    conversion = ConversionConfig(lowercase_symbols=False, interpret_as_mixed_fractions=False)

    def parse(text: str) -> Any:
        config = normalization if normalized else None
        return latex2sympy(text, normalization_config=config, conversion_config=conversion)

    return parse


def _library(text: str, normalized: bool) -> Any:
    parse = _parser(normalized)
    with _LOCK:
        try:
            return parse(text)
        except Exception as exc:  # the ANTLR runtime raises many unrelated types
            raise LatexParseError(
                str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            ) from None


@functools.lru_cache(maxsize=4096)
def _tree(text: str) -> sp.Basic:
    """The library's unevaluated tree of the gate's canonical text (a parse takes 30-160 ms;
    values repeat, and the tree names symbols only by placeholder, so it can be shared)."""
    tree = _library(text, normalized=False)
    if not isinstance(tree, sp.Basic) or isinstance(tree, sp.MatrixBase):
        raise LatexParseError(f"parsed to {type(tree).__name__}")
    return tree


def convert(text: str, symbols: Sequence[sp.Expr]) -> sp.Expr:
    """The value of the gate's canonical ``text``; placeholder ``s_{k}`` is ``symbols[k]``."""
    lone = _LONE_NAME.fullmatch(text)
    if lone is not None:  # one name: the library's tree is its placeholder (no parse, ~0.4 s)
        return symbols[int(lone.group(1))]
    try:
        tree = _tree(text)
    except LatexParseError as error:  # a one-line refusal, never a traceback
        raise Refusal(f"the LaTeX reader cannot read it ({error})") from None
    return _build(tree, symbols)


def _build(node: sp.Basic, symbols: Sequence[sp.Expr]) -> sp.Expr:
    if isinstance(node, sp.Symbol):
        match = _PLACEHOLDER.fullmatch(node.name)
        if not match:
            raise Refusal(f"'{node.name}' is not read")
        return symbols[int(match.group(1))]
    if not node.args:
        return finite(node)
    args = [_build(arg, symbols) for arg in node.args]
    if isinstance(node, sp.Pow):
        return power(args[0], args[1])
    if isinstance(node, sp.exp):
        return power(sp.E, args[0])
    if isinstance(node, sp.log):
        return logarithm(args[0], args[1] if len(args) > 1 else sp.E)
    if isinstance(node, sp.Mul):
        bounded(args)
        return finite(checked(sp.Mul(*args)))
    if isinstance(node, sp.Add):
        return finite(checked(sp.Add(*args)))
    raise Refusal(f"{type(node).__name__} is not read")


# ---------------------------------------------------------------- the value checks
def finite(value: sp.Basic) -> sp.Expr:
    """``value``, unless it is infinite, undefined or not real, also as a part of a value
    (``\\frac{1}{\\ln(0)}`` is no 0, ``(\\sqrt{-1})^{2}`` no -1)."""
    if value.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        raise Refusal("", kind="infinite")
    if value.is_real is False:
        raise Refusal("", kind="complex")
    return value


def logarithm(argument: sp.Expr, base: sp.Expr) -> sp.Expr:
    """``\\log_{base}(argument)``: a base must be positive and not 1 (``\\log_{0}(5)`` is
    not 0)."""
    if base == 1:
        raise Refusal("\\log_{1} divides by zero (log 1 = 0)")
    if base.is_positive is False or base == 0:
        raise Refusal(f"the base of \\log must be positive, not {base}")
    return finite(sp.log(argument) if base == sp.E else sp.log(argument, base))


def power(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """``base^exponent`` when both the exponent and the exact result stay within the bounds."""
    if not exponent.free_symbols:
        size = _magnitude(exponent)
        if size is None or size > bounds.MAX_EXPONENT:
            raise Refusal(f"an exponent beyond the limit of ±{bounds.MAX_EXPONENT:,}")
        if base.is_Rational and base != 0:
            _rational_power(sp.Rational(base), size, exponent.is_Integer is True)
    return finite(checked(sp.Pow(base, exponent)))


def _rational_power(base: sp.Rational, size: float, integer: bool) -> None:
    bits = max(abs(base.p).bit_length(), base.q.bit_length())
    digits = int(size * bits * _LOG10_2) + 1
    if digits > bounds.MAX_VALUE_DIGITS:
        raise Refusal(
            f"a power of about {digits:,} digits; at most {bounds.MAX_VALUE_DIGITS:,} are computed"
        )
    if not integer and bits * _LOG10_2 > bounds.MAX_ROOT_DIGITS:
        raise Refusal(f"a root of a number over {bounds.MAX_ROOT_DIGITS} digits is not computed")


def _magnitude(exponent: sp.Expr) -> float | None:
    """|exponent| as a float (None when it has no finite numeric value)."""
    if exponent.is_Rational:
        return float(abs(sp.Rational(exponent)))
    try:
        value = complex(sp.N(exponent, 15))
    except (TypeError, ValueError):
        return None
    return abs(value) if abs(value) != float("inf") else None


def bounded(factors: Sequence[sp.Expr]) -> None:
    """Refuse a product whose exact rational part would pass the digits bound."""
    bits = 0
    for factor in factors:
        coefficient = factor.as_coeff_Mul()[0] if isinstance(factor, sp.Expr) else 1
        if isinstance(coefficient, sp.Rational):
            bits += max(abs(coefficient.p).bit_length(), coefficient.q.bit_length())
    if bits * _LOG10_2 > bounds.MAX_VALUE_DIGITS:
        raise Refusal(
            f"a product of about {int(bits * _LOG10_2):,} digits; "
            f"at most {bounds.MAX_VALUE_DIGITS:,} are computed"
        )


def checked(value: sp.Expr) -> sp.Expr:
    """Refuse an exact rational (or a sum's rational part) past the digits bound."""
    coefficient = value.as_coeff_Add()[0] if isinstance(value, sp.Expr) else 0
    for part in (value, coefficient):
        if isinstance(part, sp.Rational):
            bits = max(abs(part.p).bit_length(), part.q.bit_length())
            if bits * _LOG10_2 > bounds.MAX_VALUE_DIGITS:
                raise Refusal(
                    f"a number of about {int(bits * _LOG10_2):,} digits; "
                    f"at most {bounds.MAX_VALUE_DIGITS:,} are computed"
                )
    return value


# ---------------------------------------------------------------- LaTeX this package printed
def _exact_decimals(text: str) -> str:
    """``0.73`` -> ``(\\frac{73}{100})``: the library returns decimals as Floats."""

    def fraction(match: re.Match[str]) -> str:
        value = Fraction(Decimal(match.group(1)))
        return f"(\\frac{{{value.numerator}}}{{{value.denominator}}})"

    return _DECIMAL.sub(fraction, text)


def parse_latex(text: str) -> sp.Basic:
    """Parse LaTeX (an expression or a bmatrix, as :meth:`Derivation.latex` prints it) into
    an evaluated SymPy object; decimals are read exactly.

    The library returns unevaluated products such as ``Mul(1, 1/sqrt(3))``; ``doit``
    evaluates them so that equal values compare equal.
    """
    result = _library(_exact_decimals(text), normalized=True)
    if isinstance(result, sp.MatrixBase):
        return sp.ImmutableMatrix(result.applyfunc(lambda v: v.doit()))
    if not isinstance(result, sp.Basic):
        raise LatexParseError(f"parsed to {type(result).__name__}")
    return result.doit()
