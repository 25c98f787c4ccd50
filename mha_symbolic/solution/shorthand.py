"""Names for what repeats, as a teacher writes them: ``let a = e^{\\sqrt{3}/3}``, then entries
like ``a / (1 + 2a)`` instead of exponentials nested in fractions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.core.mul import _keep_coeff

from mha_symbolic.exact.ops import KINDS_IN_KEY, number_kinds
from mha_symbolic.solution.one_letter import factored_parts

_LETTERS = "abcdfgpruvwyz"  # not e (Euler's number), h, i, j, k, l, m, n, o, q, s, t, x
# A name helps only while the powers stay small (a, a^2, a^3); e^{5 10^25 sqrt 2} as a
# power of some a would be unreadable, and cancelling it would never finish.
MAX_POWER = 6
# Entries larger than this are written as they are: factoring them costs more than it helps.
MAX_TIDY_OPS = 80


@dataclass(frozen=True)
class Names:
    """Each named exponential's base (``a -> e^{\\sqrt{3}/3}``) and what replaces each
    exponential atom in a value (``e^{2\\sqrt{3}/3} -> a^2``)."""

    bases: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()
    replace: Mapping[sp.Basic, sp.Expr] = field(default_factory=dict)
    # The angle that recurs in sines and cosines (RoPE's 1/100, with 1/50 = 2 varphi), named.
    angles: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()
    # Each entry is tidied once: a solution shows the same value in several places (the step,
    # the next step's substitution, a note, the token-by-token working).
    _tidied: dict[sp.Basic, sp.Basic] = field(default_factory=dict, compare=False, repr=False)

    def __call__(self, value: sp.Basic) -> sp.Basic:
        """``value`` written with the names (its own value is unchanged)."""
        if not self.replace or not hasattr(value, "xreplace"):
            return value
        written = value.xreplace(dict(self.replace))
        if hasattr(written, "applyfunc"):  # a matrix, or a lazy step's Entries
            return written.applyfunc(self._tidy)
        return self._tidy(written)

    def _tidy(self, entry: sp.Basic) -> sp.Basic:
        """A rational function of the names in lowest terms, factored: ``a / (a + 1)``."""
        if entry not in self._tidied:
            self._tidied[entry] = self._tidy_once(entry)
        return self._tidied[entry]

    def _tidy_once(self, entry: sp.Basic) -> sp.Basic:
        letters = {symbol for symbol, _ in self.bases}
        if not entry.free_symbols or not entry.free_symbols <= letters:
            return entry
        ops = sp.count_ops(entry)
        if ops > MAX_TIDY_OPS:
            return entry
        tidy = lowest_terms(entry, letters)
        # One fraction over a sum of fractions, as a teacher puts them over a common
        # denominator (2a/(3a + 1) + 1/(a + 3) is (2a^2 + 9a + 1)/((a + 3)(3a + 1))): a
        # matrix of them is one level high; else the one with fewer operations.
        bars = _fraction_bars(tidy), _fraction_bars(entry)
        if bars[0] != bars[1]:
            return tidy if bars[0] < bars[1] else entry
        return tidy if sp.count_ops(tidy) <= ops else entry


def lowest_terms(entry: sp.Basic, letters: set[sp.Symbol]) -> sp.Basic:
    """``factor(cancel(entry))``, without the cancel where it changes nothing: over the
    rationals, factor cancels by itself (the numerator's and the denominator's irreducible
    factors are the same expressions, so a shared one divides out). Other atoms (an
    exponential left unnamed, a square root) are generators whose forms may differ."""
    if _rational_function(entry, letters):
        return _factored(entry)
    return sp.factor(sp.cancel(entry))


def _factored(entry: sp.Basic) -> sp.Basic:
    """``sp.factor(entry)`` for a rational function over the rationals, in half its time:
    the fraction in lowest terms from the polynomial field at once (factor's ``together``
    walks the expression term by term), numerator and denominator factored as factor does
    (an integer coefficient apart, primitive factors with a positive leading coefficient),
    and put together as factor puts them."""
    if not entry.free_symbols:
        return sp.factor(entry)  # a number: no field to take it in
    if len(entry.free_symbols) == 1:  # one letter (the most common): FLINT's, a tenth the time
        parts = factored_parts(entry, next(iter(entry.free_symbols)))
        if parts is not None:
            coefficient, factors = parts
            return _keep_coeff(coefficient, sp.Mul(*[f**k for f, k in factors]))
    field, *_ = sp.polys.fields.field(sorted(entry.free_symbols, key=sp.default_sort_key), sp.QQ)
    value = field.from_expr(entry)
    if not value:
        return sp.S.Zero  # (a zero polynomial's factor_list would not end)
    top, numerator = value.numer.factor_list()
    bottom, denominator = value.denom.factor_list()
    factors = [f.as_expr() ** k for f, k in numerator]
    factors += [f.as_expr() ** -k for f, k in denominator]
    return _keep_coeff(sp.QQ.to_sympy(top / bottom), sp.Mul(*factors))


def _rational_function(entry: sp.Basic, letters: set[sp.Symbol]) -> bool:
    """Whether ``entry`` is made of ``letters`` and rationals by sums, products and integer
    powers only."""
    pending = [entry]
    while pending:
        node = pending.pop()
        if isinstance(node, (sp.Add, sp.Mul)):
            pending.extend(node.args)
        elif isinstance(node, sp.Pow) and node.exp.is_Integer:
            pending.append(node.base)
        elif not (node in letters or isinstance(node, sp.Rational)):
            return False
    return True


def _fraction_bars(entry: sp.Basic) -> int:
    """How many fractions ``entry`` is written with: each term's denominator is one."""
    terms = sp.Add.make_args(entry)
    return sum(1 for term in terms if sp.fraction(term)[1] != 1)


