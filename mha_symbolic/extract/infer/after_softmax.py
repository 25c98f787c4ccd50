"""After the softmax: weights multiplied by a 0/1 mask (causal, or a printed one) and each row
divided by its sum again, and dropout, whose dropped entries are the printed zeros and whose
rate is read from the ratio of the kept entries to the weights (2 for p = 0.5). Each is tested
against the arrays printed after its operands, as every other relation is."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.state import Search

# The rates a page uses: p, as the spec writes it.
RATES = tuple(
    Fraction(p) for p in ("1/10", "1/5", "1/4", "3/10", "1/3", "2/5", "1/2", "3/5", "2/3", "7/10")
) + tuple(Fraction(p) for p in ("3/4", "4/5", "9/10"))
_ENTRIES = 6  # the weights' nonzero entries a dropout must cover, kept or dropped
_KEPT = 3  # and how many it must keep: their common ratio is the evidence
_NEAR = 0.02  # how near the kept entries' typical ratio must be to a rate's 1/(1-p)


def after_softmax(found: Search, nodes: list[Node], weights: list[Node]) -> list[Node]:
    """The weights masked and renormalised, and dropped out, that a print gives: kept as
    weights a weighted sum may take after them. Masked: printed weights, or a softmax a print
    gives (that of unprinted weights is the softmax of masked scores, found before). Dropped
    out: any weights, its printed zeros being evidence enough."""
    given = [n for n in nodes if n.printed is not None and rel.is_distribution(n.printed)]
    printed = {id(m.node) for matches in found.matches.values() for m in matches}
    candidates = _distinct([*given, *(w for w in weights if id(w) in printed)])
    out: list[Node] = []
    for a in candidates:
        out += _masked_after(found, a)
    for a in nodes:
        out += _masked_as_printed(found, a)
    for a in _distinct([*candidates, *out, *weights]):
        out += _dropped(found, a)
    return out


def _distinct(nodes: list[Node]) -> list[Node]:
    out: list[Node] = []
    for node in nodes:
        if not any(n is node for n in out):
            out.append(node)
    return out


def _masks(found: Search, shape: tuple[int, int]) -> list[tuple[np.ndarray, Node | None]]:
    """Causal, and every printed 0/1 matrix of the weights' shape that keeps a key in each row
    and blocks one at least."""
    rows, cols = shape
    out: list[tuple[np.ndarray, Node | None]] = [(rel.causal(rows, cols), None)] * (rows > 1)
    for p in found.by_shape.get(shape, []):
        values = set(np.unique(p.mid))
        mask = values <= {0.0, 1.0} and p.mid.any(axis=1).all() and not p.mid.all()
        if mask and not rel.is_permutation(found.node(p)):
            out.append((p.mid == 1, found.node(p)))
    return out


def _masked_after(found: Search, a: Node) -> list[Node]:
    """A ∘ M and its rows over their sums, for each mask M; those a print gives."""
    out: list[Node] = []
    if a.shape[1] < 2 or rel.partial(a):
        return out
    for allowed, printed in _masks(found, a.shape):
        if (allowed | (a.mid == 0)).all() or not found.spend(2):
            continue  # nothing masked: the weights themselves
        masked = rel.kept(a, allowed, printed)
        hits = found.test(masked)
        again = rel.renormalised(masked)
        if again is not None and (found.test(again, probabilities=True) or hits):
            out.append(again)
        if hits:
            out.append(masked)
            _row_sums(found, masked)
    return out


def _masked_as_printed(found: Search, a: Node) -> list[Node]:
    """Weights printed already masked (their unmasked softmax never printed): each row over
    its sum again, when a print gives it. The print's zeros must be exactly where a mask
    blocks, its other entries probabilities, and some row no longer sum to 1 (weights that do
    are a masked softmax, found before)."""
    printed = a.printed
    if printed is None or a.shape[1] < 2 or rel.partial(a) or not np.isfinite(a.mid).all():
        return []
    if any(m.node.kind != "same" for m in found.matches.get(printed.index, ())):
        return []  # a relation gives it (printed weights times a mask): not where one starts
    if printed.distribution or (a.mid < 0).any() or (a.mid > 1).any():
        return []
    if set(np.unique(a.mid)) <= {0.0, 1.0}:
        return []  # a 0/1 matrix is a mask (the plain average over what it keeps: no weights)
    out: list[Node] = []
    for allowed, mask in _masks(found, a.shape):
        if not ((a.mid == 0) == ~allowed).all() or not found.spend():
            continue
        again = rel.renormalised(rel.kept(a, allowed, mask))
        if again is not None and found.test(again, probabilities=True):
            out.append(again)
    return out


def _row_sums(found: Search, masked: Node) -> None:
    """The masked weights' row sums, printed to show they no longer add up to 1 (a slip in
    them found as in any relation); claimed on head{n}.kept_sums, no node of the model."""
    sums = rel.row_sums(masked)
    if found.spend():
        found.test(Node(sums.mid.T, sums.rad.T, "sums", (masked,)))


def _dropped(found: Search, a: Node) -> list[Node]:
    """The weights with dropout, for each print after them whose zeros fall where the weights
    are not 0 and whose other entries are the weights times one 1/(1-p)."""
    out: list[Node] = []
    for target in found.by_shape.get(a.shape, []):
        if target.index <= a.last or not found.spend():
            continue
        made = dropout_for(a, target)
        if made is not None and found.test(made):
            out.append(made)
    return out


def dropout_for(a: Node, target: Printed) -> Node | None:
    """Dropout of ``a`` whose keep pattern is where ``target`` prints no 0, at the rate its
    kept entries' ratio to ``a`` says; None when they say no dropout."""
    if not np.isfinite(target.mid).all() or not np.isfinite(a.mid).all():
        return None
    surely = a.mid - a.rad > 0
    keep = target.mid != 0
    kept, dropped = int((surely & keep).sum()), int((surely & ~keep).sum())
    if kept < _KEPT or dropped < 1 or kept + dropped < _ENTRIES:
        return None  # too few entries to tell a dropout from a coincidence
    if (target.mid == np.round(target.mid)).all():
        return None  # whole numbers: a 0/1 matrix or counts, an input's digits
    ratios = target.mid[surely & keep] / a.mid[surely & keep]
    typical = float(np.median(ratios))
    p = min(RATES, key=lambda r: abs(1 / (1 - float(r)) - typical))
    factor = 1 / (1 - float(p))
    if abs(factor - typical) > _NEAR * factor:
        return None
    return rel.dropout(a, keep, factor, str(p))
