"""The mask: ``none``, ``causal`` or a 0/1 matrix (1 = may attend), and ``mask_fill``, the value
masked scores take: ``-inf`` (weight exactly 0) or a number such as -10^9, as PyTorch's
``masked_fill(mask, -1e9)`` writes it (a tiny weight, and equal weights on a row with every
key masked, where -inf leaves the softmax undefined)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.text import did_you_mean

MASKS = ("none", "causal")


def read(raw: Mapping[str, Any], n_query: int, n_key: int) -> dict[str, Any]:
    """``mask_kind``, ``mask`` (0/1, or None) and ``mask_fill`` of a spec."""
    fill = raw.get("mask_fill", "-inf")
    values = _mask(raw.get("mask", "none"), n_query, n_key, fill)
    values["mask_fill"] = mask_fill(fill, values["mask_kind"])
    return values


def _choice(value: str) -> str:
    if value not in MASKS:
        raise SpecError(
            f"unknown mask {value!r}{did_you_mean(value, MASKS)}; choose one of {', '.join(MASKS)}"
        )
    return value


def _shape(matrix: sp.MatrixBase) -> tuple[int, int]:
    return (matrix.rows, matrix.cols)


def _mask(value: Any, n_query: int, n_key: int, fill: Any) -> dict[str, Any]:
    if isinstance(value, str) and "\\begin" not in value:
        kind = _choice(value)
        if kind == "none":
            return {"mask_kind": "none", "mask": None}
        causal = Matrix(n_query, n_key, lambda i, j: 1 if j <= i else 0)
        return {"mask_kind": "causal", "mask": causal}
    matrix = exact.to_matrix(value, "mask")
    if _shape(matrix) != (n_query, n_key):
        raise SpecError(
            f"mask has shape {_shape(matrix)} but the scores have shape "
            f"({n_query}, {n_key}) (queries x keys)"
        )
    for (i, j), entry in sorted(matrix.todok().items()):
        if entry not in (0, 1):
            raise SpecError(
                f"mask[{i + 1},{j + 1}] is {entry}; a mask holds 0 (blocked) or 1 (may attend)"
            )
    for i in range(n_query if fill in ("-inf", "-oo") else 0):  # a finite fill: uniform row
        if not any(matrix[i, j] == 1 for j in range(n_key)):
            raise SpecError(
                f"mask row {i + 1} blocks every key; softmax over no keys is "
                "undefined (allow at least one key per row)"
            )
    return {"mask_kind": "matrix", "mask": matrix}


def mask_fill(value: Any, mask_kind: str) -> sp.Expr:
    """``"-inf"`` (masked weights exactly 0) or the exact number masked scores take
    (``"-1e9"``: PyTorch's ``masked_fill(mask, -1e9)``)."""
    if value in ("-inf", "-oo"):
        return -sp.oo
    if mask_kind == "none":
        raise SpecError("mask_fill is given but mask is none; give a mask (causal or 0/1)")
    number = exact.to_number(value, "mask_fill")
    if number.free_symbols or not number.is_real or not number.is_finite:
        raise SpecError(
            f'mask_fill must be "-inf" or an exact real number like "-1e9", got {value!r}'
        )
    return number
