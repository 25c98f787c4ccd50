"""The derivation as JSON, streamed: every step's exact LaTeX, decimals and (asked for)
certified balls, written row by row as they are made, so that a model-sized step is never
one string or one list in memory.

The document is ``json.dumps(..., indent=2)`` of one dict; :func:`chunks` yields the same
text piece by piece (:func:`to_json` joins them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import flint

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.exact.limits import LimitDerivation
from mha_symbolic.exact.rounding import decimal_of
from mha_symbolic.language.locales import step_title
from mha_symbolic.solution import latex
from mha_symbolic.solution.view import Options
from mha_symbolic.spec import parameters
from mha_symbolic.text import decimal_text

_LATEX = "\x00latex {}\x00"  # stands in for step n's streamed LaTeX until it is written


class _Rows(list[Any]):
    """A list the JSON encoder reads one row at a time: ``make(i)`` is called as row i is
    written and forgotten after (the pure-Python encoder, used with ``indent``, asks only
    ``len`` and ``iter``)."""

    def __init__(self, count: int, make: Callable[[int], Any]) -> None:
        super().__init__()
        self.size, self.make = count, make

    def __len__(self) -> int:
        return self.size

    def __bool__(self) -> bool:
        return self.size > 0

    def __iter__(self) -> Iterator[Any]:
        return (self.make(i) for i in range(self.size))


def _escaped(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _latex_chunks(step: Step) -> Iterator[str]:
    """``latex.exact(step.value)``, one row at a time (same text, escaped for JSON)."""
    entries = step.entries
    rows, cols = step.shape
    write = latex.notation(entries[i, j] for i in range(rows) for j in range(cols))
    yield '"' + _escaped(r"\begin{bmatrix} ")
    for i in range(rows):
        cells = " & ".join(write(entries[i, j]) for j in range(cols))
        yield _escaped((r" \\ " if i else "") + cells)
    yield _escaped(r" \end{bmatrix}") + '"'


class _Step:
    """The streamed fields of one step: its balls (once, when asked for) and rows."""

    def __init__(self, d: Derivation, step: Step, options: Options) -> None:
        self.step, self.options = step, options
        self.balls: list[list[flint.arb]] | None = None
        if options.enclose is not None and not step.entries.free_symbols:
            try:
                self.balls = d.enclose(step.key, options.enclose)
            except ValueError:  # -oo (masked logits) or a row with every key blocked
                self.balls = None

    def decimals(self, i: int) -> list[str | None]:
        places = self.options.places(self.step.key)  # a spec's [decimals] table too
        row = [None] * self.step.shape[1] if self.balls is None else self.balls[i]
        out = [None if b is None else decimal_of(b, places) for b in row]
        if None in out:
            entries = self.step.entries
            out = [t or decimal_text(entries[i, j], places) for j, t in enumerate(out)]
        return out

    def ball_row(self, i: int) -> list[str]:
        assert self.balls is not None
        digits = (self.options.enclose or 0) + 5
        return [b.str(digits, radius=True) for b in self.balls[i]]


def _step(d: Derivation, n: int, step: Step, options: Options) -> dict[str, Any]:
    made = _Step(d, step, options)
    fields: dict[str, Any] = {
        "key": step.key,
        "title": step_title(step.key, step.head, options.lang, options.templates),
        "kind": step.kind,
        "head": step.head,
        "shape": list(step.shape),
        "symbol": step.symbol.name,
        "formula": latex.formula(step.formula),
        "latex": _LATEX.format(n) if options.exact else None,
        "decimals": _Rows(step.shape[0], made.decimals),
    }
    if options.enclose is not None:
        fields["balls"] = None if made.balls is None else _Rows(step.shape[0], made.ball_row)
    return fields


def chunks(d: Derivation, options: Options) -> Iterator[str]:
    """The JSON document, piece by piece (see the module's docstring)."""
    if options.exact and d.refusal is not None:
        raise SpecError(d.refusal + ", or write certified balls alone (--enclose N --no-exact)")
    spec, facts = d.spec, d.facts
    document: dict[str, Any] = {
        "title": spec.title,
        "lang": options.lang,
        "decimals": options.decimals,
        "layout": facts.layout,
        "heads": len(facts.heads),
        "tokens": list(spec.tokens),
        "key_tokens": list(spec.key_tokens),
        "parameters": {name: parameters.kind_of(s) for name, s in facts.parameters.items()},
    }
    if options.enclose is not None:
        document["digits"] = options.enclose
    steps = list(d.steps)
    document["steps"] = _Rows(len(steps), lambda n: _step(d, n, steps[n], options))
    if isinstance(d, LimitDerivation):
        document["limit"] = d.taken.text
        document["limit_latex"] = d.taken.latex
    placeholders = {
        json.dumps(_LATEX.format(n), ensure_ascii=False): s for n, s in enumerate(steps)
    }
    encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
    for chunk in encoder.iterencode(document):
        step = placeholders.get(chunk)
        if step is None:
            yield chunk
        else:
            yield from _latex_chunks(step)
    yield "\n"


def to_json(d: Derivation, options: Options) -> str:
    """Every step by key: title, shape, exact LaTeX (nothing elided) and decimals."""
    return "".join(chunks(d, options))
