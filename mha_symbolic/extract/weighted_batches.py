"""The weighted values printed as one batch: ``values[:, None] * A.T[:, :, None]`` (the
Illustrated Self-Attention's step 6) prints, for each key j, the rows a_ij v_j of every query i;
a loop over the queries prints, for each query i, the rows of every key j. Which of the two a
page printed comes from its numbers: the printed weights (or the derived ones) times V give
every row under one arrangement. Each row is then claimed as ``head{h}.weighted[i,j]`` and
judged against the exact a_ij v_j (a row of stand-in weights is wrong, or follows)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation

import sympy as sp

from mha_symbolic.extract.draft import Draft, Value, rows_text
from mha_symbolic.extract.reading import Seen
from mha_symbolic.language.extract_phrases import code, phrase

Grid = list[list[float]]
_OUTPUTS = re.compile(r"(?:head\d+\.output|concat|output)(?:\[|$)")


def weighted_batches(
    draft: Draft, seen: Sequence[Seen], values: Mapping[str, sp.MatrixBase]
) -> None:
    """Claim the rows of each printed batch of weighted values, in the arrangement its numbers
    follow (by key, or by query)."""
    for index, s in enumerate(seen):
        if len(s.item.batch_shape) != 1 or s.role not in ("unnamed", "operand"):
            continue
        head = 1
        while f"head{head}.weights" in values and f"head{head}.v" in values:
            length, width = values[f"head{head}.v"].shape
            if s.item.full_shape != (length, length, width):
                head += 1
                continue  # no (L, L, d_v) block of this head's a_ij v_j
            try:
                v = _exact(values[f"head{head}.v"])
                weights = [_exact(values[f"head{head}.weights"])]
            except TypeError:  # symbols: no numbers to arrange the rows by
                return
            weights += [w for t in seen[:index] if (w := _printed_weights(t)) is not None]
            by_key = _arrangement(s.item.matrices, weights, v)
            if by_key is not None:
                _claim_rows(draft, s, head, by_key)
                return
            head += 1


def _arrangement(
    blocks: Sequence[Sequence[Sequence[str]]], weights: list[Grid], v: Grid
) -> bool | None:
    """True when block j row i is a_ij v_j for one of the weights, False when block i row j
    is; None when neither gives every row (or the batch is no (L, L, d_v) block)."""
    length = len(v)
    if len(blocks) != length or any(len(b) != length or len(b[0]) != len(v[0]) for b in blocks):
        return None
    for a in weights:
        if len(a) != length or any(len(row) != length for row in a):
            continue
        for by_key in (True, False):
            if all(
                _row_agrees(blocks[b][r], a[r][b] if by_key else a[b][r], v[b if by_key else r])
                for b in range(length)
                for r in range(length)
            ):
                return by_key
    return None


def _row_agrees(printed: Sequence[str], weight: float, v: Sequence[float]) -> bool:
    try:
        shown = [Decimal(e.replace("−", "-")) for e in printed]
    except InvalidOperation:
        return False
    for number, value in zip(shown, v, strict=True):
        half = Decimal(5).scaleb(int(number.as_tuple().exponent) - 1)
        if abs(float(number) - weight * value) > float(half) + 1e-9 * max(1.0, abs(value)):
            return False
    return True


def _claim_rows(draft: Draft, s: Seen, head: int, by_key: bool) -> None:
    """Each row as a claim, in the order printed: the batch is the step's whole print, so
    terms of it written out before (``0.5 * [2, 8, 0] = [1.0, 4.0, 0.0]``) become its prints
    again, judged in a copy of the example."""
    rows = [
        (f"head{head}.weighted[{r if by_key else b},{b if by_key else r}]", rows_text((row,)))
        for b, block in enumerate(s.item.matrices, start=1)
        for r, row in enumerate(block, start=1)
    ]
    keys = {key for key, _ in rows}
    earlier = [c for c in draft.claims if c.key in keys]
    kept = [c for c in draft.claims if c.key not in keys]
    at = next((n for n, c in enumerate(kept) if _OUTPUTS.match(c.key)), len(kept))
    new = [Value(k, t, f"{s.where}: {t}", where=(s.where,)) for k, t in rows]
    draft.claims = [*kept[:at], *new, *kept[at:]]  # before the outputs the terms add up to
    for claim in earlier:
        where = claim.where[0] if claim.where else ""
        draft.placing.append(
            phrase(
                "placing.again",
                where=where,
                key=code(claim.key),
                value=claim.value,
                first=dict(rows)[claim.key],
                first_where=s.where,
            )
        )


def _printed_weights(s: Seen) -> Grid | None:
    """A printed matrix of weights before the batch, whatever its name (rows of numbers in
    [0, 1] summing to about 1: stand-in weights rounded by hand as well)."""
    if s.item.batch_shape or len(s.item.rows) < 2:
        return None
    grid = _floats(s.item.rows)
    if grid is None or any(not 0 <= e <= 1 for row in grid for e in row):
        return None
    return grid if all(abs(sum(row) - 1) <= 0.1 for row in grid) else None


def _floats(rows: Sequence[Sequence[str]]) -> Grid | None:
    try:
        return [[float(e.replace("−", "-")) for e in row] for row in rows]
    except ValueError:
        return None


def _exact(matrix: sp.MatrixBase) -> Grid:
    return [[float(matrix[i, j]) for j in range(matrix.cols)] for i in range(matrix.rows)]
