"""From scores to weights: every score-like value (printed scores, Q Kᵀ of printed or
computed Q and K) scaled by each scale the page allows, masked by each mask it could carry,
and put through a softmax by rows and by columns; the softmaxes kept as weights."""

from __future__ import annotations

import math

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.padding import padding_masks
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.row_prints import row_softmaxes
from mha_symbolic.extract.infer.scalings import ratio_scales, usual_scales
from mha_symbolic.extract.infer.softmax_parts import exp_parts
from mha_symbolic.extract.infer.state import MAX_EVALUATIONS, MAX_HIDDEN, Search

_SHARE = 0.7  # of the budget this stage may spend: weighted sums and heads come after it


def useful(found: Search, scores: Node) -> bool:
    """Whether anything printed later could come from these scores (themselves, weights of
    their shape, or a weighted sum with their rows)."""
    return found.wanted(scores.shape, scores.last) or found.rows_later(scores.shape[0], scores.last)


def _mask_choices(found: Search, node: Node) -> list[tuple[np.ndarray, Node | None]]:
    """Causal, padding where later weights print 0, and every printed square mask of its
    shape (0/1, or 0 and -inf)."""
    rows, cols = node.shape
    out: list[tuple[np.ndarray, Node | None]] = [(rel.causal(rows, cols), None)] * (rows > 1)
    out += [(a, None) for a in padding_masks(found.by_shape.get(node.shape, []), node)]
    if rows != cols or cols < 2:
        return out if cols > 1 else []
    for p, allowed, operand in _printed_masks(found, node.shape):
        if node.printed is not p:
            out.append((allowed, operand))
    return out


def _printed_masks(found: Search, shape: tuple[int, int]) -> list[tuple[Printed, np.ndarray, Node]]:
    """The printed square masks of a shape (0/1, or 0 and -inf; no permutation): read once per
    search, for the some 10^4 score values that try them."""
    known = found.mask_prints.get(shape)
    if known is not None:
        return known
    out = []
    for p in found.by_shape.get(shape, []):
        if rel.is_permutation(found.node(p)):
            continue
        finite = p.mid[np.isfinite(p.mid)]
        if p.masked.any() and (finite == 0).all():
            out.append((p, ~p.masked, found.node(p)))  # an additive mask of 0 and -inf
        elif set(np.unique(p.mid)) <= {0.0, 1.0} and 0 < p.mid.sum() < p.mid.size:
            out.append((p, p.mid == 1, found.node(p)))
    found.mask_prints[shape] = out
    return out


def attention(
    found: Search, nodes: list[Node], products: list[Node], hidden: list[Node]
) -> list[Node]:
    """Scaling, masking and softmax of every score-like value; the softmaxes kept as weights,
    those a print gives first. The likely scales of every value are tried before the rest
    (computed Q Kᵀ by √d_k, say, before √ of another width), and this stage leaves a share of
    the budget to the weighted sums and heads after it: on a page of many arrays the search
    stops at its bound with the likely relations found, those of earlier arrays first."""
    weights: list[Node] = []
    candidates = [n for n in nodes if n.shape[1] > 1 and not _probabilities(n)]
    candidates += [p for p in products if p.kind == "product_t"] + hidden
    # Values of earlier arrays first: a page computes from what it printed above, and a value
    # of its last arrays has the fewest prints after it left to explain.
    for scores in candidates:
        exp_parts(found, scores)  # e^s and its row sums, printed as a softmax's parts
    candidates = sorted((s for s in candidates if useful(found, s)), key=lambda s: s.last)
    known = {round(factor, 12) for factor, _ in found.scales}
    found.scales = [*found.scales, *ratio_scales(found.by_shape, candidates, known)]
    for likely in (True, False):
        for scores in candidates:
            if likely:
                _usual_scales(found, scores)
            for factor, said in found.scales:
                if _likely(scores, factor, said) != likely:
                    continue
                if found.evaluations > _SHARE * MAX_EVALUATIONS or not found.spend(4):
                    found.shortened = True
                    return _printed_first(found, weights)[:MAX_HIDDEN]
                _scaled(found, scores, (factor, said), weights)
    return _printed_first(found, weights)[:MAX_HIDDEN]


