"""Shapes a text states beside a name ("W_q: [3, 2]", "Query = Feature @ W_q, giving [4, 2]"):
two or three positive integers in one row, named as a matrix the page prints elsewhere with
exactly that many rows and columns, are that matrix's shape, not a one-row value of it (which
would start another example and be judged against the real matrix)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar

Seen = TypeVar("Seen", bound=Any)  # reading's Seen (reading calls this module as it reads)

_MATRICES = ("x", "w_q", "w_k", "w_v", "w_o", "q", "k", "v", "scores", "weights", "output")


def stated_shapes(seen: Sequence[Seen]) -> list[Seen]:
    """``seen`` with each such statement of a shape read as a shape."""
    printed = {(s.role, _shape(s)) for s in seen if len(s.item.rows) > 1}
    return [
        replace(s, role="shape") if _mention(s) and (s.role, _numbers(s)) in printed else s
        for s in seen
    ]


def _mention(s: Seen) -> bool:
    """Two or three positive integers not ending a chain of working ("= [2, 2]" is a value)."""
    rows = s.item.rows
    if s.role not in _MATRICES or s.row is not None or len(rows) != 1:
        return False
    if s.item.statement.rstrip().endswith(("=", "≈", "→", "\\approx", "\\to")):
        return False
    return 2 <= len(rows[0]) <= 3 and all(e.isdigit() and 0 < int(e) <= 65536 for e in rows[0])


def _numbers(s: Seen) -> tuple[int, ...]:
    return tuple(int(e) for e in s.item.rows[0])


def _shape(s: Seen) -> tuple[int, ...]:
    rows = s.item.rows
    return (len(rows), len(rows[0]) if rows else 0)
