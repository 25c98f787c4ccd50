"""The operations of attention, one module each, and the tables the walkers dispatch through.

Every module of this package that defines ``OPERATION`` is one: ``OPERATIONS`` lists them by
the stage they act at (in a head: the streams, ..., the logits, ...; then after the heads) and
then by kind. ``BY_KIND`` finds one by its node kind, ``BY_NODE`` by a matrix-expression class
it owns; :func:`rules` merges one rule of every operation into a walker's table
(``rules("exact")``: class -> its exact evaluation). Adding an operation is adding its module
here: nothing else lists it (a fact it answers is also declared, typed, in :class:`Answers`).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

from mha_symbolic.operations.operation import AFTER_HEADS as AFTER_HEADS
from mha_symbolic.operations.operation import SOURCE as SOURCE
from mha_symbolic.operations.operation import STAGES as STAGES
from mha_symbolic.operations.operation import STREAMS as STREAMS
from mha_symbolic.operations.operation import Operation, Rule

if TYPE_CHECKING:  # the answers' types only: the modules are found below, not listed
    import sympy as sp

    from mha_symbolic.operations.mask import Mask
    from mha_symbolic.operations.scale import ScaleOf

ALL_STAGES = (*STAGES, *AFTER_HEADS)


def _found() -> tuple[Operation, ...]:
    modules = [
        importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)
    ]
    found = [m.OPERATION for m in modules if isinstance(getattr(m, "OPERATION", None), Operation)]
    rank = {stage: n for n, stage in enumerate(ALL_STAGES)}
    return tuple(
        sorted(found, key=lambda op: (rank.get(op.stage or "", len(rank)), op.rank, op.kind))
    )


OPERATIONS: tuple[Operation, ...] = _found()
BY_KIND: dict[str, Operation] = {op.kind: op for op in OPERATIONS}
BY_NODE: dict[type, Operation] = {cls: op for op in OPERATIONS for cls in op.nodes}
NODES: tuple[type, ...] = tuple(BY_NODE)
# What the presentation may ask the model (``Facts.scale``), answered by its operation.
FACTS: dict[str, Rule] = {name: rule for op in OPERATIONS for name, rule in op.facts.items()}
SPEC_KEYS: tuple[str, ...] = tuple(op.spec_key for op in OPERATIONS if op.spec_key is not None)


class Answers:
    """The facts the operations answer (``FACTS``), typed as the presentation reads them off
    ``model.program_facts.Facts``, so that mypy checks their callers. A new operation's fact
    is declared here too (tests/test_walkers.py keeps this list and ``FACTS`` the same)."""

    scale: ScaleOf  # the scale's: ``scale(head)``, a head's factor s
    mask: Mask | None  # the mask's: its kind and fill; None when nothing is masked
    rope: bool  # RoPE's: the queries and keys are rotated
    layout: str  # the projections': per_head, split or fused
    fused: bool  # the projections': the layout is fused
    convention: str  # the projections': xW or xWT
    dropout: sp.Expr | None  # dropout's: its rate p, None when nothing is dropped out
    renormalised: bool  # the renormalisation's: weights masked after the softmax, renormalised


def rules(name: str) -> dict[type, Rule]:
    """Every operation's rules of one kind (``exact``, ``structured``, ``vjp``, ``forms``)."""
    return {cls: rule for op in OPERATIONS for cls, rule in getattr(op, name).items()}


def staged(stage: str) -> tuple[Operation, ...]:
    """The operations the program builder places at ``stage`` of a head, in order."""
    return tuple(op for op in OPERATIONS if op.stage == stage)


def prelude(backend: str, kinds: set[str]) -> str:
    """The helpers the code of these node kinds calls, for one backend."""
    parts = [op.prelude[backend] for op in OPERATIONS if op.kind in kinds and backend in op.prelude]
    return "".join("\n\n" + part.strip("\n") + "\n" for part in parts)
