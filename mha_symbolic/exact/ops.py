"""Pure exact operations of multi-head attention on SymPy matrices (no rendering, no I/O)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from fractions import Fraction
from functools import cached_property, lru_cache, wraps
from math import gcd, lcm
from typing import Any, TypeVar, cast

import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.core.add import _addsort

from mha_symbolic.exact.canonical_order import Unordered, compare_key, in_order


def tidy(entry: sp.Expr) -> sp.Expr:
    """Expand polynomials in symbols (numbers are already canonical)."""
    return sp.expand(entry) if entry.free_symbols else entry


def project(x: Matrix, w: Matrix, bias: Matrix | None = None) -> Matrix:
    """X W (+ 1 b): ``w`` is the (in x out) matrix, ``bias`` a 1 x out row added to every row."""
    product = x * w
    if bias is not None:
        product = product + sp.ones(x.rows, 1) * bias
    return Matrix(product)


def split_columns(matrix: Matrix, parts: int) -> list[Matrix]:
    """Cut the columns into ``parts`` equal slices: (L, E) -> h x (L, E/h)."""
    width = matrix.cols // parts
    return [Matrix(matrix[:, i * width : (i + 1) * width]) for i in range(parts)]


def split_widths(matrix: Matrix, widths: Sequence[int]) -> list[Matrix]:
    """Cut the columns into consecutive slices of the given widths."""
    starts = [sum(widths[:i]) for i in range(len(widths))]
    return [Matrix(matrix[:, s : s + w]) for s, w in zip(starts, widths)]


# A few recent results of the heavy operations, by value: the page derives its spec again at
# each edit, and an edit leaves most heads' inputs as they were.
_RECENT = 16
_F = TypeVar("_F", bound=Callable[..., Any])


# SymPy before 1.13 has Float(1.0) == 1, with equal hashes: there a key by value alone would
# give an exact spec a float spec's results, so the key carries the kinds of number in the
# arguments as well (later, == tells them apart by itself, and the walk is not needed).
KINDS_IN_KEY = bool(sp.Integer(1) == sp.Float(1.0))


def _recent(function: _F) -> _F:
    """``function`` remembering its last results by its arguments' values (and types; see
    ``KINDS_IN_KEY``); a mutable matrix, which has no value to key by, is computed each time."""

    @lru_cache(maxsize=_RECENT, typed=True)
    def by_value(kinds: frozenset[type] | None, *args: Any) -> Any:
        return function(*args)

    @wraps(function)
    def call(*args: Any) -> Any:
        try:
            hash(args)
        except TypeError:  # unhashable: computed each time
            return function(*args)
        return by_value(number_kinds(args) if KINDS_IN_KEY else None, *args)

    return cast(_F, call)


def number_kinds(value: Any) -> frozenset[type]:
    """The classes of the numbers anywhere in ``value`` (SymPy expressions and matrices, in
    tuples, lists and dataclasses)."""
    kinds: set[type] = set()
    seen: dict[int, Any] = {}  # (holding each item, so that no id is reused meanwhile)
    pending = [value]
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen[id(item)] = item
        if isinstance(item, sp.MatrixBase):
            pending.extend(item)
        elif isinstance(item, sp.Basic):
            if item.is_Number:
                kinds.add(type(item))
            pending.extend(item.args)
        elif isinstance(item, (tuple, list)):
            pending.extend(item)
        elif is_dataclass(item):
            pending.extend(getattr(item, f.name) for f in fields(item))
    return frozenset(kinds)


_SMALL = 1024  # entries: a product this small is remembered (a model-sized one is not kept)


def times(a: Any, b: Any) -> Any:
    """``a * b`` of matrices or of a number and a matrix; a small one is remembered (by
    :func:`_recent`): the page's edit of one input leaves the other heads' projections and
    scaled scores as they were."""
    small = all(not isinstance(m, sp.MatrixBase) or len(m) <= _SMALL for m in (a, b))
    return _times_recent(a, b) if small else a * b


@_recent
def _times_recent(a: Any, b: Any) -> Any:
    return a * b


@_recent
def expanded_product(a: Matrix, b: Matrix) -> Matrix:
    """a b with every entry expanded into a polynomial of its symbols.

    Entries that are polynomials with rational coefficients are multiplied in a sparse
    polynomial ring (about 7x faster than SymPy's expand on eight-tokens-split's scores);
    anything else (sqrt, exp, ...) goes through ``expand``.
    """
    symbols = a.free_symbols | b.free_symbols
    if symbols:
        try:
            ring = _ring(tuple(sorted(symbols, key=sp.default_sort_key)))
            left = [_in_ring(ring, tuple(a.row(i))) for i in range(a.rows)]
            right = [_in_ring(ring, tuple(b.col(j))) for j in range(b.cols)]
        except (ValueError, sp.polys.polyerrors.PolynomialError):  # not over QQ: expand below
            pass
        else:
            return Matrix([[_dot(ring, row, col) for col in right] for row in left])
    return Matrix((a * b).applyfunc(tidy))


# The page derives its spec again at each edit: an edit of one input row changes one row of
# Q, K and V, so most rows and entries of a product are those of the edit before. Entries
# and converted rows are remembered by value within one ring (its symbols, in order).
_ENTRIES = 4096


@lru_cache(maxsize=64)
def _ring(symbols: tuple[sp.Symbol, ...]) -> Any:
    return sp.polys.rings.ring(symbols, sp.QQ)[0]


@dataclass(frozen=True)
class _Row:
    """A row (or column) of a product's factor in ``ring``: its entries (and the kinds of
    number in them, see ``KINDS_IN_KEY``), and their polynomials (not compared)."""

    entries: tuple[sp.Expr, ...]
    kinds: frozenset[type] | None
    polys: tuple[Any, ...] = field(compare=False, hash=False)


def _in_ring(ring: Any, entries: tuple[sp.Expr, ...]) -> _Row:
    return _converted(ring, entries, number_kinds(entries) if KINDS_IN_KEY else None)


@lru_cache(maxsize=_ENTRIES)
def _converted(ring: Any, entries: tuple[sp.Expr, ...], kinds: frozenset[type] | None) -> _Row:
    return _Row(entries, kinds, tuple(ring.from_expr(v) for v in entries))


@lru_cache(maxsize=_ENTRIES)
def _dot(ring: Any, row: _Row, col: _Row) -> sp.Expr:
    """The expanded entry of ``row`` times ``col``."""
    return sum((x * y for x, y in zip(row.polys, col.polys)), ring.zero).as_expr()


def scores(q: Matrix, k: Matrix) -> Matrix:
    """Q K^T: every query row against every key row."""
    return expanded_product(q, k.T)


def scale(matrix: Matrix, factor: sp.Expr) -> Matrix:
    return matrix if factor == 1 else Matrix(matrix.applyfunc(lambda e: factor * e))


def mask(matrix: Matrix, allowed: Matrix) -> Matrix:
    """Blocked positions (0 in ``allowed``) become -oo, so softmax gives them exactly 0."""
    return Matrix(matrix.rows, matrix.cols, lambda i, j: matrix[i, j] if allowed[i, j] else -sp.oo)


@dataclass(frozen=True)
class Sum:
    """A sum split as ``content * primitive``: content is a positive rational, or 1."""

    content: sp.Expr
    primitive: sp.Expr

    @property
    def value(self) -> sp.Expr:
        return self.content * self.primitive


def linear_sum(pairs: Iterable[tuple[sp.Expr, sp.Expr]]) -> Sum:
    """sum(coefficient * atom) over (atom, coefficient) pairs, like terms merged.

    With rational coefficients (the usual case: exps times numbers) the terms are collected
    in Python fractions and the rational content is factored out, which is far cheaper than
    SymPy's general ``as_content_primitive``; other coefficients are summed as they are.
    """
    pairs = list(pairs)
    if not all(c.is_Rational for _, c in pairs):
        return Sum(sp.Integer(1), sp.Add(*(a * c for a, c in pairs)))
    return collected_sum([(atom, int(c.p), int(c.q)) for atom, c in pairs])


def collected_sum(pairs: Iterable[tuple[sp.Expr, int, int]], numbers: bool = False) -> Sum:
    """:func:`linear_sum` of coefficients ``p/q`` given as integers (q > 0, no SymPy number
    made): over one common denominator, the sums and the content are integer arithmetic.
    ``numbers``: the atoms are numbers (exponentials of reals), so they commute."""
    given = [(atom, p, q) for atom, p, q in pairs if p]
    common = lcm(*{q for _, _, q in given})
    collected: dict[sp.Expr, int] = {}
    for atom, p, q in given:
        collected[atom] = collected.get(atom, 0) + p * (common // q)
    numerators = {atom: n for atom, n in collected.items() if n}
    if not numerators:
        return Sum(sp.Integer(1), sp.Integer(0))
    divisor = gcd(*numerators.values())
    content = Fraction(divisor, common)
    terms = [_times(n // divisor, atom) for atom, n in numerators.items()]
    primitive = canonical_add(terms, True if numbers else None)
    return Sum(sp.Rational(content.numerator, content.denominator), primitive)


def canonical_add(terms: list[sp.Expr], commutative: bool | None = None) -> sp.Expr:
    """Add(*terms) for canonical terms that are not Adds, at most one a number, no two alike
    (distinct exps or monomials), in SymPy's canonical order.

    Add's general flatten rebuilds every term through Mul; these terms are already canonical.
    """
    if len(terms) < 2:
        return terms[0] if terms else sp.Integer(0)
    numbers = [t for t in terms if t.is_Number]
    rest = [t for t in terms if not t.is_Number]
    try:
        rest.sort(key=compare_key)  # the order _addsort gives, at a fraction of its cost
    except Unordered:
        _addsort(rest)
    return sp.Add._from_args(numbers + rest, commutative)


def _times(k: int, atom: sp.Expr) -> sp.Expr:
    """k * atom for an integer k and an exp (or 1): built directly, as Mul's general flatten
    (which looks for powers of e to combine) dominates the derivation's time otherwise."""
    if k == 1:
        return atom
    if atom is sp.S.One:  # (SymPy's 1 is one object; == would sympify)
        return sp.Integer(k)
    return sp.Mul._from_args((sp.Integer(k), atom), True)  # numbers and exps commute


