"""One query's weights printed on their own: the softmax of each row of printed (scaled,
masked) scores, tested against the single rows printed after them. A page that prints "softmax
of row 0, without and with the scaling" prints two settings of one example; only the numbers
tell which row is which."""

from __future__ import annotations

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.state import Search

MAX_ROWS = 16  # rows of one value tried (a long sequence's first queries)


def row_softmaxes(found: Search, variant: Node) -> None:
    """softmax(row i of the scores) for each row, when a row of that width is printed later."""
    rows, cols = variant.shape
    if rows < 2 or cols < 2 or not found.wanted((1, cols), variant.last):
        return
    for index in range(min(rows, MAX_ROWS)):
        part = rel.row(variant, index)
        if rel.even(part):
            continue  # equal scores: uniform weights, no sign of this row
        if not found.spend():
            return
        found.test(rel.softmax(part), probabilities=True)
