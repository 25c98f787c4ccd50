"""User values (TOML, Python, NumPy, SymPy, LaTeX text) -> exact SymPy numbers and matrices."""

from __future__ import annotations

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
from mha_symbolic.spec import bounds, grammar
from mha_symbolic.spec.lexer import Refusal
from mha_symbolic.text import one_line

# A LaTeX matrix given as one string; its entries are read one by one like list entries.
_MATRIX = re.compile(r"\s*\\begin\{([bpBvV]?matrix)\}(.*)\\end\{\1\}\s*", re.DOTALL)
_ROW_BREAK = re.compile(r"\\\\(?:\[[^\]]*\])?")
_LOG10_2 = 0.30103
# A signed whole number (exact/limits.py tells "tau=0-" from "tau=-1" with it).
_INTEGER = re.compile(r"[+-]?\d+")
# The spec's declared parameters (name -> Symbol) while its values are read; see ``declared``.
_DECLARED: ContextVar[Mapping[str, sp.Symbol]] = ContextVar(
    "declared", default=MappingProxyType({})
)


# How a binary float is read: "decimal" (the shortest decimal that reads back as it, what a
# person wrote) or "binary" (its exact value, float.as_integer_ratio(): what a kernel computes
# with). See ``floats``.
FLOATS = ("decimal", "binary")
_FLOATS: ContextVar[str] = ContextVar("floats", default="decimal")


@contextmanager
def floats(mode: str) -> Iterator[None]:
    """Read binary floats (Python, NumPy) as ``mode`` says: "decimal" or "binary"."""
    if mode not in FLOATS:
        raise ValueError(f"floats must be one of {FLOATS}, got {mode!r}")
    token = _FLOATS.set(mode)
    try:
        yield
    finally:
        _FLOATS.reset(token)


def _finite_float(value: Decimal, where: str) -> float:
    number = float(value)
    if number in (float("inf"), float("-inf")):
        raise SpecError(f"{where}: {one_line(str(value))} is beyond the range of a binary float")
    return number


def _binary_float(value: float) -> sp.Rational:
    numerator, denominator = value.as_integer_ratio()
    return sp.Rational(numerator, denominator)


# How the spec's non-whole numbers were written, while it is read (see ``noting``): "decimal"
# (0.5, a TOML or Python float) and "fraction" (the string "1/2", \frac{1}{2}, a Fraction).
_WRITTEN: ContextVar[set[str] | None] = ContextVar("written", default=None)
_DECIMAL_POINT = re.compile(r"\d\.|\.\d")


@contextmanager
def noting() -> Iterator[set[str]]:
    """The ways ("decimal", "fraction") the non-whole numbers read inside were written: seed
    000 writes its W_O as ½, and its solution then writes fractions, not 0.5."""
    written: set[str] = set()
    token = _WRITTEN.set(written)
    try:
        yield written
    finally:
        _WRITTEN.reset(token)


def _noted(value: sp.Expr, decimal: bool) -> sp.Expr:
    written = _WRITTEN.get()
    if written is not None and isinstance(value, sp.Rational) and not value.is_Integer:
        written.add("decimal" if decimal else "fraction")
    return value


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


def _as_declared(value: sp.Basic, names: Mapping[str, sp.Symbol]) -> sp.Basic:
    """Symbols named like a parameter (``tau``, from a SymPy value) become it."""
    if not names:
        return value
    replace: dict[sp.Basic, sp.Basic] = {}
    for symbol in value.free_symbols:
        name = str(symbol).removeprefix("\\mathit{").removesuffix("}")
        if name in names and symbol != names[name]:
            replace[symbol] = names[name]
    return value.xreplace(replace) if replace else value


def _quote(text: str) -> str:
    return '"' + one_line(text) + '"'


def from_text(text: str, where: str) -> sp.Expr:
    """A value written as text, read by the one grammar (``"0.1"`` -> 1/10, ``\\frac{e}{1+e}``).

    Refusals are one line naming ``where``, the text and the offending part.
    """
    try:
        value = grammar.read(text.strip(), _DECLARED.get())
    except Refusal as refusal:
        raise _refused(refusal, text, where) from None
    return _finite(value, text, where)


