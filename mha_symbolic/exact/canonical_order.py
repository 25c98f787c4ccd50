"""SymPy's canonical order of an Add's terms (``Basic.compare``) as a sort key.

SymPy sorts with ``cmp_to_key(Basic.compare)``: a softmax sum of 64 exponentials then costs
hundreds of recursive comparisons. The key here orders alike (the class's place in SymPy's
``ordering_of_classes``, else its name; then the length of the hashable content; then that
content, item by item), is made once per term and remembered, so a sum is sorted by plain
tuple comparisons. Content it does not mirror (a frozenset) makes it give up: the caller
sorts the SymPy way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.core import basic


class Unordered(Exception):
    """A term whose content the key does not mirror."""


@lru_cache(maxsize=512)
def rank(name: str) -> tuple[int, str]:
    """A class's place by its name, as ``basic._cmp_name`` compares two classes."""
    names = basic.ordering_of_classes
    if name in names:
        return (names.index(name), "")
    return (len(names) + 1, name)


# Keys already made, by term (numbers, powers); emptied when it grows past this many.
_KNOWN: dict[sp.Basic, tuple[Any, ...]] = {}
_MOST = 100_000


def compare_key(expr: sp.Basic) -> tuple[Any, ...]:
    """A key that orders SymPy objects as ``Basic.compare`` does."""
    if isinstance(expr, sp.Rational):
        return rational_key(expr)  # made at once: cheaper than looking it up
    if isinstance(expr, (sp.Mul, sp.Add)):
        return _made(expr)  # quick from its factors' keys; not worth keeping
    key = _KNOWN.get(expr)
    if key is None:
        key = _made(expr)
        if len(_KNOWN) >= _MOST:
            _KNOWN.clear()
        _KNOWN[expr] = key
    return key


def rational_key(number: sp.Rational) -> tuple[Any, ...]:
    """The key of a SymPy Rational or Integer: its class's place, then (p, q)."""
    return (rank(number.__class__.__name__), 2, (number.p, number.q))


def _made(expr: sp.Basic) -> tuple[Any, ...]:
    if isinstance(expr, sp.Rational):
        return rational_key(expr)
    content = expr._hashable_content()
    items: list[Any] = []
    for item in content:
        if isinstance(item, sp.Basic):
            items.append(compare_key(item))
        elif isinstance(item, (int, str, bool)):
            items.append(item)
        else:
            raise Unordered(type(item).__name__)
    return (rank(expr.__class__.__name__), len(content), tuple(items))


def in_order(first: sp.Basic, second: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
    """The two in SymPy's canonical order (their classes decide it, when they differ)."""
    ranks = rank(first.__class__.__name__), rank(second.__class__.__name__)
    if ranks[0] != ranks[1]:
        return (first, second) if ranks[0] < ranks[1] else (second, first)
    return (first, second) if compare_key(first) <= compare_key(second) else (second, first)
