"""The wheel ships every package of the source tree: pyproject's explicit list names them all."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_tree_is_listed_for_the_wheel() -> None:
    """A sub-package missing from [tool.setuptools] packages works in an editable install and
    is absent from `pip install .` (the README's first command then fails on import)."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "mha_symbolic").rglob("__init__.py")
    }
    assert found - listed == set()


def _requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"].values()
    return [*project["dependencies"], *(r for extra in extras for r in extra)]


def test_every_requirement_is_a_range_not_a_pin() -> None:
    """An exact pin would downgrade a user's newer package (issue: torch==2.13.0 did)."""
    for requirement in _requirements():
        spec = requirement.split(";")[0]
        assert ">=" in spec and "==" not in spec, requirement


# The import name of each required distribution (the rest import as their own name).
IMPORTS = {"python-flint": "flint", "argparse-manpage": "argparse_manpage", "tomli": "tomli"}


def test_every_required_dependency_is_imported_by_the_package() -> None:
    """A required dependency nothing imports only costs the user (latex2sympy2 was one)."""
    source = "\n".join(p.read_text() for p in (ROOT / "mha_symbolic").rglob("*.py"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        name = requirement.split(";")[0].split(">=")[0].strip()
        module = IMPORTS.get(name, name.replace("-", "_"))
        assert re.search(rf"^\s*(import|from) {module}\b(?!_)", source, re.MULTILINE), name
