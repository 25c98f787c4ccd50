"""User values (TOML, Python, NumPy, SymPy, LaTeX text) -> exact SymPy numbers and matrices."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.spec.latex_adapter import LatexParseError, parse_latex

_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*([+-]?\d+)")
# Two letters in a row outside a LaTeX command or a subscript: "abc" would parse as a*b*c.
_COMMAND_OR_SUBSCRIPT = re.compile(r"\\[A-Za-z]+|_\{[^}]*\}|_[A-Za-z0-9]")
_LETTER_RUN = re.compile(r"[A-Za-z]{2,}")
# latex2sympy2 reads "1..2" as 1, "1.2.3" as 9/25, "2 3" as a product and "0x10" as 0: refuse.
_DIGIT_RUN = re.compile(r"[\d.]+")
_NUMBER_TOKEN = re.compile(r"\d+(\.\d*)?|\.\d+")
_SPACED_DIGITS = re.compile(r"[\d.]\s+[\d.]|\d[A-Za-z]")
# The spec's declared parameters (name -> Symbol) while its values are read; see ``declared``.
_DECLARED: ContextVar[Mapping[str, sp.Symbol]] = ContextVar(
    "declared", default=MappingProxyType({})
)


@contextmanager
def declared(symbols: Mapping[str, sp.Symbol]) -> Iterator[None]:
    """Read values with these parameter names (``tau`` or ``\\tau``) as their symbols."""
    token = _DECLARED.set(symbols)
    try:
        yield
    finally:
        _DECLARED.reset(token)


def declared_symbols() -> tuple[sp.Symbol, ...]:
    """The symbols of the parameters being read (empty outside a spec)."""
    return tuple(_DECLARED.get().values())


def _bare(name: str) -> re.Pattern[str]:
    """``name`` as a word of its own: not a LaTeX command (``\\tau``), not inside a longer word."""
    return re.compile(rf"(?<![\\A-Za-z]){name}(?![A-Za-z])")


def _with_names(text: str, names: Mapping[str, sp.Symbol], replacement: str) -> str:
    for name in names:
        text = _bare(name).sub(replacement.format(name=name).replace("\\", "\\\\"), text)
    return text


def _unknown_name_hint(text: str, names: Mapping[str, sp.Symbol]) -> str:
    """With parameters declared, say which name was not one of them."""
    if not names:
        return ""
    plain = _COMMAND_OR_SUBSCRIPT.sub(" ", _with_names(text, names, " "))
    words = _LETTER_RUN.findall(plain)
    if not words:
        return ""
    close = difflib.get_close_matches(words[0], list(names), n=1, cutoff=0.5)
    if close:
        return f" ('{words[0]}' is not declared; did you mean '{close[0]}'?)"
    return f" ('{words[0]}' is not declared; the parameters are {', '.join(names)})"


def _as_declared(value: sp.Basic, names: Mapping[str, sp.Symbol]) -> sp.Basic:
    """Symbols named like a parameter (``tau``, from ``\\tau`` or a placeholder) become it."""
    if not names:
        return value
    replace: dict[sp.Basic, sp.Basic] = {}
    for symbol in value.free_symbols:
        name = str(symbol).removeprefix("\\mathit{").removesuffix("}")
        if name in names and symbol != names[name]:
            replace[symbol] = names[name]
    return value.xreplace(replace) if replace else value


def _suspicious(text: str) -> bool:
    """Text that latex2sympy2 would read, but not as the number the user wrote."""
    plain = _COMMAND_OR_SUBSCRIPT.sub(" ", text)
    return (
        not text
        or bool(_LETTER_RUN.search(plain))
        or bool(_SPACED_DIGITS.search(text))
        or any(not _NUMBER_TOKEN.fullmatch(run) for run in _DIGIT_RUN.findall(text))
    )


def _quote(text: str) -> str:
    return '"' + text + '"'


def from_text(text: str, where: str) -> sp.Expr:
    """A decimal, a fraction or LaTeX, read exactly (``"0.1"`` -> 1/10)."""
    stripped = text.strip()
    if _INTEGER.fullmatch(stripped):
        return sp.Integer(int(stripped))
    if _DECIMAL.fullmatch(stripped):
        return sp.Rational(Fraction(Decimal(stripped)))
    fraction = _FRACTION.fullmatch(stripped)
    if fraction:
        numerator, denominator = int(fraction.group(1)), int(fraction.group(2))
        if denominator == 0:
            raise SpecError(f"{where}: {_quote(text)} divides by zero")
        return sp.Rational(numerator, denominator)
    names = _DECLARED.get()
    # A declared name reads as one symbol: checked as a single letter, parsed as \\mathit{tau}.
    if _suspicious(_with_names(stripped, names, "p")):
        hint = _unknown_name_hint(stripped, names)
        raise SpecError(f"{where}: cannot read {_quote(text)} as a number{hint}")
    try:
        value = parse_latex(_with_names(stripped, names, "\\mathit{{{name}}}"))
    except LatexParseError:
        raise SpecError(f"{where}: cannot read {_quote(text)} as a number") from None
    if not isinstance(value, sp.Expr) or isinstance(value, sp.MatrixBase):
        raise SpecError(f"{where}: {_quote(text)} is not a single number")
    return _finite(_as_declared(value, names), text, where)


def _finite(value: sp.Expr, text: str, where: str) -> sp.Expr:
    if value.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        raise SpecError(f"{where}: {_quote(text)} is not a finite number")
    if value.is_real is False:
        raise SpecError(f"{where}: {_quote(text)} is not a real number")
    return value


def to_number(value: Any, where: str) -> sp.Expr:
    """One exact number (or symbolic expression) from a user value."""
    if isinstance(value, bool):
        raise SpecError(f"{where}: {value!r} is a boolean, not a number")
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise SpecError(f"{where}: {value} is not a finite number")
        return sp.Rational(Fraction(value))
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        # repr gives the shortest text that reads back as this float: what was written.
        if value != value or abs(value) == float("inf"):
            raise SpecError(f"{where}: {value!r} is not a finite number")
        return from_text(repr(float(value)), where)
    if isinstance(value, str):
        return from_text(value, where)
    if isinstance(value, sp.Expr) and not isinstance(value, sp.MatrixBase):
        return _finite(_as_declared(value, _DECLARED.get()), str(value), where)
    if hasattr(value, "dtype") and hasattr(value, "item") and getattr(value, "ndim", 0) == 0:
        # A NumPy scalar: str() is the shortest decimal at its own precision (float32 0.1: "0.1").
        kind = value.dtype.kind
        if kind == "b":
            raise SpecError(f"{where}: {value!r} is a boolean, not a number")
        if kind in "iu":
            return sp.Integer(int(value))
        if kind == "f":
            if value != value or abs(float(value)) == float("inf"):
                raise SpecError(f"{where}: {value} is not a finite number")
            return from_text(str(value), where)
    raise SpecError(f"{where}: cannot read {value!r} ({type(value).__name__}) as a number")


def _rows_of(value: Any, where: str) -> list[Any]:
    """Nested rows from a list, a NumPy array, a SymPy matrix or a LaTeX matrix string."""
    if isinstance(value, sp.MatrixBase):
        return [list(value.row(i)) for i in range(value.rows)]
    if isinstance(value, str):
        if "\\begin" not in value:
            raise SpecError(f"{where}: expected a matrix, got the text {_quote(value)}")
        try:
            parsed = parse_latex(value)
        except LatexParseError:
            raise SpecError(f"{where}: cannot read {_quote(value)} as a matrix") from None
        if not isinstance(parsed, sp.MatrixBase):
            raise SpecError(f"{where}: {_quote(value)} is not a matrix")
        return [list(parsed.row(i)) for i in range(parsed.rows)]
    if hasattr(value, "tolist") and hasattr(value, "shape"):
        value = value.tolist() if value.ndim != 2 else [list(row) for row in value]
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise SpecError(f"{where}: expected a matrix (a list of rows), got {value!r}")
    return list(value)


def to_matrix(value: Any, where: str) -> sp.ImmutableMatrix:
    """An exact matrix; entries are named ``where[i,j]`` (1-based) in errors."""
    rows = _rows_of(value, where)
    if not rows:
        raise SpecError(f"{where} is empty")
    for i, row in enumerate(rows, start=1):
        if not _is_row(row):
            raise SpecError(f"{where}: row {i} is {row!r}, not a list of numbers")
    width = len(rows[0])
    if width == 0:
        raise SpecError(f"{where} is empty (row 1 has no entries)")
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != width:
            noun = "entry" if len(row) == 1 else "entries"
            raise SpecError(f"{where}: row {i} has {len(row)} {noun} but row 1 has {width}")
    return sp.ImmutableMatrix(
        [
            [to_number(entry, f"{where}[{i},{j}]") for j, entry in enumerate(row, start=1)]
            for i, row in enumerate(rows, start=1)
        ]
    )


def _is_row(row: Any) -> bool:
    if hasattr(row, "tolist") and hasattr(row, "shape"):
        return getattr(row, "ndim", 0) == 1
    return isinstance(row, Sequence) and not isinstance(row, (str, bytes))


def to_vector(value: Any, where: str) -> sp.ImmutableMatrix:
    """A 1 x n row vector (biases) from a flat list, array or a 1-row/1-column matrix."""
    if hasattr(value, "tolist") and hasattr(value, "shape"):
        value = value.tolist()
    if isinstance(value, sp.MatrixBase):
        value = list(value)
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise SpecError(f"{where}: expected a vector (a list of numbers), got {value!r}")
    if not value:
        raise SpecError(f"{where} is empty")
    if any(_is_row(entry) for entry in value):
        raise SpecError(f"{where}: expected a flat list of numbers, got nested lists")
    return sp.ImmutableMatrix(
        [[to_number(entry, f"{where}[{j}]") for j, entry in enumerate(value, start=1)]]
    )


def symbolic_matrix(letter: str, tag: str, rows: int, cols: int) -> sp.ImmutableMatrix:
    """A matrix of named symbols: ``W_{Q1,12}`` is entry (1, 2) of head 1's W_Q.

    These names survive a LaTeX round trip through latex2sympy2 (``W^{Q,1}_{12}`` does not).
    """

    def index(i: int, j: int) -> str:
        position = f"{i}{j}" if i < 10 and j < 10 else f"{i},{j}"
        return f"{tag},{position}" if tag else position

    return sp.ImmutableMatrix(
        [
            [sp.Symbol(f"{letter}_{{{index(i, j)}}}") for j in range(1, cols + 1)]
            for i in range(1, rows + 1)
        ]
    )


def symbolic_vector(letter: str, tag: str, size: int) -> sp.ImmutableMatrix:
    """A 1 x n row of named symbols: ``b_{Q1,2}`` is entry 2 of head 1's b_Q."""
    return sp.ImmutableMatrix(
        [
            [
                sp.Symbol(f"{letter}_{{{tag},{j}}}" if tag else f"{letter}_{{{j}}}")
                for j in range(1, size + 1)
            ]
        ]
    )


def shape_of(matrix: sp.MatrixBase) -> tuple[int, int]:
    return (matrix.rows, matrix.cols)
