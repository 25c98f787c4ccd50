"""The heads side by side: ``C = [head_1 | ... | head_h]`` (step ``concat``).

Its value is its expression evaluated, also under a limit (the limits of the heads joined).
"""

from __future__ import annotations

from mha_symbolic.operations.operation import Operation

OPERATION = Operation(
    kind="concat",
    limit=lambda walk, node: walk.evaluated(node),
    forward_forms=lambda f, node: f.of(node.expr),
)
