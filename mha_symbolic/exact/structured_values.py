"""The values of the structured (FLINT) form of attention: rational matrices, logits, the
softmax's weights, mixes of heads and the mask (see :mod:`mha_symbolic.exact.structured`).

They are apart from the walker so that an operation's structured rule (the softmax's, in
:mod:`mha_symbolic.operations.softmax`) can make them without importing the walker.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Union

import flint
import sympy as sp

from mha_symbolic.exact.rope_arb import Rotated, RotatedScores


class Unstructured(Exception):
    """A node or leaf this structure does not hold (the SymPy path derives it)."""


class Scores:
    """``left @ right`` of two integer matrices, held as the pair: the scores ``Q_h K_h^T``
    over their common denominators (the denominators are the logits' factor). A layer's
    scores are larger than their factors (1024 x 1024 against 1024 x 64 twice for GPT-2 at
    its context), so they are not multiplied out when derived: an exact entry is made a row
    at a time when read, the enclosure multiplies the factors block by block (only the keys
    a causal mask leaves open; measured at GPT-2's context, about what making the whole
    product and listing its balls costs), and a rule that reads a plain matrix asks for
    :meth:`exact`, the whole product. The derivation holds less (1.4 GB at its peak for
    that layer, 2.2 GB with the products)."""

    _KEPT = 64  # rows kept after they are read (each 1 x L exact integers)

    def __init__(self, left: flint.fmpz_mat, right: flint.fmpz_mat) -> None:
        if left.ncols() != right.nrows():
            raise ValueError(f"scores of {left.ncols()} and {right.nrows()} features")
        self.left, self.right = left, right
        self._rows: dict[int, list[flint.fmpq]] = {}

    def nrows(self) -> int:
        return int(self.left.nrows())

    def ncols(self) -> int:
        return int(self.right.ncols())

    def exact(self) -> flint.fmpq_mat:
        """The whole product, exactly."""
        return flint.fmpq_mat(self.left * self.right)

    def row(self, i: int) -> list[flint.fmpq]:
        """Row ``i`` of the product, exactly (one 1 x d times d x L product)."""
        held = self._rows.get(i)
        if held is None:
            width = self.left.ncols()
            features = flint.fmpz_mat(1, width, [self.left[i, k] for k in range(width)])
            held = [flint.fmpq(n) for n in (features * self.right).entries()]
            if len(self._rows) >= self._KEPT:
                self._rows.pop(next(iter(self._rows)))
            self._rows[i] = held
        return held

    def __getitem__(self, index: tuple[int, int]) -> flint.fmpq:
        i, j = index
        return self.row(i)[j]


@dataclass(frozen=True)
class Logits:
    """``factor * matrix``, with the entries where ``allowed`` is False blocked (-oo)."""

    factor: sp.Expr  # a positive real number: rational, or e.g. sqrt(2)/4
    # rational, the scores as their integer factors, or RoPE's queries and keys
    matrix: flint.fmpq_mat | Scores | RotatedScores
    allowed: tuple[tuple[bool, ...], ...] | None = None


def rational_logits(value: object) -> bool:
    """A rational factor times a rational matrix, nothing blocked: the scale kept apart, or
    a product kept as integers and one factor (``exact.structured``'s products)."""
    return (
        isinstance(value, Logits)
        and value.allowed is None
        and value.factor.is_Rational
        and isinstance(value.matrix, (flint.fmpq_mat, Scores))
    )


def rational_of(value: Value) -> Value:
    """``value`` with rational logits made the rational matrix they stand for (for a rule
    that reads a plain matrix); any other value as it is."""
    if not rational_logits(value):
        return value
    assert isinstance(value, Logits) and isinstance(value.matrix, (flint.fmpq_mat, Scores))
    factor = value.factor
    matrix = value.matrix.exact() if isinstance(value.matrix, Scores) else value.matrix
    return matrix * flint.fmpq(int(factor.p), int(factor.q))


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
    """``(sum of terms) @ after + rational`` (rational: a full-shape matrix, or None for 0).

    ``after`` (None: the identity) is the output projection kept apart from the heads'
    values: ``V_h W_O^h`` is never formed (a LLaMA layer's would be 4 billion exact
    multiply-adds and a matrix per head); the enclosure multiplies the heads' concatenated
    outputs by it once, and an exact entry reads the one column of ``V_h W_O^h`` it needs."""

    rows: int
    cols: int
    terms: tuple[Term, ...]
    rational: flint.fmpq_mat | None = None
    after: flint.fmpq_mat | None = None
    _columns: dict[tuple[int, int], list[flint.fmpq]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def parts(self, c: int) -> Iterator[tuple[Term, list[flint.fmpq]]]:
        """Each term that reaches column ``c``, with the column of its matrix (times
        ``after``) that column c reads: entry j is the coefficient of weight j."""
        for index, term in enumerate(self.terms):
            width = term.matrix.ncols()
            if self.after is None:
                if term.offset <= c < term.offset + width:
                    column = c - term.offset
                    yield term, [term.matrix[j, column] for j in range(term.matrix.nrows())]
                continue
            held = self._columns.get((index, c))
            if held is None:
                picked = [self.after[term.offset + k, c] for k in range(width)]
                held = (term.matrix * flint.fmpq_mat(width, 1, picked)).entries()
                self._columns[(index, c)] = held
            yield term, held


@dataclass(frozen=True)
class Repeated:
    """``base`` of ``kv`` blocks of rows (``by_rows``) or columns, each standing ``group``
    times in a row: grouped-query attention's keys and values, projected once per key/value
    head and read by each query head of its group."""

    base: flint.fmpq_mat
    kv: int
    group: int
    by_rows: bool

    def transpose(self) -> Repeated:
        return Repeated(self.base.transpose(), self.kv, self.group, not self.by_rows)

    def width(self) -> int:
        """Rows (``by_rows``) or columns of one block."""
        return (self.base.nrows() if self.by_rows else self.base.ncols()) // self.kv


@dataclass(frozen=True)
class Blocked:
    """The additive mask: 0 where a query may attend, -oo where it may not."""

    allowed: tuple[tuple[bool, ...], ...]


Value = Union[  # noqa: UP007 (3.10 runtime)
    flint.fmpq_mat, Logits, Weights, Mix, Blocked, Repeated, sp.Expr, Rotated, RotatedScores
]
