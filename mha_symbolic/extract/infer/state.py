"""The state of the relation search: the printed arrays by shape, the budget of relations
evaluated, and the matches found (a computed value that a printed array is)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Fit, Node

MAX_ARRAYS = 200  # the arrays considered (the nearest to attention's words first)
MAX_EVALUATIONS = 60_000  # relations evaluated per document
MAX_CONSTANTS = 8  # printed single numbers tried as a scale (√d_k, τ printed by themselves)
MAX_HIDDEN = 400  # computed values kept as operands although the document does not print them


@dataclass(frozen=True)
class Match:
    """A printed array explained by a computed value."""

    target: Printed
    node: Node
    fit: Fit
    rounded: bool = False  # holds only with its printed operands taken as rounded


@dataclass
class Search:
    arrays: list[Printed]
    rounded: frozenset[int] = frozenset()  # arrays that are results: their radius propagates
    matches: dict[int, list[Match]] = field(default_factory=lambda: defaultdict(list))
    evaluations: int = 0
    capped: bool = False
    shortened: bool = False  # a stage stopped at its share of the budget (see softmax_stage)
    by_shape: dict[tuple[int, int], list[Printed]] = field(default_factory=dict)
    last_of_rows: dict[int, int] = field(default_factory=dict)  # rows -> last array's index
    results: frozenset[int] = frozenset()  # printed probabilities and masks: never X, W or V
    scales: list[tuple[float, str]] = field(default_factory=list)  # (factor, as said)
    first_print: dict[int, int] = field(default_factory=dict)  # a reprint -> the first print
    factors: set[int] = field(default_factory=set)  # factors of products the page writes out
    # The printed masks of a shape (softmax_stage._printed_masks), read once.
    mask_prints: dict[tuple[int, int], list[tuple[Printed, np.ndarray, Node]]] = field(
        default_factory=dict
    )
    # What targets() and wanted() read of by_shape, by shape (read once per search).
    _shaped: dict[tuple[object, ...], list[Printed]] = field(default_factory=dict, repr=False)
    _latest: dict[tuple[int, int], float] = field(default_factory=dict, repr=False)

    def spend(self, count: int = 1) -> bool:
        """Count evaluations; False once the budget is gone (and remember it was hit)."""
        self.evaluations += count
        if self.evaluations > MAX_EVALUATIONS:
            self.capped = True
        return not self.capped

    def node(self, p: Printed) -> Node:
        """A printed array as an operand: as printed when it is an input the author chose,
        an interval when it is itself a rounded result."""
        rad = p.rad if p.index in self.rounded else np.zeros_like(p.rad)
        return Node(p.mid, rad, "printed", printed=p)

    def operand(self, node: Node) -> bool:
        """Whether a value can be an input, a weight or a value V (not weights or a mask)."""
        if node.printed is not None:
            return node.printed.index not in self.results
        return node.kind in ("product", "slice")

    def explained(self) -> set[int]:
        """The printed arrays a relation computes so far (a reprint explains nothing)."""
        return {i for i, ms in self.matches.items() if any(m.node.kind != "same" for m in ms)}

    def targets(self, node: Node) -> list[Printed]:
        """Printed arrays after the node's operands with its shape or its transpose's."""
        shape = node.shape
        key = (shape, node.columns_at)
        found = self._shaped.get(key)
        if found is None:  # by_shape is complete before the first value is tested
            rows, cols = shape
            found = self.by_shape.get((rows, cols), []) + (
                self.by_shape.get((cols, rows), []) if rows != cols else []
            )
            found = self._shaped[key] = [p for p in found if p.item.columns_at == key[1]]
        last = node.last
        return [p for p in found if p.index > last and not self._tested(p, node)]

    def _tested(self, p: Printed, node: Node) -> bool:
        """Whether a reprint is tested at its first print (after the value's operands), or
        prints an operand again: either way the reprints' relation says what it is."""
        first = self.first_print.get(p.index)
        if node.kind == "same" or first is None:
            return False
        return first > node.last or any(leaf.index == first for leaf in node.leaves)

    def wanted(self, shape: tuple[int, int], after: int) -> bool:
        latest = self._latest.get(shape)
        if latest is None:  # the last print of this shape or its transpose's
            rows, cols = shape
            found = self.by_shape.get((rows, cols), []) + self.by_shape.get((cols, rows), [])
            latest = self._latest[shape] = max((p.index for p in found), default=-math.inf)
        return latest > after

    def rows_later(self, rows: int, after: int) -> bool:
        """Whether an array with this many rows is printed after ``after`` (a weighted sum's)."""
        return self.last_of_rows.get(rows, -1) > after

    def fresh(self, node: Node) -> bool:
        """Whether a value differs from the first pass's (it uses a rounded result)."""
        return not self.rounded or any(p.index in self.rounded for p in node.leaves)

    def test(
        self, node: Node | None, slips: bool = True, probabilities: bool = False
    ) -> list[Match]:
        """Test a computed value against every printed array it could be (once: a value the
        first pass tested is not tested again)."""
        if node is None or not self.fresh(node):
            return []
        targets = self.targets(node)
        if not targets or (probabilities and _vacuous(node)):
            return []
        out = []
        for target in targets:
            one_hot = probabilities and target.integers
            if one_hot and target.decimals < 2 and not _masked_softmax(node):
                continue  # a softmax is never all 0 and 1 unless masked: an input's digits
            # A softmax rounded to 0.000 and 1.000 (scores far apart) holds to its digits, or
            # it is no softmax at all: a slip in an array of only 0s and 1s proves nothing.
            if node.kind not in ("same", "mask") and target.all_zero:
                continue  # zeros are any multiple of anything: an index [0, 0], not a result
            if _own_mask(node):
                continue  # np.triu(ones) "masked" by its own pattern: the mask, not scores
            if not self.spend():
                break
            fitted, most = rel.fit_or_mostly(node, target, slips and not one_hot, not one_hot)
            widened = None
            if not one_hot and ((fitted is not None and fitted.slips) or most):
                widened = _rounding(node, target)
            chosen = widened or fitted
            if chosen is not None and chosen.transposed and node.columns_at:
                chosen = None  # a summarised print's columns are no rows of another print
            if chosen is not None:
                # One decimal is a hand-typed input's, exact: not a sign of rounded inputs.
                rounded = widened is not None and all(p.decimals > 1 for p in node.leaves)
                match = Match(target, node, chosen, rounded)
                self.matches[target.index].append(match)
                out.append(match)
        return out


def _rounding(node: Node, target: Printed) -> Fit | None:
    """The fit when the printed operands are rounded: slips their rounding explains are not
    slips (a rounded result used again: 4-digit scores, 4-digit weights)."""
    wide = rel.widened(node)
    fitted = rel.fit(wide, target) if wide is not None else None
    return fitted if fitted is not None and not fitted.slips else None


def _vacuous(weights: Node) -> bool:
    """Whether the operands' digits leave most weights anywhere in [0, 1] (scores of 10^22
    known to 10^14), or the mask leaves each row one entry (the first row of a causal mask:
    [1, 0, 0] whatever the scores): such a softmax fits any probabilities and says nothing."""
    argument = weights.operands[0] if weights.operands else None
    if argument is not None and argument.has_mask:
        if ((~argument.masked).sum(axis=-1) <= 1).all():
            return True
    elif argument is not None and (argument.mid.shape[-1] <= 1 or not argument.mid.size):
        return True  # unmasked: a row of one entry (or no rows at all)
    return bool(2 * np.count_nonzero(weights.rad >= 0.5) > weights.rad.size)


def _masked_softmax(node: Node) -> bool:
    """A softmax of the masked scores the page prints (-inf beside far larger scores): its 0s
    and 1s are a result."""
    if not node.kind.startswith("softmax"):
        return False
    scores = node.operands[0]
    return scores.printed is not None and scores.has_mask


def renamed(match: Match, names: Mapping[int, str]) -> bool:
    """A print named K with the numbers of the print named Q (one weight for both): K's own
    relation says more than "Q printed again", when it has one."""
    if match.node.kind != "same" or match.node.operands[0].printed is None:
        return False
    said = (names.get(match.target.index), names.get(match.node.operands[0].printed.index))
    return said[0] != said[1] and all(name in ("q", "k", "v") for name in said)


def believed(name: str, match: Match, over_chain: Callable[[str, Node], bool]) -> bool:
    """Whether a name outweighs the relation a print's numbers follow (``over_chain``), which
    it never does when the numbers cannot be what it names: "attention" over a print with
    negative entries, or rows that do not sum to 1, names no softmax weights."""
    if name == "weights" and not (
        rel.is_distribution(match.target) or rel.is_distribution(match.target, by_rows=False)
    ):
        return False
    return over_chain(name, match.node)


def _own_mask(node: Node) -> bool:
    """A printed array of 0s and 1s masked by the pattern of its own 1s (or of its 0s): it is
    the mask itself (``np.triu(np.ones((4, 4)), k=1)`` and ``mask * -1e9``), not scores."""
    if node.kind != "mask":
        return False
    below = node.operands[0]
    while below.printed is None and below.kind == "scale":  # its zeros scaled are zeros
        below = below.operands[0]
    if below.printed is None:
        return False
    mid = below.mid
    if not np.isin(mid, (0.0, 1.0)).all():
        return False
    ones, allowed = mid == 1, np.isfinite(node.mid)
    return bool((ones == allowed).all() or (ones == ~allowed).all())
