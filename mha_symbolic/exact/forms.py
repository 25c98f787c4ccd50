"""Exact arithmetic of the backward pass: entries as sums of exps over softmax row sums.

Notation: ``\\bar{Y}`` is the gradient dL/dY of the scalar loss L, a matrix of Y's shape.
Every backward step is one rule of the chain rule applied to a forward step (``Y = X W`` gives
``\\bar{X} = \\bar{Y} W^\\top`` and ``\\bar{W} = X^\\top \\bar{Y}``; the row softmax gives
``\\bar{s}_r = (\\operatorname{diag}(a_r) - a_r^\\top a_r)\\, \\bar{a}_r``), so its formula is a
structural matrix expression over the forward symbols and its value is exact.

Values are kept compact the way :mod:`mha_symbolic.ops` keeps the forward pass: an entry is a
sum over denominators (products of softmax row sums) of exps with collected coefficients, so a
softmax gradient reads ``-e / (2 (1 + e)^2)`` rather than a nest of quotients, and terms that
cancel give an exact 0.
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.core.mul import _mulsort
from sympy.polys.constructor import construct_domain
from sympy.polys.polyerrors import CoercionFailed, PolynomialError
from sympy.polys.rings import PolyElement, PolyRing, sring

from mha_symbolic.exact import ops

# ------------------------------------------------------------------ exact arithmetic
# A Form is one exact entry: {denominator: {exponent: coefficient}}, meaning the sum over
# denominators D of (sum over exponents a of coefficient * e^a) / D. Exponents and softmax row
# sums are interned as ints (their sums and products are SymPy work done once per pair, not
# once per term), a denominator is a sorted tuple of (row sum, power) pairs, () being 1, and a
# coefficient is an element of one sparse polynomial ring over the weight symbols.
Denominator = tuple[tuple[int, int], ...]
Terms = dict[int, PolyElement]
Form = dict[Denominator, Terms]
Forms = list[list[Form]]

_ONE, _ZERO = sp.Integer(1), sp.Integer(0)


def coefficient_ring(
    leaves: Iterable[sp.Expr], factors: Iterable[sp.Expr] = ()
) -> tuple[PolyRing, dict[sp.Expr, sp.Symbol]]:
    """The ring holding every coefficient: polynomials in the leaves' symbols over the smallest
    field that holds their numbers (QQ; QQ<sqrt(3)> for an input sqrt(3); SymPy expressions if
    nothing else fits), and the irrational or symbolic ``factors`` (the score scales 1/sqrt(2),
    1/tau) as generators of their own, so that multiplying by them stays arithmetic over QQ.

    Returns the ring and {factor: its generator}.
    """
    leaves = list(dict.fromkeys(sp.sympify(e) for e in leaves))
    symbols = set().union(*(e.free_symbols for e in leaves))
    own = {f: sp.Dummy(f"s{i}") for i, f in enumerate(dict.fromkeys(factors))}
    own = {f: s for f, s in own.items() if not f.is_Rational and not f.free_symbols & symbols}
    leaves += [f for f in factors if f not in own]
    names = sorted(set().union(*(e.free_symbols for e in leaves)), key=sp.default_sort_key)
    gens = [s for s in names if all(e.is_polynomial(s) for e in leaves)]
    try:
        if gens:
            domain = sring(leaves, *gens, field=True, extension=True)[0].domain
        else:
            domain = construct_domain(leaves, field=True, extension=True)[0]
    except (PolynomialError, CoercionFailed, NotImplementedError):
        # SymPy cannot build this number field (it raises NotImplementedError for some
        # algebraic extensions): fall back to its generic expression domain, exact but slower.
        domain = sp.EX
    return PolyRing([*gens, *own.values()], domain), own


class Algebra:
    """Exact arithmetic on Forms for one backward pass (one coefficient ring, one set of exps
    and row sums)."""

    def __init__(self, leaves: Iterable[sp.Expr], factors: Iterable[sp.Expr] = ()) -> None:
        self.ring, own = coefficient_ring(leaves, factors)
        self.one, self.zero = self.ring.one, self.ring.zero
        self._coefficients: dict[sp.Expr, PolyElement] = {f: self.ring(s) for f, s in own.items()}
        # the factors' generators are the last ones; a monomial's tail says which powers of the
        # factors to multiply back in
        self._own = len(own)
        self._factors = list(own)
        self._factor_powers: dict[tuple[int, ...], tuple[sp.Expr, tuple[sp.Expr, ...]]] = {}
        self.exponents: list[sp.Expr] = [_ZERO]
        self._exponent_ids: dict[sp.Expr, int] = {_ZERO: 0}
        self._exponent_sums: dict[tuple[int, int], int] = {}
        self._exps: dict[int, sp.Expr] = {0: _ONE}
        self.row_sums: list[sp.Expr] = []
        self._row_sum_ids: dict[sp.Expr, int] = {}
        self.numerators: list[Terms] = []  # each row sum as a sum of exps
        self._products: dict[tuple[Denominator, Denominator], Denominator] = {}
        self._denominators: dict[Denominator, sp.Expr] = {(): _ONE}
        self._expanded: dict[Denominator, Terms] = {(): {0: self.one}}
        self._monomials: dict[tuple[tuple[int, ...], tuple[sp.Expr, ...]], tuple[sp.Expr, ...]] = {}

    # ---------------------------------------------------------------- interning
    def coefficient(self, expr: sp.Expr) -> PolyElement:
        c = self._coefficients.get(expr)
        if c is None:
            c = self._coefficients[expr] = self.ring.from_expr(expr)
        return c

    def exponent(self, a: sp.Expr) -> int:
        i = self._exponent_ids.get(a)
        if i is None:
            i = self._exponent_ids[a] = len(self.exponents)
            self.exponents.append(a)
        return i

    def exponent_sum(self, i: int, j: int) -> int:
        if not i or not j:
            return i or j
        key = (i, j) if i < j else (j, i)
        k = self._exponent_sums.get(key)
        if k is None:
            k = self._exponent_sums[key] = self.exponent(self.exponents[i] + self.exponents[j])
        return k

    def exp(self, i: int) -> sp.Expr:
        e = self._exps.get(i)
        if e is None:
            e = self._exps[i] = sp.exp(self.exponents[i])
        return e

    def atom(self, e: sp.Expr) -> Terms:
        """An exp of the forward softmax (or a number) as {exponent: coefficient}."""
        if e == 1:
            return {0: self.one}
        if e == sp.E:
            return {self.exponent(_ONE): self.one}
        if isinstance(e, sp.exp):
            return {self.exponent(e.args[0]): self.one}
        return {0: self.coefficient(e)}

    def numerator(self, expr: sp.Expr) -> Terms:
        """A sum of (multiples of) exps as {exponent: coefficient}."""
        out: Terms = {}
        for term in sp.Add.make_args(expr):
            c, atom = term.as_coeff_Mul()
            for a, extra in self.atom(atom).items():
                out[a] = out.get(a, self.zero) + self.coefficient(c) * extra
        return out

    def reciprocal(self, z: sp.Expr, power: int) -> Form:
        """1 / z^power for a softmax row sum z (a number divides the coefficient instead)."""
        if z.is_Number:
            return {(): {0: self.coefficient(z**-power)}}
        i = self._row_sum_ids.get(z)
        if i is None:
            i = self._row_sum_ids[z] = len(self.row_sums)
            self.row_sums.append(z)
            self.numerators.append(self.numerator(z))
        return {((i, power),): {0: self.one}}

    # ---------------------------------------------------------------- denominators
    def product(self, d1: Denominator, d2: Denominator) -> Denominator:
        if not d1 or not d2:
            return d1 or d2
        key = (d1, d2)
        d = self._products.get(key)
        if d is None:
            powers = dict(d1)
            for z, k in d2:
                powers[z] = powers.get(z, 0) + k
            d = self._products[key] = tuple(sorted(powers.items()))
        return d

    def denominator(self, d: Denominator) -> sp.Expr:
        expr = self._denominators.get(d)
        if expr is None:
            expr = self._denominators[d] = sp.Mul(*(self.row_sums[z] ** k for z, k in d))
        return expr

    def expanded(self, d: Denominator) -> Terms:
        """The denominator multiplied out as a sum of exps."""
        terms = self._expanded.get(d)
        if terms is None:
            z, k = d[-1]
            rest = d[:-1] + (((z, k - 1),) if k > 1 else ())
            product = self._terms_product(self.expanded(rest), self.numerators[z])
            terms = self._expanded[d] = {a: c for a, c in product.items() if c}
        return terms

    # ---------------------------------------------------------------- forms
    def constant(self, value: sp.Expr) -> Form:
        return {(): {0: self.coefficient(value)}} if value != 0 else {}

    def constants(self, matrix: sp.MatrixBase) -> Forms:
        return [
            [self.constant(matrix[i, j]) for j in range(matrix.cols)] for i in range(matrix.rows)
        ]

    def _terms_product(self, t1: Terms, t2: Terms, group: Terms | None = None) -> Terms:
        group = {} if group is None else group
        for a1, c1 in t1.items():
            for a2, c2 in t2.items():
                a = self.exponent_sum(a1, a2)
                c = group.get(a)
                group[a] = c1 * c2 if c is None else c + c1 * c2
        return group

    def multiply(self, left: Form, right: Form) -> Form:
        total: Form = {}
        for d1, terms1 in left.items():
            for d2, terms2 in right.items():
                self._terms_product(terms1, terms2, total.setdefault(self.product(d1, d2), {}))
        return _pruned(total)

    def add(self, *forms: Form, factors: tuple[PolyElement, ...] | None = None) -> Form:
        total: Form = {}
        for form, factor in zip(forms, factors or (self.one,) * len(forms)):
            for denominator, terms in form.items():
                group = total.setdefault(denominator, {})
                for a, c in terms.items():
                    c = c if factor is self.one else factor * c
                    group[a] = group[a] + c if a in group else c
        return _pruned(total)

    def matmul(self, left: Forms, right: Forms) -> Forms:
        inner = len(right)
        cols = len(right[0]) if right else 0
        return [
            [
                self.add(*(self.multiply(row[k], right[k][j]) for k in range(inner)))
                for j in range(cols)
            ]
            for row in left
        ]

    def combine(self, left: Forms, right: Forms, factor: sp.Expr = _ONE) -> Forms:
        """left + factor * right, entrywise."""
        f = (self.one, self.coefficient(factor))
        return [
            [self.add(a, b, factors=f) for a, b in zip(row_a, row_b)]
            for row_a, row_b in zip(left, right)
        ]

    def times(self, forms: Forms, factor: sp.Expr) -> Forms:
        f = (self.coefficient(factor),)
        return [[self.add(form, factors=f) for form in row] for row in forms]

    def column_sums(self, forms: Forms) -> Forms:
        """1^T Y: one row of column sums (the gradient of a bias added to every row)."""
        return [[self.add(*col) for col in zip(*forms)]]

    def squares(self, forms: Forms) -> Form:
        """The sum of the squared entries."""
        return self.add(*(self.multiply(f, f) for row in forms for f in row))

    # ---------------------------------------------------------------- softmax
    def softmax_forms(self, softmax: ops.Softmax) -> Forms:
        """The weights a_rj = e_rj / Z_r, each row over its own row sum Z_r."""
        return [
            [self.multiply(self.reciprocal(total.value, 1), {(): self.atom(e)}) if e != 0 else {}
             for e in exps]
            for exps, total in zip(softmax.exps, softmax.sums)
        ]  # fmt: skip

    def softmax_backward(self, weights: ops.Softmax, grad: Forms) -> Forms:
        """Row r: (diag(a_r) - a_r^T a_r) abar_r, i.e. a_j (abar_j - sum_k a_k abar_k), written
        as e_j (Z abar_j - sum_k e_k abar_k) / Z^2 so that equal terms cancel exactly.

        A blocked position has e_j = 0, so its gradient is exactly 0.
        """
        out = []
        for exps, total, g_row in zip(weights.exps, weights.sums, grad):
            z = total.value
            atoms: list[Form] = [{(): self.atom(e)} if e != 0 else {} for e in exps]
            dot = self.add(*(self.multiply(e, g) for e, g in zip(atoms, g_row)))
            z_form: Form = {(): self.numerator(z)}
            over = self.reciprocal(z, 2)
            row = []
            for e, g in zip(atoms, g_row):
                inner = self.add(self.multiply(g, z_form), dot, factors=(self.one, -self.one))
                row.append(self.multiply(self.multiply(over, e), inner) if e else {})
            out.append(row)
        return out

    # ---------------------------------------------------------------- exact values
    def matrix(self, forms: Forms) -> Matrix:
        return Matrix([[self.value(f) for f in row] for row in forms])

    def value(self, form: Form) -> sp.Expr:
        """The exact entry: per denominator, the exps summed with their contents factored out."""
        parts = []
        for denominator, terms in self._common(form).items():
            ratio = self._ratio(terms, denominator)
            if ratio is not None:
                parts.append(ratio)
                continue
            total = ops.linear_sum((self.exp(a), self.expr(c)) for a, c in terms.items())
            if total.primitive == 0:  # the factors put back can cancel
                continue
            if not denominator:
                parts.append(total.value)
            else:
                over = sp.Pow(self.denominator(denominator), -1)
                parts.append(sp.Mul(total.content, total.primitive, over))
        return sp.Add(*parts) if parts else _ZERO

    def expr(self, c: PolyElement) -> sp.Expr:
        """``c.as_expr()`` with the factors put back, built in SymPy's canonical form directly:
        the terms are distinct monomials, so Add's and Mul's general flattening (most of the
        time otherwise) has nothing to merge."""
        to_sympy = self.ring.domain.to_sympy
        if c.is_ground:
            return to_sympy(c.LC)
        own = self._own
        grouped: dict[tuple[int, ...], list[tuple[sp.Expr, tuple[sp.Expr, ...]]]] = {}
        for monom, coeff in c.items():
            number, rest = to_sympy(coeff).as_coeff_Mul()
            factors = sp.Mul.make_args(rest) if rest != 1 else ()
            if own and any(monom[-own:]):
                f_number, f_factors = self._factor_power(monom[-own:])
                number, factors = number * f_number, factors + f_factors
            grouped.setdefault(monom[: len(monom) - own], []).append((number, factors))
        terms: list[sp.Expr] = []
        for monom, parts in grouped.items():
            if len(parts) > 1 and not any(s.free_symbols for _, f in parts for s in f):
                # a monomial times powers of numeric factors: one number, as Poly writes it
                number, rest = sp.Add(*(sp.Mul(n, *f) for n, f in parts)).as_coeff_Mul()
                parts = [(number, sp.Mul.make_args(rest) if rest != 1 else ())]
            for number, factors in parts:
                if number != 0:
                    terms.extend(sp.Add.make_args(self._term(number, factors, monom)))
        return ops.canonical_add(terms)

    def _factor_power(self, powers: tuple[int, ...]) -> tuple[sp.Expr, tuple[sp.Expr, ...]]:
        """The factors' product for these powers, as (number, other factors)."""
        f = self._factor_powers.get(powers)
        if f is None:
            number, rest = sp.Mul(*(s**k for s, k in zip(self._factors, powers))).as_coeff_Mul()
            f = self._factor_powers[powers] = (number, sp.Mul.make_args(rest) if rest != 1 else ())
        return f

    def _term(self, number: sp.Expr, rest: tuple[sp.Expr, ...], monom: tuple[int, ...]) -> sp.Expr:
        """number * rest * the monomial, for a rest free of the monomial's symbols, built
        directly; rest is an Add or the factors of a Mul."""
        key = (monom, rest)
        factors = self._monomials.get(key)
        if factors is None:
            product = [g**m for g, m in zip(self.ring.symbols, monom) if m] + list(rest)
            _mulsort(product)
            factors = self._monomials[key] = tuple(product)
        if not factors:
            return number
        if number != 1:
            return sp.Mul._from_args((number, *factors))
        return factors[0] if len(factors) == 1 else sp.Mul._from_args(factors)

    def _ratio(self, terms: Terms, denominator: Denominator) -> sp.Expr | None:
        """q when the numerator is q times the denominator multiplied out (q a number)."""
        if not denominator or not all(c.is_ground for c in terms.values()):
            return None
        expanded = self.expanded(denominator)
        if terms.keys() != expanded.keys():
            return None
        a = next(iter(terms))
        q = self.ring.domain.quo(terms[a].LC, expanded[a].LC)
        if any(q * expanded[b].LC != c.LC for b, c in terms.items()):
            return None
        return self.ring.domain.to_sympy(q)

    def _common(self, form: Form) -> Form:
        """One fraction when one denominator holds every row sum of the others
        (``a/Z + b/Z^2 + c`` is written over ``Z^2``); otherwise a fraction per denominator."""
        if len(form) < 2:
            return form
        bases = {z for z, _ in max(form, key=len)}
        if not all({z for z, _ in d} <= bases for d in form):
            return form
        lcm = {z: max(dict(d).get(z, 0) for d in form) for z in bases}
        common = tuple(sorted(lcm.items()))
        total: Form = {}
        for denominator, terms in form.items():
            lifted: Form = {(): terms}
            powers = dict(denominator)
            for z, k in lcm.items():
                for _ in range(k - powers.get(z, 0)):
                    lifted = self.multiply(lifted, {(): self.numerators[z]})
            if lifted:
                total = self.add(total, {common: lifted[()]})
        return total


def _pruned(form: Form) -> Form:
    out = {}
    for denominator, terms in form.items():
        kept = {a: c for a, c in terms.items() if c}
        if kept:
            out[denominator] = kept
    return out


def transpose(forms: Forms) -> Forms:
    return [list(col) for col in zip(*forms)]


def hstack(blocks: list[Forms]) -> Forms:
    return [[f for block in blocks for f in block[i]] for i in range(len(blocks[0]))]


def columns(forms: Forms, start: int, stop: int) -> Forms:
    return [row[start:stop] for row in forms]


def coefficients_of(exps: list[sp.Expr]) -> list[sp.Expr]:
    """The numbers multiplying the exps in softmax entries and row sums."""
    out = []
    for expr in exps:
        for term in sp.Add.make_args(expr):
            c, atom = term.as_coeff_Mul()
            out.append(c)
            if not (atom == 1 or atom == sp.E or isinstance(atom, sp.exp)):
                out.append(atom)
    return out
