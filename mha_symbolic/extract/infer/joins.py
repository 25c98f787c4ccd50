"""Printed concatenations: a wide printed array whose blocks of columns are arrays printed
before it, side by side (the heads' outputs joined before the output projection). Tested with
the printed arrays' own relations, before the search spends its budget on computed values."""

from __future__ import annotations

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.state import Search


def joins(found: Search, nodes: list[Node]) -> None:
    """Test [A | B | ...] against every wide array whose column blocks (two columns wide or
    more, none all zeros) are each an earlier print of decimals."""
    for wide in nodes:
        cols = wide.shape[1]
        for width in range(2, cols // 2 + 1):
            if cols % width:
                continue
            parts = _parts(wide, nodes, width)
            if parts and found.spend():
                found.test(rel.concat(parts), slips=False)


def _parts(wide: Node, nodes: list[Node], width: int) -> list[Node]:
    """The earlier prints that are the blocks of ``width`` columns of ``wide``, in order;
    [] when a block is no earlier print (or all zeros, which any array of zeros would be)."""
    parts: list[Node] = []
    for first in range(0, wide.shape[1], width):
        block = slice(first, first + width)
        mid, rad = wide.mid[:, block], _radius(wide)[:, block]
        if not mid.any():
            return []
        part = next((n for n in nodes if _is_block(n, wide, mid, rad) and n not in parts), None)
        if part is None:
            return []
        parts.append(part)
    return parts


def _is_block(node: Node, wide: Node, mid: np.ndarray, rad: np.ndarray) -> bool:
    """Whether an earlier print is this block; never a print of whole numbers only (weights
    [I | I] side by side are a coincidence of the identity, heads' outputs have decimals)."""
    if node is wide or node.shape != mid.shape or node.last >= wide.last:
        return False
    if (node.mid == np.round(node.mid)).all():
        return False
    with np.errstate(invalid="ignore"):
        return bool((np.abs(node.mid - mid) <= _radius(node) + rad + 1e-12).all())


def _radius(node: Node) -> np.ndarray:
    """What a print's digits allow (its radius as printed, whether or not the pass uses it)."""
    return node.printed.rad if node.printed is not None else node.rad
