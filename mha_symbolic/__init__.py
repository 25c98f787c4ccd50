"""mha_symbolic: exact multi-head attention, derived step by step with SymPy."""

from __future__ import annotations

from mha_symbolic.api import (
    AttentionFunction,
    AttentionSpec,
    Derivation,
    Report,
    Step,
    check,
    compile,
    derive,
    examples,
)
from mha_symbolic.errors import SpecError

__all__ = [
    "AttentionFunction",
    "AttentionSpec",
    "Derivation",
    "Report",
    "SpecError",
    "Step",
    "check",
    "compile",
    "derive",
    "examples",
]
__version__ = "0.1.0"
