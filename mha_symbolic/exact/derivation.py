"""Step and Derivation: the exact result of walking the model, one readable step at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.exact.rows import LargeValue
from mha_symbolic.model.program import KINDS, Program, build
from mha_symbolic.model.program_facts import Facts
from mha_symbolic.spec.attention import AttentionSpec
from mha_symbolic.text import closest

__all__ = ["KINDS", "Derivation", "LazyStep", "Progress", "Step", "register", "unknown_key_message"]

# What the Derivation's convenience methods call (lambdify, limit, latex, render, write): the
# public API module (mha_symbolic.api) registers them, so this core module imports no consumer.
_CONSUMERS: dict[str, Callable[..., Any]] = {}


def register(**functions: Callable[..., Any]) -> None:
    """Make ``functions`` the implementations behind Derivation's convenience methods."""
    _CONSUMERS.update(functions)


def _consumer(name: str) -> Callable[..., Any]:
    if name not in _CONSUMERS:  # `import mha_symbolic` no longer loads the API: load it now
        import_module("mha_symbolic.api")
    return _CONSUMERS[name]


Progress = Callable[[str], None]  # told each step's key as the step is done


@dataclass(frozen=True)
class Step:
    """One step: ``symbol`` = ``formula`` evaluates exactly to ``value``.

    ``formula`` is a structural SymPy matrix expression over the symbols of earlier steps and
    of the spec's inputs and weights (see :attr:`Derivation.bindings`).
    """

    key: str
    kind: str
    symbol: sp.MatrixSymbol
    formula: sp.Basic
    value: Matrix
    head: int | None = None  # 1-based

    @property
    def shape(self) -> tuple[int, int]:
        return (self.value.rows, self.value.cols)

    @property
    def entries(self) -> Any:
        """The value as printing reads it (``m[i, j]``, ``rows``, ``cols``): the matrix itself
        here; a lazy step's rows are made one by one (see :class:`LazyStep`)."""
        return self.value

    @property
    def title(self) -> str:
        """The step's English title ("Scaled scores, head 2"): the en locale's [titles], the
        one place English titles are written (solutions in other languages use theirs)."""
        # Imported here: the core reads the locale only when a title is asked for.
        from mha_symbolic.language.locales import step_title

        return step_title(self.key, self.head)


class LazyStep(Step):
    """A step whose SymPy value is made when first asked for (by ``make``), from a
    derivation kept in its structured form (see :mod:`mha_symbolic.exact.structured`)."""

    def __init__(
        self,
        key: str,
        kind: str,
        symbol: sp.MatrixSymbol,
        formula: sp.Basic,
        make: Callable[[str], Matrix],
        head: int | None = None,
        entries: Any = None,
    ) -> None:
        for name, given in (("key", key), ("kind", kind), ("symbol", symbol)):
            object.__setattr__(self, name, given)
        object.__setattr__(self, "formula", formula)
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "_make", make)
        object.__setattr__(self, "_entries", entries)

    @property
    def value(self) -> Matrix:
        return self._make(self.key)  # type: ignore[attr-defined]

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.symbol.shape[0]), int(self.symbol.shape[1]))

    @property
    def entries(self) -> Any:
        """Entries made one at a time from the structure (:class:`~mha_symbolic.exact.rows.
        Entries`), entry for entry the same as ``value``; ``value`` where there is none."""
        made = self._entries  # type: ignore[attr-defined]
        return self.value if made is None else made


