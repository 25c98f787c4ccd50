"""The query a page prints without a name: the numbers the printed scores take times the
transposed keys (a query sliced from another array and printed with ``print(q)``)."""

from __future__ import annotations

from mha_symbolic.extract.infer import Inference


def query_of_named_keys(inference: Inference, names: dict[int, str]) -> None:
    """An unnamed print no relation explains that the printed scores take times the keys'
    transpose (``print(q)`` of a query sliced from another array) is the query Q, even one row
    of it."""
    for match in inference.chosen.values():
        node = match.node
        while node.kind in ("scale", "mask") and node.printed is None:
            node = node.operands[0]
        if node.kind != "product_t" or len(node.operands) != 2:
            continue
        query, keys = (o.printed for o in node.operands)
        if query is None or keys is None or names.get(keys.index) != "k":
            continue
        if query.index in inference.chosen:
            continue  # computed itself: a product of rows of small numbers by chance
        if query.index not in names and query.index not in inference.roles:
            inference.roles[query.index] = "q"
            inference.strong.add(query.index)
