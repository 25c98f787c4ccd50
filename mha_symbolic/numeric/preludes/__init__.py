"""Helpers every generated function calls, as real modules (one per backend and pass).

The generated source is the text of these modules followed by the printed function, so
``f.source`` runs on its own; ruff and mypy check them like any other module.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

_LINTER_ONLY = "# prelude: the lines above are for linters only\n"


@cache
def text(*names: str) -> str:
    """The modules' source, each without its linter-only header, joined."""
    parts = []
    for name in names:
        source = resources.files(__name__).joinpath(f"{name}.py").read_text(encoding="utf-8")
        parts.append(source.split(_LINTER_ONLY, 1)[-1].strip("\n"))
    return "\n\n\n".join(parts) + "\n"
