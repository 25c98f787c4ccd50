"""Weights a page fixes into a torch layer in code instead of printing them:
``W_k.weight.copy_(torch.eye(d) * 2)`` (usually under ``with torch.no_grad():``),
``W_v.weight.data = torch.tensor([[...]])``, ``W_q.weight = nn.Parameter(torch.eye(4))``.

The array is the layer's weight, named by the layer (``W_k``), as if the page had written
``W_k = torch.eye(d) * 2``: the constructors are read by code_arrays, a list literal by the
list finder, and the name by the reading of statements. A torch layer applies its weight
transposed (X W^T); the page's ``nn.Linear`` says so to the convention's reading."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mha_symbolic.extract.formats import Line

_NAME = r"([A-Za-z_]\w*)\.weight"
_END = r"\s*(?:#.*)?$"
# Each with the layer's name (group 1) and the expression of its weight (group 2).
_SETTERS = (
    re.compile(rf"^\s*{_NAME}(?:\.data)?\.copy_\((.+)\){_END}"),
    re.compile(rf"^\s*{_NAME}(?:\.data)?\s*=(?!=)\s*(?:torch\.)?nn\.Parameter\((.+)\){_END}"),
    re.compile(rf"^\s*{_NAME}\.data\s*=(?!=)\s*(.+?){_END}"),
)
# The same at the end of a statement whose value (a list literal) starts after it.
_SETTER_START = re.compile(
    r"([A-Za-z_]\w*)\.weight(?:\.data)?(?:\.copy_\(|\s*=(?!=)\s*(?:(?:torch\.)?nn\.Parameter\()?)"
    r"(?=[\w.\s(]*$)"
)
_NO_GRAD = re.compile(r"^with\s+torch\.no_grad\(\)\s*:\s*(?:#.*)?$")


def layer_weight(lines: Sequence[Line], index: int) -> re.Match[str] | None:
    """The statement at ``index`` when it sets a layer's weight, at the top level of the code
    or in a ``with torch.no_grad():`` block there (never inside a function's body)."""
    line = lines[index]
    found = next((m for p in _SETTERS if (m := p.match(line.text))), None)
    if found is None or not line.text[0].isspace():
        return found
    depth = len(line.text) - len(line.text.lstrip())
    for back in range(index - 1, -1, -1):
        above = lines[back]
        if above.output or above.cell != line.cell:
            return None
        if above.text.strip() and len(above.text) - len(above.text.lstrip()) < depth:
            return found if _NO_GRAD.match(above.text) else None
    return None


def as_assignment(statement: str) -> str:
    """``W_v.weight.copy_(torch.tensor(`` before a list literal read as ``W_v = torch.tensor(``."""
    head, _, last = statement.rpartition("\n")
    found = _SETTER_START.search(last)
    if found is None:
        return statement
    last = f"{last[: found.start()]}{found.group(1)} = {last[found.end() :]}"
    return f"{head}\n{last}" if head else last