def divide(top: Sum, bottom: Sum, numbers: bool = False) -> sp.Expr:
    """top / bottom, rational contents cancelled; a plain number when the primitives match.

    ``numbers``: both are sums of real exponentials and rationals, whose reciprocal SymPy
    leaves as it is: it is written so at once (SymPy's checks of a 64-term sum take longer
    than the rest of an entry)."""
    if top.primitive == 0:
        return sp.Integer(0)
    ratio = top.content / bottom.content
    if top.primitive == bottom.primitive:
        return ratio
    if bottom.primitive == 1:
        return ratio * top.primitive
    if _plain_quotient(top.primitive, bottom.primitive, numbers):
        # What Mul makes of these (its rules have nothing to combine): the coefficient,
        # then the two factors in canonical order.
        factors = in_order(top.primitive, sp.Pow(bottom.primitive, -1, evaluate=False))
        return sp.Mul._from_args(factors if ratio == 1 else (ratio, *factors), True)
    return sp.Mul(ratio, top.primitive, sp.Pow(bottom.primitive, -1))


def _plain_quotient(top: sp.Expr, bottom: sp.Expr, numbers: bool) -> bool:
    """Whether ``top / bottom`` (primitive sums, as :func:`divide` has them) is simply
    ``top * bottom^-1`` in canonical order: a sum of real exponentials and rationals over
    another (``numbers``), or a sum or an exponential over a sum with symbols of three or
    more terms, which Pow leaves as it is (it looks into a reciprocal's base only for a
    number, or two terms one of which may be infinite) and Mul has nothing to combine with:
    a softmax's weight over symbolic logits, whose evaluation asked SymPy's assumptions of
    each exponential again (a third of a symbolic derivation's time)."""
    if not bottom.is_Add:
        return False
    if numbers:
        return bool(top.is_Add)
    return (
        len(bottom.args) > 2
        and (top.is_Add or isinstance(top, sp.exp))
        and not bottom.is_number
        and not top.is_number
        and bottom.is_commutative
        and top.is_commutative
    )


