"""The bounded search for relations among printed arrays: products of every pair whose shapes
fit, then scores through scaling, masking and softmax, weighted sums, head slices and
concatenation, and the output projection; every computed value tested against the
printed arrays of its shape that come after its operands."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.head_relations import heads
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.padding import padding_masks
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.row_prints import row_softmaxes
from mha_symbolic.extract.infer.scalings import scales, usual_scales
from mha_symbolic.extract.infer.search_state import Match, Search
from mha_symbolic.extract.infer.softmax_parts import exp_parts

MAX_ARRAYS = 200  # the arrays considered (the nearest to attention's words first)
MAX_CONSTANTS = 8  # printed single numbers tried as a scale (√d_k, τ printed by themselves)
MAX_HIDDEN = 400  # computed values kept as operands although the document does not print them


def search(arrays: list[Printed], names: Mapping[int, str] | None = None) -> Search:
    """Two passes: first every operand as printed (an author's inputs are exact); then the
    arrays found to be results are intervals as operands (a rounded result used again).
    ``names``: the role an array's name says, which keeps two weights printed alike apart."""
    kept = [p for p in arrays if p.shape != (1, 1)]
    constants = [p for p in arrays if p.shape == (1, 1) and not _subscript(p)][:MAX_CONSTANTS]
    first = _pass(kept, frozenset(), constants=constants, names=names)
    rounded = frozenset(
        i for i, ms in first.matches.items() if any(m.node.kind != "same" for m in ms)
    )
    if not rounded or first.capped:
        return first
    second = _pass(kept, rounded, first.matches, constants, names)
    second.evaluations += first.evaluations
    return second


def _subscript(p: Printed) -> bool:
    """An index ("scores[5][5]"): a "[5]" right after a name or another index."""
    before = p.item.statement[-1:]
    return before.isalnum() or before in ("_", "]", ")")


def _pass(
    arrays: list[Printed],
    rounded: frozenset[int],
    known: dict[int, list[Match]] | None = None,
    constants: list[Printed] | None = None,
    names: Mapping[int, str] | None = None,
) -> Search:
    found = Search(arrays[:MAX_ARRAYS], rounded, capped=len(arrays) > MAX_ARRAYS)
    found.scales = scales(found.arrays, constants or [])
    for index, matches in (known or {}).items():
        found.matches[index].extend(matches)
    for p in found.arrays:
        found.by_shape.setdefault(p.shape, []).append(p)
        found.last_of_rows[p.shape[0]] = p.index
    found.results = frozenset(
        p.index for p in found.arrays if p.masked.any() or rel.is_distribution(p)
    )
    nodes = _first_prints(found, [found.node(p) for p in found.arrays], names or {})
    _reprints(found, nodes)
    products = _products(found, nodes)
    # A summarised print's visible columns are only ever V (and A V): no scores of them.
    full, whole = (
        [n for n in nodes if not rel.partial(n)],
        [n for n in products if not n.columns_at],
    )
    hidden = _hidden_scores(found, whole) + _printed_scores(found, full)
    weights = _attention(found, full, whole, hidden)
    _sums(found, full, weights)
    outputs = _weighted_sums(found, weights, nodes, products)
    heads(found, full, [n for n in outputs if not n.columns_at])
    return found


def _first_prints(found: Search, nodes: list[Node], names: Mapping[int, str]) -> list[Node]:
    """Each value once, at its first print (which, earlier, explains more than a reprint in
    code, output or a comment); prints alike that names give two roles (X = W_K) stay two."""
    firsts: dict[tuple[object, ...], list[tuple[str, int]]] = {}
    out = []
    for node in nodes:
        assert node.printed is not None
        index = node.printed.index
        said = names.get(index, "")
        alike = firsts.setdefault((node.shape, node.mid.tobytes(), node.rad.tobytes()), [])
        first = next((i for role, i in alike if not (role and said) or role == said), None)
        if first is None:
            alike.append((said, index))
            out.append(node)
        else:
            found.first_print[index] = first
    return out


def _reprints(found: Search, nodes: list[Node]) -> None:
    """A later print of the same numbers (rounded again, or transposed) is the same value."""
    for node in nodes:
        found.test(Node(node.mid, node.rad, "same", (node,)), slips=False)


def _products(found: Search, nodes: list[Node]) -> list[Node]:
    """A B and A Bᵀ of every pair of printed arrays whose shapes fit; X W kept as a hidden Q,
    K or V when the document does not print it."""
    out: list[Node] = []
    for a in nodes:
        for b in nodes:
            for transposed in (False, True):
                if a is b and not transposed:
                    continue
                inner = b.shape[1] if transposed else b.shape[0]
                if a.shape[1] != inner or not found.spend():
                    continue
                if rel.is_permutation(a) or (rel.is_permutation(b) and a.shape[0] == 1):
                    continue  # a row reordered: a reprint, not a computation
                if transposed and b.shape[0] == b.shape[1] and (b.mid == b.mid.T).all():
                    continue  # A Bᵀ = A B: the product says it
                shape = (a.shape[0], b.shape[0] if transposed else b.shape[1])
                keep = not transposed and a.shape[0] > 1 and len(out) < MAX_HIDDEN * 4
                keep = keep and found.operand(a) and found.operand(b)
                if not keep and not found.wanted(shape, max(a.last, b.last)):
                    continue
                node = rel.product(a, b, transposed)
                if node is not None:
                    found.test(node)
                    if keep:
                        out.append(node)
    # Inputs are what no relation explains: a printed result is no X or W of a hidden Q, K, V.
    explained = found.explained()
    return [n for n in out if not any(p.index in explained for p in n.leaves)]


def _hidden_scores(found: Search, products: list[Node]) -> list[Node]:
    """(X W_Q)(X W_K)ᵀ when the document prints neither Q nor K."""
    out: list[Node] = []
    for q in products:
        for k in products:
            if q.operands[0] is not k.operands[0] or q is k or len(out) >= MAX_HIDDEN:
                continue
            if q.shape[1] != k.shape[1] or not found.spend():
                continue
            node = rel.product(q, k, transposed=True)
            if node is not None and _useful(found, node):
                found.test(node)
                out.append(node)
    return out


def _printed_scores(found: Search, nodes: list[Node]) -> list[Node]:
    """Q Kᵀ of printed Q and K that the document does not print, to be scaled, masked and
    softmaxed; and Q K of square ones (the transpose forgotten, a mistake to be located)."""
    out: list[Node] = []
    for q in nodes:
        for k in nodes:
            if not (found.operand(q) and found.operand(k)) or q.shape[1] != k.shape[1]:
                continue
            if len(out) >= MAX_HIDDEN or not found.spend():
                return out
            after = max(q.last, k.last)
            if not (
                found.wanted((q.shape[0], k.shape[0]), after) or found.rows_later(q.shape[0], after)
            ):
                continue
            plain = q is not k and q.shape == k.shape and q.shape[0] == q.shape[1]
            for node in (rel.product(q, k, True), rel.product(q, k) if plain else None):
                if node is not None:
                    out.append(node)
    return out


def _useful(found: Search, scores: Node) -> bool:
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
    for p in found.by_shape.get((rows, cols), []):
        if node.printed is p or rel.is_permutation(found.node(p)):
            continue
        finite = p.mid[np.isfinite(p.mid)]
        if p.masked.any() and (finite == 0).all():
            out.append((~p.masked, found.node(p)))  # an additive mask of 0 and -inf
        elif set(np.unique(p.mid)) <= {0.0, 1.0} and 0 < p.mid.sum() < p.mid.size:
            out.append((p.mid == 1, found.node(p)))
    return out


def _attention(
    found: Search, nodes: list[Node], products: list[Node], hidden: list[Node]
) -> list[Node]:
    """Scaling, masking and softmax of every score-like value; the softmaxes kept as weights."""
    weights: list[Node] = []
    candidates = [n for n in nodes if n.shape[1] > 1 and not _probabilities(n)]
    candidates += [p for p in products if p.kind == "product_t"] + hidden
    for scores in candidates:
        exp_parts(found, scores)
        if not _useful(found, scores):
            continue
        _usual_scales(found, scores)
        for factor, said in found.scales:
            if not found.spend(4):
                return weights
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
    return weights[:MAX_HIDDEN]


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
        soft = rel.softmax(variant, by_rows)
        if found.test(soft, probabilities=True) or (keep and by_rows):
            out.append(soft)
    return out


def _sums(found: Search, nodes: list[Node], weights: list[Node]) -> None:
    """The row sums of weights (printed or computed), printed as a check that each row sums
    to 1: a row of ones (or a few such prints read as one array), never weights themselves."""
    distributions = [n for n in nodes if n.printed and rel.is_distribution(n.printed)]
    for a in [*distributions, *weights]:
        rows = a.shape[0]
        if not np.allclose(rel.row_sums(a).mid, 1.0):
            continue  # a row masked whole sums to 0: a sum of its weights, no check of them
        for prints in sorted({shape[0] for shape in found.by_shape if shape[1] == rows}):
            if prints > rows or not found.wanted((prints, rows), a.last) or not found.spend():
                continue
            sums = rel.row_sums(a)
            mid, rad = np.tile(sums.mid.T, (prints, 1)), np.tile(sums.rad.T, (prints, 1))
            found.test(Node(mid, rad, "sums", (a,)), slips=False)


def _weighted_sums(
    found: Search, weights: list[Node], nodes: list[Node], products: list[Node]
) -> list[Node]:
    """A V for every softmax (printed or computed) and every V (printed or X W_V)."""
    distributions = [n for n in nodes if n.printed and rel.is_distribution(n.printed)]
    values = [n for n in [*nodes, *products] if n.kind != "product_t" and found.operand(n)]
    outputs: list[Node] = []
    for a in [*distributions, *weights]:
        source = _source(a)
        for v in values:
            if v.shape[0] != a.shape[1] or v is a:
                continue
            if v.printed is None and source is not None and _source(v) is not source:
                continue  # X W_V of another X than the scores' Q and K
            if not found.spend():
                continue
            hidden = a.printed is None and len(outputs) < MAX_HIDDEN
            if not hidden and not found.wanted((a.shape[0], v.shape[1]), max(a.last, v.last)):
                continue
            node = rel.product(a, v)
            if node is not None and (found.test(node) or hidden):
                outputs.append(node)
    return outputs


def _source(node: Node) -> Node | None:
    """The X that computed (unprinted) Q, K or V, or scores and weights from them, come from."""
    if node.printed is not None:
        return None
    if node.kind == "product":
        return node.operands[0] if node.operands[0].printed is not None else None
    return _source(node.operands[0]) if node.operands else None
