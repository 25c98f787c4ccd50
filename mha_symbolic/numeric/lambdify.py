"""Derivation.lambdify(): a vectorised NumPy function of a derivation's free symbols."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import operations
from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.exact.values import evaluate
from mha_symbolic.model.program import build


class _Stages:
    """Every step's value as entries over named temporaries, the softmax made stable.

    The exact values keep exps such as e^{a}/(e^{a} + e^{b}); evaluated as written they
    overflow for large logits. Here each softmax row is e^{a_j - m}/sum_k e^{a_k - m} with m
    the row's largest logit, and each stage's entries are named, so the printed code
    computes every logit, exp and weight once (whole expressions would repeat them).
    """

    def __init__(self, d: Derivation) -> None:
        self.d = d
        self.assignments: list[tuple[sp.Symbol, sp.Expr]] = []
        self.values: dict[str, Matrix] = {}
        self.known: dict[sp.Basic, Any] = dict(d.bindings)
        for node in d.program.nodes if d.program is not None else build(d.spec).nodes:
            op = operations.BY_KIND.get(node.kind)
            if op is not None and op.stable is not None:  # the softmax made stable, onwards
                value = Matrix(op.stable(self, node))
            else:  # before the softmax: the exact value, polynomial in the symbols
                value = d[node.key]
            self.known[node.symbol] = self.values[node.key] = value
        for step in d.steps:
            if step.kind in ("loss", "grad"):
                self.values[step.key] = self.named(self.backward(step.formula), "g")

    def named(self, matrix: sp.MatrixBase, prefix: str) -> Matrix:
        """The matrix with every non-trivial entry replaced by a new temporary."""
        return Matrix(matrix.rows, matrix.cols, lambda i, j: self.name(matrix[i, j], prefix))

    def name(self, expr: sp.Expr, prefix: str) -> sp.Expr:
        if expr.is_Atom or expr.is_number:
            return expr
        symbol = sp.Symbol(f"{prefix}_{len(self.assignments)}")
        self.assignments.append((symbol, expr))
        return symbol

    def value(self, expr: sp.Basic) -> Any:
        """``expr`` on the stages made so far."""
        return evaluate(expr, self.known)

    def backward(self, formula: sp.Basic) -> Matrix:
        """A loss or gradient step from the stable stages: its formula on their values."""
        values: dict[sp.Basic, Any] = dict(self.d.bindings)
        values.update(
            {step.symbol: self.values[step.key] for step in self.d.steps if step.key in self.values}
        )
        return Matrix(evaluate(formula, values))

    def cse(self, exprs: list[sp.Expr]) -> tuple[list[tuple[sp.Symbol, sp.Expr]], list[sp.Expr]]:
        """lambdify's cse hook: the named stages, with common parts of their entries shared."""
        shared, reduced = sp.cse([e for _, e in self.assignments] + list(exprs))
        count = len(self.assignments)
        named = [(symbol, e) for (symbol, _), e in zip(self.assignments, reduced[:count])]
        return _in_order(shared + named), reduced[count:]


def _in_order(pairs: list[tuple[sp.Symbol, sp.Expr]]) -> list[tuple[sp.Symbol, sp.Expr]]:
    """The assignments ordered so that each comes after those it uses (cse's shared parts
    may use the named stages and the other way round)."""
    defined = {symbol for symbol, _ in pairs}
    done: set[sp.Symbol] = set()
    ordered: list[tuple[sp.Symbol, sp.Expr]] = []
    pending = pairs
    while pending:
        waiting = []
        for symbol, expr in pending:
            if expr.free_symbols & defined <= done:
                ordered.append((symbol, expr))
                done.add(symbol)
            else:
                waiting.append((symbol, expr))
        pending = waiting
    return ordered


class NumericFunction:
    """``g(**values)``: a step's value for numeric values of the derivation's free symbols.

    Keyword arguments are the symbols' names (``g(**{"W_{Q1,12}": 0.5, ...})``); each value
    may be an array, and the result has shape ``broadcast(values) + (rows, cols)``.
    """

    def __init__(self, d: Derivation, key: str) -> None:
        stages = _Stages(d)
        matrix = stages.values[key]
        self.key = key
        self.shape = (matrix.rows, matrix.cols)
        self.symbols = tuple(sorted(d.free_symbols, key=lambda s: s.name))
        self.names = tuple(s.name for s in self.symbols)
        self._function: Callable[..., Any] = sp.lambdify(
            self.symbols, list(matrix), modules="numpy", cse=stages.cse, dummify=True
        )

    def __call__(self, **values: Any) -> Any:
        import numpy

        unknown = sorted(set(values) - set(self.names))
        if unknown:
            raise ValueError(f"unknown symbol {unknown[0]!r}; the derivation has {self._listed()}")
        missing = [name for name in self.names if name not in values]
        if missing:
            raise ValueError(
                f"give a value for {missing[0]!r}; the derivation has {self._listed()}"
            )
        entries = self._function(*(numpy.asarray(values[n], dtype=float) for n in self.names))
        stacked = numpy.stack(numpy.broadcast_arrays(*entries), axis=-1)
        return stacked.reshape(*stacked.shape[:-1], *self.shape)

    def _listed(self) -> str:
        shown = ", ".join(self.names[:6]) + (", ..." if len(self.names) > 6 else "")
        return f"{len(self.names)} symbols ({shown})" if self.names else "no symbols"


def lambdify(d: Derivation, key: str = "output") -> NumericFunction:
    """A vectorised NumPy function computing step ``key`` from the free symbols."""
    d.step(key)  # a clear KeyError for an unknown key
    return NumericFunction(d, key)
