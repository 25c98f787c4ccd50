"""mha_symbolic: exact multi-head attention, derived step by step with SymPy."""

from __future__ import annotations

from importlib import metadata as _metadata

from mha_symbolic.api import (
    AttentionFunction,
    AttentionSpec,
    Derivation,
    Report,
    Step,
    Verification,
    check,
    compile,
    derive,
    examples,
    extract,
    verify,
)
from mha_symbolic.errors import SpecError

__all__ = [
    "AttentionFunction",
    "AttentionSpec",
    "Derivation",
    "Report",
    "SpecError",
    "Step",
    "Verification",
    "check",
    "compile",
    "derive",
    "examples",
    "extract",
    "verify",
]

try:  # one source of truth: the installed distribution's version (pyproject.toml)
    __version__ = _metadata.version("mha-symbolic")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
