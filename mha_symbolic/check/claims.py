"""Claims: the numbers a document prints for a step, read exactly with their printed precision."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

import sympy as sp

from mha_symbolic.check import printouts
from mha_symbolic.check.chain_names import closing_index as _closing_index
from mha_symbolic.check.chain_names import is_name as _is_name
from mha_symbolic.check.step_values import PER_QUERY
from mha_symbolic.errors import SpecError
from mha_symbolic.spec import bounds
from mha_symbolic.spec import exact_numbers as exact

_KEY = re.compile(r"([A-Za-z][\w.]*)\s*(?:\[\s*(\d+)\s*(?:,\s*(\d+)\s*)?\])?")
# LaTeX that only spaces or sizes: dropped before reading ("\left[" reads as "[").
_NOISE = re.compile(r"\\left|\\right|\\displaystyle|\\q?quad|(?<!\\)\\[,;:! ]|\$")
_WRAPPER_START = re.compile(r"(?:np\.|numpy\.|torch\.)?(?:array|tensor)\(")
_RELATION = re.compile(r"(\\approx|\\simeq|≈|=)")
_SHOWN = {"\\approx": "≈", "\\simeq": "≈", "≈": "≈", "=": "="}
_MATRIX = re.compile(r"\\begin\{([bpBvV]?matrix)\}(.*)\\end\{\1\}", re.DOTALL)
_ROW_BREAK = re.compile(r"\\\\")
_PLAIN = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_TIMES_TEN = re.compile(r"([+-]?(?:\d+\.\d*|\.\d+|\d+))\s*\\(?:times|cdot)\s*10\^\{?([+-]?\d+)\}?")
_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")  # a printed decimal inside a formula
_MINUS_INFINITY = ("-\\infty", "-inf", "-∞")
_CLOSING = {"[": "]", "(": ")"}
# (LaTeX entry, declared parameters) -> value: latex2sympy2 takes 30-160 ms a parse
_PARSED: dict[tuple[str, tuple[sp.Symbol, ...]], sp.Expr] = {}
_PARSED_LIMIT = 4096


@dataclass(frozen=True)
class Printed:
    """One printed number: its text, its exact value, and the unit of its last printed digit.

    ``exponent`` is -n for a decimal printed with n decimals ("0.50": -2), shifted by any
    power of ten ("7.3e-1": -2); it is None for numbers printed exactly (integers, fractions,
    LaTeX expressions), which hold only when they are equal.
    """

    text: str
    value: sp.Expr
    exponent: int | None
    significant: bool = False  # scientific notation: the leading digit's decade is claimed too
    # A formula of printed decimals (\frac{2.1902}{9.5599}): the formula in placeholder symbols
    # and each placeholder's (printed value, unit of its last digit).
    formula: sp.Expr | None = None
    parts: tuple[tuple[sp.Symbol, sp.Rational, sp.Rational], ...] = ()

    @property
    def unit(self) -> sp.Rational | None:
        """The value of one unit in the last printed digit; for a float64's shortest print
        (16 or 17 significant digits) the power of ten above 8 ulps: the digits say which
        float, not the exact value."""
        unit = None if self.exponent is None else sp.Rational(10) ** self.exponent
        if unit is None or len(str(abs(self.value / unit).floor())) < 16:
            return unit
        while unit < abs(self.value) / 2**50:
            unit *= 10
        return unit

    @property
    def decimals(self) -> int:
        """Decimal places the printed digits resolve (0 for exact numbers)."""
        return max(0, -self.exponent) if self.exponent is not None else 0


@dataclass(frozen=True)
class Side:
    """One side of a claimed chain (``A \\approx B``): a grid of printed numbers."""

    text: str
    rows: tuple[tuple[Printed, ...], ...]

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.rows), len(self.rows[0]))


@dataclass(frozen=True)
class Claim:
    """A claimed value for a step, one of its rows (``[i]``) or one entry (``[i,j]``), 1-based."""

    key: str
    step: str
    row: int | None
    col: int | None
    text: str  # as given
    display: str  # the printed numbers as one-line lists: "[[0.73, 0.27], [0.27, 0.73]]"
    sides: tuple[Side, ...]

    def target(self, value: sp.MatrixBase) -> sp.ImmutableMatrix:
        """The part of a step's value this claim is about."""
        if self.row is None:  # (a lazy step's Entries make only the entries asked for)
            return sp.ImmutableMatrix(value[:, :])
        if self.col is None:
            return sp.ImmutableMatrix(value[self.row - 1, :])
        return sp.ImmutableMatrix([[value[self.row - 1, self.col - 1]]])

    def position(self, i: int, j: int) -> tuple[int, int]:
        """1-based (row, column) in the step of entry (i, j) (0-based) of the target."""
        return (self.row or i + 1, self.col or j + 1)


