"""Entry (i, c) of a mix of heads made from the FLINT structure and each head's exponential
row directly: the very expression ``ops.output_projection`` writes, tree for tree.

Per head, the numerator ``sum_j e_j m[j, c]`` is collected on the row's distinct
exponentials (:func:`softmax_rows.row_sum`), divided by the head's denominator as
``ops.divide`` writes it (``ratio * (1/Z) * N``), and the heads are added as SymPy's Add
orders them, the rational part first. SymPy's constructors are not called: they would hash
and compare 64-term sums, keep every entry alive in their caches, and ask the assumptions
of every sum they invert. An entry of another form (a denominator of one term) gets None:
the caller makes it the general way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction

import flint
import sympy as sp
from sympy.core.add import _addsort
from sympy.core.basic import Basic

from mha_symbolic.exact import structured as st
from mha_symbolic.exact.canonical_order import in_order
from mha_symbolic.exact.softmax_rows import ExpRow, number_of, row_sum

Rows = Callable[[st.Weights, int], ExpRow]
_Collected = tuple[ExpRow, list[flint.fmpq | None]]


def mix_entry(mix: st.Mix, rows: Rows, i: int, c: int) -> sp.Expr | None:
    """Entry (i, c) of ``mix``, each head's row i from ``rows``; None for the general way."""
    collected = _numerators(mix, rows, i, c)
    if collected is None:
        return None
    number = Fraction(0) if mix.rational is None else _fraction(mix.rational[i, c])
    fractions: list[sp.Expr] = []
    for row, sums in collected.values():
        given = [(g, int(a.p), int(a.q)) for g, a in enumerate(sums) if a]  # None or 0: no term
        if not given:
            continue  # a numerator of 0
        top, top_terms = row_sum(row, given)
        ratio = _fraction(top.content) / _fraction(row.softmax.sums[0].content)
        if top_terms == row.terms:
            number += ratio  # the numerator is the denominator times a number
        elif len(row.terms) < 2:
            return None  # a denominator of one term: ops.divide's general product
        else:
            fractions.append(_quotient(ratio, top.primitive, row.softmax.sums[0].primitive))
    bottoms = [row.signature[::2] for row, _ in collected.values()]
    if len(set(bottoms)) < len(bottoms):
        return None  # two denominators alike but for their content: Add would merge terms
    _addsort(fractions)  # SymPy's own order of an Add's terms
    if number:
        fractions.insert(0, number_of(number.numerator, number.denominator))
    return sp.Add._from_args(fractions, True) if fractions else sp.S.Zero


def weight_entry(row: ExpRow, j: int) -> sp.Expr | None:
    """Entry j of a softmax row, ``e_j / Z``, as ``ops.divide`` writes it; None for the
    general way."""
    if row.atoms is None:
        return None
    g = row.group[j]
    if g is None:
        return sp.S.Zero  # a blocked key
    bottom = row.softmax.sums[0]
    ratio = 1 / _fraction(bottom.content)
    if row.terms == ((1, g),):
        return number_of(ratio.numerator, ratio.denominator)
    if len(row.terms) < 2:
        return None
    return _quotient(ratio, row.atoms[g], bottom.primitive)


def _numerators(mix: st.Mix, rows: Rows, i: int, c: int) -> dict[Hashable, _Collected] | None:
    """Each distinct denominator's row and the coefficients of its atoms in column c: heads
    with equal denominators share one fraction, as ``ops.output_projection`` groups them."""
    collected: dict[Hashable, _Collected] = {}
    for term, column in mix.parts(c):
        row = rows(term.weights, i)
        if row.atoms is None:
            return None
        held = collected.get(row.signature)
        if held is None:
            held = collected[row.signature] = (row, [None] * len(row.atoms))
        sums = held[1]
        for j, g in enumerate(row.group):
            if g is not None:
                value = column[j]
                before = sums[g]
                sums[g] = value if before is None else before + value
    return collected


def _quotient(ratio: Fraction, top: sp.Expr, bottom: sp.Expr) -> sp.Expr:
    """``ratio * top / bottom`` for a sum ``bottom`` as Mul writes it, nothing to combine:
    the coefficient (ratio times top's own, when top is one term), then the reciprocal and
    the rest of top in canonical order. (Pow makes nothing else of a real, finite sum's
    reciprocal; asking it would look up assumptions, and import modules, for each.)"""
    reciprocal = Basic.__new__(sp.Pow, bottom, sp.S.NegativeOne)
    reciprocal.is_commutative = True
    if top.is_Add:
        factors: tuple[sp.Expr, ...] = in_order(top, reciprocal)
    elif top.is_Number:
        ratio, factors = ratio * _fraction(top), (reciprocal,)
    elif top.is_Mul:  # k e^x
        number, atom = top.args
        ratio, factors = ratio * _fraction(number), in_order(atom, reciprocal)
    else:
        factors = in_order(top, reciprocal)
    if ratio != 1:
        factors = (number_of(ratio.numerator, ratio.denominator), *factors)
    return sp.Mul._from_args(factors, True)


def _fraction(number: flint.fmpq | sp.Rational) -> Fraction:
    return Fraction(int(number.p), int(number.q))
