"""Jinja2 rendering of a Derivation (templates/ ships as mha_symbolic.templates)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import sympy as sp

from mha_symbolic.derivation import Derivation
from mha_symbolic.errors import SpecError

FORMATS = ("md",)


def template_dir(override: str | Path | None = None) -> Path:
    if override is not None:
        path = Path(override)
        if not path.is_dir():
            raise SpecError("--templates: no such directory", source=str(path))
        return path
    # Installed from a wheel, templates/ sits inside the package; in a source checkout (and an
    # editable install) it is the top-level folder beside the package.
    packaged = Path(__file__).resolve().parent / "templates"
    return packaged if packaged.is_dir() else packaged.parent.parent / "templates"


def environment(templates: str | Path | None = None) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir(templates))),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def _latex(obj: Any) -> str:
    return sp.latex(obj, mat_str="bmatrix", mat_delim="")


def context(derivation: Derivation) -> dict[str, Any]:
    spec = derivation.spec
    return {
        "title": spec.title,
        "description": spec.description.strip(),
        "steps": [
            {
                "key": step.key,
                "kind": step.kind,
                "title": step.title,
                "shape": step.shape,
                "symbol": _latex(step.symbol),
                "formula": _latex(step.formula),
                "value": _latex(step.value),
            }
            for step in derivation.steps
        ],
    }


def render(derivation: Derivation, fmt: str = "md", templates: str | Path | None = None) -> str:
    if fmt not in FORMATS:
        raise SpecError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    template = environment(templates).get_template(f"derivation.{fmt}.j2")
    return template.render(**context(derivation))
