"""The roles a print plays besides the one its own relation gives, read from the products it
is an operand of: one printed block that is W_Q, W_K and W_V alike, and keys that the weights
average, which are the values too."""

from __future__ import annotations

from dataclasses import replace

from mha_symbolic.extract.infer import Inference
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.reading import Seen


def also_as(s: Seen, roles: list[str]) -> Seen:
    """The print with the roles the numbers add to those its names give (K the values too)."""
    tags = s.names or (f"{s.role}:{s.head or ''}",)
    extra = tuple(t for t in (f"{r}:{s.head or ''}" for r in roles) if t not in tags)
    return replace(s, names=(*tags, *extra)) if extra else s


def projecting(inference: Inference, n: int, role: str) -> list[str]:
    """The weights one printed matrix is, by the products it gives: W_Q, W_K and W_V alike
    when Q, K and V are each X times it (``qkv = x @ W.t()`` of one block repeated); and the
    keys the weights also average (a book's context vector: alphas times the keys) are the
    values too."""
    if role == "k":
        averaged = any(
            inference.roles.get(i) in ("output", "head.output")
            and match.node.kind == "product"
            and match.node.operands[1].printed is not None
            and match.node.operands[1].printed.index == n
            and n in _keys_below(inference, match.node.operands[0])
            for i, match in inference.chosen.items()
        )
        return [role, "v"] if averaged else [role]
    if role not in ("w_q", "w_k", "w_v"):
        return [role]
    found = {
        f"w_{inference.roles[i]}"
        for i, match in inference.chosen.items()
        if inference.roles.get(i) in ("q", "k", "v")
        and match.node.kind in ("product", "product_t")
        and match.node.operands[1].printed is not None
        and match.node.operands[1].printed.index == n
    }
    return [role, *sorted(found - {role})]


def _keys_below(inference: Inference, node: Node, depth: int = 0) -> set[int]:
    """The printed keys (K of a Q Kᵀ) the weights ``node`` are computed from."""
    if node.printed is not None:
        match = inference.chosen.get(node.printed.index)
        return _keys_below(inference, match.node, depth + 1) if match and depth < 6 else set()
    found = set()
    if node.kind == "product_t" and node.operands[1].printed is not None:
        found.add(node.operands[1].printed.index)
    for operand in node.operands:
        found |= _keys_below(inference, operand, depth + 1) if depth < 6 else set()
    return found
