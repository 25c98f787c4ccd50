"""Per-token vectors named with an index ("K1 = [1, 0], K2 = [0, 1]", "k_1", "q₁", "x1"): on a
page whose heads are not numbered that way, the index is the token, and the vectors stacked in
index order are the matrix (K, V, Q, X) the example starts at, not one head's one-row key each
(nor heads' slices of one token's input)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.token_lines import stacked
from mha_symbolic.extract.token_vectors import token_vectors

_STACKED = {"q": "q", "k": "k", "v": "v", "head.x": "x"}  # x1, x2 read as heads' slices: X
_WEIGHTS = ("w_q", "w_k", "w_v", "w_o")


def stacked_vectors(seen: Sequence[Seen]) -> list[Seen]:
    """The page's arrays with each role's index-named one-row vectors (indices 1..n, n >= 2,
    one width) replaced by their stack, where the first of them stood. Left as read when a
    print of several rows or a weight carries a head number: then the indices are heads."""
    if any(_headed(s) and (len(s.item.rows) > 1 or s.role in _WEIGHTS) for s in seen):
        return token_vectors(seen)
    out = list(seen)
    for role, matrix in _STACKED.items():
        vectors = _indexed(seen, role)
        if vectors is None:
            continue
        first = vectors[0]
        stack = stacked(
            vectors,
            role=matrix,
            head=None,
            name=", ".join(s.name.strip("`* ") for s in vectors),
            names=(f"{matrix}:",),
            printed=tuple(s.name for s in vectors),
        )
        out = [stack if s is first else s for s in out if s is first or not _among(s, vectors)]
        out = [_again(s, stack) if _later(s, role, vectors) else s for s in out]
    return token_vectors([_first_token(s) for s in out])


def _first_token(s: Seen) -> Seen:
    """``k_0`` alone: no head is numbered 0, so the index counts tokens from 0: row 1."""
    if s.head == 0 and s.row is None and len(s.item.rows) == 1 and _named_index(s):
        return replace(s, head=None, row=1)
    return s


def _later(s: Seen, role: str, vectors: Sequence[Seen]) -> bool:
    """A later one-row print named like one of the stacked vectors ("k1" in ``q1 . k1 = [1, 0]
    . [1, 1]``): working, whose numbers say what it is."""
    indices = {v.head for v in vectors}
    return s.role == role and s.head in indices and len(s.item.rows) == 1


def _again(s: Seen, stack: Seen) -> Seen:
    """The stack's row the name gives when the numbers are that row; else no role (the name
    of the vector beside it: ``q1 . k1 = [1, 0] . [1, 1]``)."""
    index = s.head or 0
    if index <= len(stack.item.rows) and s.item.rows[0] == stack.item.rows[index - 1]:
        return replace(s, role=stack.role, head=None, row=index)
    return replace(s, role="unnamed", head=None, names=(), printed=())


def _indexed(seen: Sequence[Seen], role: str) -> list[Seen] | None:
    """The first one-row vector of ``role`` of each index its own name gives (1..n), in index
    order; None unless there are two or more, all of one width."""
    vectors = [
        s for s in seen if s.role == role and s.head is not None and s.row is None and s.col is None
    ]
    if len(vectors) < 2 or any(len(s.item.rows) != 1 or not _named_index(s) for s in vectors):
        return None
    first: dict[int | None, Seen] = {}
    for s in vectors:  # the first print of each index: later ones are its working or a reprint
        first.setdefault(s.head, s)
    ordered = sorted(first.values(), key=lambda s: s.head or 0)
    start = 0 if ordered[0].head == 0 else 1  # "k_0, k_1": tokens counted from 0
    if [s.head for s in ordered] != list(range(start, start + len(ordered))):
        return None
    if len({len(s.item.rows[0]) for s in ordered}) != 1:
        return None
    return ordered


def _named_index(s: Seen) -> bool:
    """Whether the index is the name's own ("K2"), not the head of the section it stands in."""
    found = resolve(s.name) if s.name else None
    heads = re.search(r"head", s.name, re.I)  # "X_head1", "q_head2": heads, by their name
    return found is not None and found.head == s.head and not heads


def _headed(s: Seen) -> bool:
    return s.head is not None or any(name.partition(":")[2] for name in s.names)


def _among(s: Seen, vectors: Sequence[Seen]) -> bool:
    return any(s is v for v in vectors)
