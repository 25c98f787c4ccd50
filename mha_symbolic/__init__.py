"""mha_symbolic: exact multi-head attention, derived step by step with SymPy.

The public names are imported when first used (PEP 562), so that `import mha_symbolic` and the
command's `--version`, `--help` and `examples` start without SymPy, NumPy or Jinja2; so is
``__version__``, read from ``_version.py`` (importlib.metadata would cost ~30 ms).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
        sweep,
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
    "sweep",
    "verify",
]

# Functions of the API named like a sub-package or module of ours (mha_symbolic.check, .extract,
# .sweep, .verify): importing that module must not rebind the package's name to it.
_NAMED_LIKE_MODULES = frozenset({"check", "extract", "sweep", "verify"})


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value = _version()
        object.__setattr__(sys.modules[__name__], name, value)
        return value
    if name not in __all__:
        raise AttributeError(f"module 'mha_symbolic' has no attribute {name!r}")
    from importlib import import_module

    home = import_module("mha_symbolic.errors" if name == "SpecError" else "mha_symbolic.api")
    value = getattr(home, name)
    object.__setattr__(sys.modules[__name__], name, value)
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        if name in _NAMED_LIKE_MODULES and isinstance(value, types.ModuleType):
            return  # the import system binding a submodule: the API's function keeps the name
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package  # how a module gets __setattr__


def _version() -> str:
    """One source of truth: ``_version.VERSION``, which the build reads as the distribution's
    version (pyproject.toml's dynamic version), so no importlib.metadata at start."""
    from mha_symbolic._version import VERSION

    return VERSION
