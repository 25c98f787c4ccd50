"""What a solution asks of every step's value (its symbols, its exponentials, its value at
chosen numbers), each subterm read once for all the steps.

A derivation's values share their subterms: a symbolic softmax's exponentials recur in each
weight, in the heads' outputs and in every entry of the output projection. SymPy's own
``free_symbols``, ``atoms`` and ``xreplace`` walk a shared subterm again wherever it occurs;
eight-tokens-split's solution spent most of its time doing so. The answers here are the same
as SymPy's, remembered by subterm for one solution.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import flint
import sympy as sp

from mha_symbolic.exact.balls import precision

_BASIC_FREE_SYMBOLS = sp.Basic.free_symbols  # the union of the arguments' (not a bound variable's)
_NONE: frozenset[sp.Basic] = frozenset()
# Subterms remembered before all are forgotten: a long-running page keeps its memory bounded
# (an edit of eight-tokens-split adds about 800).
LIMIT = 50_000


class Subterms:
    """The symbols and exponentials of values that share subterms (one solution's steps)."""

    def __init__(self) -> None:
        self._parts: dict[sp.Basic, tuple[frozenset[sp.Basic], frozenset[sp.Basic]]] = {}
        # rule -> subterm -> the subterm with the rule applied
        self._made: dict[frozenset[Any], dict[sp.Basic, sp.Basic]] = {}
        # (rule, bits) -> subterm -> its arb ball with the rule's symbols at their values
        self._balls: dict[tuple[frozenset[Any], int], dict[sp.Basic, Any]] = {}

    def _room(self) -> None:
        made = sum(len(m) for m in (*self._made.values(), *self._balls.values()))
        if len(self._parts) + made > LIMIT:
            self._parts.clear()
            self._made.clear()
            self._balls.clear()

    def free_symbols(self, value: Any) -> frozenset[sp.Basic]:
        """``value.free_symbols`` of a matrix, an expression, or a lazy step's entries."""
        return self._part(value, 0, lambda v: frozenset(v.free_symbols))

    def exponentials(self, value: Any) -> frozenset[sp.Basic]:
        """``value.atoms(sp.exp)``: every exponential in it, also inside another's exponent."""
        return self._part(
            value, 1, lambda v: frozenset(v.atoms(sp.exp)) if hasattr(v, "atoms") else _NONE
        )

    def _part(
        self, value: Any, index: int, other: Callable[[Any], frozenset[sp.Basic]]
    ) -> frozenset[sp.Basic]:
        """Part ``index`` of :meth:`_of` (0: symbols, 1: exponentials) of a matrix's entries
        or an expression; ``other(value)`` of anything else (a lazy step's entries)."""
        self._room()
        if isinstance(value, sp.MatrixBase):
            return _NONE.union(*(self._of(e)[index] for e in value))
        if isinstance(value, sp.Basic):
            return self._of(value)[index]
        return other(value)

    def _of(self, expr: sp.Basic) -> tuple[frozenset[sp.Basic], frozenset[sp.Basic]]:
        known = self._parts.get(expr)
        if known is not None:
            return known
        args = [self._of(a) for a in expr.args if isinstance(a, sp.Basic)]
        if type(expr).free_symbols is _BASIC_FREE_SYMBOLS:
            free = _NONE.union(*(a[0] for a in args))
        else:  # a symbol, or a subterm binding its own (an integral's variable)
            free = frozenset(expr.free_symbols)
        exps = _NONE.union(*(a[1] for a in args))
        if isinstance(expr, sp.exp):  # (also e**x, as sp.exp's isinstance says)
            exps = exps | {expr}
        self._parts[expr] = (free, exps)
        return free, exps

    def substituted(self, value: Any, rule: Mapping[sp.Basic, sp.Basic]) -> Any:
        """``value.xreplace(rule)`` of a matrix or an expression, each subterm rebuilt once
        for each ``rule``."""
        self._room()
        made = self._made.setdefault(frozenset(rule.items()), {})
        if isinstance(value, sp.MatrixBase):
            entries = [_substituted(e, rule, made) for e in value]
            return sp.ImmutableMatrix(value.rows, value.cols, entries)
        if isinstance(value, sp.Basic):
            return _substituted(value, rule, made)
        return sp.ImmutableMatrix(value.xreplace(dict(rule)))  # a lazy step's entries

    def balls(self, rule: Mapping[sp.Symbol, sp.Rational], bits: int) -> dict[sp.Basic, Any]:
        """The balls of subterms met so far with ``rule``'s symbols at its (rational) values,
        at ``bits`` of precision: the memo :func:`~mha_symbolic.exact.balls.to_arb` reads and
        fills, kept (as the rebuilt subterms are) for the steps and edits that share them."""
        self._room()
        key = (frozenset(rule.items()), bits)
        if key not in self._balls:
            with precision(bits):
                self._balls[key] = {s: flint.arb(v.p) / v.q for s, v in rule.items()}
        return self._balls[key]


def _substituted(
    expr: sp.Basic, rule: Mapping[sp.Basic, sp.Basic], made: dict[sp.Basic, sp.Basic]
) -> sp.Basic:
    """``expr.xreplace(rule)``: the subterms in ``rule`` replaced, every subterm holding one
    rebuilt (its arguments evaluated again, as xreplace does), ``made`` remembering them."""
    if expr in rule:
        return rule[expr]
    known = made.get(expr)
    if known is not None:
        return known
    args = expr.args
    new = tuple(_substituted(a, rule, made) if isinstance(a, sp.Basic) else a for a in args)
    if not any(n is not a for n, a in zip(new, args)):
        result = expr
    elif isinstance(expr, sp.Mul) and _zero_times_finite(new):
        result = sp.S.Zero  # as Mul makes it, without asking whether each factor is finite
    else:
        result = expr.func(*new)
    made[expr] = result
    return result


def _zero_times_finite(factors: tuple[Any, ...]) -> bool:
    """Some factor is 0 and every other one a finite real number (checked by their form):
    their product is 0. Mul finds it by asking SymPy's assumptions whether each factor is
    finite: at the chosen numbers (a weight matrix's zeros off the diagonal), most of the
    solution's time, spent on sums of exponentials over which a product of 0 is taken."""
    if not any(f is sp.S.Zero for f in factors):
        return False
    return all(f is sp.S.Zero or _finite_real(f) for f in factors)


@functools.lru_cache(maxsize=4096)
def _finite_real(expr: sp.Basic) -> bool:
    """Whether ``expr`` is surely a finite real number by its form: rationals, square roots
    and other powers of positive ones, exponentials of finite reals, and sums, products and
    powers of these (a negative power only of a surely positive base)."""
    if isinstance(expr, sp.Rational):
        return True
    if isinstance(expr, sp.exp):
        return _finite_real(expr.args[0])
    if isinstance(expr, (sp.Add, sp.Mul)):
        return all(_finite_real(a) for a in expr.args)
    if isinstance(expr, sp.Pow) and isinstance(expr.exp, sp.Rational):
        if expr.exp.is_Integer and expr.exp >= 0:
            return _finite_real(expr.base)
        return _positive(expr.base)
    return False


def _positive(expr: sp.Basic) -> bool:
    """Whether ``expr`` is surely a positive finite real number by its form."""
    if isinstance(expr, sp.Rational):
        return expr > 0
    if isinstance(expr, sp.exp):
        return _finite_real(expr.args[0])
    if isinstance(expr, (sp.Add, sp.Mul)):
        return all(_positive(a) for a in expr.args)
    if isinstance(expr, sp.Pow) and isinstance(expr.exp, sp.Rational):
        return _positive(expr.base)
    return False


# What the solutions made one after another in a process share (an edit on the page changes
# one head's steps; the other head's subterms are found here): answers are by subterm, so
# they hold for any derivation.
SHARED = Subterms()
