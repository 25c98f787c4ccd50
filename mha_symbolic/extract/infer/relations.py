"""The relations of attention between interval matrices: each computes a result's midpoint
from its operands' midpoints and a bound on its error from their radii, so that a printed array
can be tested against it at the precision it was printed with."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from mha_symbolic.extract.infer.computed_once import once
from mha_symbolic.extract.infer.intervals import Entries, Printed, probabilities

# The slack of float64 evaluation itself, relative to the magnitudes involved.
_ROUNDING = 1e-9
# Relations on the weights after the softmax: masked (A ∘ M), renormalised, dropped out.
_AFTER = ("kept", "renormalised", "dropout")


@dataclass(frozen=True, eq=False)
class Node(Entries):
    """A value: a printed array, or one computed from others by one relation."""

    mid: np.ndarray
    rad: np.ndarray
    kind: str  # "printed" or a relation: product, product_t, scale, mask, softmax_rows, ...
    operands: tuple[Node, ...] = ()
    printed: Printed | None = None
    detail: str = ""  # the scale ("1/√3"), the mask ("causal"), the slice ("columns 1-2")
    factor: float = 1.0  # the scale's value, a slice's first column, dropout's 1/(1-p)
    pattern: np.ndarray | None = None  # the 0/1 matrix a mask after the softmax or dropout keeps

    @once
    def shape(self) -> tuple[int, int]:
        return (int(self.mid.shape[0]), int(self.mid.shape[1]))

    @once
    def last(self) -> int:
        """The position of the last printed array it is computed from."""
        if self.printed is not None:
            return self.printed.index
        return max((o.last for o in self.operands), default=-1)

    @once
    def leaves(self) -> tuple[Printed, ...]:
        if self.printed is not None:
            return (self.printed,)
        return tuple(p for o in self.operands for p in o.leaves)

    @once
    def columns_at(self) -> tuple[int, ...]:
        """The columns of the full array it holds when a leaf is a summarised print (see
        extract/elided.py); () when every column is there."""
        if self.printed is not None:
            return self.printed.item.columns_at
        if self.kind == "product":
            return self.operands[1].columns_at
        if self.kind in ("scale", "mask", "exp", "divide", "same", "softmax_cols", "row", *_AFTER):
            return self.operands[0].columns_at
        return ()

    @once
    def slack(self) -> np.ndarray:
        """The value's own radius and float64's slack: the tolerance of a print against it
        before the print's own radius (entries_fit; made once, tested against many prints)."""
        return self.rad + _ROUNDING * (1 + np.abs(self.mid))

    @once
    def hidden(self) -> int:
        """How many computed values it passes through that the document does not print (zero
        scores are none: a constant the page writes, ``torch.zeros``)."""
        if self.printed is not None or self.kind == "zeros":
            return 0
        return 1 + sum(o.hidden for o in self.operands)


def through_softmax(node: Node) -> bool:
    """A softmax, or the output a softmax's weights (or printed rows of probabilities) make of
    values (weights x V)."""
    if node.kind == "product" and node.printed is None:
        node = node.operands[0]
        if node.printed is not None:
            return is_distribution(node.printed)
    return node.kind.startswith("softmax")


def printed_node(p: Printed) -> Node:
    return Node(p.mid, p.rad, "printed", printed=p)


def _finite(a: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(a), a, 0.0)


def product(a: Node, b: Node, transposed: bool = False) -> Node | None:
    """A B (or A Bᵀ); the error |A| rB + rA |B| + rA rB. None over a summarised print's
    columns: the sum would leave out its middle columns (only A V of printed A keeps them)."""
    if a.columns_at or (transposed and b.columns_at):
        return None
    bm, br = (b.mid.T, b.rad.T) if transposed else (b.mid, b.rad)
    if a.mid.shape[1] != bm.shape[0] or not (a.finite and b.finite):
        return None
    mid = a.mid @ bm
    rad = np.abs(a.mid) @ br + a.rad @ np.abs(bm) + a.rad @ br
    rad = rad + _ROUNDING * (np.abs(a.mid) @ np.abs(bm))
    return Node(mid, rad, "product_t" if transposed else "product", (a, b))


def scale(a: Node, factor: float, said: str) -> Node:
    return Node(a.mid * factor, a.rad * abs(factor), "scale", (a,), detail=said, factor=factor)


