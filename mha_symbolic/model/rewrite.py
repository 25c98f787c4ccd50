"""Rewrites of a program: the same attention with one thing done differently.

The checker's likely mistakes are these rewrites, re-evaluated (``exact.evaluate.walk``):
each changes the nodes or the leaves of the one program, never builds a second attention.
Each is its operation's (``Operation.rewrites`` in :mod:`mha_symbolic.operations`: the
scale's ``scaled_by(factor)``, the softmax's ``column_softmax``, the mask's ``unmasked``, the
output's ``without_output_projection``, the projections' ``stream_for(target, source)`` and
``transposed_square_weights``); this module finds them by name: ``rewrite.column_softmax``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mha_symbolic import operations
from mha_symbolic.model.program import Program

Rewrite = Callable[[Program], Program]
REWRITES: dict[str, Any] = {
    name: rule for op in operations.OPERATIONS for name, rule in op.rewrites.items()
}

# The first kind of step each rewrite can change (``Operation.first_changed``; by default
# its operation's own kind): the checker tries a mistake on that step and the later ones.
FIRST_CHANGED: dict[str, str] = {
    name: op.first_changed.get(name, op.kind)
    for op in operations.OPERATIONS
    for name in op.rewrites
}


def __getattr__(name: str) -> Any:
    """An operation's rewrite by its name (``rewrite.scaled_by``)."""
    if name in REWRITES:
        return REWRITES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
