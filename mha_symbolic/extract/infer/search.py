"""The bounded search for relations among printed arrays: products of every pair whose shapes
fit, then scores through scaling, masking and softmax, weighted sums, head slices and
concatenation, and the output projection; every computed value tested against the
printed arrays of its shape that come after its operands."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.after_softmax import after_softmax
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.joins import joins
from mha_symbolic.extract.infer.printed_products import printed_products, product_key
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.scalings import scales
from mha_symbolic.extract.infer.softmax_stage import attention, useful
from mha_symbolic.extract.infer.state import MAX_ARRAYS, MAX_CONSTANTS, MAX_HIDDEN, Match, Search
from mha_symbolic.extract.infer.uniform import uniform_weights


def search(
    arrays: list[Printed],
    names: Mapping[int, str] | None = None,
    roots: frozenset[int] = frozenset(),
) -> Search:
    """Two passes: first every operand as printed (an author's inputs are exact); then the
    arrays found to be results are intervals as operands (a rounded result used again).
    ``names``: the role an array's name says, which keeps two weights printed alike apart;
    ``roots``: the numbers the text takes square roots of (scales it states)."""
    kept = [p for p in arrays if p.shape != (1, 1)]
    constants = [p for p in arrays if p.shape == (1, 1) and not _subscript(p)][:MAX_CONSTANTS]
    first = _pass(kept, frozenset(), constants=constants, names=names, roots=roots)
    rounded = frozenset(
        i for i, ms in first.matches.items() if any(m.node.kind != "same" for m in ms)
    )
    if not rounded or first.capped or first.shortened:
        return first
    second = _pass(kept, rounded, first.matches, constants, names, roots)
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
    roots: frozenset[int] = frozenset(),
) -> Search:
    found = Search(arrays[:MAX_ARRAYS], rounded, capped=len(arrays) > MAX_ARRAYS)
    found.scales = scales(found.arrays, constants or [], roots)
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
    _slices(found, [n for n in nodes if not rel.partial(n)])
    joins(found, [n for n in nodes if not rel.partial(n)])
    products = _products(found, nodes)
    # A summarised print's visible columns are only ever V (and A V): no scores of them.
    full, whole = (
        [n for n in nodes if not rel.partial(n)],
        [n for n in products if not n.columns_at],
    )
    hidden = _hidden_scores(found, whole) + _printed_scores(found, full)
    hidden += _half_hidden_scores(found, full, whole)
    weights = attention(found, full, whole, hidden) + uniform_weights(found)
    _sums(found, full, weights)
    weights += after_softmax(found, full, weights)
    outputs = _weighted_sums(found, weights, nodes, products)
    _heads(found, [n for n in outputs if not n.columns_at], full)
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
    done = printed_products(found.matches.values())
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
                    printed = printed_products([found.test(node)]) or product_key(node) in done
                    if keep and not printed:  # a print stands for it from here on
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
            if node is not None and useful(found, node):
                found.test(node)
                out.append(node)
    return out


def _half_hidden_scores(found: Search, nodes: list[Node], products: list[Node]) -> list[Node]:
    """Q Kᵀ of a printed Q that is X W_Q and a K = X W_K of the same X the document does not
    print (X and the weights built in code, Q printed, K never)."""
    out: list[Node] = []
    for q in nodes:
        assert q.printed is not None
        inputs = {
            _printed_index(m.node.operands[0]) for m in found.matches.get(q.printed.index, [])
        }
        inputs = {i for i in inputs if i is not None}
        for k in products:
            if _printed_index(k.operands[0]) not in inputs or q.shape[1] != k.shape[1]:
                continue
            if len(out) >= MAX_HIDDEN or not found.spend():
                return out
            node = rel.product(q, k, transposed=True)
            if node is not None and useful(found, node):
                found.test(node)
                out.append(node)
    return out


def _printed_index(node: Node) -> int | None:
    return node.printed.index if node.printed is not None else None


def _printed_scores(found: Search, nodes: list[Node]) -> list[Node]:
    """Q Kᵀ of printed Q and K that the document does not print, to be scaled, masked and
    softmaxed; and Q K of square ones (the transpose forgotten, a mistake to be located)."""
    out: list[Node] = []
    printed = printed_products(found.matches.values())
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
                if node is not None and product_key(node) not in printed:
                    out.append(node)
    return out


def _sums(found: Search, nodes: list[Node], weights: list[Node]) -> None:
    """The row sums of weights (printed or computed), printed as a check that each row sums
    to 1: a row of ones (or a few such prints read as one array), never weights themselves."""
    distributions = [n for n in nodes if n.printed and rel.is_distribution(n.printed)]
    for a in [*distributions, *weights]:
        rows = a.shape[0]
        sums = rel.row_sums(a)
        if not _ones(sums.mid):
            continue  # a row masked whole sums to 0: a sum of its weights, no check of them
        for prints in sorted({shape[0] for shape in found.by_shape if shape[1] == rows}):
            if prints > rows or not found.wanted((prints, rows), a.last) or not found.spend():
                continue
            mid, rad = np.tile(sums.mid.T, (prints, 1)), np.tile(sums.rad.T, (prints, 1))
            found.test(Node(mid, rad, "sums", (a,)), slips=False)


def _ones(sums: np.ndarray) -> bool:
    """``np.allclose(sums, 1.0)`` written out (its defaults: rtol 1e-5, atol 1e-8)."""
    return bool((np.abs(sums - 1.0) <= 1e-08 + 1e-05 * 1.0).all())


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
            if not hidden and not (found.fresh(a) or found.fresh(v)):
                continue  # tested in the first pass, and not kept: nothing to compute
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


def _slices(found: Search, nodes: list[Node]) -> None:
    """Head slices: columns of a wider printed array printed again on their own (tested before
    the scores' search, which may spend the budget, since a page of heads hangs on them)."""
    for wide in nodes:
        for part in nodes:
            rows, cols = part.shape
            if part is wide or rows != wide.shape[0] or cols >= wide.shape[1]:
                continue
            if wide.shape[1] % cols or part.last < wide.last or not found.spend():
                continue
            for first in range(0, wide.shape[1], cols):
                found.test(rel.columns(wide, first, cols), slips=False)


def _heads(found: Search, outputs: list[Node], nodes: list[Node]) -> None:
    """The concatenation of head outputs with the output projection after it when the
    concatenation itself is not printed."""
    # Printed head outputs stand for themselves (in print order); unprinted ones as computed.
    printed = sorted(
        {
            m.target.index: m.target
            for ms in found.matches.values()
            for m in ms
            if m.node in outputs
        }.values(),
        key=lambda p: p.index,
    )
    heads = _distinct(
        [*(found.node(p) for p in printed), *(o for o in outputs if o.printed is None)]
    )
    for count in (2, 3, 4, 8):
        groups = _head_groups(heads, count)
        for group in groups[:20]:
            if not found.spend():
                return
            joined = rel.concat(group)
            found.test(joined)
            for w in nodes:
                symmetric = w.shape[0] == w.shape[1] and (w.mid == w.mid.T).all()
                for transposed in (False, True) if not symmetric else (False,):
                    found.test(rel.product(joined, w, transposed))


def _distinct(nodes: list[Node]) -> list[Node]:
    out: list[Node] = []
    for node in nodes:
        if not any(n is node for n in out):
            out.append(node)
    return out


def _head_groups(heads: list[Node], count: int) -> list[list[Node]]:
    """Consecutive head outputs of one shape whose weights come from different scores."""
    out = []
    for start in range(len(heads) - count + 1):
        group = heads[start : start + count]
        if len({h.shape for h in group}) == 1 and len({id(h) for h in group}) == count:
            out.append(group)
    return out
