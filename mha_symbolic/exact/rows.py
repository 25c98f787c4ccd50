"""One entry of a step's SymPy value made from its structured form, and a lazy matrix of them.

A worked solution of a model-sized layer shows 8 x 8 corners of 128 x 768 matrices: making
every entry as a SymPy expression (minutes) to print 64 of them is the waste this avoids.
Every row of attention is its own: row i of a softmax needs row i of the logits only, row i
of a mix of heads only row i of each head's softmax. So row i is made here by the same
operations (:mod:`mha_symbolic.exact.ops`) the evaluator applies to the whole matrix, on a
one-row slice: its entries are the very expressions ``d[key]`` holds (the tests compare them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import flint
import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.exact import ops, rope_rows
from mha_symbolic.exact import structured as st
from mha_symbolic.exact.mix_entries import mix_entry, weight_entry
from mha_symbolic.exact.rope_arb import Rotated, RotatedScores
from mha_symbolic.exact.softmax_rows import ExpRow, softmax_row

EntryMaker = Callable[[int, int], sp.Expr]


def _rational(number: flint.fmpq) -> sp.Rational:
    return sp.Rational(int(number.p), int(number.q))


def _ratio(number: flint.fmpq) -> tuple[int, int]:
    return int(number.p), int(number.q)


class _Logits:
    def __init__(self, logits: st.Logits) -> None:
        self.logits = logits
        matrix = logits.matrix
        # an entry of the scores: rational, or RoPE's by the distance of the tokens
        self.score: EntryMaker = (
            (lambda i, j: _rational(matrix[i, j]))
            if isinstance(matrix, (flint.fmpq_mat, st.Scores))
            else rope_rows.ScoreEntries(matrix)
        )

    def __call__(self, i: int, j: int) -> sp.Expr:
        logits = self.logits
        if logits.allowed is not None and not logits.allowed[i][j]:
            return -sp.oo
        entry = self.score(i, j)
        return entry if logits.factor == 1 else logits.factor * entry

    def row(self, i: int) -> Matrix:
        return Matrix([[self(i, j) for j in range(self.logits.matrix.ncols())]])


class Softmaxes:
    """Row i's softmax of each head (one shared denominator), made once per row for every
    step that reads it (a head's weights, its output, the concatenation, the projection)."""

    def __init__(self) -> None:
        self.made: dict[tuple[int, int], ExpRow] = {}

    def __call__(self, weights: st.Weights, i: int) -> ExpRow:
        key = (id(weights), i)
        if key not in self.made:
            self.made[key] = self._row(weights.logits, i)
        return self.made[key]

    def _row(self, logits: st.Logits, i: int) -> ExpRow:
        if isinstance(logits.matrix, (flint.fmpq_mat, st.Scores)):
            return softmax_row(logits, i)
        # RoPE's logits: the evaluator's own softmax of the one row (SymPy's exp of sums of
        # cos and sin, which the rational rows' integer arithmetic does not hold)
        return ExpRow(rope_rows.logits_softmax(logits, i))


def _weights(weights: st.Weights, softmaxes: Softmaxes) -> EntryMaker:
    def entry(i: int, j: int) -> sp.Expr:
        row = softmaxes(weights, i)
        made = weight_entry(row, j)
        if made is not None:
            return made
        softmax = row.softmax
        return ops.divide(ops.linear_sum([(softmax.exps[0][j], sp.Integer(1))]), softmax.sums[0])

    return entry


def _mix(mix: st.Mix, softmaxes: Softmaxes) -> EntryMaker:
    """Entry (i, c) of sum_h softmax_h V_h (+ rational), as ``ops.output_projection`` writes
    it: the heads over one denominator added inside one fraction, the rational part after."""

    def entry(i: int, c: int) -> sp.Expr:
        made = mix_entry(mix, softmaxes, i, c)
        return made if made is not None else general(i, c)

    def general(i: int, c: int) -> sp.Expr:
        grouped: dict[ops.Sum, list[tuple[sp.Expr, int, int]]] = {}
        for term, column in mix.parts(c):
            softmax = softmaxes(term.weights, i).softmax
            pairs = grouped.setdefault(softmax.sums[0], [])
            pairs.extend(
                (e, *_ratio(column[j]))
                for j, e in enumerate(softmax.exps[0])
                if e is not sp.S.Zero  # (a blocked key; SymPy's 0 is one object)
            )
        total = sp.Add(
            *(ops.divide(ops.collected_sum(pairs, True), z, True) for z, pairs in grouped.items())
        )
        return total if mix.rational is None else total + _rational(mix.rational[i, c])

    return entry


def entry_maker(form: Any, softmaxes: Softmaxes) -> EntryMaker | None:
    """Entry (i, j) of the SymPy value of a step held as ``form`` (the softmax rows it needs
    from ``softmaxes``, shared by the steps of one derivation); None for a form (a gradient's
    formula) whose entries are not made one by one."""
    if isinstance(form, flint.fmpq_mat):
        return lambda i, j: _rational(form[i, j])
    if isinstance(form, Rotated):
        return None if form.transposed else rope_rows.rotated_entries(form)
    if isinstance(form, RotatedScores):
        return rope_rows.ScoreEntries(form)
    if isinstance(form, st.Logits):
        return _Logits(form)
    if isinstance(form, st.Weights):
        return _weights(form, softmaxes)
    if isinstance(form, st.Mix):
        return _mix(form, softmaxes)
    return None


def shape_of(form: Any) -> tuple[int, int]:
    if isinstance(form, flint.fmpq_mat):
        return (form.nrows(), form.ncols())
    if isinstance(form, Rotated):
        return (form.matrix.nrows(), form.matrix.ncols())
    if isinstance(form, RotatedScores):
        return (form.nrows(), form.ncols())
    if isinstance(form, st.Logits):
        return (form.matrix.nrows(), form.matrix.ncols())
    if isinstance(form, st.Weights):
        return (form.logits.matrix.nrows(), form.logits.matrix.ncols())
    assert isinstance(form, st.Mix)
    return (form.rows, form.cols)


def _within(index: int, size: int, what: str) -> int:
    if not -size <= index < size:
        raise IndexError(f"{what} {index} of {size}")
    return index % size


class Entries:
    """A step's exact value read entry by entry, each entry made when first read.

    It answers what printing a matrix asks (``rows``, ``cols``, ``shape``, ``m[i, j]``,
    ``row(i)``, ``free_symbols``) and maps lazily (``applyfunc``, ``xreplace``): a solution
    that shows an 8 x 8 corner of a 128 x 768 value makes those 64 entries (and the softmax
    rows they need), not 98,304. ``matrix()`` makes every entry (what ``d[key]`` is).
    """

    def __init__(self, shape: tuple[int, int], entry: EntryMaker) -> None:
        self.rows, self.cols = shape
        self._entry = entry
        self._made: dict[tuple[int, int], sp.Expr] = {}

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return set()  # made from rational inputs: numbers only

    def entry(self, i: int, j: int) -> sp.Expr:
        i, j = _within(i, self.rows, "row"), _within(j, self.cols, "column")
        if (i, j) not in self._made:
            self._made[i, j] = self._entry(i, j)
        return self._made[i, j]

    def row(self, i: int) -> tuple[sp.Expr, ...]:
        return tuple(self.entry(i, j) for j in range(self.cols))

    def __getitem__(self, index: tuple[int | slice, int | slice]) -> Any:
        """An entry ``m[i, j]``; a part (an ImmutableMatrix) when either index is a slice."""
        i, j = index
        if isinstance(i, int) and isinstance(j, int):
            return self.entry(i, j)
        rows = range(self.rows)[i] if isinstance(i, slice) else [i]
        cols = range(self.cols)[j] if isinstance(j, slice) else [j]
        return Matrix([[self.entry(r, c) for c in cols] for r in rows])

    def __iter__(self) -> Iterator[sp.Expr]:
        for i in range(self.rows):
            yield from self.row(i)

    def __len__(self) -> int:
        return self.rows * self.cols

    def applyfunc(self, function: Callable[[sp.Expr], sp.Expr]) -> Entries:
        return Entries(self.shape, lambda i, j: function(self.entry(i, j)))

    def xreplace(self, mapping: dict[sp.Basic, sp.Basic]) -> Entries:
        return self.applyfunc(lambda e: e.xreplace(mapping))

    def matrix(self) -> Matrix:
        return Matrix(self.rows, self.cols, list(self))


class LargeValue:
    """A step's exact value at model scale, read the way a matrix is: ``m[i, j]`` is an exact
    entry, ``m[i, :]`` (any part) an ImmutableMatrix, each made from the structure when read
    (with the softmax rows it needs), as ``d.step(key).entries`` makes them.

    Only the whole matrix as one SymPy object (its iteration, ``m[:, :]``, any other matrix
    method) is refused, with the derivation's refusal: that is what takes minutes.
    """

    def __init__(self, entries: Entries, key: str, refusal: str) -> None:
        self._entries, self._key, self._refusal = entries, key, refusal
        self.rows, self.cols = entries.shape

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return set()  # made from rational inputs: numbers only

    def refused(self) -> SpecError:
        """The refusal of the whole matrix, saying what is read at once instead."""
        at = f"d[{self._key!r}]"
        return SpecError(
            f"{self._refusal}; only the whole matrix as one SymPy object takes that long: "
            f"its entries and rows are made one at a time ({at}[i, j], {at}[i, :])"
        )

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int):  # a flat index, as a SymPy matrix takes it
            i, j = divmod(index if index >= 0 else index + self.rows * self.cols, self.cols)
            return self._entries.entry(i, j)
        i, j = index
        rows = range(self.rows)[i] if isinstance(i, slice) else None
        cols = range(self.cols)[j] if isinstance(j, slice) else None
        if rows is not None and cols is not None and (len(rows), len(cols)) == self.shape:
            raise self.refused()
        return self._entries[i, j]

    def row(self, i: int) -> Matrix:
        return Matrix([self._entries.row(i)])

    def __iter__(self) -> Iterator[sp.Expr]:
        raise self.refused()

    def __len__(self) -> int:
        return self.rows * self.cols

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # Python's protocols (copy, NumPy, display) look, quietly
            raise AttributeError(name)
        raise self.refused()  # a SymPy matrix method: it needs every entry

    def __repr__(self) -> str:
        return (
            f"<exact {self.rows} x {self.cols} value of step {self._key!r}, made entry by "
            f"entry: [i, j] an entry, [i, :] a row>"
        )
