"""One row of a softmax made from the FLINT structure directly: the very SymPy expressions
``ops.row_softmax`` gives for that row of logits, built without SymPy re-simplifying them.

``ops.row_softmax`` reads SymPy logits ``f r`` (f the scale, r rational): it shifts them by
the smallest (the largest when they spread over more than 10^5), and ``exp(f r - f r_min)``
is simplified by SymPy into ``exp(c (r - r_min) g)`` for ``f = c g``. Here the row is read
as integers over one denominator, the shift and the coefficients are integer arithmetic, and
each distinct exponential is put together in that final form at once. Scales of another
form (a sum, a product of several factors) take the general way.

A row keeps its distinct exponentials in SymPy's canonical order, so a sum of them with
rational coefficients (the softmax's denominator, a numerator of the values) is made by
integer arithmetic and one sort of flat keys (:func:`row_sum`): no SymPy object is hashed,
compared or looked up in SymPy's caches (which would also keep every entry alive).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import gcd, lcm
from typing import Any

import flint
import sympy as sp
from sympy.core.basic import Basic

from mha_symbolic.exact import ops
from mha_symbolic.exact import structured as st
from mha_symbolic.exact.canonical_order import rank

_ONE_ARGUMENT = sp.FiniteSet(1)  # what SymPy's Function sets as an exp's ``nargs``
_MUL, _EXP = rank("Mul"), rank("exp")

# An atom's flat sort key: it orders a row's exponentials as ``canonical_order.compare_key``
# does (the class's place, then the argument's: its class, then its p and q). Two keys of
# different shapes always differ before either ends, so tuples compare them right.
Key = tuple[Any, ...]


def number_of(p: int, q: int) -> sp.Rational:
    """The SymPy number ``p/q`` (q > 0, in lowest terms), made without SymPy's checks."""
    if q == 1:
        return integer(p)
    if p == 1 and q == 2:
        return sp.S.Half  # the singleton SymPy makes (its class orders differently)
    made = sp.Expr.__new__(sp.Rational)
    made.p, made.q = p, q
    return made


_INTEGERS: dict[int, tuple[sp.Integer, tuple[int, str]]] = {}


def integer(k: int) -> sp.Integer:
    """SymPy's Integer ``k``, made once per value (a dict is quicker than SymPy's cache)."""
    return _integer(k)[0]


def _integer(k: int) -> tuple[sp.Integer, tuple[int, str]]:
    """SymPy's Integer ``k`` and its class's place in the order (1, -1 are classes apart)."""
    made = _INTEGERS.get(k)
    if made is None:
        if len(_INTEGERS) >= 10_000:
            _INTEGERS.clear()
        number = sp.Integer(k)
        made = _INTEGERS[k] = (number, rank(type(number).__name__))
    return made


def _product(number: sp.Expr, factor: sp.Expr) -> sp.Expr:
    """``number * factor`` as Mul keeps two commuting factors it has nothing to combine."""
    made = Basic.__new__(sp.Mul, number, factor)
    made.is_commutative = True
    return made


class _Scale:
    """The softmax's scale ``f = c g``: c rational, g one factor (or 1)."""

    def __init__(self, factor: sp.Expr) -> None:
        coefficient, rest = factor.as_coeff_Mul()
        self.p, self.q = int(coefficient.p), int(coefficient.q)
        self.rest = rest
        self.rational = rest == 1
        self.rest_rank = rank(type(rest).__name__)
        self.rest_float = 1.0 if self.rational else float(rest)

    @property
    def plain(self) -> bool:
        """A form whose products SymPy keeps as ``c g`` (a rational, a root, a power)."""
        rest = self.rest
        return self.rational or not (rest.is_Add or rest.is_Mul or rest.is_Number)

    def atom(self, n: int, d: int) -> tuple[sp.Expr, Key]:
        """``sp.exp(f n/d)`` and its flat key, built as SymPy's Function builds it once its
        ``eval`` has nothing to change (a real argument, neither 0, 1, a log nor a multiple
        of pi i)."""
        p, q = self.p * n, self.q * d
        common = gcd(p, q)
        p, q = p // common, q // common
        if p == 0:
            return sp.S.One, (rank("One"),)
        if p == q == 1:
            if self.rational:
                return sp.E, (rank("Exp1"),)
            argument, key = self.rest, (_EXP, self.rest_rank)  # type: Any, Key
        else:
            coefficient = number_of(p, q)
            number = rank(type(coefficient).__name__)
            if self.rational:
                argument, key = coefficient, (_EXP, number, p, q)
            else:
                argument, key = _product(coefficient, self.rest), (_EXP, _MUL, number, p, q)
        made = Basic.__new__(sp.exp, argument)
        made.nargs = _ONE_ARGUMENT
        return made, key

    def wide(self, spread: int, d: int) -> bool:
        """Logits spread over ``spread/d`` more than 10^5 (ops._row_shift's test, at 30
        digits; a float decides it when it is clearly on one side)."""
        value = flint.fmpq(self.p * spread, self.q * d)
        if self.rational:
            return bool(value > ops._SPREAD)
        estimate = float(value) * self.rest_float
        if abs(estimate - ops._SPREAD) > ops._SPREAD / 100:
            return estimate > ops._SPREAD
        exact = number_of(int(value.p), int(value.q)) * self.rest
        return bool(sp.N(exact, 30) > ops._SPREAD)


@lru_cache(maxsize=64)
def _scale(factor: sp.Expr) -> _Scale:
    return _Scale(factor)


