"""One row of a softmax made from the FLINT structure directly: the very SymPy expressions
``ops.row_softmax`` gives for that row of logits, built without SymPy re-simplifying them.

``ops.row_softmax`` reads SymPy logits ``f r`` (f the scale, r rational): it shifts them by
the smallest (the largest when they spread over more than 10^5), and ``exp(f r - f r_min)``
is simplified by SymPy into ``exp(c (r - r_min) g)`` for ``f = c g``. Here the shift and the
coefficients are computed on FLINT rationals and each exponential is put together in that
final form at once: what made one entry of a model-sized step take most of a second.
Scales of another form (a sum, a product of several factors) take the general way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import flint
import sympy as sp
from sympy.core.basic import Basic

from mha_symbolic.exact import ops
from mha_symbolic.exact import structured as st
from mha_symbolic.exact.canonical_order import (
    compare_key,
    function_key,
    product_key,
    rational_key,
    remember,
)

_ONE_ARGUMENT = sp.FiniteSet(1)  # what SymPy's Function sets as an exp's ``nargs``


def _rational(number: flint.fmpq) -> sp.Rational:
    """The SymPy Rational of a FLINT one (in lowest terms already: no gcd again)."""
    p, q = int(number.p), int(number.q)
    if q == 1:
        return sp.Integer(p)
    if p == 1 and q == 2:
        return sp.S.Half  # the singleton SymPy makes (its class orders differently)
    made = sp.Expr.__new__(sp.Rational)
    made.p, made.q = p, q
    return made


class _Scale:
    """The softmax's scale ``f = c g``: c rational, g one factor (or 1)."""

    def __init__(self, factor: sp.Expr) -> None:
        coefficient, rest = factor.as_coeff_Mul()
        self.coefficient = flint.fmpq(int(coefficient.p), int(coefficient.q))
        self.rest = rest
        self.rational = rest == 1
        self.rest_key = None if self.rational else compare_key(rest)
        self.rest_float = 1.0 if self.rational else float(rest)

    @property
    def plain(self) -> bool:
        """A form whose products SymPy keeps as ``c g`` (a rational, a root, a power)."""
        rest = self.rest
        return self.rational or not (rest.is_Add or rest.is_Mul or rest.is_Number)

    def times(self, rational: flint.fmpq) -> tuple[sp.Expr, tuple[Any, ...]]:
        """``f * rational`` as SymPy writes it, and its canonical-order key (the checks are
        on FLINT numbers: SymPy's == costs more than making the product)."""
        value = self.coefficient * rational
        if self.rational or value == 0:
            coefficient = _rational(value)
            return coefficient, rational_key(coefficient)
        assert self.rest_key is not None
        if value == 1:
            return self.rest, self.rest_key
        coefficient = _rational(value)
        product = sp.Mul._from_args((coefficient, self.rest), True)  # real numbers commute
        return product, product_key(rational_key(coefficient), self.rest_key)

    def exp(self, rational: flint.fmpq) -> sp.Expr:
        """``sp.exp(f * rational)``, built as SymPy's Function builds it once its ``eval``
        has nothing to change (a real argument, neither 0, 1, a log nor a multiple of pi i);
        its canonical-order key is kept for the sums that sort it."""
        if rational == 0:
            return sp.S.One
        if self.rational and self.coefficient * rational == 1:
            return sp.E
        argument, key = self.times(rational)
        made = Basic.__new__(sp.exp, argument)
        made.nargs = _ONE_ARGUMENT
        remember(made, function_key(sp.exp, key))
        return made

    def wide(self, spread: flint.fmpq) -> bool:
        """Logits spread over more than 10^5 (ops._row_shift's test, at 30 digits; a float
        decides it when it is clearly on one side)."""
        if self.rational:
            return bool(self.coefficient * spread > ops._SPREAD)
        estimate = float(self.coefficient * spread) * self.rest_float
        if abs(estimate - ops._SPREAD) > ops._SPREAD / 100:
            return estimate > ops._SPREAD
        return bool(sp.N(self.times(spread)[0], 30) > ops._SPREAD)


@lru_cache(maxsize=64)
def _scale(factor: sp.Expr) -> _Scale:
    return _Scale(factor)


def softmax_row(logits: st.Logits, i: int) -> ops.Softmax:
    """Row ``i`` of ``softmax(logits)`` as ``ops.row_softmax`` makes it, entry for entry."""
    scale, matrix = _scale(logits.factor), logits.matrix
    assert isinstance(matrix, flint.fmpq_mat)  # (rows.entry_maker makes none of RoPE's)
    cols = matrix.ncols()
    allowed: Sequence[bool] = (True,) * cols if logits.allowed is None else logits.allowed[i]
    row = [matrix[i, j] for j in range(cols)]
    finite = [r for r, ok in zip(row, allowed) if ok]
    if not scale.plain or not finite:  # the general way (and its own error for no key)
        return _general(logits, i)
    low, high = min(finite), max(finite)
    shift = high if scale.wide(high - low) else low
    exps = tuple(scale.exp(r - shift) if ok else sp.S.Zero for r, ok in zip(row, allowed))
    total = ops.collected_sum([(e, 1, 1) for e in exps if e is not sp.S.Zero], numbers=True)
    return ops.Softmax((exps,), (total,))


def _general(logits: st.Logits, i: int) -> ops.Softmax:
    factor, matrix = logits.factor, logits.matrix
    assert isinstance(matrix, flint.fmpq_mat)
    cols = matrix.ncols()
    entries: list[Any] = []
    for j in range(cols):
        if logits.allowed is not None and not logits.allowed[i][j]:
            entries.append(-sp.oo)
        else:
            entry = _rational(matrix[i, j])
            entries.append(entry if factor == 1 else factor * entry)
    return ops.row_softmax(sp.ImmutableMatrix([entries]))