def _refused(refusal: Refusal, text: str, where: str) -> SpecError:
    if refusal.kind == "zero":
        return SpecError(f"{where}: {_quote(text)} divides by zero")
    if refusal.kind == "infinite":
        return SpecError(f"{where}: {_quote(text)} is not a finite number")
    if refusal.kind == "complex":
        return SpecError(f"{where}: {_quote(text)} is not a real number")
    if refusal.kind == "name" or not text.strip():
        hint = f" ({refusal.reason})" if text.strip() else ""
        return SpecError(f"{where}: cannot read {_quote(text)} as a number{hint}")
    return SpecError(f"{where} = {_quote(text)}: {refusal.reason}")


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
        return _integer(value, where)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise SpecError(f"{where}: {value} is not a finite number")
        if _FLOATS.get() == "binary":  # a TOML float is a binary64 number
            return _noted(_binary_float(_finite_float(value, where)), True)
        # Its text ("1E+999999999") goes through the grammar's digit and exponent bounds.
        return _noted(from_text(str(value), where), True)
    if isinstance(value, Fraction):
        return _noted(_integer(value.numerator, where) / _integer(value.denominator, where), False)
    if isinstance(value, float):
        # repr gives the shortest text that reads back as this float: what was written.
        if value != value or abs(value) == float("inf"):
            raise SpecError(f"{where}: {value!r} is not a finite number")
        if _FLOATS.get() == "binary":
            return _noted(_binary_float(float(value)), True)
        return _noted(from_text(repr(float(value)), where), True)
    if isinstance(value, str):
        return _noted(from_text(value, where), bool(_DECIMAL_POINT.search(value)))
    if isinstance(value, sp.Expr) and not isinstance(value, sp.MatrixBase):
        # a SymPy number says nothing of how a document wrote it (1/5 from a derivation)
        return _finite(_as_declared(value, _DECLARED.get()), str(value), where)
    if hasattr(value, "dtype") and hasattr(value, "item") and getattr(value, "ndim", 0) == 0:
        return _noted(_numpy_scalar(value, where), True)
    raise SpecError(
        f"{where}: cannot read {one_line(repr(value))} ({type(value).__name__}) as a number"
    )


def _integer(value: int, where: str) -> sp.Integer:
    """An int within the digits bound (checked before any text: str() fails past 4,300)."""
    digits = int(abs(value).bit_length() * _LOG10_2) + 1
    if digits > bounds.MAX_DIGITS + 1:
        raise SpecError(
            f"{where}: an integer of about {digits:,} digits; at most {bounds.MAX_DIGITS:,} "
            "digits are read"
        )
    return sp.Integer(value)


def _numpy_scalar(value: Any, where: str) -> sp.Expr:
    # str() is the shortest decimal at the scalar's own precision (float32 0.1: "0.1").
    kind = value.dtype.kind
    if kind == "b":
        raise SpecError(f"{where}: {value!r} is a boolean, not a number")
    if kind in "iu":
        return sp.Integer(int(value))
    if kind == "f":
        if value != value or abs(float(value)) == float("inf"):
            raise SpecError(f"{where}: {value} is not a finite number")
        if _FLOATS.get() == "binary":  # float16/32 widen to float64 exactly
            return _binary_float(float(value))
        return from_text(str(value), where)
    raise SpecError(f"{where}: cannot read {value!r} ({value.dtype}) as a number")


def _rows_of(value: Any, where: str) -> list[Any]:
    """Nested rows from a list, a NumPy array, a SymPy matrix or a LaTeX matrix string."""
    if isinstance(value, sp.MatrixBase):
        return [list(value.row(i)) for i in range(value.rows)]
    if isinstance(value, str):
        return latex_rows(value, where)
    if hasattr(value, "tolist") and hasattr(value, "shape"):
        value = value.tolist() if value.ndim != 2 else [list(row) for row in value]
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise SpecError(f"{where}: expected a matrix (a list of rows), got {one_line(repr(value))}")
    return list(value)


def latex_rows(text: str, where: str) -> list[list[str]]:
    """A LaTeX matrix string split into entry texts (``&`` between entries, ``\\\\`` between
    rows); each entry is then read like a list entry, by the one grammar."""
    if len(text) > bounds.MAX_MATRIX_TEXT:
        raise SpecError(
            f"{where}: a matrix of {len(text):,} characters; at most "
            f"{bounds.MAX_MATRIX_TEXT:,} are read"
        )
    matrix = _MATRIX.fullmatch(text)
    if not matrix:
        if "\\begin" in text:
            raise SpecError(f"{where}: cannot read {_quote(text)} as a matrix")
        raise SpecError(f"{where}: expected a matrix, got the text {_quote(text)}")
    lines = _ROW_BREAK.split(matrix.group(2))
    if lines and not lines[-1].strip():  # a trailing \\ ends the last row
        lines.pop()
    return [[entry.strip() for entry in line.split("&")] for line in lines]