def read_claims(
    claims: Mapping[str, Any], shapes: Mapping[str, tuple[int, int]], unknown: Callable[[str], str]
) -> list[Claim]:
    """Claims checked against the step shapes; ``unknown(key)`` names an unknown step key."""
    out: list[Claim] = []
    for key, value in claims.items():
        out += _per_head(key, value, shapes) or [read_claim(key, value, shapes, unknown)]
    return out


def _per_head(key: Any, value: Any, shapes: Mapping[str, tuple[int, int]]) -> list[Claim]:
    """A (heads, L, L) print claimed under a key without its head (``weights``, as a model
    prints ``attn_weights``): one claim per head, ``head{i}.weights``."""
    if not isinstance(key, str) or not isinstance(value, str) or key.strip() in shapes:
        return []
    step = key.strip()
    if f"head1.{step}" not in shapes:
        return []
    where = f"claim {key!r}"
    _check_size(value, where)
    body, is_print, dtype = printouts.unwrap(printouts.clean(value).strip(), where)
    tree = printouts.tree(body, where) if is_print or printouts.numbers_only(body) else None
    heads = sum(name.startswith("head") and name.endswith(f".{step}") for name in shapes)
    if tree is not None and heads == 1 and printouts.depth(tree) == 2:
        tree = [tree]  # one head: its axis of length one was dropped
    if tree is None or printouts.depth(tree) != 3:
        return []
    if len(tree) != heads:
        raise SpecError(f"{where}: a print of {len(tree)} heads; the attention has {heads}")
    decimals = -printouts.shared_exponent(printouts.entries(tree))
    out = []
    for n, matrix in enumerate(tree, start=1):
        rows = _grid_rows(matrix, decimals, dtype, body, where)
        side = Side(_list_text(rows), rows)
        name = f"head{n}.{step}"
        _check_index(name, name, shapes[name], None, None)
        out.append(Claim(name, name, None, None, side.text, side.text, (side,)))
    return out


def read_claim(
    key: str, value: Any, shapes: Mapping[str, tuple[int, int]], unknown: Callable[[str], str]
) -> Claim:
    if not isinstance(key, str):
        raise SpecError(f"claims: keys must be text, got {key!r}")
    match = _KEY.fullmatch(key.strip())
    if not match:
        raise SpecError(
            f"claim {key!r}: a key is a step key, optionally with [row] or [row,column]"
        )
    step = match.group(1)
    row, col = (int(g) if g is not None else None for g in match.group(2, 3))
    if PER_QUERY.fullmatch(step) and f"{step}[1]" in shapes:
        step, row, col = _per_query(key, step, row, col, shapes)
    if step not in shapes:
        raise SpecError(f"claim {key!r}: {unknown(step)}")
    _check_index(key, step, shapes[step], row, col)
    where = f"claim {key!r}"
    text, display, sides = _read_value(value, where)
    return Claim(key, step, row, col, text, display, sides)


def _per_query(
    key: str, step: str, row: int | None, col: int | None, shapes: Mapping[str, Any]
) -> tuple[str, int | None, None]:
    """``head1.weighted[i,j]``: the rows a_ij v_j of query i are a step of their own."""
    if row is None:
        raise SpecError(
            f"claim {key!r}: {step} is per query: write {step}[i] (the rows a_ij v_j of "
            f"query i) or {step}[i,j] (one of them)"
        )
    queries = sum(name.startswith(f"{step}[") for name in shapes)
    if not 1 <= row <= queries:
        raise SpecError(f"claim {key!r}: {step} has {queries} queries, no query {row}")
    return f"{step}[{row}]", col, None


def _check_index(
    key: str, step: str, shape: tuple[int, int], row: int | None, col: int | None
) -> None:
    if row is not None and not 1 <= row <= shape[0]:
        raise SpecError(f"claim {key!r}: {step} has {shape[0]} rows (shape {shape}), no row {row}")
    if col is not None and not 1 <= col <= shape[1]:
        raise SpecError(
            f"claim {key!r}: {step} has {shape[1]} columns (shape {shape}), no column {col}"
        )


