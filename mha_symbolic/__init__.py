"""mha_symbolic: exact multi-head attention, derived step by step with SymPy."""

from __future__ import annotations

from mha_symbolic.check.judge import Report, check
from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation, Step, derive
from mha_symbolic.numeric.function import AttentionFunction, compile
from mha_symbolic.spec.attention import AttentionSpec, examples

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
