"""The page's matrix grids: the entries of X and of the weights as the spec writes them, and
one entry changed in the spec's text with everything else (comments, layout) kept."""

from __future__ import annotations

import re
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.text import one_line

INPUTS = ("x", "query", "key", "value")
WEIGHTS = ("w_q", "w_k", "w_v", "w_o")
MAX_SIDE = 12  # a larger matrix is edited in the TOML
_INTEGER = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")


def _entries(value: Any) -> list[list[str]] | None:
    """A matrix's entries as written (a string without its quotes), or None when ``value``
    is not a list of equal rows of numbers and strings of at most MAX_SIDE a side."""
    if not isinstance(value, list) or not value or len(value) > MAX_SIDE:
        return None
    rows = []
    for row in value:
        if not isinstance(row, list) or not row or len(row) > MAX_SIDE:
            return None
        if any(isinstance(e, (list, dict, bool)) for e in row):
            return None
        rows.append([e if isinstance(e, str) else e.as_string() for e in row])
    return rows if len({len(r) for r in rows}) == 1 else None


def grids(text: str) -> list[dict[str, Any]]:
    """Every editable matrix of the spec text: inputs, then each weight (per head)."""
    import tomlkit

    try:
        doc = tomlkit.parse(text)
    except Exception:  # any TOML error: the editor says it; no grids meanwhile
        return []
    out = []
    for name in INPUTS:
        rows = _entries(doc.get(name))
        if rows:
            out.append({"key": name, "path": [name], "title": name, "rows": rows})
    weights = doc.get("weights", {})
    for name in WEIGHTS:
        given = weights.get(name) if isinstance(weights, dict) else None
        rows = _entries(given)
        if rows:  # one matrix (fused, split, or a shared W_O)
            out.append({"key": name, "path": ["weights", name], "title": name, "rows": rows})
            continue
        for head, matrix in enumerate(given if isinstance(given, list) else [], start=1):
            rows = _entries(matrix)
            if rows:
                title, path = f"{name}, head {head}", ["weights", name, str(head - 1)]
                out.append({"key": name, "path": path, "title": title, "rows": rows})
    return out


def _literal(value: str) -> Any:
    """What a grid's cell holds: a whole number, a decimal (kept as written), or a string
    (a fraction or LaTeX, read by the spec's number reader)."""
    import tomlkit

    value = value.strip()
    if not value:
        raise SpecError("an entry cannot be empty")
    if _INTEGER.fullmatch(value) or _FLOAT.fullmatch(value):
        return tomlkit.parse(f"v = {value}")["v"]
    return tomlkit.string(value)


def edit(text: str, path: list[Any], row: int, col: int, value: str) -> str:
    """``text`` with entry (``row``, ``col``) (0-based) of the matrix at ``path`` set."""
    import tomlkit

    try:
        doc = tomlkit.parse(text)
        target: Any = doc
        for step in path:  # a head's index is sent as text, as every other step
            target = target[int(step) if isinstance(step, str) and step.isdigit() else step]
        target[row][col] = _literal(value)
    except SpecError:
        raise
    except Exception:  # a path the text does not have (it changed meanwhile)
        where = one_line(".".join(str(p) for p in path))
        raise SpecError(f"{where}[{row + 1},{col + 1}]: not in the spec any more") from None
    return str(tomlkit.dumps(doc))