# ------------------------------------------------------------------ values
def _read_value(value: Any, where: str) -> tuple[str, str, tuple[Side, ...]]:
    """(text as given, text as a grid of printed numbers, sides)."""
    if isinstance(value, str):
        _check_size(value, where)
        text = _NOISE.sub(" ", printouts.clean(value)).strip()
        text, approximate = printouts.approximate(text)
        if not text:
            raise SpecError(f"{where}: the claimed value is empty")
        parts, relations = _chain(text, where)
        flags = [approximate] + [relation == "≈" for relation in relations]
        if len(parts) > 1 and _is_name(parts[0]):
            parts, relations, flags = parts[1:], relations[1:], flags[1:]
        if any(not part for part in parts):
            raise SpecError(f"{where}: cannot read {_quote(value)}: empty side in the chain")
        sides = tuple(_read_side(part, where, flag) for part, flag in zip(parts, flags))
        shown = [_list_text(side.rows) for side in sides]
        display = shown[0] + "".join(f" {r} {s}" for r, s in zip(relations, shown[1:]))
        return value, display, sides
    rows = _rows(value, where)
    side = Side(_list_text(rows), rows)
    return side.text, side.text, (side,)


def _chain(text: str, where: str) -> tuple[list[str], list[str]]:
    """The sides and relations of ``A = B \\approx C``; a printed array (whose keywords have
    '=' in them: ``dtype=torch.float64``) is always the last side."""
    wrapper = _WRAPPER_START.search(text)
    tail = ""
    if wrapper:
        text, tail = text[: wrapper.start()], text[wrapper.start() :]
    pieces = [piece.strip() for piece in _RELATION.split(text)]
    if tail:
        if pieces[-1]:
            raise SpecError(f"{where}: cannot read {_quote(pieces[-1])} before {_quote(tail)}")
        pieces[-1] = tail.strip()
    return pieces[::2], [_SHOWN[r] for r in pieces[1::2]]


def _check_size(text: str, where: str) -> None:
    """A claimed value within the length and nesting bounds (lists are read recursively)."""
    if len(text) > bounds.MAX_CLAIM_TEXT:
        raise SpecError(
            f"{where}: a claimed value of {len(text):,} characters; at most "
            f"{bounds.MAX_CLAIM_TEXT:,} are read"
        )
    depth = deepest = 0
    for char in text:
        depth += (char in "([{") - (char in ")]}")
        deepest = max(deepest, depth)
    if deepest > bounds.MAX_DEPTH:
        raise SpecError(f"{where}: the claimed value is nested more than {bounds.MAX_DEPTH} deep")


def _read_side(text: str, where: str, approximate: bool = False) -> Side:
    side = _exact_side(text, where)
    if not approximate:
        return side
    # "≈ 1": an integer after an approximation sign is printed to its last digit.
    rows = tuple(
        tuple(
            replace(p, exponent=0) if p.exponent is None and p.value.is_Integer else p for p in row
        )
        for row in side.rows
    )
    return Side(text, rows)


def _exact_side(text: str, where: str) -> Side:
    body, is_print, dtype = printouts.unwrap(text, where)
    if is_print:
        return Side(text, _printed_rows(body, where, dtype))
    matrix = _MATRIX.fullmatch(text)
    if matrix:
        lines = [line for line in _ROW_BREAK.split(matrix.group(2)) if line.strip()]
        if not lines:
            raise SpecError(f"{where}: the matrix {_quote(text)} is empty")
        grid = [[read_number(entry, where) for entry in _split(line, "&")] for line in lines]
        return Side(text, _rectangular(grid, text, where))
    if _is_list(text):
        return Side(text, _rows(_nested(text, where), where))
    return Side(text, ((read_number(text, where),),))


def _printed_rows(
    body: str, where: str, dtype: str | None = None
) -> tuple[tuple[Printed, ...], ...]:
    """A numpy or torch print: every entry at the precision the array is printed to (and no
    finer than its dtype keeps: ``dtype=float32`` prints digits float32 does not hold)."""
    value = printouts.nested(body, where)
    if value == []:
        raise SpecError(f"{where}: the printed array is empty")
    decimals = -printouts.shared_exponent(printouts.entries(value))
    return _grid_rows(value, decimals, dtype, body, where)


