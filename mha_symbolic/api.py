"""The public API: derive, check, compile, and the consumers behind Derivation's methods.

This is the one module that knows every layer; it wires the Derivation's convenience methods
(``d.to_markdown()``, ``d.limit(...)``, ``d.lambdify()``) to the solution, limits and numeric
layers, so that the exact core imports none of them.
"""

from __future__ import annotations

from typing import Any

from mha_symbolic.check.judge import Report, check
from mha_symbolic.exact.derivation import Derivation, Step, register
from mha_symbolic.exact.enclose import enclose
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.exact.limits import limit
from mha_symbolic.extract import extract
from mha_symbolic.numeric.function import AttentionFunction, compile
from mha_symbolic.numeric.lambdify import lambdify
from mha_symbolic.spec.attention import AttentionSpec, examples
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
    "verify",
]


def _options(d: Derivation, options: dict[str, Any]) -> Any:
    """The keyword arguments as Options; the spec's ``decimals`` unless they give their own."""
    from mha_symbolic.solution.view import Options

    if d.spec.decimals is not None:
        options = {"decimals": d.spec.decimals, **options}
    return Options(**options)


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


register(lambdify=lambdify, limit=limit, render=_render, write=_write, latex=_latex)
register(notebook=_notebook)
register(enclose=enclose)
