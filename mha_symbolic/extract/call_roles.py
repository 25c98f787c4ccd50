"""Q, K and V passed to an attention function (``attention(Q, K, V)``,
``F.scaled_dot_product_attention(q, k, v, attn_mask=...)``, ``attn(query, keys, vals)``): the
arrays named by its first three arguments are the queries, keys and values, whatever the
names (``a``, ``b``, ``c``; ``x1``, ``x2``, ``x3``), when they were printed before the call."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from mha_symbolic.extract.items import Item


class _Array(Protocol):
    """A printed array as read (the reader's ``Seen``: this module stands below the reader)."""

    @property
    def item(self) -> Item: ...
    @property
    def name(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def row(self) -> int | None: ...
    @property
    def col(self) -> int | None: ...


A = TypeVar("A", bound=_Array)

_NAME = r"\s*([A-Za-z_]\w*)\s*"
_CALL = re.compile(
    r"(?<![\w.])(?:def\s+)?(?:\w+\.)*(\w*(?:attention|attn|sdpa|mha)\w*)\s*\("
    + _NAME
    + ","
    + _NAME
    + ","
    + _NAME
    + r"[,)]",
    re.IGNORECASE,
)
_ROLES = ("q", "k", "v")


def call_roles(seen: Sequence[A], body: str) -> list[A]:
    """The arrays with the roles the calls of an attention function give their arguments."""
    out = list(seen)
    for call in _CALL.finditer(body):
        names = call.group(2, 3, 4)
        if call.group(0).startswith("def") or len(set(names)) < 3:
            continue  # a definition's parameters, or self-attention's one X
        for role, name in zip(_ROLES, names):
            at = _defined(out, name, call.start())
            if at is not None and out[at].role != role:
                s: Any = out[at]
                out[at] = replace(s, role=role, head=None, names=(f"{role}:",), printed=(name,))
    return out


def _defined(seen: Sequence[A], name: str, before: int) -> int | None:
    """The last whole array printed under ``name`` before the call."""
    found = [
        i
        for i, s in enumerate(seen)
        if s.name == name
        and s.item.start < before
        and s.row is None
        and s.col is None
        and s.role != "shape"  # Q = query.reshape(1, -1)  # (1, 3)
    ]
    return found[-1] if found else None