def _grid_rows(
    value: Any, decimals: int, dtype: str | None, body: str, where: str
) -> tuple[tuple[Printed, ...], ...]:
    """Entry texts of one printed matrix, each at the print's shared precision."""
    grid = value if isinstance(value, list) and isinstance(value[0], list) else [value]
    grid = [row if isinstance(row, list) else [row] for row in grid]

    def entry(text: str) -> Printed:
        number = read_number(text, where)
        exponent = printouts.entry_exponent(text, decimals)
        if dtype is not None and number.value != 0:
            kept = printouts.kept_exponent(text, dtype)
            exponent = kept if exponent is None else max(exponent, kept)
        return number if exponent is None else replace(number, exponent=exponent)

    return _rectangular([[entry(e) for e in row] for row in grid], body, where)


def _rows(value: Any, where: str) -> tuple[tuple[Printed, ...], ...]:
    """A TOML/Python value as a grid: a scalar is 1x1, a flat list one row."""
    dtype = printouts.low_precision(value)  # a float32 array: every entry at float32 precision
    if hasattr(value, "tolist") and hasattr(value, "shape"):  # SymPy matrices, NumPy arrays
        value = value.tolist()
    if not isinstance(value, Sequence) or isinstance(value, str):
        return ((_scalar(value, where, dtype),),)
    if not value:
        raise SpecError(f"{where}: the claimed list is empty")
    while isinstance(value, list) and len(value) == 1 and printouts.depth(value) > 2:
        value = value[0]  # a batch (or head) of one, [[[...]]]: its one matrix, as printed.tree
    nested = [_is_sequence(item) for item in value]
    if not any(nested):
        return (tuple(_scalar(item, where, dtype) for item in value),)
    if not all(nested) or any(_is_sequence(e) for row in value for e in row):
        raise SpecError(f"{where}: a claim is a number, a list of numbers or a list of rows")
    grid = [[_scalar(entry, where, dtype) for entry in row] for row in value]
    return _rectangular(grid, _list_text(tuple(map(tuple, grid))), where)


def _rectangular(
    grid: list[list[Printed]], text: str, where: str
) -> tuple[tuple[Printed, ...], ...]:
    width = len(grid[0])
    for i, row in enumerate(grid[1:], start=2):
        if len(row) != width:
            raise SpecError(
                f"{where}: row {i} of {_quote(text)} has {len(row)} entries but row 1 has {width}"
            )
    if width == 0:
        raise SpecError(f"{where}: {_quote(text)} has an empty row")
    return tuple(tuple(row) for row in grid)


def _is_sequence(value: Any) -> bool:
    return isinstance(value, (Sequence, sp.MatrixBase)) and not isinstance(value, (str, bytes))


def _scalar(value: Any, where: str, dtype: str | None = None) -> Printed:
    dtype = dtype or printouts.low_precision(value)
    if dtype is not None and not isinstance(value, (str, bool)):
        return _low_precision(float(value), dtype, where)
    if isinstance(value, str):
        return read_number(value, where)
    if isinstance(value, bool):
        raise SpecError(f"{where}: {value!r} is a boolean, not a number")
    if isinstance(value, (Decimal, float)) and value == value and abs(value) != float("inf"):
        # Decimal (TOML floats) keeps the digits as written; repr(float) is what was typed.
        return read_number(str(value) if isinstance(value, Decimal) else repr(value), where)
    number = exact.to_number(value, where)
    return Printed(_plain_text(number), number, None)


def _low_precision(number: float, dtype: str, where: str) -> Printed:
    """A float32 (float16) value claims what was typed, to the digits its format keeps."""
    if number != number or abs(number) == float("inf"):
        raise SpecError(f"{where}: {number!r} is not a finite number")
    text = printouts.shortest(number, dtype)
    typed = read_number(text, where)
    kept = printouts.kept_exponent(text, dtype) if number else None
    if kept is None:
        return typed
    exponent = kept if typed.exponent is None else max(typed.exponent, kept)
    return replace(typed, exponent=exponent)


def _plain_text(number: sp.Expr) -> str:
    return str(number) if number.is_Rational else sp.sstr(number)