@dataclass(frozen=True)
class Softmax:
    """Row softmax kept as one shared denominator per row: weights[i, j] = exps[i][j] / sums[i]."""

    exps: tuple[tuple[sp.Expr, ...], ...]
    sums: tuple[Sum, ...]

    @cached_property
    def weights(self) -> Matrix:
        """The weights as one matrix, made once (the page asks again for a head an edit left
        as it was: the same Softmax, remembered by :func:`row_softmax`)."""
        return Matrix(
            [
                [divide(linear_sum([(e, sp.Integer(1))]), z) for e in row]
                for row, z in zip(self.exps, self.sums)
            ]
        )


# Logits further apart than this (a score masked with -10^9) shift by the largest instead:
# e^{10^9} would be a number of 434 million digits, e^{-10^9} is simply tiny.
_SPREAD = 10**5


def _row_shift(row: Sequence[sp.Expr]) -> sp.Expr:
    """The smallest logit when all are comparable numbers (the largest when they spread over
    more than ``_SPREAD``), else 0.

    Softmax is unchanged by a shift; shifting by the minimum writes e/(1+e) rather than
    e^2/(e+e^2): every exponent is >= 0, and the smallest is exactly 0. Logits that are
    rational multiples of one symbolic factor (``2/tau``, ``1/tau``) shift by the smallest
    multiple, so they read e^{1/tau}/(1 + e^{1/tau}) as well.
    """
    finite = [a for a in row if a != -sp.oo]
    if all(a.is_Rational for a in finite):
        return max(finite) if max(finite) - min(finite) > _SPREAD else min(finite)
    # is_number first: it reads the tree, where is_comparable of a logit with symbols asks
    # SymPy's assumptions of every subterm (a fifth of a symbolic example's derivation)
    if all(a.is_number and a.is_comparable for a in finite):
        ordered = sorted(finite, key=lambda a: (sp.N(a, 30), sp.default_sort_key(a)))
        wide = sp.N(ordered[-1] - ordered[0], 30) > _SPREAD
        return ordered[-1] if wide else ordered[0]
    multiples = [a.as_coeff_Mul() for a in finite if a != 0]
    factors = {factor for _, factor in multiples}
    if len(factors) == 1 and all(c.is_Rational for c, _ in multiples):
        smallest = min([c for c, _ in multiples] + ([0] if len(multiples) < len(finite) else []))
        return smallest * factors.pop()
    return sp.Integer(0)


