"""The prints of a projection (Q, K, V) where its weight is not printed: equal to the input
(no projection), or printed all the same (its weight is then unknown, never the identity)."""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.softmax_arguments import as_identity, printed_floats

Rows = tuple[tuple[str, ...], ...]


def printed_projection(seen: Sequence[Seen], role: str) -> bool:
    """Whether the page prints the projection of the weight ``role`` (Q for w_q)."""
    letter = role[-1]
    return any(letter in ([t.split(":")[0] for t in s.names] or [s.role]) for s in seen)


def printed_as_input(x: object, seen: Sequence[Seen], role: str) -> Seen | None:
    """The printed Q (K, V) of the weight ``role`` when it equals X: no projection."""
    letter = role[-1]
    for s in seen:
        tags = [t.split(":")[0] for t in s.names] or [s.role]
        if letter in tags and s.row is None and s.head in (None, 1) and _equal(s.item.rows, x):
            return s
    return None


def scores_are_gram(x: object, seen: Sequence[Seen]) -> bool:
    """Whether the printed scores are X Xᵀ (unscaled or over √E): the numbers say Q = K = X,
    whatever a random generator or a weight's name in the text suggests."""
    rows = printed_floats(x)
    if rows is None:
        return False
    return any(s.role == "scores" and as_identity(rows, printed_floats(s.item.rows)) for s in seen)


def _equal(rows: Rows, x: object) -> bool:
    """The same numbers ("1" and "1.0"), however each is printed."""
    entries = [[e.replace("\u2212", "-") for e in row] for row in rows]
    if not isinstance(x, list) or [len(r) for r in entries] != [len(r) for r in x]:
        return False
    try:
        return all(
            sp.Rational(a) == sp.Rational(b)
            for row, other in zip(entries, x)
            for a, b in zip(row, other)
        )
    except (TypeError, ValueError):
        return entries == x
