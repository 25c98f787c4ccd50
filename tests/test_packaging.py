"""The wheel ships every package of the source tree: pyproject's explicit list names them all."""

from __future__ import annotations

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
