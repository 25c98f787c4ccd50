"""Examples of one part of a page that the numbers found apart: each from its first line, when
they do not overlap and the later ones project nothing (a softmax of one tensor, then of
another; a notebook's worked query, then random scores under a causal mask)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from mha_symbolic.extract.by_numbers import Example
from mha_symbolic.extract.reading import Seen

_PROJECTS = ("x", "w_q", "w_k", "w_v", "q", "k", "v", "head.x")
_LOGITS = ("scores", "scaled", "softmax_argument", "masked")


def apart(seen: list[Seen], found: Sequence[Example]) -> list[list[Seen]]:
    """One group per example the numbers found apart, each from its first line, when the
    examples after the first project nothing (on a page that prints no X or Q: all of them);
    with one example, what follows it when it prints logits of its own (projected by nothing,
    and on a page that projects, a whole square of them)."""
    spans = sorted((e.first, e.last) for e in found)
    overlap = any(a[1] >= b[0] for a, b in itertools.pairwise(spans))
    if len(spans) == 1:
        # logits printed after the one example found, projected by nothing, start another
        # softmax, not its (a softmax page; a notebook's random scores under a mask)
        last = spans[0][1]
        kept = [s for s in seen if s.item.line <= last]
        rest = [s for s in seen if s.item.line > last]
        projects = any(s.role in _PROJECTS for s in seen)
        again = any(s.role in _LOGITS and (not projects or _whole_square(s)) for s in rest)
        if kept and again and not any(s.role in _PROJECTS for s in rest):
            return [kept, rest]
    if not spans or overlap:
        return [seen]
    groups: list[list[Seen]] = [[] for _ in spans]
    for s in seen:
        at = [n for n, (first, _) in enumerate(spans) if first <= s.item.line]
        groups[at[-1] if at else 0].append(s)
    if not any(s.role in ("x", "q") for s in seen):
        return groups
    own = all(
        any(s.role in _LOGITS and _whole_square(s) for s in g)
        and not any(s.role in _PROJECTS or s.head is not None for s in g)
        for g in groups[1:]
    )  # each later example starts from logits of its own, not a head of the first
    return groups if own else [seen]


def _whole_square(s: Seen) -> bool:
    """A whole matrix of attention logits: two rows or more, one column per row."""
    rows = s.item.rows
    return s.row is None and len(rows) > 1 and all(len(r) == len(rows) for r in rows)
