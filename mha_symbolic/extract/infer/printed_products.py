"""Products the document prints itself: A B (or A Bᵀ) of two printed arrays that a later print
gives entry for entry. The print stands for the product from then on, so the search does not
carry a second, unprinted copy of it through scaling, masking and softmax (each copy
multiplies the relations tried, and a page of two heads runs out of its budget on copies)."""

from __future__ import annotations

from collections.abc import Iterable

from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.state import Match

Key = tuple[int, int, bool]  # left operand's print, right operand's print, right transposed


def product_key(node: Node) -> Key | None:
    """Which two printed arrays a product multiplies, None for any other value."""
    if node.kind not in ("product", "product_t") or len(node.operands) != 2:
        return None
    a, b = node.operands
    if a.printed is None or b.printed is None:
        return None
    return (a.printed.index, b.printed.index, node.kind == "product_t")


def printed_products(matches: Iterable[list[Match]]) -> set[Key]:
    """The products of printed arrays some print gives exactly, as printed (not transposed)."""
    out: set[Key] = set()
    for found in matches:
        for match in found:
            if not match.fit.exact or match.fit.transposed or match.rounded:
                continue
            key = product_key(match.node)
            if key is not None:
                out.add(key)
    return out