def _scaled(found: Search, scores: Node, scale: tuple[float, str], weights: list[Node]) -> None:
    """One scale of the scores, then each mask, then softmax; the weights kept in ``weights``."""
    factor, said = scale
    scaled = rel.scale(scores, factor, said) if said else scores
    if said:
        found.test(scaled)
    # Unprinted weights are kept for a weighted sum after them: of printed scores at
    # any scale, of computed ones (Q Kᵀ) unscaled or by √d_k only.
    square = scores.shape[0] in (1, scores.shape[1])
    keep = (scores.printed is not None and square) or factor in (1.0, _natural(scores))
    for variant in [scaled, *_masked(found, scaled)]:
        weights.extend(_softmaxes(found, variant, keep=keep))
        if scores.printed is not None:
            row_softmaxes(found, variant)


def _likely(scores: Node, factor: float, said: str) -> bool:
    """Whether a scale is among the first tried for these scores: any scale of printed scores
    (nothing says their d_k) or a printed constant; 1, 1/√d and 1/d of computed Q Kᵀ for d
    the width of Q or of the X it is computed from (√d_model: a common choice)."""
    if scores.printed is not None or not (said.startswith("√") or said.isdigit()):
        return True
    widths = [operand.shape[1] for operand in _q_and_x(scores)]
    return any(math.isclose(factor, f) for d in widths for f in (1 / math.sqrt(d), 1 / d))


def _q_and_x(scores: Node) -> list[Node]:
    """Q of computed scores Q Kᵀ, and the X of Q when Q is itself computed (X W_Q)."""
    if scores.kind != "product_t":
        return []
    q = scores.operands[0]
    return [q, q.operands[0]] if q.kind == "product" and q.operands else [q]


def _printed_first(found: Search, weights: list[Node]) -> list[Node]:
    """The weights a print gives before those kept only for a weighted sum after them."""
    given = {id(m.node) for matches in found.matches.values() for m in matches}
    return sorted(weights, key=lambda w: id(w) not in given)


def _usual_scales(found: Search, scores: Node) -> None:
    """Printed scores divided by a usual √d_k or d_k the document's shapes do not give."""
    for scaled in usual_scales(scores, found.scales):
        if not found.spend():
            return
        found.test(scaled)


def _probabilities(node: Node) -> bool:
    """A printed array of probabilities (weights): never the scores of another softmax."""
    return node.printed is not None and rel.is_distribution(node.printed)


def _natural(scores: Node) -> float | None:
    """1/√d_k of computed scores Q Kᵀ (d_k: the width of Q)."""
    if scores.kind != "product_t":
        return None
    return 1 / math.sqrt(scores.operands[0].shape[1])


def _masked(found: Search, scaled: Node) -> list[Node]:
    out = []
    for allowed, printed in _mask_choices(found, scaled):
        masked = rel.mask(scaled, allowed, printed)
        if not (masked.mid == scaled.mid).all():
            found.test(masked)
            out.append(masked)
    return out


def _softmaxes(found: Search, variant: Node, keep: bool) -> list[Node]:
    """Softmax by rows (and by columns when there are rows to run down); kept as weights when
    it explains a printed array, or when its scores are printed (a weighted sum may follow)."""
    out = []
    rows, cols = variant.shape
    for by_rows in (True, False):
        if (cols if by_rows else rows) < 2 or rel.even(variant, by_rows):
            continue
        if not found.wanted(variant.shape, variant.last) and not (keep and by_rows):
            continue
        if not (keep and by_rows) and not found.fresh(variant):
            continue  # tested in the first pass, and not kept: nothing to compute
        soft = rel.softmax(variant, by_rows)
        if found.test(soft, probabilities=True) or (keep and by_rows):
            out.append(soft)
    return out