@dataclass(frozen=True)
class ExpRow:
    """Row i of a softmax, and what its sums are made of: its distinct exponentials in
    SymPy's canonical order (``atoms``; None when the row was made the general way), which
    of them each key has (``group``; None where the key is blocked), and ``signature``:
    equal for two rows exactly when their denominators are equal."""

    softmax: ops.Softmax
    atoms: tuple[sp.Expr, ...] | None = None
    group: tuple[int | None, ...] = ()
    ranks: tuple[tuple[int, str], ...] = ()  # each atom's class's place in the order
    terms: tuple[tuple[int, int], ...] = ()  # the denominator's (integer, atom) terms
    signature: tuple[Any, ...] = ()


def row_sum(
    row: ExpRow, given: Sequence[tuple[int, int, int]]
) -> tuple[ops.Sum, tuple[tuple[int, int], ...]]:
    """``sum p/q atom_g`` over (g, p, q), p != 0, q > 0, no g twice, as ``collected_sum`` writes
    it: the positive rational content apart, the integer terms in canonical order. Also its
    terms as (integer, g) pairs: two sums over one row's atoms are equal when those are."""
    assert row.atoms is not None
    return _sum(row.atoms, row.ranks, given)


def _sum(
    atoms: Sequence[sp.Expr], ranks: Sequence[Key], given: Sequence[tuple[int, int, int]]
) -> tuple[ops.Sum, tuple[tuple[int, int], ...]]:
    if not given:
        return ops.Sum(sp.S.One, sp.S.Zero), ()
    common = lcm(*[q for _, _, q in given])
    scaled = [(g, p * (common // q)) for g, p, q in given]
    divisor = gcd(*[n for _, n in scaled])
    keyed: list[tuple[Key, int, sp.Expr]] = []
    one = sp.S.One
    for g, n in scaled:
        k = n // divisor
        atom = atoms[g]
        if k == 1:
            keyed.append(((ranks[g], g), k, atom))
            continue
        number, place = _integer(k)
        if atom is one:
            keyed.append(((place, g), k, number))
        else:  # a Mul's key: its class, then its number's, k, then the atom's
            keyed.append(((_MUL, place, k, g), k, _product(number, atom)))
    keyed.sort()  # by the keys (no two alike): the order of Add's terms (canonical_order)
    primitive = sp.Add._from_args([term for _, _, term in keyed], True)
    terms = tuple((k, key[-1]) for key, k, _ in keyed)
    reduced = gcd(divisor, common)
    return ops.Sum(number_of(divisor // reduced, common // reduced), primitive), terms


def softmax_row(logits: st.Logits, i: int) -> ExpRow:
    """Row ``i`` of ``softmax(logits)`` as ``ops.row_softmax`` makes it, entry for entry."""
    scale, matrix = _scale(logits.factor), logits.matrix
    assert isinstance(matrix, (flint.fmpq_mat, st.Scores))  # (rows.entry_maker: none of RoPE's)
    cols = matrix.ncols()
    allowed: Sequence[bool] = (True,) * cols if logits.allowed is None else logits.allowed[i]
    read = [matrix[i, j] for j, ok in zip(range(cols), allowed) if ok]
    if not scale.plain or not read:  # the general way (and its own error for no key)
        return ExpRow(_general(logits, i))
    ratios = [(int(r.p), int(r.q)) for r in read]
    d = lcm(*(q for _, q in ratios))  # the row over one denominator: integers from here
    numerators = iter([p * (d // q) for p, q in ratios])
    row = [next(numerators) if ok else None for ok in allowed]
    finite = [n for n in row if n is not None]
    low, high = min(finite), max(finite)
    shift = high if scale.wide(high - low, d) else low
    found: dict[int, int] = {}  # an exponent's numerator: its atom's place in made
    made: list[tuple[sp.Expr, Key]] = []
    places: list[int | None] = []
    for n in row:
        if n is None:
            places.append(None)
            continue
        if n - shift not in found:
            found[n - shift] = len(made)
            made.append(scale.atom(n - shift, d))
        places.append(found[n - shift])
    return _row(made, places, scale)


def _row(made: list[tuple[sp.Expr, Key]], places: list[int | None], scale: _Scale) -> ExpRow:
    """The row from its distinct exponentials (in the order found) and each key's place."""
    order = sorted(range(len(made)), key=lambda g: made[g][1])
    new = {old: g for g, old in enumerate(order)}
    atoms = tuple(made[g][0] for g in order)
    group = tuple(None if g is None else new[g] for g in places)
    counts = [0] * len(atoms)
    for g in group:
        if g is not None:
            counts[g] += 1
    ranks = tuple(made[g][1][0] for g in order)
    total, terms = _sum(atoms, ranks, [(g, n, 1) for g, n in enumerate(counts)])
    exps = tuple(sp.S.Zero if g is None else atoms[g] for g in group)
    content = (int(total.content.p), int(total.content.q))
    # a denominator is the same for two rows when its (integer, exponent) terms are; e^0 is
    # 1 whatever the scale, any other exponent carries it
    rest = None if atoms == (sp.S.One,) else scale.rest
    keys = tuple(made[g][1] for g in order)
    signature = (rest, content, tuple((k, keys[g]) for k, g in terms))
    return ExpRow(ops.Softmax((exps,), (total,)), atoms, group, ranks, terms, signature)


def _general(logits: st.Logits, i: int) -> ops.Softmax:
    factor, matrix = logits.factor, logits.matrix
    assert isinstance(matrix, (flint.fmpq_mat, st.Scores))
    cols = matrix.ncols()
    entries: list[Any] = []
    for j in range(cols):
        if logits.allowed is not None and not logits.allowed[i][j]:
            entries.append(-sp.oo)
        else:
            r = matrix[i, j]
            entry = number_of(int(r.p), int(r.q))
            entries.append(entry if factor == 1 else factor * entry)
    return ops.row_softmax(sp.ImmutableMatrix([entries]))
