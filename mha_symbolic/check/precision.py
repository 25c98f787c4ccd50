"""Inputs known only to their printed digits, and float32 computations: rigorous ball bounds.

With ``inputs = "printed"`` every input matrix (x, query/key/value, weights, biases) with
printed decimals stands for the box its digits do, all entries to the finest decimal any of
them shows, as numpy prints an array (0.12 is [0.115, 0.125]); a matrix of integers stays
exact. The program is walked node by node with arb balls (each node's entries on stand-ins for
the previous ones). With ``dtype = "float32"`` every operation also carries float32's rounding
(relative 2^-24 per operation, first order). A claim is ``wrong`` only when its printed
interval misses the enclosure ("wrong even allowing for it"); otherwise it holds within the
printed precision (``within``): an enclosure can be wider than the true range, so ``within``
means "not refuted by the digits given", and ``wrong`` is a proof.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import flint
import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.check.claims import Printed
from mha_symbolic.errors import SpecError
from mha_symbolic.exact import balls
from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.exact.values import evaluate
from mha_symbolic.language.check_phrases import phrase
from mha_symbolic.model.program import Program, build
from mha_symbolic.spec.attention import DTYPES, INPUTS

_UNIT_ROUNDOFF = {"exact": 0.0, "float64": 2.0**-53, "float32": 2.0**-24}
_ROLES = ("x", "query", "key", "value", "w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
# Stages a document may give instead of computing them: their printed digits are intervals too.
_GIVEN = ("q", "k", "v", "scores", "attention_weights")
_BITS = 128
WRONG_NOTE = phrase("wrong_within")
WITHIN_NOTE = phrase("within")


def options(inputs: str, dtype: str) -> tuple[str, str]:
    if inputs not in INPUTS:
        raise SpecError(f"inputs = {inputs!r}: one of {', '.join(INPUTS)}")
    if dtype not in DTYPES:
        raise SpecError(f"dtype = {dtype!r}: one of {', '.join(DTYPES)}")
    return inputs, dtype


class Bounds:
    """A ball for every entry of every step, node by node as a program computes them.

    Each node's entries are evaluated on symbols standing for the previous nodes' entries
    (whose balls are known), so a ball widens like a computation's error does, not like an
    expanded formula's (where each input appears many times)."""

    def __init__(self, d: Derivation, inputs: str, dtype: str) -> None:
        program = d.program if d.program is not None else build(d.spec)
        self.roundoff = _UNIT_ROUNDOFF[dtype]
        self.balls: dict[sp.Symbol, flint.arb] = {}
        if inputs == "printed":
            program = self._printed(program)
        self.steps: dict[str, list[list[flint.arb | None]]] = {}
        values: dict[sp.Basic, Any] = dict(program.bindings)
        with balls.precision(_BITS):
            for node in program.nodes:
                value = Matrix(evaluate(node.expr, values))
                values[node.symbol] = self._stand_ins(node.key, value)

    def _stand_ins(self, key: str, value: Matrix) -> Matrix:
        """The node's entries as symbols with their balls (exact numbers stay as they are)."""
        rows: list[list[sp.Expr]] = []
        grid: list[list[flint.arb | None]] = []
        for i in range(value.rows):
            rows.append([])
            grid.append([])
            for j in range(value.cols):
                entry = value[i, j]
                ball = balls.to_arb(entry, dict(self.balls), self.roundoff)
                grid[-1].append(ball)
                if ball is None or entry.is_Rational:
                    rows[-1].append(entry)
                    continue
                symbol = sp.Symbol(f"{key}_{i}_{j}", real=True)
                self.balls[symbol] = ball
                rows[-1].append(symbol)
        self.steps[key] = grid
        return Matrix(rows)

    def _printed(self, program: Program) -> Program:
        leaves = []
        for leaf in program.leaves:
            if leaf.role in (*_ROLES, *_GIVEN) and isinstance(leaf.value, sp.MatrixBase):
                # A given stage (scores a program printed, 3.1348e+01 beside 8.7807e-01) is
                # known to each entry's own last digit, at least its array's finest.
                matrix = Matrix(leaf.value)
                unit = _array_unit(matrix)
                if unit is not None:
                    digits = _digits(matrix)
                    value = matrix.applyfunc(
                        lambda v, u=unit, n=digits, own=leaf.role in _GIVEN: self._entry(
                            v, _own_unit(v, u, n) if own else u
                        )
                    )
                    leaf = replace(leaf, value=value)  # its kind (identity, causal) kept
            leaves.append(leaf)
        return program.replace(leaves=tuple(leaves))

    def _entry(self, value: sp.Expr, unit: sp.Rational) -> sp.Expr:
        if not isinstance(value, sp.Rational):
            return value
        symbol = sp.Symbol(f"printed_input_{len(self.balls)}", real=True)
        with balls.precision(_BITS):
            self.balls[symbol] = _ball(sp.Rational(value), unit)
        return symbol

    def enclosure(self, key: str, index: tuple[int, int]) -> flint.arb | None:
        """A ball holding entry ``index`` (1-based) of step ``key`` for every input the
        printed digits allow, computed at the dtype's precision."""
        grid = self.steps.get(key)
        return None if grid is None else grid[index[0] - 1][index[1] - 1]


