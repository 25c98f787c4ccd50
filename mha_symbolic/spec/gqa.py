"""Grouped-query attention: ``kv_heads`` key/value heads, each shared by a group of query heads.

Query head i uses key/value head ``i // (heads // kv_heads)`` (as ``repeat_interleave`` and
torch's ``enable_gqa`` do). The spec stores the key/value weights repeated once per query
head, so every consumer (derivation, rendering, checking, compiling) sees ordinary multi-head
attention whose heads in a group share K and V exactly. A float array read in binary is read
once per key/value head and its repeats made only when read (the exact structure projects
each key/value head once: see :meth:`.BinaryMatrix.repeated`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import bounds
from mha_symbolic.spec import exact_numbers as exact

SHARED = ("w_k", "w_v", "b_k", "b_v")


def kv_heads(value: Any, heads: int, layout: str) -> int:
    """The validated number of key/value heads (default: ``heads``)."""
    if value is None:
        return heads
    given, value = value, bounds.integer(value)  # a NumPy integer is an integer
    if value is None or value < 1:
        raise SpecError(f"kv_heads must be a positive integer, got {given!r}")
    if heads % value:
        raise SpecError(f"kv_heads = {value} does not divide heads = {heads}")
    if value != heads and layout == "split":
        raise SpecError(
            "kv_heads needs layout per_head or fused (split heads each read their own slice)"
        )
    return value


def expand(table: Any, heads: int, kv: int, layout: str, convention: str) -> Any:
    """The [weights] table with each key/value head's weights repeated for its query heads."""
    if kv == heads or not isinstance(table, Mapping):
        return table
    for name in ("w_k", "w_v"):
        if table.get(name) is None or (
            isinstance(table[name], str) and "\\begin" not in table[name]
        ):
            raise SpecError(
                f"kv_heads = {kv} < heads = {heads} needs {name} given as numbers "
                "(identity and symbolic key/value weights cannot be shared)"
            )
    group = heads // kv
    out = dict(table)
    for name in SHARED:
        if name in table and layout == "per_head":
            out[name] = _per_head(name, table[name], kv, group)
        elif name in table:
            out[name] = _fused(name, table[name], kv, group, convention)
    return out


def _per_head(name: str, value: Any, kv: int, group: int) -> list[Any]:
    if getattr(value, "ndim", 0) >= 2:  # an array of one matrix (or vector) per head
        value = list(value)
    if name.startswith("b_") and _is_flat(value):
        vector = exact.to_vector(value, name)
        if vector.cols % kv:
            raise SpecError(f"{name} has {vector.cols} entries, not a multiple of kv_heads = {kv}")
        value = [list(block) for block in _blocks(vector, kv)]
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != kv:
        count = len(value) if isinstance(value, Sequence) and not isinstance(value, str) else 1
        raise SpecError(
            f"{name} has {count} {'matrix' if count == 1 else 'matrices'} but kv_heads = {kv}; "
            "give one per key/value head"
        )
    return [item for item in value for _ in range(group)]


def _fused(name: str, value: Any, kv: int, group: int, convention: str) -> Any:
    if name.startswith("b_"):
        return list(_repeat_columns(exact.to_vector(value, name), name, kv, group))
    if getattr(value, "ndim", None) == 2 and hasattr(value, "reshape"):  # an array
        return _repeat_array(value, name, kv, group, 0 if convention == "xWT" else 1)
    matrix = exact.to_matrix(value, name)
    if convention == "xWT":  # (out x in): the heads are row blocks
        return _repeat_columns(matrix.T, name, kv, group).T
    return _repeat_columns(matrix, name, kv, group)


def _repeat_columns(
    matrix: sp.ImmutableMatrix, name: str, kv: int, group: int
) -> sp.ImmutableMatrix:
    if matrix.cols % kv:
        raise SpecError(
            f"kv_heads = {kv} does not divide the width {matrix.cols} that {name} projects to"
        )
    blocks = _blocks(matrix, kv)
    return sp.ImmutableMatrix(sp.Matrix.hstack(*(b for b in blocks for _ in range(group))))


def _repeat_array(value: Any, name: str, kv: int, group: int, axis: int) -> Any:
    """A weight array (a model's: millions of floats) with each head's block repeated, as an
    array: read once afterwards, never entry by entry as SymPy numbers."""
    import numpy as np

    array = np.asarray(value)
    if array.shape[axis] % kv:
        raise SpecError(
            f"kv_heads = {kv} does not divide the width {array.shape[axis]} that {name} projects to"
        )
    shared = exact.binary_repeated(array, name, kv, group, axis == 0)
    if shared is not None:  # each key/value head's weights read once, not once per query head
        return shared
    blocks = np.split(array, kv, axis=axis)
    return np.concatenate([block for block in blocks for _ in range(group)], axis=axis)


def _blocks(matrix: sp.MatrixBase, parts: int) -> list[sp.ImmutableMatrix]:
    width = matrix.cols // parts
    return [sp.ImmutableMatrix(matrix[:, i * width : (i + 1) * width]) for i in range(parts)]


def _is_flat(value: Any) -> bool:
    if isinstance(value, sp.MatrixBase):
        return value.rows == 1
    if hasattr(value, "ndim"):
        return bool(value.ndim == 1)
    return isinstance(value, Sequence) and not any(
        isinstance(v, Sequence) and not isinstance(v, str) for v in value
    )
