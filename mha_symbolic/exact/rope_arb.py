"""RoPE in the structured (FLINT) form: rotated queries and keys kept as their exact rational
matrices and the turn, enclosed with arb cos/sin of the exact angles.

A rotated row's entries are ``x_a cos t - x_b sin t``: not rational, so the structure holds
the rational matrix and the turn (:class:`Rotated`: the feature pairs and each pair's exact
angle at position 1, as :mod:`mha_symbolic.operations.rope` defines them), and the scores of
two rotated matrices as the pair (:class:`RotatedScores`), which a softmax's
:class:`~.structured_values.Logits` holds in place of a rational matrix. Nothing is rounded:
each angle ``p * base^(-2j/d)`` is an arb ball of that exact number, so the enclosures are
certified like the rest. SymPy values of these steps are made by the ordinary evaluator when
asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import flint
import sympy as sp

from mha_symbolic.exact.arb import arb_of
from mha_symbolic.exact.softmax_blocks import row_exps


@dataclass(frozen=True)
class Rotated:
    """``matrix`` (exact) with row p's feature pair ``pairs[j]`` turned by ``p * steps[j]``
    (``steps[j]``: the exact angle at position 1, signed); ``transposed``: its transpose (the
    keys as the scores read them)."""

    matrix: flint.fmpq_mat
    steps: tuple[sp.Expr, ...]
    pairs: tuple[tuple[int, int], ...]
    transposed: bool = False

    def transpose(self) -> Rotated:
        return replace(self, transposed=not self.transposed)


@dataclass(frozen=True)
class RotatedScores:
    """``RoPE(q) RoPE(k)^T``: the scores of rotated queries and keys, by their exact parts."""

    q: Rotated
    k: Rotated

    def nrows(self) -> int:
        return int(self.q.matrix.nrows())

    def ncols(self) -> int:
        return int(self.k.matrix.nrows())


def scores_of(left: Any, right: Any) -> RotatedScores | None:
    """``left right`` when it is rotated queries times rotated keys transposed (else None)."""
    if not isinstance(left, Rotated) or not isinstance(right, Rotated):
        return None
    if left.transposed or not right.transposed:
        return None
    if left.matrix.ncols() != right.matrix.ncols():
        return None
    return RotatedScores(left, right.transpose())


@lru_cache(maxsize=16)
def _turns(rows: int, steps: tuple[sp.Expr, ...], bits: int) -> Any:
    """cos and sin of every angle ``p * steps[j]`` as arb balls at ``bits``: two object
    arrays (rows x pairs), one ball per (position, pair), of the exact angles."""
    import numpy as np

    cos = np.empty((rows, len(steps)), dtype=object)
    sin = np.empty((rows, len(steps)), dtype=object)
    saved = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        balls = [arb_of(step) for step in steps]
        for p in range(rows):
            for j, ball in enumerate(balls):
                sin[p, j], cos[p, j] = (ball * p).sin_cos()
    finally:
        flint.ctx.prec = saved
    return cos, sin


def turn(
    x: flint.arb_mat, steps: tuple[sp.Expr, ...], pairs: tuple[tuple[int, int], ...]
) -> flint.arb_mat:
    """``x`` with row p's feature pair ``pairs[j]`` turned by ``p * steps[j]``, in arb at the
    context's precision: (x_a cos t - x_b sin t, x_a sin t + x_b cos t)."""
    import numpy as np

    rows, width = x.nrows(), x.ncols()
    cos, sin = _turns(rows, steps, flint.ctx.prec)
    entries = np.array(x.entries(), dtype=object).reshape(rows, width)
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    x_a, x_b = entries[:, first], entries[:, second]
    out = np.empty_like(entries)
    out[:, first] = x_a * cos - x_b * sin
    out[:, second] = x_a * sin + x_b * cos
    return flint.arb_mat(rows, width, out.ravel().tolist())


def rotated_balls(rotated: Rotated) -> flint.arb_mat:
    """The rotated matrix (transposed if it is) as arb balls at the context's precision."""
    balls = turn(flint.arb_mat(rotated.matrix), rotated.steps, rotated.pairs)
    return balls.transpose() if rotated.transposed else balls


def scores_balls(scores: RotatedScores) -> flint.arb_mat:
    """``RoPE(q) RoPE(k)^T`` as arb balls at the context's precision."""
    return rotated_balls(scores.q) * rotated_balls(scores.k).transpose()


def softmax_balls(logits: flint.arb_mat, allowed: Any, key: str) -> flint.arb_mat:
    """Each row's weights ``e^{l_ij - s_i} / sum_k e^{l_ik - s_i}`` over the keys it may
    attend (``allowed``: None for all); blocked entries are exactly 0 (see :func:`exps`)."""
    made, sums = exps(logits, allowed, key)
    return scaled_rows(made, [1 / total for total in sums])


def exps(logits: flint.arb_mat, allowed: Any, key: str) -> tuple[flint.arb_mat, list[flint.arb]]:
    """Each row's ``e^{l_ij - s_i}`` (0 where blocked; see :func:`row_exps`) and their sum
    (one arb product with a column of ones)."""
    rows, cols = logits.nrows(), logits.ncols()
    entries = logits.entries()
    out: list[flint.arb] = []
    for i in range(rows):
        open_ = None if allowed is None else allowed[i]
        out.extend(row_exps(entries[i * cols : (i + 1) * cols], open_, key))
    made = flint.arb_mat(rows, cols, out)
    sums = made * flint.arb_mat(cols, 1, [1] * cols)
    return made, sums.entries()


def scaled_rows(matrix: flint.arb_mat, factors: list[flint.arb]) -> flint.arb_mat:
    """Row i of ``matrix`` times ``factors[i]``."""
    rows, cols = matrix.nrows(), matrix.ncols()
    entries = matrix.entries()
    out = [e * factors[i] for i in range(rows) for e in entries[i * cols : (i + 1) * cols]]
    return flint.arb_mat(rows, cols, out)