@dataclass(frozen=True)
class Derivation(Mapping[str, Matrix]):
    """The ordered, immutable steps of one attention computation; ``d[key]`` is an exact value."""

    spec: AttentionSpec
    steps: tuple[Step, ...]
    bindings: Mapping[sp.Basic, Any] = field(default_factory=dict)  # leaf symbol -> exact value
    program: Program | None = field(default=None, compare=False, repr=False)  # what was walked
    # Step key -> the exact value in its structured form (rational matrices, softmax rows over
    # one denominator); None when the spec has something it does not hold (symbols, RoPE).
    structured: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    # Why making every SymPy value would take minutes (a structured derivation at model
    # scale, without large=True): d[key] says it; None when they may all be made.
    refusal: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {step.key: step for step in self.steps})
        object.__setattr__(self, "bindings", MappingProxyType(dict(self.bindings)))

    @property
    def facts(self) -> Facts:
        """What a solution or the checker asks of the model (its scale, mask, output
        projection, ...), answered from the program walked (made once)."""
        made: Facts | None = self.__dict__.get("_facts")
        if made is None:
            made = Facts(self.program if self.program is not None else build(self.spec))
            object.__setattr__(self, "_facts", made)
        return made

    def step(self, key: str) -> Step:
        by_key: dict[str, Step] = self._by_key  # type: ignore[attr-defined]
        try:
            return by_key[key]
        except KeyError:
            raise KeyError(unknown_key_message(key, list(by_key))) from None

    def __getitem__(self, key: str) -> Matrix:
        """Step ``key``'s exact value. A structured derivation too large for SymPy values
        (see ``refusal``) gives them entry by entry: ``d[key][i, j]``, ``d[key][i, :]``."""
        step = self.step(key)
        entries = getattr(step, "_entries", None)
        if self.refusal is not None and entries is not None:
            return LargeValue(entries, key, self.refusal)
        return step.value

    def __contains__(self, key: object) -> bool:
        return key in self._by_key  # type: ignore[attr-defined]  # (never makes a value)

    def __iter__(self) -> Iterator[str]:
        return (step.key for step in self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def expression(self, key: str) -> sp.Basic:
        """The step's formula with every earlier step symbol replaced by its own formula."""
        replace = {step.symbol: step.formula for step in self.steps if step.kind != "input"}
        expr = self.step(key).formula
        while True:
            new = expr.xreplace(replace)
            if new == expr:
                return expr
            expr = new

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        """Scalar symbols left in the exact values (from "symbolic" weights or LaTeX inputs)."""
        if self.structured is not None:
            return set()  # rational inputs and a numeric scale: no symbol anywhere
        return set().union(*(step.value.free_symbols for step in self.steps))

    def enclose(self, key: str = "output", digits: int = 50) -> list[list[Any]]:
        """Step ``key``'s entries as arb balls containing the exact values, radius < 10^-digits."""
        return list(_consumer("enclose")(self, key, digits))

    # The consumers (numeric, limits, solution) are reached through mha_symbolic.api.
    def lambdify(self, key: str = "output") -> Any:
        """A vectorised NumPy function of the free symbols computing step ``key`` stably."""
        return _consumer("lambdify")(self, key)

    def limit(self, name: str, point: Any = 0) -> Any:
        """Every step's exact limit as parameter ``name`` goes to ``point`` (``0``, ``"0+"``,
        ``"0-"``, ``"oo"``); a positive parameter goes to 0 from the right."""
        return _consumer("limit")(self, name, point)

    def latex(self, key: str) -> str:
        """The exact value of step ``key`` as a bmatrix that latex2sympy2 reads back."""
        return str(_consumer("latex")(self[key]))

    def to_markdown(self, **options: Any) -> str:
        """The worked solution in Markdown (options: decimals, detail, lang, max_size, ...)."""
        return str(_consumer("render")(self, "md", options))

    def to_latex(self, **options: Any) -> str:
        return str(_consumer("render")(self, "tex", options))

    def to_html(self, **options: Any) -> str:
        return str(_consumer("render")(self, "html", options))

    def to_json(self, **options: Any) -> str:
        """Every step's key, formula, exact value (LaTeX) and decimals, as JSON."""
        return str(_consumer("render")(self, "json", options))

    def write(self, path: str, fmt: str | None = None, **options: Any) -> list[Any]:
        """Write the solution (format from ``fmt`` or the suffix); returns the files written."""
        return list(_consumer("write")(self, path, fmt, options))

    def to_text(self, **options: Any) -> str:
        """The worked solution as plain Unicode text (options as :meth:`to_markdown`, and
        ``columns``, the page's width: 100 by default)."""
        return str(_consumer("render")(self, "text", options))

    def __str__(self) -> str:
        """The readable solution (``print(d)``), 100 columns wide."""
        return self.to_text()

    def __repr__(self) -> str:
        """One line at a prompt: the title, the shape, and how to see more."""
        spec, count = self.spec, len(self.steps)
        tokens, heads = spec.query.rows, spec.heads
        shape = f"{_many(tokens, 'token')}, d_model {spec.query.cols}, {_many(heads, 'head')}"
        return f"<Derivation {spec.title!r}: {shape}, {_many(count, 'step')}; print(d) or d.steps>"

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        """Jupyter's view: the HTML solution (heatmaps inline), its styles kept to itself."""
        return str(_consumer("notebook")(self, "html"))

    def _repr_latex_(self) -> str:
        """What nbconvert puts into a PDF: every step as display maths, title to decimals."""
        return str(_consumer("notebook")(self, "latex"))


def _many(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def unknown_key_message(key: str, keys: list[str]) -> str:
    close = closest(key, keys, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(k) for k in close)}?" if close else ""
    return f"unknown step key {key!r}{hint}"
