"""The values of the structured (FLINT) form of attention: rational matrices, logits, the
softmax's weights, mixes of heads and the mask (see :mod:`mha_symbolic.exact.structured`).

They are apart from the walker so that an operation's structured rule (the softmax's, in
:mod:`mha_symbolic.operations.softmax`) can make them without importing the walker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import flint
import sympy as sp

from mha_symbolic.exact.rope_arb import Rotated, RotatedScores


class Unstructured(Exception):
    """A node or leaf this structure does not hold (the SymPy path derives it)."""


@dataclass(frozen=True)
class Logits:
    """``factor * matrix``, with the entries where ``allowed`` is False blocked (-oo)."""

    factor: sp.Expr  # a positive real number: rational, or e.g. sqrt(2)/4
    matrix: flint.fmpq_mat | RotatedScores  # rational, or RoPE's queries and keys
    allowed: tuple[tuple[bool, ...], ...] | None = None


@dataclass(frozen=True)
class Weights:
    """softmax over each row of ``logits``."""

    logits: Logits


@dataclass(frozen=True)
class Term:
    """``weights @ matrix``, placed at columns ``offset``.. of its mix."""

    weights: Weights
    matrix: flint.fmpq_mat
    offset: int


@dataclass(frozen=True)
class Mix:
    """``sum of terms + rational`` (rational: a full-shape matrix, or None for 0)."""

    rows: int
    cols: int
    terms: tuple[Term, ...]
    rational: flint.fmpq_mat | None = None


@dataclass(frozen=True)
class Blocked:
    """The additive mask: 0 where a query may attend, -oo where it may not."""

    allowed: tuple[tuple[bool, ...], ...]


Value = Union[flint.fmpq_mat, Logits, Weights, Mix, Blocked, sp.Expr, Rotated, RotatedScores]  # noqa: UP007 (3.10 runtime)
