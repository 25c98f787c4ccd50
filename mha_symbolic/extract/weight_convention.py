"""Which way printed weights multiply X, by the numbers: a page whose code says nn.Linear (X W^T)
may print the weight already transposed (``W_q.weight.transpose(0, 1)``), and then its printed
Q is X times W as printed; the numbers decide over the words."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mha_symbolic.extract.reading import Seen

_PAIRS = (("w_q", "q"), ("w_k", "k"), ("w_v", "v"))


def only_as_printed(weights: Sequence[Seen], rows_needed: int) -> str | None:
    """Where the printed projections are in x out and not square (a ``W_QT`` printed C x H):
    X W^T cannot be computed with them, whatever the text says, so X W as printed was."""
    shapes = [(len(s.item.rows), len(s.item.rows[0]) if s.item.rows else 0) for s in weights]
    if shapes and all(rows == rows_needed and cols != rows_needed for rows, cols in shapes):
        return weights[0].where
    return None


def applied_as_printed(seen: Sequence[Seen]) -> str | None:
    """Where a printed projection is X W with a printed square W as printed, not X W^T (the
    weight's line), or None when no printed X, W and projection say so."""
    first = {s.role: s for s in reversed(seen) if s.head is None}
    x = first.get("x")
    for weight, projection in _PAIRS:
        w, q = first.get(weight), first.get(projection)
        if x is None or w is None or q is None:
            continue
        read = [_values(s.item.rows) for s in (x, w, q)]
        if any(r is None for r in read):
            continue
        xs, ws, qs = (r[0] for r in read if r is not None)
        if ws.shape[0] != ws.shape[1] or xs.shape[1] != ws.shape[0] or qs.shape != xs.shape:
            continue
        slack = np.abs(xs) @ np.full(ws.shape, _half(w)) + _half(q) + 1e-12
        if _fits(xs @ ws, qs, slack) and not _fits(xs @ ws.T, qs, slack):
            return w.where
    return None


def _fits(computed: np.ndarray, printed: np.ndarray, slack: np.ndarray) -> bool:
    return bool((np.abs(computed - printed) <= slack).all())


def _values(rows: tuple[tuple[str, ...], ...]) -> tuple[np.ndarray] | None:
    try:
        return (np.array([[float(e.replace("−", "-")) for e in row] for row in rows]),)
    except ValueError:
        return None


def _half(s: Seen) -> float:
    """Half a unit of the last decimal the array prints."""
    decimals = max(len(e.split(".")[1]) if "." in e else 0 for row in s.item.rows for e in row)
    return 0.5 * 10.0**-decimals
