"""A head's weights times its values in arb, streamed by blocks of query rows.

``diag(1/D) E V`` for one head: each block of rows has its exponentials made, their row sums
taken, and is multiplied by the values and divided by its sums before the next block starts,
so the head's L x L matrix of exponentials is never held (at 1024 tokens a head's would be a
million balls). A causal mask blocks every key after a block's last query: those columns are
left out of the block (no ball, no exponential, no product), which halves the work of a
causal layer. Every ball is certified as the unstreamed product's: the same exponentials,
sums and products, only fewer of them at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress

import flint

# Query rows per block: 256 x 1024 balls at a time (about 30 MB). Smaller blocks follow a causal
# mask more closely but their arb products run slower (measured: 64 rows 1.25 s a head at 1024
# tokens, 256 rows 1.06 s).
ROWS = 256
_ZERO = flint.arb(0)
NEAR = 64  # |largest logit| below which a row's exponentials are made unshifted


def row_exps(row: Sequence[flint.arb], open_: Sequence[bool] | None, key: str) -> list[flint.arb]:
    """``e^{l_j - s}`` for each logit of a row (0 where blocked). ``s`` is 0 when the row's
    largest open logit is below :data:`NEAR` (arb's exponentials need no shift there: the
    shift cancels in the softmax), else that logit's midpoint, an exact number that keeps
    every exponential at most about 1 (a logit of 10^300 would overflow arb's exponential).
    The row may be shorter than ``open_`` (read as far as the row goes)."""
    if open_ is None:
        top = max(row)  # a ball: any exact number near the largest logit shifts well enough
        if abs(top) < NEAR:
            return [r.exp() for r in row]
        shift = top.mid()
        return [(r - shift).exp() for r in row]
    if not any(open_):
        raise ValueError(f"enclose: step {key!r} has a row with every key blocked")
    top = max(compress(row, open_))
    if abs(top) < NEAR:
        return [r.exp() if ok else _ZERO for r, ok in zip(row, open_)]
    shift = top.mid()
    return [(r - shift).exp() if ok else _ZERO for r, ok in zip(row, open_)]


class Blocks:
    """A head's logits by blocks of query rows: ``make(start, stop, reach)`` gives the balls
    of rows start..stop over keys 0..reach, row after row."""

    def __init__(
        self, rows: int, cols: int, make: Callable[[int, int, int], list[flint.arb]]
    ) -> None:
        self.rows, self.cols, self.make = rows, cols, make


def listed(logits: flint.arb_mat) -> Blocks:
    """The blocks of a matrix of logit balls, read from its entries (listed once)."""
    entries, cols = logits.entries(), logits.ncols()

    def block(start: int, stop: int, reach: int) -> list[flint.arb]:
        if reach == cols:
            return entries[start * cols : stop * cols]
        return [e for i in range(start, stop) for e in entries[i * cols : i * cols + reach]]

    return Blocks(logits.nrows(), cols, block)


def weighted_values(
    logits: flint.arb_mat | Blocks,
    allowed: Sequence[Sequence[bool]] | None,
    values: flint.arb_mat,
    key: str,
    rows_per_block: int | None = None,
) -> flint.arb_mat:
    """``softmax(logits) @ values`` (row softmax, blocked entries 0), ``rows_per_block`` rows
    at a time (default :data:`ROWS`): each row's exponentials once, divided by the row's sum
    on the (narrower) product. ``logits``: their balls, or a maker of their blocks (the
    scores made block by block, only the keys a block may attend)."""
    blocks = listed(logits) if isinstance(logits, flint.arb_mat) else logits
    rows, cols, width = blocks.rows, blocks.cols, values.ncols()
    rows_per_block = rows_per_block or ROWS
    # the values with a column of ones beside: one product gives a block's weighted values
    # and its row sums (arb turns the block into integer matrices once, not twice)
    flat_values, one = values.entries(), flint.arb(1)
    ones = [e for j in range(cols) for e in (*flat_values[j * width : (j + 1) * width], one)]
    wide = width + 1
    out: list[flint.arb] = []
    for start in range(0, rows, rows_per_block):
        stop = min(rows, start + rows_per_block)
        reach = _reach(allowed, start, stop, cols)
        entries = blocks.make(start, stop, reach)
        made: list[flint.arb] = []
        for i in range(start, stop):
            open_ = None if allowed is None else allowed[i]  # (read as far as the row goes)
            at = (i - start) * reach
            made.extend(row_exps(entries[at : at + reach], open_, key))
        block = flint.arb_mat(stop - start, reach, made)
        flat = (block * flint.arb_mat(reach, wide, ones[: reach * wide])).entries()
        for n in range(stop - start):
            inverse = 1 / flat[n * wide + width]  # the row's sum
            out.extend(e * inverse for e in flat[n * wide : n * wide + width])
    return flint.arb_mat(rows, width, out)


def _reach(allowed: Sequence[Sequence[bool]] | None, start: int, stop: int, cols: int) -> int:
    """One past the last key any row in ``start..stop`` may attend (``cols`` with no mask, or
    when a row of the block reaches the last key)."""
    if allowed is None:
        return cols
    reach = 1
    for i in range(start, stop):
        backwards = tuple(allowed[i])[::-1]
        if True in backwards:  # (a row with every key blocked is refused by row_exps)
            reach = max(reach, cols - backwards.index(True))
    return reach