@_recent
def row_softmax(logits: Matrix) -> Softmax:
    exps, sums = [], []
    for i in range(logits.rows):
        row = list(logits.row(i))
        shift = _row_shift(row)
        terms = tuple(sp.Integer(0) if a == -sp.oo else sp.exp(a - shift) for a in row)
        exps.append(terms)
        sums.append(linear_sum((e, sp.Integer(1)) for e in terms if e != 0))
    return Softmax(tuple(exps), tuple(sums))


@_recent
def attend(weights: Softmax, v: Matrix) -> Matrix:
    """softmax(...) V, row i as (sum_j e^{a_ij} v_j) / Z_i: one denominator per row."""
    return Matrix(
        [
            [
                divide(linear_sum((e, v[j, c]) for j, e in enumerate(row) if e != 0), z)
                for c in range(v.cols)
            ]
            for row, z in zip(weights.exps, weights.sums)
        ]
    )


def concat(heads: Sequence[Matrix]) -> Matrix:
    """[head_1 | head_2 | ...] side by side: (L, d_v) x h -> (L, h d_v)."""
    return Matrix(sp.Matrix.hstack(*heads))


def output_projection(
    weights: Sequence[Softmax], values: Sequence[Matrix], w_o: Matrix, bias: Matrix | None = None
) -> Matrix:
    """Concat(head_1..head_h) W_O (+ 1 b_O), computed without multiplying out the heads' fractions.

    Row i of head h is (sum_j e^{a_ij} v_j) / Z_i, so its share of the output is
    (sum_j e^{a_ij} (V_h W_O^h)_j) / Z_i: the small matrix V_h W_O^h is formed first, and heads
    with the same denominator are added over it, which keeps the result compact (and exactly
    1/2 where the fractions cancel).
    """
    blocks = split_widths(w_o.T, [v.cols for v in values])
    heads = [_shares(s, expanded_product(v, b.T)) for s, v, b in zip(weights, values, blocks)]
    rows = len(weights[0].sums)

    def entry(i: int, c: int) -> sp.Expr:
        grouped: dict[Sum, list[_Shares]] = {}
        for head in heads:
            grouped.setdefault(head.softmax.sums[i], []).append(head)
        total = sp.Add(
            *(
                group[0](i, c)
                if len(group) == 1
                else divide(linear_sum(p for head in group for p in head.pairs(i, c)), z)
                for z, group in grouped.items()
            )
        )
        return total + bias[0, c] if bias is not None else total

    return Matrix(rows, w_o.cols, entry)


class _Shares:
    """One head's share of each output entry, (sum_j e^{a_ij} m_jc) / Z_i with m = V_h W_O^h,
    made when first asked (a head that shares its denominators with another is added with it
    instead)."""

    def __init__(self, softmax: Softmax, mixed: Matrix) -> None:
        self.softmax, self.mixed = softmax, mixed
        self._made: dict[tuple[int, int], sp.Expr] = {}

    def pairs(self, i: int, c: int) -> list[tuple[sp.Expr, sp.Expr]]:
        return [(e, self.mixed[j, c]) for j, e in enumerate(self.softmax.exps[i]) if e != 0]

    def __call__(self, i: int, c: int) -> sp.Expr:
        if (i, c) not in self._made:
            self._made[i, c] = divide(linear_sum(self.pairs(i, c)), self.softmax.sums[i])
        return self._made[i, c]


@_recent
def _shares(softmax: Softmax, mixed: Matrix) -> _Shares:
    """A head's shares, remembered: an edit that leaves a head as it was reuses them."""
    return _Shares(softmax, mixed)