def to_matrix(value: Any, where: str) -> sp.ImmutableMatrix:
    """An exact matrix; entries are named ``where[i,j]`` (1-based) in errors."""
    from mha_symbolic.spec.binary_arrays import BinaryMatrix

    if isinstance(value, BinaryMatrix):
        return value  # read already (grouped-query weights, see binary_repeated)
    fast = _binary_array(value, where)
    if fast is not None:
        return fast
    rows = _rows_of(value, where)
    if not rows:
        raise SpecError(f"{where} is empty")
    for i, row in enumerate(rows, start=1):
        if not _is_row(row):
            raise SpecError(f"{where}: row {i} is {one_line(repr(row))}, not a list of numbers")
    width = len(rows[0])
    if width == 0:
        raise SpecError(f"{where} is empty (row 1 has no entries)")
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != width:
            noun = "entry" if len(row) == 1 else "entries"
            raise SpecError(f"{where}: row {i} has {len(row)} {noun} but row 1 has {width}")
    _check_size(len(rows), width, where, _is_array(value))
    return sp.ImmutableMatrix(
        [
            [to_number(entry, f"{where}[{i},{j}]") for j, entry in enumerate(row, start=1)]
            for i, row in enumerate(rows, start=1)
        ]
    )


def _check_size(rows: int, cols: int, where: str, array: bool = False) -> None:
    side = bounds.MAX_SIDE
    most = bounds.MAX_ARRAY_ENTRIES if array else bounds.MAX_ENTRIES
    if rows > side or cols > side or rows * cols > most:
        kind = "an array" if array else "a spec matrix"
        raise SpecError(
            f"{where} has shape ({rows}, {cols}); {kind} has at most {side:,} rows and "
            f"columns and {most:,} entries"
        )


def _is_array(value: Any) -> bool:
    return hasattr(value, "tolist") and hasattr(value, "shape") and hasattr(value, "dtype")


def _binary_array(value: Any, where: str, vector: bool = False) -> sp.ImmutableMatrix | None:
    """A float array (2-d, or 1-d for a ``vector``) read in binary (``floats("binary")``)
    without a per-entry reader: one FLINT matrix, its SymPy entries made when read (see
    :mod:`.binary_arrays`); None for anything else."""
    if not _is_array(value) or _FLOATS.get() != "binary" or value.dtype.kind != "f":
        return None
    if value.ndim != (1 if vector else 2) or 0 in value.shape:
        return None  # the general reader names what is wrong
    written = _WRITTEN.get()
    if written is not None:
        written.add("decimal")  # floats, as a kernel holds them
    grid = value.reshape(1, -1) if vector else value
    rows, cols = (int(n) for n in grid.shape)
    _check_size(rows, cols, where, not vector)
    import numpy  # the value is a NumPy array already: no import cost here

    from mha_symbolic.spec.binary_arrays import BinaryMatrix, fraction_matrix

    finite = numpy.isfinite(grid)
    if not finite.all():
        i, j = (int(n) for n in numpy.argwhere(~finite)[0])
        entry = f"{where}[{j + 1}]" if vector else f"{where}[{i + 1},{j + 1}]"
        raise SpecError(f"{entry}: {float(grid[i, j])!r} is not a finite number")
    return BinaryMatrix.of(fraction_matrix(grid))


def binary_repeated(
    value: Any, where: str, kv: int, group: int, by_rows: bool
) -> sp.ImmutableMatrix | None:
    """A float array of ``kv`` blocks (rows, or columns unless ``by_rows``) read in binary,
    each block standing ``group`` times: the base read once, never the repeated copies
    (see :meth:`.BinaryMatrix.repeated`); None when floats are not read in binary."""
    base = _binary_array(value, where)
    if base is None:
        return None
    from mha_symbolic.spec.binary_arrays import BinaryMatrix, flint_of

    return BinaryMatrix.repeated(flint_of(base), kv, group, by_rows)


def _is_row(row: Any) -> bool:
    if hasattr(row, "tolist") and hasattr(row, "shape"):
        return getattr(row, "ndim", 0) == 1
    return isinstance(row, Sequence) and not isinstance(row, (str, bytes))


def to_vector(value: Any, where: str) -> sp.ImmutableMatrix:
    """A 1 x n row vector (biases) from a flat list, array or a 1-row/1-column matrix."""
    fast = _binary_array(value, where, vector=True)
    if fast is not None:
        return fast
    if hasattr(value, "tolist") and hasattr(value, "shape"):
        value = value.tolist()
    if isinstance(value, sp.MatrixBase):
        value = list(value)
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise SpecError(
            f"{where}: expected a vector (a list of numbers), got {one_line(repr(value))}"
        )
    if not value:
        raise SpecError(f"{where} is empty")
    if any(_is_row(entry) for entry in value):
        raise SpecError(f"{where}: expected a flat list of numbers, got nested lists")
    _check_size(1, len(value), where)
    return sp.ImmutableMatrix(
        [[to_number(entry, f"{where}[{j}]") for j, entry in enumerate(value, start=1)]]
    )


def symbolic_matrix(letter: str, tag: str, rows: int, cols: int) -> sp.ImmutableMatrix:
    """A matrix of named symbols: ``W_{Q1,12}`` is entry (1, 2) of head 1's W_Q.

    These names survive a LaTeX round trip through latex2sympy2_extended (``W^{Q,1}_{12}``
    does not).
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
