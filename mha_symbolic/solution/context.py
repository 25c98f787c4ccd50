"""What the builders of one worked solution share: the derivation, its words, and what is shown."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sympy as sp

from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.language.words import Words
from mha_symbolic.model.program_facts import Facts
from mha_symbolic.solution import latex
from mha_symbolic.solution.chosen import chosen_values
from mha_symbolic.solution.shorthand import Names, angles, exponentials
from mha_symbolic.solution.subterms import SHARED, Subterms
from mha_symbolic.solution.view import Options
from mha_symbolic.spec.attention import AttentionSpec


def _lazy(value: Any) -> bool:
    return not isinstance(value, sp.MatrixBase)


def _fractions(d: Derivation, shown: list[Any]) -> bool:
    """Whether the solution writes every exact rational as a fraction: its inputs print no
    decimals (a document given 0.2 keeps its decimals) and some value it shows is a fraction
    (ALiBi's 9/16 beside its scaled scores' 0.5, which are then 1/2), or the spec writes its
    numbers as fractions (seed 000's W_O = ½ [...]: 1/2, not 0.5, and its output 1/2)."""
    if d.spec.written == {"fraction"}:
        return True
    given: list[Any] = []
    for value in d.bindings.values():
        given.extend(value if isinstance(value, sp.MatrixBase) else [sp.sympify(value)])
    if any(isinstance(v, sp.Rational) and not v.is_Integer for v in given):
        return False
    cells = [c for v in shown for c in (v if isinstance(v, sp.MatrixBase) else [v])]
    rationals = [c for c in cells if isinstance(c, sp.Rational) and not c.is_Integer]
    return latex.needs_fractions(rationals)


@dataclass
class Context:
    """One solution being built: read by every block builder, grown as the steps are shown."""

    d: Derivation
    options: Options
    words: Words
    settings: latex.Settings
    images: Mapping[int, str] | None  # head -> its heatmap's file name or data URI
    shown: dict[str, latex.Shown] = field(default_factory=dict)  # step key -> its value shown
    # Symbol -> the LaTeX of its value, once shown: what a later step's formula is written with.
    substitutes: dict[sp.Basic, str] = field(default_factory=dict)
    said: set[tuple[str, str]] = field(default_factory=set)  # (section, key) already said
    names: Names = field(default_factory=Names)  # a = e^{sqrt(3)/3}, ... (see shorthand.py)
    # Symbol -> the number chosen for it, so that a symbolic step shows numbers (chosen.py).
    chosen: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    # The values' symbols, exponentials and values at the chosen numbers, by shared subterm.
    subterms: Subterms = field(default_factory=Subterms)
    # The value a step's chosen numbers give (its matrix as printed) -> that step's name and
    # its general exact value as printed.
    chosen_shown: dict[str, tuple[str, str | None]] = field(default_factory=dict)

    @classmethod
    def start(cls, d: Derivation, options: Options, images: Mapping[int, str] | None) -> Context:
        words = Words(options.lang, options.templates)
        subterms = SHARED
        values = [step.entries for step in d.steps]
        free = set().union(*(subterms.free_symbols(v) for v in values))
        # Named from what is shown: a lazy step's hidden entries are never made.
        shown: list[Any] = []
        for v in values:
            shown.extend(latex.cells(v, options.settings.max_size) if _lazy(v) else [v])
        taken, parameters = {str(s) for s in free}, d.facts.parameters.values()
        names = exponentials(shown, taken, parameters, subterms.exponentials)
        if d.facts.rope:  # sines and cosines of exact angles: only rotated queries and keys
            names = angles(names, shown, taken)
        chosen = chosen_values(d, free)
        settings = replace(options.settings, fractions=_fractions(d, shown))
        context = cls(d, options, words, settings, images, names=names, chosen=chosen)
        context.subterms = subterms
        for symbol, value in d.bindings.items():
            text = context.leaf(symbol, value)
            if text is not None:
                context.substitutes[symbol] = text
        return context

    @property
    def spec(self) -> AttentionSpec:
        return self.d.spec

    @property
    def facts(self) -> Facts:
        """What the solution asks of the model (see :mod:`mha_symbolic.model.program_facts`)."""
        return self.d.facts

    def leaf(self, symbol: sp.Basic, value: Any) -> str | None:
        """A given value as a formula's operand is written; None when written by name."""
        if isinstance(value, sp.MatrixBase):
            shown = self.show_value(value, symbol.name)
            return None if shown.named else self.given(value, shown.exact)
        return self.exact(sp.sympify(value))

    def given(self, value: sp.MatrixBase, exact: str) -> str:
        """A given matrix of fractions with a common one written as seed 000 writes its W_O,
        ``\\frac{1}{2} [...]``, the fraction before a matrix of whole numbers; else ``exact``."""
        cells = list(value)
        if not self.settings.fractions or not all(isinstance(c, sp.Rational) for c in cells):
            return exact
        nonzero = [c for c in cells if c != 0]
        if len(nonzero) < 2:
            return exact
        factor = sp.Rational(sp.igcd(*[c.p for c in nonzero]), sp.ilcm(*[c.q for c in nonzero]))
        if factor.q == 1:
            return exact
        return rf"{latex.exact(factor, True)} {latex.exact(value / factor)}"

    @property
    def output_unknown(self) -> bool:
        """The document names an output projection W_O (in an assumed value) but gives no
        numbers for it."""
        spec = self.spec
        named = any("W_O" in str(value) for value in spec.assumed.values())
        return named and not self.facts.output_projection

    def exact(self, value: sp.Basic) -> str:
        """LaTeX of an exact value, written with the named exponentials."""
        return latex.exact(self.names(value), self.settings.fractions)

    def show_value(self, value: sp.MatrixBase, name: str, key: str = "") -> latex.Shown:
        """A matrix shown with the named exponentials; its decimals are of the value itself,
        to the places of step ``key`` (none: the solution's own)."""
        return latex.show(value, name, self.settings_for(key), self.names(value))

    def show(self, step: Step) -> latex.Shown:
        if step.key not in self.shown:
            self.shown[step.key] = self.show_value(step.entries, step.symbol.name, step.key)
        return self.shown[step.key]

    def settings_for(self, key: str) -> latex.Settings:
        """How step ``key`` is shown: its own decimal places (a spec's [decimals] table)."""
        if not key:
            return self.settings
        return replace(self.options.settings_for(key), fractions=self.settings.fractions)

    def once(self, section: str, key: str, numbers: Mapping[str, Any]) -> str | None:
        """An insight is said at its first step only (not again for every head)."""
        if (section, key) in self.said:
            return None
        self.said.add((section, key))
        return self.words.get(section, key, **numbers)

    def too_long(self, key: str, **numbers: Any) -> str:
        """Why a matrix is written by its general entry, row or blocks: said in full the first
        time; after it, only how it is written (rope said "too long to print ... the JSON output
        holds every value exactly" five times, eight-tokens-split ten)."""
        again = ("names", "too_long") in self.said
        self.said.add(("names", "too_long"))
        return self.words("names", f"{key}_again" if again else key, **numbers)

    def row(self, matrix: sp.MatrixBase, i: int) -> str:
        """Row ``i`` as the documents write vectors: ``[1, 0]``."""
        cols = latex.layout(matrix, self.settings.max_size).cols
        cells = [r"\cdots" if j is None else self.exact(matrix[i, j]) for j in cols]
        return r"\left[" + r",\; ".join(cells) + r"\right]"

    def approx_row(self, matrix: sp.MatrixBase, i: int, key: str = "") -> str | None:
        """Row ``i`` in decimals (step ``key``'s places); None when its entries are literal or
        have symbols."""
        cols = latex.layout(matrix, self.settings.max_size).cols
        entries = [matrix[i, j] for j in cols if j is not None]
        if all(latex.is_literal(e) for e in entries):
            return None
        places = self.settings_for(key).decimals
        cells = [r"\cdots" if j is None else latex.decimal(matrix[i, j], places) for j in cols]
        if any(c is None for c in cells):
            return None
        return r"\left[" + r",\; ".join(str(c) for c in cells) + r"\right]"
