"""One token's projection printed on a line of its own, under the token's label ("please:
[1, 0] · Wq = [1×1+0×0, 1×0+0×1] = [1, 0]"): the result is that token's row of what the weight
projects to (Q for W_Q), not the weight, which is a matrix and never one row."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.extract.reading import Seen

_PROJECTS = {"w_q": "q", "w_k": "k", "w_v": "v"}
_LABEL = re.compile(r"^\s*[*•-]?\s*[\"“'`]?([^\W\d][\w'’-]*)[\"”'`]?\s*(?::|→|->)")
_TIMES = r"(?:·|@|\*|×|\\cdot|\\times)\s*"


def token_products(seen: Sequence[Seen], tokens: Sequence[str]) -> list[Seen]:
    """The arrays with each one-row product of a labelled token's vector by a weight read as
    that token's row of the projection."""
    return [_product_row(s, tokens) for s in seen]


def _product_row(s: Seen, tokens: Sequence[str]) -> Seen:
    if s.role not in _PROJECTS or len(s.item.rows) != 1 or not s.name:
        return s
    line = s.item.statement.split("\n")[-1]
    label = _LABEL.match(line)
    if label is None or label.group(1) not in tokens:
        return s
    if not re.search(_TIMES + re.escape(s.name) + r"(?!\w)", line[label.end() :]):
        return s  # the weight is not what the token's vector is multiplied by
    role = _PROJECTS[s.role]
    row = list(tokens).index(label.group(1)) + 1
    return replace(s, role=role, row=row, row_from="", names=(f"{role}:{s.head or ''}",))
