"""LaTeX printing: bmatrix values, paper-notation formulas, decimals and elided large matrices."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import pairwise
from typing import Any

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from mha_symbolic.text import decimal_text

ELLIPSIS = None  # an elided row or column in a Layout


@dataclass(frozen=True)
class Settings:
    """How values are shown: ``decimals`` after the point, at most ``max_size`` rows and columns
    (more are elided), and entries at most ``max_width`` symbols wide (see :func:`width`; wider
    ones are written by name)."""

    decimals: int = 2
    max_size: int = 8
    max_width: float = 16
    # One form of a number per document: every exact rational a fraction (1/2, not 0.5 a step
    # before 9/16), for a document whose inputs print no decimals (see :func:`needs_fractions`).
    fractions: bool = False


class Printer(LatexPrinter):
    """SymPy's LaTeX printer in the documents' notation.

    ``substitute`` maps leaf symbols (matrix or scalar) to the LaTeX that replaces them, which
    is how a formula is printed "with the numbers substituted".
    """

    def __init__(
        self, substitute: Mapping[sp.Basic, str] | None = None, fractions: bool = False
    ) -> None:
        super().__init__({"mat_str": "bmatrix", "mat_delim": ""})
        self.substitute = dict(substitute or {})
        # Rationals as fractions: beside entries like a/(a + 3), 1/2 rather than 0.5.
        self._angles = 1 if fractions else 0  # inside sin/cos: rationals print as fractions

    def _print_MatrixSymbol(self, expr: sp.MatrixSymbol) -> str:
        return self.substitute.get(expr) or expr.name

    def _print_Symbol(self, expr: sp.Symbol, style: str = "plain") -> str:
        if expr in self.substitute:
            return self.substitute[expr]
        return super()._print_Symbol(expr, style=style)

    def _print_Transpose(self, expr: Any) -> str:
        text = self._print(expr.arg)
        return rf"{{{text}}}^{{\top}}" if "^" in text else rf"{text}^{{\top}}"

    def _print_Rational(self, expr: sp.Rational) -> str:
        # A value the user wrote as 0.2 reads back as 0.2 (latex2sympy2 parses it exactly);
        # an angle the model made (RoPE's 1/100) stays a fraction: sin(1/100), not sin(0.01).
        text = None if self._angles else terminating_decimal(expr)
        return text if text is not None else super()._print_Rational(expr)

    def _print_Mul(self, expr: Any) -> str:
        """``0.2 W_{Q1,11}``, as seed 002 writes its inputs, not ``\\frac{W_{Q1,11}}{5}``: a
        short decimal times symbols; anything else (``\\frac{a}{2 a + 1}``) as SymPy does."""
        coeff, rest = expr.as_coeff_Mul()
        if self._settings["fold_short_frac"] and _bare_trig_over(coeff, rest):
            # cos(1)/2 in an exponent: (\cos 1)/2, never \cos 1/2 (read as cos(1/2))
            sign = "- " if coeff < 0 else ""
            top = "" if abs(coeff.p) == 1 else f"{abs(coeff.p)} "
            return rf"{sign}{top}\left({self._print(rest)}\right)/{coeff.q}"
        if self._angles or coeff.is_Integer or not isinstance(coeff, sp.Rational):
            return str(super()._print_Mul(expr))
        text = terminating_decimal(abs(coeff))
        if text is None or not rest.free_symbols or sp.fraction(rest)[1] != 1:
            return str(super()._print_Mul(expr))
        sign = "- " if coeff < 0 else ""
        return f"{sign}{text} {self.parenthesize(rest, PRECEDENCE['Mul'], strict=True)}"

    def _print_Add(self, expr: Any, order: Any = None) -> str:
        """``\\frac{\\cos 2 - \\sin 2}{2}``, not ``- \\frac{\\sin 2}{2} + \\frac{\\cos 2}{2}``: a
        number whose terms all carry the same fraction (RoPE's scaled scores) has it pulled
        out, as a teacher writes it; anything else as SymPy does."""
        common = _common_fraction(expr)
        if common is None:
            return str(super()._print_Add(expr, order))
        inner = self._print(sp.Add(*(term / common for term in expr.args)))
        if self._settings["fold_short_frac"]:  # in an exponent: on the line
            return rf"\left({inner}\right)/{self._print(1 / common)}"
        if common.p == 1:
            return rf"\frac{{{inner}}}{{{common.q}}}"
        return rf"\frac{{{common.p}}}{{{common.q}}} \left({inner}\right)"  # as SymPy wrote it

    def _as_ordered_terms(self, expr: Any, order: Any = None) -> list[Any]:
        """A sum of sines and cosines in the order RoPE's documents write it: each angle's
        cosine before its sine, the largest angle (the first feature pair) first, other terms
        before them (``\\cos 2 - \\sin 2``, not SymPy's ``- \\sin 2 + \\cos 2``)."""
        terms = list(super()._as_ordered_terms(expr, order=order))
        return _trig_ordered(terms) if isinstance(expr, sp.Add) else terms

    def _print_sin(self, expr: Any, exp: Any = None) -> str:
        """``\\sin{\\left(\\frac{1}{100} \\right)}``, as SymPy writes it, with a fraction."""
        self._angles += 1
        try:
            arg = self._print(expr.args[0])
        finally:
            self._angles -= 1
        power = "" if exp is None else f"^{{{exp}}}"
        angle = expr.args[0]
        # A whole number or a whole multiple of a named angle is written bare, as a teacher
        # writes both (\cos 2 beside \cos 2\varphi, not \cos(2)); anything else in brackets.
        if _bare_angle(angle):
            return rf"\{type(expr).__name__}{power} {arg}"
        return rf"\{type(expr).__name__}{power}{{\left({arg} \right)}}"

    _print_cos = _print_sin

    def _print_ExpBase(self, expr: Any, exp: Any = None) -> str:
        """``e^{\\sqrt{2}/2}``, ``e^{1/2 - \\cos{...}}``: an exponent is worked out, not
        written by a user, so its rationals are fractions (never 0.5 beside cos(2)), and they
        are written on the line: a fraction stacked in an exponent is too small to read."""
        self._angles += 1
        fold = self._settings["fold_short_frac"]
        self._settings["fold_short_frac"] = True
        try:
            return str(super()._print_ExpBase(expr, exp)).replace(" / ", "/")
        finally:
            self._angles -= 1
            self._settings["fold_short_frac"] = fold

    def _print_OneMatrix(self, expr: Any) -> str:
        return r"\mathbf{1}"

    def _print_MatrixSlice(self, expr: Any) -> str:
        rows, cols = expr.rowslice, expr.colslice
        parent = self._print(expr.parent)
        row_text = (
            ":" if (rows[0], rows[1]) == (0, expr.parent.rows) else f"{rows[0]}{{:}}{rows[1]}"
        )
        return rf"{parent}[{row_text},\, {cols[0]}{{:}}{cols[1]}]"

    def _print_BlockMatrix(self, expr: Any) -> str:
        blocks = expr.blocks
        if blocks.rows == 1:
            inner = ", ".join(self._print(b) for b in blocks)
            return rf"\operatorname{{Concat}}\left({inner}\right)"
        return super()._print_BlockMatrix(expr)

    def _print_MatMul(self, expr: Any) -> str:
        """Scalar factors as the papers write them: ``\\frac{Q K^\\top}{\\sqrt{d_k}}``."""
        scalars = [a for a in expr.args if not getattr(a, "is_Matrix", False)]
        matrices = [a for a in expr.args if getattr(a, "is_Matrix", False)]
        product = _juxtaposed([self._factor(m) for m in matrices])
        factor = scalars[0] if len(scalars) == 1 else sp.Mul(*scalars)
        if factor == 1:
            return product
        by = divisor(factor)
        if by is not None and r"\begin{" in product:  # a matrix written out: 1/x before it
            return rf"\frac{{1}}{{{self._print(by)}}} {product}"
        if by is not None:
            return rf"\frac{{{product}}}{{{self._print(by)}}}"
        return rf"{self.parenthesize(factor, 1000)} {product}"

    def _factor(self, m: Any) -> str:
        text = self._print(m)
        return rf"\left({text}\right)" if isinstance(m, sp.MatAdd) else text


def _juxtaposed(factors: list[str]) -> str:
    """Factors side by side; a thin space beside a word (``\\mathrm{MultiHead}\\, W_{O}``):
    next to a letter a word's name ran into it, MultiHeadW_O."""
    out = factors[:1]
    for before, after in pairwise(factors):
        word = before.startswith(r"\mathrm{") or after.startswith(r"\mathrm{")
        out.append((r"\, " if word else " ") + after)
    return "".join(out)


def _bare_trig_over(coeff: Any, rest: Any) -> bool:
    """``rest`` a sine or cosine written bare, divided by ``coeff``'s denominator."""
    return (
        isinstance(coeff, sp.Rational)
        and not coeff.is_Integer
        and isinstance(rest, (sp.sin, sp.cos))
        and _bare_angle(rest.args[0])
    )


def _bare_angle(angle: Any) -> bool:
    """A whole number (2) or a named angle times a number (2 varphi): no brackets needed."""
    return bool(angle.is_Integer or (angle.free_symbols and angle.as_coeff_Mul()[1].is_Symbol))


def _common_fraction(expr: sp.Add) -> sp.Rational | None:
    """The fraction every term of a number (no symbols) is a multiple of, when all carry it
    with the same size (-sin(2)/2 + cos(2)/2: 1/2); None when there is none to pull out."""
    if expr.free_symbols or len(expr.args) < 2:
        return None
    sizes = {abs(term.as_coeff_Mul()[0]) for term in expr.args}
    if len(sizes) != 1:
        return None
    (size,) = sizes
    if not isinstance(size, sp.Rational) or size.is_Integer:
        return None
    return size


def divisor(factor: sp.Expr) -> sp.Expr | None:
    """``x`` when ``factor`` is ``1/x`` written as a power (``1/sqrt(d_k)``) or a unit fraction."""
    if isinstance(factor, sp.Pow) and factor.exp == -1:  # 1/tau: tau, not tau^1
        return factor.base
    if isinstance(factor, sp.Pow) and factor.exp.is_negative:
        return sp.Pow(factor.base, -factor.exp, evaluate=False)
    if isinstance(factor, sp.Rational) and factor.p == 1:
        return sp.Integer(factor.q)
    return None


def terminating_decimal(value: sp.Rational, max_digits: int = 6) -> str | None:
    """``1/5`` -> ``"0.2"``: the exact decimal of a rational with a short terminating expansion."""
    if value.is_Integer:
        return str(value.p)  # as str(value) prints it, without SymPy's printer
    q, places = value.q, 0
    for prime in (2, 5):
        count = 0
        while q % prime == 0:
            q, count = q // prime, count + 1
        places = max(places, count)
    if q != 1 or places > max_digits:
        return None
    return decimal_text(value, places)  # exact: no 28-digit Decimal context


def size(expr: sp.Basic, limit: int) -> int:
    """Number of expression nodes in ``expr``, counting no further than ``limit + 1``."""
    count = 0
    for _ in sp.preorder_traversal(expr):
        count += 1
        if count > limit:
            break
    return count


def width(expr: sp.Basic) -> float:
    """A rough printed width in symbols: fractions count their wider part, exponents half."""
    if expr.is_Atom:
        return 1.0
    if isinstance(expr, sp.Add):
        return sum(width(a) for a in expr.args) + 0.5 * (len(expr.args) - 1)
    if isinstance(expr, sp.Mul):
        top, bottom = sp.fraction(expr)
        if bottom != 1:
            return max(width(top), width(bottom))
        return sum(width(a) for a in expr.args if a != -1)
    if isinstance(expr, sp.Pow):
        if expr.exp == sp.S.Half:
            return width(expr.base) + 1
        return width(expr.base) + 0.5 * width(expr.exp)
    if isinstance(expr, sp.exp):
        return 1 + 0.5 * width(expr.args[0])
    return 2 + sum(width(a) for a in expr.args)


def too_long(expr: sp.Basic, max_width: float) -> bool:
    """Whether an entry is too wide to print in a matrix (it is then written by name)."""
    return size(expr, 200) > 200 or width(expr) > max_width


def is_literal(expr: sp.Basic) -> bool:
    """Whether the exact form already reads as a number with no rounding (``3``, ``0.25``)."""
    return (
        bool(expr.is_Integer)
        or expr in (sp.oo, -sp.oo)
        or (isinstance(expr, sp.Rational) and terminating_decimal(expr) is not None)
    )


# Typed: 2 and 2.0 print apart ("2", "2.00"). A solution prints a value's decimals at its
# step, in the next step's working, in a mark and in its heatmap: each is proved once.
@lru_cache(maxsize=8192, typed=True)
def decimal(expr: sp.Expr, places: int) -> str | None:
    """``expr`` rounded to ``places`` after the point; None when it has free symbols."""
    text = decimal_text(expr, places)
    return {"inf": sp.latex(sp.oo), "-inf": sp.latex(-sp.oo)}.get(text or "", text)


# ------------------------------------------------------------------ matrices
@dataclass(frozen=True)
class Layout:
    """Which rows and columns of a matrix are shown; ELLIPSIS marks where some are elided."""

    rows: tuple[int | None, ...]
    cols: tuple[int | None, ...]

    @property
    def elided(self) -> bool:
        return ELLIPSIS in self.rows or ELLIPSIS in self.cols


def _indices(n: int, max_size: int) -> tuple[int | None, ...]:
    if n <= max_size:
        return tuple(range(n))
    keep = max(max_size - 2, 1)
    return (*range(keep), ELLIPSIS, n - 1)


def layout(matrix: Any, max_size: int) -> Layout:
    return Layout(_indices(matrix.rows, max_size), _indices(matrix.cols, max_size))


def cells(matrix: Any, max_size: int) -> list[sp.Basic]:
    """The entries a matrix shows once elided (row by row)."""
    shown = layout(matrix, max_size)
    return [matrix[i, j] for i in shown.rows for j in shown.cols if i is not None and j is not None]


def bmatrix(
    matrix: sp.MatrixBase, entry: Callable[[int, int], str], shown: Layout | None = None
) -> str:
    """A bmatrix of ``entry(i, j)`` over ``shown`` rows and columns, with dots where elided."""
    shown = shown or Layout(tuple(range(matrix.rows)), tuple(range(matrix.cols)))
    lines = []
    for i in shown.rows:
        cells = []
        for j in shown.cols:
            if i is ELLIPSIS and j is ELLIPSIS:
                cells.append(r"\ddots")
            elif i is ELLIPSIS:
                cells.append(r"\vdots")
            elif j is ELLIPSIS:
                cells.append(r"\cdots")
            else:
                cells.append(entry(i, j))
        lines.append(" & ".join(cells))
    return r"\begin{bmatrix} " + r" \\ ".join(lines) + r" \end{bmatrix}"


def _trig_ordered(terms: list[Any]) -> list[Any]:
    """``terms`` sorted (stably) by the angle of their sine or cosine, largest first, cosine
    first; unchanged when none has one."""
    found = [[f for f in sp.Mul.make_args(t) if isinstance(f, (sp.sin, sp.cos))] for t in terms]
    if not any(found):
        return terms
    angles = list(dict.fromkeys(f[0].args[0] for f in found if f))

    def size(angle: sp.Expr) -> float:
        return -float(angle) if angle.is_number else float(angles.index(angle))

    def key(index: int) -> tuple[int, float, int]:
        if not found[index]:
            return (0, 0.0, 0)
        function = found[index][0]
        return (1, size(function.args[0]), 0 if isinstance(function, sp.cos) else 1)

    return [terms[i] for i in sorted(range(len(terms)), key=key)]


_PRINTER = Printer()
_FRACTIONS = Printer(fractions=True)


def exact(expr: sp.Basic, fractions: bool = False) -> str:
    """LaTeX of one exact value (scalar or matrix), nothing elided; ``fractions``: every
    rational as a fraction."""
    if isinstance(expr, sp.MatrixBase):
        entry = notation(expr, fractions)
        return bmatrix(expr, lambda i, j: entry(expr[i, j]))
    return _fraction(expr) if fractions else _scalar(expr)


def fractions(matrix: sp.MatrixBase) -> str:
    """A matrix with every entry a fraction (1/2, not 0.5)."""
    return bmatrix(matrix, lambda i, j: _fraction(matrix[i, j]))


def notation(entries: Iterable[sp.Basic], fractions: bool = False) -> Callable[[sp.Basic], str]:
    """How each entry of one matrix is written: all as fractions when the document writes
    fractions (``fractions``) or one of them has no short decimal (so a matrix keeps one
    notation), else as the numbers a user writes (0.5), every decimal to as many places as the
    longest (3.60 beside 2.61, not 3.6: still exact); as fractions too when a decimal would take
    more places than a small fraction takes digits (ALiBi's biased scores read 0.4375, 0.5625,
    1.1250 for 7/16, 9/16, 9/8)."""
    entries = list(entries)
    if fractions or needs_fractions(entries):
        return _fraction
    places = max(
        (_places(e) for e in entries if not e.free_symbols and e not in (sp.oo, -sp.oo)),
        default=0,
    )
    return partial(_padded, places=places) if places > 1 else _scalar


def needs_fractions(entries: Iterable[sp.Basic]) -> bool:
    """Whether one matrix's rational entries are written as fractions: one has no short
    decimal, or a decimal would take more places than a small fraction takes digits."""
    places, denominator = 0, 1
    for e in entries:
        if e.free_symbols or e in (sp.oo, -sp.oo):  # a mask's -inf: no notation of its own
            continue
        if not _short_decimal(e):
            return True
        places = max(places, _places(e))
        denominator = max(denominator, int(sp.Rational(e).q))
    return places > _MOST_PLACES and denominator <= _SMALL_DENOMINATOR


def _places(e: sp.Basic) -> int:
    """The places of a short decimal's exact expansion (0 for an integer)."""
    return 0 if e.is_Integer else len(str(terminating_decimal(e)).partition(".")[2])


# A document's exact decimals have three places at most (0.125); a fraction over 16 or 32 reads
# better than four or five places, a fraction over 5000 (0.1234) does not.
_MOST_PLACES, _SMALL_DENOMINATOR = 3, 64


def _padded(expr: sp.Basic, places: int) -> str:
    """A short decimal to ``places`` (exact: it has no more); anything else as written."""
    if isinstance(expr, sp.Rational) and not expr.is_Integer:
        return str(decimal_text(expr, places))
    return _scalar(expr)


@lru_cache(maxsize=4096)
def _scalar(expr: sp.Basic) -> str:
    return _PRINTER.doprint(expr)


@lru_cache(maxsize=4096)
def _fraction(expr: sp.Basic) -> str:
    return _FRACTIONS.doprint(expr)


def _short_decimal(expr: sp.Basic) -> bool:
    return isinstance(expr, sp.Rational) and terminating_decimal(expr) is not None


def formula(expr: sp.Basic, substitute: Mapping[sp.Basic, str] | None = None) -> str:
    """A step's formula in paper notation, optionally with leaf symbols replaced."""
    return Printer(substitute).doprint(expr)


@dataclass(frozen=True)
class Shown:
    """A matrix as a document shows it: exact entries (or names), decimals, and what was cut."""

    exact: str
    approx: str | None  # None when the exact form needs no decimals, or has symbols
    elided: bool
    named: bool  # some entries are too long and are written by name


def show(
    matrix: sp.MatrixBase, name: str, settings: Settings, written: sp.MatrixBase | None = None
) -> Shown:
    r"""``matrix`` as a document shows it; ``written`` is the same value in the letters it is
    written with (``a`` for ``e^{\sqrt{2}/2}``), its decimals are always of ``matrix``."""
    shown = layout(matrix, settings.max_size)
    cells = [(i, j) for i in shown.rows for j in shown.cols if i is not None and j is not None]
    form = matrix if written is None else written
    named = any(too_long(form[i, j], settings.max_width) for i, j in cells)
    if named:
        text = bmatrix(matrix, lambda i, j: rf"\left({name}\right)_{{{i + 1},{j + 1}}}", shown)
    else:
        entry = notation((matrix[i, j] for i, j in cells), settings.fractions)
        text = bmatrix(matrix, lambda i, j: entry(form[i, j]), shown)
    approx = None  # also when named: every step a student computes shows its numbers
    if not all(is_literal(matrix[i, j]) for i, j in cells):
        places = {}
        for i, j in cells:  # none at all once one has symbols (the rest are not tried)
            places[i, j] = decimal(matrix[i, j], settings.decimals)
            if places[i, j] is None:
                break
        else:
            approx = bmatrix(matrix, lambda i, j: str(places[i, j]), shown)
    return Shown(text, approx, shown.elided, named)