def judge_within(ball: flint.arb | None, printed: Printed) -> str | None:
    """``within`` or ``wrong`` for a printed number against the enclosure; None if unknown."""
    if ball is None or printed.value.free_symbols or printed.value.has(sp.oo, -sp.oo):
        return None
    with balls.precision(_BITS):
        unit = printed.unit if printed.unit is not None else sp.Integer(0)
        claimed = _ball(sp.Rational(printed.value), unit) if printed.value.is_Rational else None
        if claimed is None:
            claimed = balls.to_arb(printed.value, {})
        if claimed is None:
            return None
        return "within" if claimed.overlaps(ball) else "wrong"


def _printed_unit(value: sp.Expr) -> sp.Rational | None:
    """The unit of the last digit of a terminating decimal that is not an integer (0.125:
    1/1000); None for integers and for fractions that no decimal prints (1/3)."""
    if not isinstance(value, sp.Rational) or value.is_Integer:
        return None
    q = value.q
    for prime in (2, 5):
        while q % prime == 0:
            q //= prime
    if q != 1:
        return None
    places = 0
    while not (value * 10**places).is_Integer:
        places += 1
    return sp.Rational(1, 10**places)


def _array_unit(matrix: Matrix) -> sp.Rational | None:
    """The unit every entry of a printed array is known to: its finest printed decimal (as
    numpy prints "1.30" beside "0.95": a trailing zero the spec's number has lost); None
    for a matrix of integers or exact fractions (no printed decimals: exact)."""
    units = [_printed_unit(v) for v in matrix]
    known = [u for u in units if u is not None]
    return min(known) if known else None


def _digits(matrix: Matrix) -> int:
    """The most significant digits an entry of the array shows (5 for 3.1348e+01)."""
    out = 0
    for v in matrix:
        unit = _printed_unit(v)
        if unit is not None:
            out = max(out, len(str(abs(sp.Integer(v / unit)))))
    return out


def _own_unit(value: sp.Expr, unit: sp.Rational, digits: int) -> sp.Rational:
    """The unit an entry of a given stage is known to: its own last digit (scores printed in
    e-notation, 3.1348e+01 beside 8.7807e-01, show as many significant digits each), never
    coarser than that many digits at its magnitude allow (a trailing zero the spec's number
    lost: 0.4000 is 0.4, yet known to 0.0001 beside 0.1921), never finer than the array's."""
    own = _printed_unit(value)
    if own is None or value == 0:
        return unit
    magnitude = abs(sp.Rational(value))
    exponent = 0
    while magnitude >= 10:
        magnitude, exponent = magnitude / 10, exponent + 1
    while magnitude < 1:
        magnitude, exponent = magnitude * 10, exponent - 1
    shown = sp.Rational(10) ** (exponent - digits + 1)
    return max(unit, min(own, shown))


def _ball(mid: sp.Rational, unit: sp.Rational) -> flint.arb:
    centre = flint.arb(mid.p) / mid.q
    if unit == 0:
        return centre
    return centre + flint.arb(0, flint.arb(unit.p) / (2 * unit.q))
