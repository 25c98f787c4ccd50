"""The ``[names]`` table: a step written under the document's own name (seed 003's Z_1, Z_2
for the head outputs), in every format, instead of the solution's default (head_1, head_2).

A name is a matrix's name as a document writes it: one letter or a word (``Z``, ``Scores``,
``\\text{Scores}``), at most two primes, and a subscript of letters, digits and commas
(``Z_1``, ``Z_{1}``, ``Z₁``). It is stored as the LaTeX the formulas print (``Z_{1}``,
``\\mathrm{Scores}_{1}``). Whether each key names a step, and that no two steps share a name,
is checked where the steps are made (:func:`mha_symbolic.model.program.build`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.text import one_line

# What a step key looks like (``x``, ``head2.output``, ``head1.q_rot``, ``concat``): the table's
# keys are read here, and matched against the steps the spec makes when they are made.
_KEY = re.compile(r"[a-z]+[0-9]*(\.[a-z_]+)?\Z")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_NAME = re.compile(
    r"(?:\\(?:text|mathrm)\{(?P<word>[A-Za-z]+)\}|(?P<bare>[A-Za-z]+))"
    r"(?P<primes>'{0,2})"
    r"(?:_(?:\{(?P<braced>[A-Za-z0-9,]{1,12})\}|(?P<single>[A-Za-z0-9])))?\Z"
)
_RULE = "a letter or a word, then at most two primes and a subscript (Z_1, Z_{1}, Scores_1)"


def read_names(value: Any) -> dict[str, str]:
    """The ``[names]`` table as {step key: LaTeX name}; a bad key or name is one line."""
    if not isinstance(value, Mapping):
        raise SpecError(
            f'names must be a table of step keys, as "head1.output" = "Z_1"; '
            f"got {one_line(repr(value))}"
        )
    out = {}
    for key, name in value.items():
        if not isinstance(key, str) or not _KEY.match(key):
            raise SpecError(
                f"names: {one_line(repr(key))} is not a step key (head1.output, concat, ...)"
            )
        out[key] = latex_name(name, f"names.{key}")
    return out


def latex_name(name: Any, where: str) -> str:
    """``name`` as the LaTeX formulas print: ``Z_1`` and ``Z₁`` -> ``Z_{1}``, a word upright."""
    if not isinstance(name, str):
        raise SpecError(f'{where} must be text, as "Z_1"; got {one_line(repr(name))}')
    written = name.strip().translate(_SUBSCRIPTS)
    if written and written[-1].isdigit() and name.strip()[-1] != written[-1]:
        written = re.sub(r"([0-9]+)\Z", r"_{\1}", written)  # Z₁: the digits were a subscript
    found = _NAME.match(written)
    if found is None:
        raise SpecError(f"{where} = {one_line(repr(name), 40)} is not a name: give {_RULE}")
    word = found["word"] or found["bare"]
    base = word if len(word) == 1 and found["bare"] else rf"\mathrm{{{word}}}"
    subscript = found["braced"] or found["single"]
    return base + found["primes"] + (f"_{{{subscript}}}" if subscript else "")