def _list_text(rows: tuple[tuple[Printed, ...], ...]) -> str:
    def line(row: tuple[Printed, ...]) -> str:
        return "[" + ", ".join(entry.text for entry in row) + "]"

    if len(rows) == 1:
        return rows[0][0].text if len(rows[0]) == 1 else line(rows[0])
    return "[" + ", ".join(map(line, rows)) + "]"


def read_number(text: str, where: str = "claim") -> Printed:
    """One printed number: a decimal (whose digits give its precision), an integer, a
    fraction, minus infinity (a masked score) or LaTeX."""
    text = _strip_braces(_NOISE.sub(" ", printouts.clean(text)).strip())
    percent = printouts.percentage(text)
    if percent is not None:  # "22.91\\%": 0.2291, to four decimals
        number = read_number(percent, where)
        places = None if number.exponent is None else number.exponent - 2
        return Printed(text, number.value / 100, places)
    scientific = _TIMES_TEN.fullmatch(text)
    plain = f"{scientific.group(1)}e{scientific.group(2)}" if scientific else text
    if _PLAIN.fullmatch(plain):
        # The one grammar reads the value (within its digit and exponent bounds); the printed
        # digits then give the precision.
        value = _parsed(text, where)
        exact_form = "." not in plain and "e" not in plain.lower()
        exponent = None if exact_form else _decimal_exponent(Decimal(plain))
        # "1e0", "7.31e-1": significant digits, the first one in the decade of the exponent.
        return Printed(text, value, exponent, significant="e" in plain.lower())
    if text.replace(" ", "") in _MINUS_INFINITY:
        return Printed(text, -sp.oo, None)
    value = _parsed(text, where)
    if _DECIMAL.search(text):
        formula, parts = _formula(text, where)
        return Printed(text, value, None, formula=formula, parts=parts)
    return Printed(text, value, None)


def _formula(
    text: str, where: str
) -> tuple[sp.Expr, tuple[tuple[sp.Symbol, sp.Rational, sp.Rational], ...]]:
    """``\\frac{2.1902}{9.5599}`` as pa/pb with pa = 2.1902 and pb = 9.5599, each known to
    half a unit of its last printed digit."""
    parts: list[tuple[sp.Symbol, sp.Rational, sp.Rational]] = []

    def placeholder(match: re.Match[str]) -> str:
        number = read_number(match.group(), where)
        name = "printed" + "".join(chr(ord("a") + int(d)) for d in str(len(parts)))
        assert number.unit is not None
        parts.append((sp.Symbol(name, real=True), sp.Rational(number.value), number.unit))
        return f" {name} "

    shown = _DECIMAL.sub(placeholder, text)
    names = {str(symbol): symbol for symbol in exact.declared_symbols()}
    names.update({str(symbol): symbol for symbol, _, _ in parts})
    with exact.declared(names):
        formula = exact.from_text(shown, where)
    return formula, tuple(parts)


def _decimal_exponent(digits: Decimal) -> int:
    exponent = digits.as_tuple().exponent
    assert isinstance(exponent, int)  # finite: the text matched _PLAIN
    return exponent


def _parsed(text: str, where: str) -> sp.Expr:
    key = (text, exact.declared_symbols())  # "\\tau" reads as the declared tau, or not at all
    value = _PARSED.get(key)
    if value is None:
        value = exact.from_text(text, where)
        if len(_PARSED) >= _PARSED_LIMIT:
            _PARSED.clear()
        _PARSED[key] = value
    return value


def _strip_braces(text: str) -> str:
    while text.startswith("{") and _closing_index(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    return text


# ------------------------------------------------------------------ bracketed lists
def _is_list(text: str) -> bool:
    return (
        text[:1] in _CLOSING
        and text.endswith(_CLOSING[text[0]])
        and _closing_index(text, 0) == len(text) - 1
    )


def _split(text: str, separator: str) -> list[str]:
    """Split at ``separator`` outside any brackets or braces."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return [part.strip() for part in parts]


def _nested(text: str, where: str) -> list[Any]:
    """ "[a, [b, c]]" -> ["a", ["b", "c"]] (entries stay text, to keep their digits)."""
    items = _split(text[1:-1], ",")
    if any(not item for item in items):
        raise SpecError(f"{where}: cannot read {_quote(text)}: empty entry in the list")
    return [_nested(item, where) if _is_list(item) else item for item in items]


def _quote(text: str) -> str:
    return '"' + text + '"'