def exponentials(
    values: Iterable[sp.Basic],
    taken: Iterable[str] = (),
    parameters: Iterable[sp.Basic] = (),
    found: Callable[[Any], Set[sp.Basic]] | None = None,
) -> Names:
    """Name the exponentials of irrational exponents in ``values``: those whose exponents are
    rational multiples of one irrational number share a base, ``e^{k c} = a^k``. An exponent
    that is a rational function of declared ``parameters`` is named too (``b = e^{1/\\tau}``).
    ``found``: a value's exponentials (by default its ``atoms(sp.exp)``)."""
    declared = frozenset(parameters)
    groups: dict[sp.Expr, dict[sp.Basic, sp.Rational]] = {}  # rest -> {e^{k rest}: k}
    seen: set[sp.Basic] = set()
    for value in values:
        if found is not None:
            atoms = found(value)
        else:
            atoms = value.atoms(sp.exp) if hasattr(value, "atoms") else set()
        # In order of first appearance; only the new ones sorted (a model-sized output's
        # entries share the same hundreds of exponentials).
        new = sorted(atoms - seen, key=_sort_key)
        seen.update(new)
        for atom in new:
            rest = _nameable(atom.args[0], declared)
            if rest is not None:
                coeff = atom.args[0].as_coeff_Mul()[0]
                groups.setdefault(rest, {}).setdefault(atom, sp.Rational(coeff))
    letters = [c for c in _LETTERS if c not in set(taken)]
    bases, replace = [], {}
    groups = {
        rest: members
        for rest, members in groups.items()
        if max(abs(c) for c in members.values())
        <= MAX_POWER * _gcd([abs(c) for c in members.values()])
    }
    for letter, (rest, members) in zip(letters, groups.items()):
        step = _gcd([abs(c) for c in members.values()])
        symbol = sp.Symbol(letter, positive=True)
        bases.append((symbol, sp.exp(step * rest)))
        for atom, coeff in members.items():
            replace[atom] = symbol ** int(coeff / step)
    return Names(tuple(bases), replace)


# An edit on the page names the exponentials of every step again, most of them those of the
# edit before: their order and whether each is named are remembered (by value, and by the
# kinds of number in them where SymPy has 1.0 == 1; bounded).
def _sort_key(atom: sp.Basic) -> Any:
    return _remembered_key(atom, number_kinds(atom) if KINDS_IN_KEY else None)


@lru_cache(maxsize=4096)
def _remembered_key(atom: sp.Basic, kinds: frozenset[type] | None) -> Any:
    return sp.default_sort_key(atom)


def _nameable(arg: sp.Expr, parameters: frozenset[sp.Basic]) -> sp.Expr | None:
    return _named_part(arg, parameters, number_kinds(arg) if KINDS_IN_KEY else None)


@lru_cache(maxsize=4096)
def _named_part(
    arg: sp.Expr, parameters: frozenset[sp.Basic], kinds: frozenset[type] | None
) -> sp.Expr | None:
    """The part of an exponent a name stands for, or None when it is not named: e^{k sqrt(3)/3}
    (a rational times one algebraic number: the 1/sqrt(d_k) scale) and e^{k/tau} (a rational
    function of declared parameters: a temperature). A RoPE score's cos(1) - sin(1) stays as
    written: naming it helps no one, and cancelling such entries costs minutes; so does an
    exponent in symbolic weights."""
    if arg.is_Rational:
        return None
    coeff, rest = arg.as_coeff_Mul()
    if not coeff.is_Rational or rest == 1:
        return None
    if rest.free_symbols:
        fits = rest.free_symbols <= parameters and rest.is_rational_function(*rest.free_symbols)
        return rest if fits else None
    return rest if rest.is_algebraic is True else None


def _gcd(numbers: list[sp.Rational]) -> sp.Rational:
    """The largest rational that each of ``numbers`` is a whole multiple of."""
    numerator = sp.igcd(*[int(n.p) for n in numbers]) if len(numbers) > 1 else int(numbers[0].p)
    denominator = sp.ilcm(*[int(n.q) for n in numbers]) if len(numbers) > 1 else int(numbers[0].q)
    return sp.Rational(numerator, denominator)


ANGLE = sp.Symbol("varphi")


def angles(names: Names, shown: Iterable[Any], taken: Set[str]) -> Names:
    """``names`` with the fractional angle its sines and cosines share named (``cos(1/50)``
    is ``cos 2\\varphi`` for ``\\varphi = 1/100``), as a teacher names RoPE's small angle
    instead of stacking ``1/100`` in every entry; ``names`` itself when there is none, or when
    the fractions are no multiples of one angle."""
    atoms: set[sp.Basic] = set()
    for value in shown:
        if isinstance(value, sp.Basic):
            atoms |= value.atoms(sp.sin, sp.cos)
    fractions = {a.args[0] for a in atoms if a.args[0].is_Rational and not a.args[0].is_Integer}
    if not fractions or str(ANGLE) in taken:
        return names
    unit = min(fractions)
    if unit <= 0 or any(not (f / unit).is_Integer for f in fractions):
        return names
    replace = dict(names.replace)
    for atom in atoms:
        if atom.args[0] in fractions:
            replace[atom] = type(atom)(atom.args[0] / unit * ANGLE)
    return Names(names.bases, replace, ((ANGLE, unit),))
