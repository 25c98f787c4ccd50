"""The values a claim may be about: the derivation's steps and the intermediates documents print.

Documents print the softmax numerators e^{s_ij} (``head1.exp``), their row sums
(``head1.sums``, one column), each key's share of an output row, a_ij v_j
(``head1.weighted[i]``: one row per key j for query i; ``head1.weighted[i,j]`` one row) and the
row sums of the weights, printed to show that each row sums to 1 (``head1.weight_sums``, a row),
and those of the weights masked after the softmax, which do not (``head1.kept_sums``).
They are computed here from the derivation's exact values: the model has no nodes for them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.model.program import Program, build

_DIGITS = 30  # of the enclosures verdicts are decided with
PER_QUERY = re.compile(r"head\d+\.weighted")


def _program(d: Derivation) -> Program:
    return d.program if d.program is not None else build(d.spec)


class Values(Mapping[str, Matrix]):
    """Step key -> exact value, the derivation's own steps first, intermediates when asked."""

    def __init__(self, d: Derivation) -> None:
        self.d = d
        self._made: dict[str, Callable[[], Matrix]] = {}
        self.shapes: dict[str, tuple[int, int]] = {step.key: step.shape for step in d.steps}
        self._cache: dict[str, Matrix] = {}
        self._balls: dict[str, list[list[Any]] | None] = {}
        program = _program(d)
        for n in program.heads():
            self._add_head(program, n)

    def _add_head(self, program: Program, n: int) -> None:
        rows, cols = self.shapes[f"head{n}.weights"]
        weights = program.node(f"head{n}.weights")
        if self.d.facts.is_a(weights.kind, "weights"):  # not when the weights are given
            logits = program.logits(n).key
            self._put(f"head{n}.exp", (rows, cols), lambda: _exponentials(self.d[logits]))
            self._put(f"head{n}.sums", (rows, 1), lambda: _row_sums(self[f"head{n}.exp"]))
        weights_key, kept_key = f"head{n}.weights", f"head{n}.kept"
        self._put(f"head{n}.weight_sums", (1, rows), lambda: _weight_sums(self.d[weights_key]))
        if kept_key in self.shapes:  # the weights masked after the softmax: their row sums
            self._put(f"head{n}.kept_sums", (1, rows), lambda: _weight_sums(self.d[kept_key]))
        value = _value_key(program, n)
        if value is None:
            return
        width = self.shapes[value][1]
        for i in range(1, rows + 1):
            self._put(f"head{n}.weighted[{i}]", (cols, width), self._weighted(n, value, i))

    def _weighted(self, n: int, value: str, i: int) -> Callable[[], Matrix]:
        return lambda: _weighted(self.d[f"head{n}.weights"], self.d[value], i - 1)

    def _put(self, key: str, shape: tuple[int, int], make: Callable[[], Matrix]) -> None:
        self.shapes[key] = shape
        self._made[key] = make

    def __getitem__(self, key: str) -> Matrix:
        if key in self.d:  # entries made as a claim reads them (a lazy step's Entries)
            return self.d.step(key).entries
        if key not in self._cache:
            self._cache[key] = self._made[key]()
        return self._cache[key]

    def enclosure(self, key: str) -> list[list[Any]] | None:
        """Step ``key``'s entries as certified balls (30 digits, from the structure), which
        decide most verdicts at once; None where there are none (symbols, -oo, no structure)."""
        if self.d.structured is None or key not in self.d.structured:
            return None
        if key not in self._balls:
            try:
                self._balls[key] = self.d.enclose(key, _DIGITS)
            except ValueError:  # -oo (masked logits): the exact entries decide
                self._balls[key] = None
        return self._balls[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.shapes)

    def __len__(self) -> int:
        return len(self.shapes)


def _value_key(program: Program, n: int) -> str | None:
    """The key of the V step head ``n`` attends with (its output is A V)."""
    attend = program.node(f"head{n}.output").expr
    v = attend.args[-1] if isinstance(attend, sp.MatMul) else None
    return next((node.key for node in program if node.symbol == v), None)


def _exponentials(logits: Matrix) -> Matrix:
    """e^{s_ij}, unshifted as documents write it; a masked score (-oo) gives 0."""
    return Matrix(logits.applyfunc(lambda s: sp.Integer(0) if s == -sp.oo else sp.exp(s)))


def _row_sums(exponentials: Matrix) -> Matrix:
    return Matrix([[sum(exponentials.row(i))] for i in range(exponentials.rows)])


def _weight_sums(weights: Matrix) -> Matrix:
    """Each row's sum of weights as one row: 1 (0 for a row masked whole), put together over
    the softmax's common denominator so that the 1 is exact."""
    return Matrix([[sp.together(sp.Add(*weights.row(i))) for i in range(weights.rows)]])


def _weighted(weights: Matrix, values: Matrix, i: int) -> Matrix:
    """Rows a_ij v_j for query i: their sum is row i of the head's output."""
    return Matrix([list(weights[i, j] * values.row(j)) for j in range(values.rows)])


class Share:
    """Head n's a_ij v_j for query i, computed from any values of its weights and V."""

    def __init__(self, n: int, i: int, value: str) -> None:
        self.weights, self.v, self.i = f"head{n}.weights", value, i
        self.keys = (self.weights, self.v)

    def upstream(self, before: Mapping[str, set[str]]) -> set[str]:
        """The steps it is computed from: the weights, V and what they are computed from."""
        return {self.weights, self.v} | before.get(self.weights, set()) | before.get(self.v, set())

    def value(self, values: Mapping[str, Matrix]) -> Matrix:
        return _weighted(values[self.weights], values[self.v], self.i - 1)


_SHARE = re.compile(r"head(\d+)\.weighted\[(\d+)\]")


def shares_of(program: Program, verdicts: Any) -> dict[str, Share]:
    """The weighted-value steps (``head1.weighted[2]``) among the verdicts' steps."""
    out: dict[str, Share] = {}
    for verdict in verdicts:
        found = _SHARE.fullmatch(verdict.step)
        value = _value_key(program, int(found.group(1))) if found else None
        if found and value is not None:
            out[verdict.step] = Share(int(found.group(1)), int(found.group(2)), value)
    return out
