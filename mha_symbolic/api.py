"""The public API: derive, check, compile, and the consumers behind Derivation's methods.

This is the one module that knows every layer; it wires the Derivation's convenience methods
(``d.to_markdown()``, ``d.limit(...)``, ``d.lambdify()``) to the solution, limits and numeric
layers, so that the exact core imports none of them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from mha_symbolic.exact.derivation import Derivation, Step, register
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.spec.attention import AttentionSpec, examples

if TYPE_CHECKING:
    from mha_symbolic.check.judge import Report, check
    from mha_symbolic.extract import extract
    from mha_symbolic.numeric.function import AttentionFunction, compile
    from mha_symbolic.sweep import sweep
    from mha_symbolic.verify import Verification, verify

__all__ = [
    "AttentionFunction",
    "AttentionSpec",
    "Derivation",
    "Report",
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


# Imported when first used (PEP 562): a derivation and its solution need none of them, and the
# extractor alone (NumPy with it) took longer to import than SymPy.
_LATER = {
    "AttentionFunction": "mha_symbolic.numeric.function",
    "Report": "mha_symbolic.check.judge",
    "Verification": "mha_symbolic.verify",
    "check": "mha_symbolic.check.judge",
    "compile": "mha_symbolic.numeric.function",
    "extract": "mha_symbolic.extract",
    "sweep": "mha_symbolic.sweep",
    "verify": "mha_symbolic.verify",
}


def __getattr__(name: str) -> Any:
    if name not in _LATER:
        raise AttributeError(f"module 'mha_symbolic.api' has no attribute {name!r}")
    value = getattr(import_module(_LATER[name]), name)
    globals()[name] = value
    return value


def _options(d: Derivation, options: dict[str, Any]) -> Any:
    """The keyword arguments as Options; the spec's ``decimals`` unless they give their own."""
    from mha_symbolic.solution.view import Options
    from mha_symbolic.spec.step_decimals import with_spec_decimals

    made = Options(**options)
    return made if "decimals" in options else with_spec_decimals(made, d.spec)


def _render(d: Derivation, fmt: str, options: dict[str, Any]) -> str:
    from mha_symbolic.solution.render import render

    return render(d, fmt, _options(d, options))


def _write(d: Derivation, path: str, fmt: str | None, options: dict[str, Any]) -> list[Any]:
    from mha_symbolic.solution.render import write

    return write(d, path, fmt, _options(d, options))


def _latex(value: Any) -> str:
    from mha_symbolic.solution.latex import exact

    return exact(value)


def _notebook(d: Derivation, kind: str) -> str:
    from mha_symbolic.solution import notebook

    return notebook.html(d) if kind == "html" else notebook.latex_maths(d)


def _when_called(module: str, name: str) -> Any:
    """``module.name``, imported at its first call (NumPy and FLINT's helpers load only then)."""

    def call(*args: Any) -> Any:
        return getattr(import_module(module), name)(*args)

    return call


_lambdify = _when_called("mha_symbolic.numeric.lambdify", "lambdify")
_limit = _when_called("mha_symbolic.exact.limits", "limit")
_enclose = _when_called("mha_symbolic.exact.enclose", "enclose")

register(lambdify=_lambdify, limit=_limit, render=_render, write=_write, latex=_latex)
register(notebook=_notebook)
register(enclose=_enclose)
