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
    """Each row's weights ``e^{l_ij - l_top} / sum_k e^{l_ik - l_top}`` over the keys it may
    attend (``allowed``: None for all), shifted by the entry of largest midpoint so that
    nothing overflows; blocked entries are exactly 0."""
    rows, cols = logits.nrows(), logits.ncols()
    out: list[flint.arb] = []
    for i in range(rows):
        row = [logits[i, j] for j in range(cols)]
        open_ = [True] * cols if allowed is None else list(allowed[i])
        if not any(open_):
            raise ValueError(f"enclose: step {key!r} has a row with every key blocked")
        top = max((r for r, ok in zip(row, open_) if ok), key=lambda r: r.mid())
        exps = [(r - top).exp() if ok else None for r, ok in zip(row, open_)]
        total = sum((e for e in exps if e is not None), flint.arb(0))
        out.extend(flint.arb(0) if e is None else e / total for e in exps)
    return flint.arb_mat(rows, cols, out)
