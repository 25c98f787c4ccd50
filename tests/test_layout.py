"""The package's names: no module named like a standard-library module, and no two modules
sharing a name in different packages (each name has one meaning)."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mha_symbolic"


def _modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if not p.name.startswith("__")]


def test_no_module_or_package_shadows_the_standard_library() -> None:
    names = {p.stem for p in _modules()}
    names |= {p.parent.name for p in PACKAGE.rglob("__init__.py")}
    assert sorted(names & set(sys.stdlib_module_names)) == []


def test_no_two_modules_share_a_name() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in _modules():
        where[path.stem].append(str(path.relative_to(PACKAGE)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
