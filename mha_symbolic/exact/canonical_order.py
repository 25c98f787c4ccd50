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
    cls = type(expr)
    if cls is sp.Add or cls is sp.Mul:
        held = _BY_ID.get(id(expr))
        if held is not None and held[0] is expr:
            return held[1]  # a sum whose key was made with it (see remember)
        return _sum_or_product(expr)  # quick from its terms' keys; not worth keeping
    if isinstance(expr, sp.Rational):
        return rational_key(expr)  # made at once: cheaper than looking it up
    key = _KNOWN.get(expr)
    if key is None:
        key = _made(expr)
        if len(_KNOWN) >= _MOST:
            _KNOWN.clear()
        _KNOWN[expr] = key
    return key


# Keys given with the sums they belong to, by the sum's id (the sum kept alive beside its
# key, so the id is not reused): found without hashing the sum or comparing it.
_BY_ID: dict[int, tuple[sp.Basic, tuple[Any, ...]]] = {}


def remember(expr: sp.Basic, key: tuple[Any, ...]) -> None:
    """Keep ``key`` as the compare key of the Add or Mul ``expr`` (its maker built it from
    its terms' keys): a RoPE logit is a sum of 128 products, and the exponentials of a
    softmax row, sorted by their keys, hold the row's logits, each many times."""
    if len(_BY_ID) >= _MOST:
        _BY_ID.clear()
    _BY_ID[id(expr)] = (expr, key)


_RANKS: dict[type, tuple[int, str]] = {}  # rank() by class, without making its name


def _rank_of(cls: type) -> tuple[int, str]:
    made = _RANKS.get(cls)
    if made is None:
        made = _RANKS[cls] = rank(cls.__name__)
    return made


def rational_key(number: sp.Rational) -> tuple[Any, ...]:
    """The key of a SymPy Rational or Integer: its class's place, then (p, q)."""
    return (_rank_of(type(number)), 2, (number.p, number.q))


def _sum_or_product(expr: sp.Basic) -> tuple[Any, ...]:
    """:func:`_made` of an Add or a Mul (their content is their arguments), its terms' and
    factors' keys made in one loop: a RoPE logit is a sum of 128 products, and each softmax
    row sorts exponentials of such sums by their keys."""
    items: list[Any] = []
    append = items.append
    for arg in expr._args:
        cls = type(arg)
        if cls is sp.Mul or cls is sp.Add:
            held = _BY_ID.get(id(arg))
            append(held[1] if held is not None and held[0] is arg else _sum_or_product(arg))
        elif isinstance(arg, sp.Rational):
            append((_rank_of(cls), 2, (arg.p, arg.q)))
        else:
            append(compare_key(arg))
    return (_rank_of(type(expr)), len(items), tuple(items))


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
    return (_rank_of(type(expr)), len(content), tuple(items))


def in_order(first: sp.Basic, second: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
    """The two in SymPy's canonical order (their classes decide it, when they differ)."""
    ranks = rank(first.__class__.__name__), rank(second.__class__.__name__)
    if ranks[0] != ranks[1]:
        return (first, second) if ranks[0] < ranks[1] else (second, first)
    return (first, second) if compare_key(first) <= compare_key(second) else (second, first)
