"""The heads side by side: ``C = [head_1 | ... | head_h]`` (step ``concat``).

Its value is its expression evaluated, also under a limit (the limits of the heads joined); in
code, the heads' code merged from their axis or side by side.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from mha_symbolic.operations.operation import Operation


def _code(lowering: Any, node: Any) -> sp.Basic:
    """The heads' code joined: merged from their axis when stacked, else side by side."""
    # Imported here: model.nodes imports this package's base, which finds every operation.
    from mha_symbolic.model.nodes import MergeHeads

    heads, h = lowering.heads_code, lowering.spec.heads
    if len(heads) == 1:
        return MergeHeads(heads[0], h) if h > 1 else heads[0]
    return sp.BlockMatrix([heads])


def place(builder: Any, n: int, on: bool, parts: dict[str, Any]) -> dict[str, Any]:
    """The heads side by side, after the last head (n is 0)."""
    expr = sp.BlockMatrix([parts["heads"]])
    return {**parts, "concat": builder.add("concat", "concat", "C", expr)}


OPERATION = Operation(
    kind="concat",
    roles=frozenset({"joined_heads"}),
    stage="join",
    place=place,
    limit=lambda walk, node: walk.evaluated(node),
    forward_forms=lambda f, node: f.of(node.expr),
    stable=lambda stages, node: stages.value(node.expr),
    code=_code,
)
