"""Products a page writes out: ``A B = C`` with three printed matrices one after another (A and
B side by side, or with a product sign between them, then an equals sign). The layout says
C is the product of A and B, so C is that product even when its numbers are not: a hand-worked
``Q = X W_Q`` with every entry wrong is the page's Q, judged wrong with the right values, and
what follows from it is judged as what follows. Only prints no relation gives exactly are read
so; a product whose numbers hold is found by the search already."""

from __future__ import annotations

import re

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Fit
from mha_symbolic.extract.infer.state import Match, Search

# Between the factors: nothing (juxtaposition), or a product sign; before the result: "=".
_TIMES = re.compile(r"\s*(?:\\cdot|\\times|×|·|@|\*)?\s*")
# Before the result: "=", or the display closed and the left-hand side written again in the
# next one ("$$ Q K^T = [Q][K^T] $$ $$ Q K^T = [result] $$").
_EQUALS = re.compile(
    r"\s*(?:(?:\$\$|\\\])\s*(?:\$\$|\\\[)\s*[^=$\n]{1,40}?\s*)?(?:=|\\approx|≈)\s*"
)


def written_products(search: Search, body: str) -> set[int]:
    """Add to ``search`` a match for each result written as the product of the two prints
    before it that no relation gives exactly (its entries that differ are its slips, however
    many; it outranks a relation that holds but at a few entries by chance); the factors of
    every product written out, kept in ``search.factors``: their numbers say what they are
    (X, W_Q printed again), never the name the equation gives its result (``Q = X W_Q = [X]
    [W_Q] = [Q]`` names the product, not its first factor)."""
    arrays = sorted(search.arrays, key=lambda p: p.item.start)
    for a, b, c in zip(arrays, arrays[1:], arrays[2:], strict=False):
        if not _written(body, a, b, c):
            continue
        node = _product(search, a, b)
        if node is None or node.shape != c.shape or np.isinf(c.mid).any():
            continue
        search.factors |= {a.index, b.index}
        if any(m.fit.exact for m in search.matches.get(c.index, ())):
            continue  # a print some relation gives entry for entry is that relation's
        ok = rel.entries_fit(node, c)
        slips = tuple((int(i), int(j)) for i, j in zip(*np.nonzero(~ok), strict=True))
        search.matches[c.index].append(Match(c, node, Fit(True, slips, written=True)))
    return search.factors


def _product(search: Search, a: Printed, b: Printed) -> rel.Node | None:
    """A B; or A Pᵀ when B is an earlier print P written transposed (``Keys.T``, ``K^T``
    spelled out): then the product is the scores of A and P, and B no array of its own."""
    earlier = [p for p in search.arrays if p.item.start < b.item.start and p is not a]
    if any(p.shape == b.shape and _equal(p.mid, b.mid, p.rad + b.rad) for p in earlier):
        return rel.product(search.node(a), search.node(b))  # B printed again as it was
    for p in earlier:
        if p.shape == b.shape[::-1] and _equal(p.mid.T, b.mid, p.rad.T + b.rad):
            return rel.product(search.node(a), search.node(p), transposed=True)
    return rel.product(search.node(a), search.node(b))


def _equal(x: np.ndarray, y: np.ndarray, within: np.ndarray) -> bool:
    return bool(np.all(np.abs(x - y) <= within))


def _written(body: str, a: Printed, b: Printed, c: Printed) -> bool:
    """Whether the text between the three prints is a product sign (or nothing), then "="."""
    if not (a.item.end <= b.item.start and b.item.end <= c.item.start):
        return False
    first, second = body[a.item.end : b.item.start], body[b.item.end : c.item.start]
    return bool(_TIMES.fullmatch(first) and _EQUALS.fullmatch(second))