def mask(a: Node, allowed: np.ndarray, printed: Node | None = None) -> Node:
    """Entries not allowed become -inf (whatever the document fills them with); the mask is
    causal, or a printed one (then an operand)."""
    mid, rad = np.where(allowed, a.mid, -np.inf), np.where(allowed, a.rad, 0.0)
    if printed is None:  # causal, or a padding mask read from where weights print 0
        causal_mask = bool((allowed == causal(*allowed.shape)).all())
        return Node(mid, rad, "mask", (a,), detail="causal" if causal_mask else "padding")
    return Node(mid, rad, "mask", (a, printed), detail="printed")


def zeros(n: int) -> Node:
    """Scores of zero, exactly (no Q and K): under a mask, their softmax is a plain average."""
    return Node(np.zeros((n, n)), np.zeros((n, n)), "zeros")


@lru_cache(maxsize=256)
def causal(rows: int, cols: int) -> np.ndarray:
    """The causal pattern (made once per shape; read-only, since it is shared)."""
    allowed = np.tril(np.ones((rows, cols), dtype=bool), k=cols - rows)
    allowed.flags.writeable = False
    return allowed


def softmax(a: Node, by_rows: bool = True) -> Node:
    """Softmax with its exact interval bound: each entry at the ends of its operands' intervals.
    A summarised print's softmax by rows is never computed (its middle columns are not
    printed); the caller keeps such arrays out (``partial``)."""
    mid, rad = (a.mid, a.rad) if by_rows else (a.mid.T, a.rad.T)
    if a.finite:  # the largest entry of each row as it is
        top = mid.max(axis=1, keepdims=True)
    else:
        top = np.max(np.where(np.isfinite(mid), mid, -np.inf), axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # 0/0, x/0: mended below
        low, high = np.exp(mid - rad - top), np.exp(mid + rad - top)
        centre = np.exp(mid - top)
        total = centre.sum(axis=1, keepdims=True)
        value = centre / total
        upper = high / (high + low.sum(axis=1, keepdims=True) - low)
        lower = low / (low + high.sum(axis=1, keepdims=True) - high)
    spread = np.maximum(upper - value, value - lower)
    # nan_to_num only where needed: this runs some 10^5 times per corpus run.
    bound = (spread if np.isfinite(spread).all() else np.nan_to_num(spread, nan=1.0)) + _ROUNDING
    value = value if np.isfinite(value).all() else np.nan_to_num(value, nan=0.0)
    if not by_rows:
        value, bound = value.T, bound.T
    return Node(value, bound, "softmax_rows" if by_rows else "softmax_cols", (a,))


def partial(node: Node) -> bool:
    """Whether a value holds only some columns of a summarised print: no softmax by rows, no
    row sums, no head slices or concatenation of it."""
    return bool(node.columns_at)


def even(scores: Node, by_rows: bool = True) -> bool:
    """Scores equal along every row (column) of a softmax where the mask leaves them (a -inf
    is no score): any equal numbers give its uniform weights, so a print of 1/n each is no
    sign of these scores (the plain average is found as such, see uniform.py)."""
    mid = scores.mid if by_rows else scores.mid.T
    if scores.finite and mid.shape[1]:  # each row all one number
        return bool((mid == mid[:, :1]).all())
    finite = np.isfinite(mid)
    if not (finite | np.isneginf(mid)).all() or not finite.any(axis=1).all():
        return False
    top = np.where(finite, mid, -np.inf).max(axis=1, keepdims=True)
    return bool(((mid == top) | ~finite).all())


def row(a: Node, index: int) -> Node:
    """Row ``index`` (0-based) of A: one query's scores, soft-maxed and printed on their own."""
    part = slice(index, index + 1)
    return Node(a.mid[part], a.rad[part], "row", (a,), factor=index)


def exp(a: Node) -> Node:
    with np.errstate(over="ignore"):
        value = np.exp(a.mid)
        return Node(value, value * np.expm1(a.rad) + _ROUNDING * value, "exp", (a,))


def row_sums(a: Node) -> Node:
    return Node(
        _finite(a.mid).sum(axis=1, keepdims=True), a.rad.sum(axis=1, keepdims=True), "sums", (a,)
    )


def divide(a: Node, sums: Node) -> Node | None:
    """Each row of A by its sum (a column of L numbers)."""
    if sums.shape != (a.shape[0], 1) or (np.abs(sums.mid) <= sums.rad).any():
        return None
    den = np.abs(sums.mid) - sums.rad
    mid = a.mid / sums.mid
    rad = (np.abs(a.mid) * sums.rad + a.rad * np.abs(sums.mid)) / (np.abs(sums.mid) * den)
    return Node(mid, rad + _ROUNDING * np.abs(mid), "divide", (a, sums))


def kept(a: Node, allowed: np.ndarray, printed: Node | None = None) -> Node:
    """A ∘ M: the weights where the 0/1 mask keeps them, 0 elsewhere (the mask causal, or a
    printed one, then an operand)."""
    ops = (a,) if printed is None else (a, printed)
    detail = "printed" if printed is not None else "causal"
    mid, rad = np.where(allowed, a.mid, 0.0), np.where(allowed, a.rad, 0.0)
    return Node(mid, rad, "kept", ops, detail=detail, pattern=allowed)


def renormalised(a: Node) -> Node | None:
    """Each row over its sum (weights masked after the softmax made rows of 1 again)."""
    divided = divide(a, row_sums(a))
    if divided is None:
        return None
    return Node(divided.mid, divided.rad, "renormalised", (a,))


def dropout(a: Node, keep: np.ndarray, factor: float, said: str) -> Node:
    """The weights the 0/1 pattern keeps, times 1/(1-p) (``factor``; ``said``: p as a page
    writes it), 0 where it drops them."""
    mid, rad = np.where(keep, a.mid * factor, 0.0), np.where(keep, a.rad * factor, 0.0)
    return Node(mid, rad, "dropout", (a,), detail=said, factor=factor, pattern=keep)


def columns(a: Node, first: int, width: int) -> Node:
    """Columns first .. first + width - 1 (0-based) of A: one head's slice."""
    part = slice(first, first + width)
    return Node(a.mid[:, part], a.rad[:, part], "slice", (a,), factor=first)


def concat(parts: list[Node]) -> Node:
    mid = np.hstack([p.mid for p in parts])
    return Node(mid, np.hstack([p.rad for p in parts]), "concat", tuple(parts))


def widened(node: Node) -> Node | None:
    """The same relation with every printed operand as the interval its digits allow (a
    rounded input's error carried through): None when it cannot be recomputed."""
    if node.printed is not None:
        return Node(node.mid, node.printed.rad, "printed", printed=node.printed)
    if not node.operands:
        return node if node.kind == "zeros" else None  # exact: nothing to widen
    ops = [widened(o) for o in node.operands]
    if any(o is None for o in ops):
        return None
    a, b = ops[0], ops[1] if len(ops) > 1 else None
    assert a is not None
    kind = node.kind
    if kind in ("product", "product_t") and b is not None:
        return product(a, b, kind == "product_t")
    if kind == "scale":
        return scale(a, node.factor, node.detail)
    if kind == "mask":
        return mask(a, np.isfinite(node.mid), b)
    if kind.startswith("softmax"):
        return softmax(a, kind == "softmax_rows")
    if kind == "same":
        return Node(a.mid, a.rad, "same", (a,))
    if kind == "row":
        return row(a, int(node.factor))
    return _widened_after(node, a, b)


def _widened_after(node: Node, a: Node, b: Node | None) -> Node | None:
    if node.kind == "kept" and node.pattern is not None:
        return kept(a, node.pattern, b)
    if node.kind == "renormalised":
        return renormalised(a)
    if node.kind == "dropout" and node.pattern is not None:
        return dropout(a, node.pattern, node.factor, node.detail)
    return None


@dataclass(frozen=True)
class Fit:
    """How a computed value meets a printed array: every entry, or all but the slips."""

    holds: bool
    slips: tuple[tuple[int, int], ...] = field(default=())  # 0-based entries that fail
    transposed: bool = False
    written: bool = False  # the page writes it as this relation (A B = C); any entries fail

    @property
    def exact(self) -> bool:
        return self.holds and not self.slips


def entries_fit(node: Node, target: Printed) -> np.ndarray:
    """Which entries of the printed array lie within the computed value's interval."""
    if node.finite and target.finite:  # no inf - inf, no -inf on both sides: the plain test
        return np.abs(node.mid - target.mid) <= node.slack + target.rad
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, which is near nothing
        near = np.abs(node.mid - target.mid) <= node.slack + target.rad
    # Called some 10^6 times on small arrays per corpus run: plain comparisons, no helpers.
    return near | (node.masked & target.masked)


def fit(node: Node, target: Printed, slips_allowed: bool = True) -> Fit | None:
    """Whether the printed array is this value (all entries), with a few slips, or not at all;
    a print of the transpose is noticed."""
    return fit_or_mostly(node, target, slips_allowed, mostly_too=False)[0]


def fit_or_mostly(
    node: Node, target: Printed, slips_allowed: bool = True, mostly_too: bool = True
) -> tuple[Fit | None, bool]:
    """``fit``, and when it finds no fit, ``mostly`` (if asked): whether half the entries or
    more fit (worth trying again with rounded operands), read in the first orientation whose
    shape and mask are the value's (the entries compared once)."""
    shape, printed = node.mid.shape, target.mid.shape
    straight, across = shape == printed, shape == printed[::-1]
    if not (straight or across):
        return None, False
    only_straight = 1 in printed or printed[0] == printed[1]  # a vector or square: no transpose
    first: tuple[Printed, int | None] | None = None  # mostly reads its entries that fit
    for transposed in (False, True):
        if not (across if transposed else straight):
            continue
        shown = target.transposed if transposed else target
        if (node.has_mask or shown.has_mask) and not _masks_alike(node, shown):
            continue  # a mask is a mask everywhere it applies, never a slip
        if transposed and only_straight:
            first = first or (shown, None)
            continue
        ok = entries_fit(node, shown)
        right = int(np.count_nonzero(ok))
        first = first or (shown, right)
        wrong = ok.size - right
        if wrong == 0:
            return Fit(True, (), transposed), False
        if slips_allowed and _few(wrong, ok.size) and _telling(ok, shown, wrong):
            bad = tuple((int(i), int(j)) for i, j in zip(*np.nonzero(~ok)))
            return Fit(True, bad, transposed), False
    if not mostly_too or first is None:
        return None, False
    shown, counted = first
    if counted is None:
        counted = int(np.count_nonzero(entries_fit(node, shown)))
    return None, 2 * counted >= node.mid.size or _near(node, shown)


_NEAR = 0.005  # relative: a product of operands rounded to 4 decimals is off by about 0.001


def _near(node: Node, shown: Printed) -> bool:
    """Every entry near the print, though most miss its digits: a product of operands that a
    program printed rounded (Q and K of weights never shown, torch.randn's X), worth trying
    again with the operands as intervals."""
    finite = np.isfinite(node.mid) & np.isfinite(shown.mid)
    if not finite.any() or (~finite & (node.mid != shown.mid)).any():
        return False
    gap = np.abs(node.mid[finite] - shown.mid[finite])
    return bool((gap <= _NEAR * (1 + np.abs(shown.mid[finite]))).all())


def _masks_alike(node: Node, shown: Printed) -> bool:
    """Whether the value and the print (of one shape) are masked at the same entries."""
    if node.has_mask != shown.has_mask:
        return False
    return not node.has_mask or not (node.masked != shown.masked).any()


def _telling(ok: np.ndarray, shown: Printed, wrong: int) -> bool:
    """Whether more nonzero entries hold than fail: zeros hold for a masked or one-hot value
    whatever it is ([1, 0, 0] against a printed [0.19, 0, 0] is no slip but another array)."""
    nonzero = (shown.mid != 0) & np.isfinite(shown.mid)
    return int(np.count_nonzero(ok & nonzero)) > wrong


def _few(wrong: int, size: int) -> bool:
    """A few slips: one in five entries at most (never more than 5), so 80 % or more holds."""
    return size >= 4 and wrong <= min(5, max(1, size // 5))


def is_permutation(node: Node) -> bool:
    """A 0/1 matrix with one 1 in each row and column: multiplying by it only reorders."""
    mid = node.mid
    if mid.shape[0] != mid.shape[1] or not np.isin(mid, (0.0, 1.0)).all():
        return False
    return bool((mid.sum(axis=0) == 1).all() and (mid.sum(axis=1) == 1).all())


def is_distribution(p: Printed, by_rows: bool = True) -> bool:
    """Rows (or columns) of probabilities: entries in [0, 1] that sum to 1 at printed precision."""
    return p.distribution if by_rows else probabilities(p.mid.T, p.rad.T)
