"""Declared parameters: the [parameters] table -> named SymPy symbols with assumptions."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.text import did_you_mean

# What a parameter may be declared as, and the SymPy assumptions each one gives its symbol.
ASSUMPTIONS: Mapping[str, Mapping[str, bool]] = MappingProxyType(
    {
        "symbolic": {},
        "real": {"real": True},
        "positive": {"positive": True},
        "nonnegative": {"nonnegative": True},
        "negative": {"negative": True},
    }
)
_NAME = re.compile(r"[A-Za-z]+")
# Names LaTeX and SymPy already read as constants.
RESERVED = ("e", "E", "i", "I", "pi", "oo", "inf", "nan")


def declare(table: Any) -> Mapping[str, sp.Symbol]:
    """The symbols of a [parameters] table: ``{"tau": "positive"}`` -> ``{"tau": tau}``.

    ``tau`` and ``\\tau`` in a value both read as this one symbol (see ``exact.declared``).
    """
    if not isinstance(table, Mapping):
        raise SpecError(f'parameters must be a table such as tau = "positive", got {table!r}')
    symbols = {}
    for name, kind in table.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise SpecError(f"parameters: {name!r} is not a name (letters only, such as tau)")
        if name in RESERVED:
            raise SpecError(f"parameters: {name!r} already means a constant; choose another name")
        if not isinstance(kind, str) or kind not in ASSUMPTIONS:
            hint = did_you_mean(str(kind), ASSUMPTIONS)
            raise SpecError(
                f"parameters.{name} is {kind!r}{hint}; choose one of {', '.join(ASSUMPTIONS)}"
            )
        symbols[name] = sp.Symbol(name, **ASSUMPTIONS[kind])
    return MappingProxyType(symbols)


def kind_of(symbol: sp.Symbol) -> str:
    """The word a parameter was declared with (the inverse of :func:`declare`)."""
    for kind in ("positive", "nonnegative", "negative", "real"):
        if getattr(symbol, f"is_{kind}"):
            return kind
    return "symbolic"
