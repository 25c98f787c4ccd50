"""enclose(d, key, digits): certified arb balls around a step's exact entries (python-flint)."""

from __future__ import annotations

import gc
import math
from functools import partial
from typing import Any

import flint
import sympy as sp

from mha_symbolic.exact import structured as st
from mha_symbolic.exact.arb import arb_of
from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.exact.fixed_point import times_exact
from mha_symbolic.exact.head_pool import map_heads
from mha_symbolic.exact.rope_arb import (
    Rotated,
    RotatedScores,
    rotated_balls,
    scores_balls,
    softmax_balls,
)
from mha_symbolic.exact.softmax_blocks import Blocks, weighted_values
from mha_symbolic.exact.structured_grad import Gradient
from mha_symbolic.exact.structured_grad import balls as gradient_balls
from mha_symbolic.spec.bounds import MAX_ENCLOSE_DIGITS, whole_number


def enclose(d: Derivation, key: str = "output", digits: int = 50) -> list[list[flint.arb]]:
    """Every entry of step ``key`` as an arb ball that contains its exact value, radius below
    ``10**-digits``; the working precision doubles until every radius is small enough.

    A derivation kept in its structured form is enclosed from the structure (arb matrix
    products, one exponential per logit); any other from its SymPy values, entry by entry.
    """
    digits = whole_number(digits, "digits", 1, MAX_ENCLOSE_DIGITS)
    d.step(key)  # an unknown key is a KeyError naming the close ones
    form = None if d.structured is None else d.structured[key]
    if form is None and d[key].free_symbols:
        raise ValueError(f"enclose: step {key!r} has free symbols; give them values first")
    bits = int(digits * math.log2(10)) + 32
    bound = flint.arb(10) ** -digits
    while True:
        balls = _at(d[key], bits) if form is None else _structured(form, key, bits)
        if all(_tight(ball, bound) for row in balls for ball in row):
            return balls
        bits *= 2


def _structured(form: st.Value, key: str, bits: int) -> list[list[flint.arb]]:
    """The balls at ``bits``. Python's cycle collector is paused meanwhile: the balls and
    their lists make no cycles, and at model scale its passes over the lists of millions
    of balls took a few percent of the time."""
    global _TURNED
    old, collecting = flint.ctx.prec, gc.isenabled()
    flint.ctx.prec = bits
    gc.disable()
    _TURNED = {}
    try:
        matrix = _ball_matrix(form, key)
        flat, cols = matrix.entries(), matrix.ncols()
        return [flat[i * cols : (i + 1) * cols] for i in range(matrix.nrows())]
    finally:
        flint.ctx.prec, _TURNED = old, None
        if collecting:
            gc.enable()


def _ball_matrix(form: st.Value, key: str) -> flint.arb_mat:
    """A structured value as an arb matrix at the context's precision."""
    if isinstance(form, flint.fmpq_mat):
        return flint.arb_mat(form)
    if isinstance(form, (Rotated, RotatedScores)):  # RoPE's, with arb cos/sin of exact angles
        return rotated_balls(form) if isinstance(form, Rotated) else scores_balls(form)
    if isinstance(form, st.Logits):
        if form.allowed is not None:
            raise ValueError(f"enclose: step {key!r} has blocked (-oo) entries")
        return _logit_balls(form)
    if isinstance(form, st.Weights):
        return _softmax(form.logits, key)
    if isinstance(form, Gradient):
        return gradient_balls(form, lambda value: _ball_matrix(value, key))
    if isinstance(form, st.Mix):
        return _mix(form, key)
    raise ValueError(f"enclose: step {key!r} is not a matrix of numbers")


def _mix(mix: st.Mix, key: str) -> flint.arb_mat:
    """``concat_h(A_h V_h) @ after + rational``: each head's weights times its values, then
    ONE product with the projection (arb's block product: exact integer matrices inside),
    so no ``V_h W_O^h`` is formed, in exact or in arb."""
    inner = mix.cols if mix.after is None else mix.after.nrows()
    logits = sum(term.weights.logits.matrix.ncols() for term in mix.terms) * mix.rows
    heads = map_heads(partial(_head, key=key), mix.terms, logits)
    parts = [(term.offset, part) for term, part in zip(mix.terms, heads)]
    total = _side_by_side(mix.rows, inner, parts)
    if total is None:
        total = flint.arb_mat(mix.rows, inner)
        for offset, part in parts:
            total = _add_at(total, part, offset)
    if mix.after is not None:
        total = times_exact(total, mix.after)
    return total if mix.rational is None else total + flint.arb_mat(mix.rational)


def _softmax(logits: st.Logits, key: str) -> flint.arb_mat:
    """Each row's weights e^{f r_ij - s_i} / sum_k e^{f r_ik - s_i} (see :func:`exps`)."""
    return softmax_balls(_logit_balls(logits), logits.allowed, key)


def _logit_balls(logits: st.Logits) -> flint.arb_mat:
    """The logits ``f r`` as balls: rational ``r``, or the scores by their factors (RoPE's
    too), times the factor."""
    factor = arb_of(logits.factor)
    if isinstance(logits.matrix, flint.fmpq_mat):
        return flint.arb_mat(logits.matrix) * factor
    queries, keys = _factor_balls(logits.matrix)
    return queries * keys.transpose() * factor


# RoPE's rotated keys turned while an enclosure is made, by the id of their exact matrix (kept
# beside them), their turn and the precision: the query heads of a group (grouped-query
# attention) read the same keys. None outside :func:`_structured`.
_TURNED: dict[tuple[Any, ...], tuple[flint.fmpq_mat, flint.arb_mat]] | None = None


def _factor_balls(scores: st.Scores | RotatedScores) -> tuple[flint.arb_mat, flint.arb_mat]:
    """The balls of the queries and of the keys (one row per key) whose product the scores
    are."""
    if isinstance(scores, RotatedScores):
        return rotated_balls(scores.q), _turned_keys(scores.k)
    return flint.arb_mat(scores.left), flint.arb_mat(scores.right.transpose())


def _turned_keys(keys: Rotated) -> flint.arb_mat:
    if _TURNED is None:
        return rotated_balls(keys)
    at = (id(keys.matrix), keys.steps, keys.pairs, keys.transposed, flint.ctx.prec)
    held = _TURNED.get(at)
    if held is None:
        held = _TURNED[at] = (keys.matrix, rotated_balls(keys))
    return held[1]


def _logit_blocks(logits: st.Logits) -> Blocks | flint.arb_mat:
    """The logits of a softmax by blocks of rows: the scores (held as their factors) are
    multiplied block by block, each block only by the keys it may attend: integer factors
    exactly, in FLINT's integer product (quicker than arb's on the same integers), RoPE's
    turned ones as balls, a factor of a power of two's denominator joining the queries."""
    if isinstance(logits.matrix, flint.fmpq_mat):
        return _logit_balls(logits)
    if isinstance(logits.matrix, st.Scores):
        return _integer_blocks(logits.matrix, arb_of(logits.factor))
    factor = arb_of(logits.factor)
    queries, keys = _factor_balls(logits.matrix)
    dyadic = logits.factor.is_Rational and _power_of_two(int(logits.factor.q))
    if dyadic:
        queries, factor = queries * factor, flint.arb(1)
    q, k, width = queries.entries(), keys.entries(), queries.ncols()

    def block(start: int, stop: int, reach: int) -> list[flint.arb]:
        rows = flint.arb_mat(stop - start, width, q[start * width : stop * width])
        opened = flint.arb_mat(reach, width, k[: reach * width]).transpose()
        product = rows * opened
        return (product if dyadic else product * factor).entries()

    return Blocks(queries.nrows(), keys.nrows(), block)


def _integer_blocks(scores: st.Scores, factor: flint.arb) -> Blocks:
    """The blocks of ``factor * left @ right`` from the integer factors: each block's exact
    product, then its balls times the factor."""
    q, width = scores.left.entries(), scores.left.ncols()
    k = scores.right.transpose().entries()  # one row per key

    def block(start: int, stop: int, reach: int) -> list[flint.arb]:
        rows = flint.fmpz_mat(stop - start, width, q[start * width : stop * width])
        opened = flint.fmpz_mat(reach, width, k[: reach * width]).transpose()
        return (flint.arb_mat(rows * opened) * factor).entries()

    return Blocks(scores.nrows(), scores.ncols(), block)


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _head(term: st.Term, key: str) -> flint.arb_mat:
    """A head's weights times its values, ``diag(1/sums) (E V)``, streamed by blocks of rows
    (see :mod:`mha_symbolic.exact.softmax_blocks`)."""
    logits = term.weights.logits
    values = flint.arb_mat(term.matrix)
    return weighted_values(_logit_blocks(logits), logits.allowed, values, key)


def _side_by_side(
    rows: int, cols: int, parts: list[tuple[int, flint.arb_mat]]
) -> flint.arb_mat | None:
    """The parts placed side by side when they tile the columns (the heads of a
    concatenation, in any order), as lists (not entry by entry); None when they do not."""
    parts = sorted(parts, key=lambda part: part[0])
    widths = [part.ncols() for _, part in parts]
    if [offset for offset, _ in parts] != [sum(widths[:n]) for n in range(len(parts))]:
        return None
    if sum(widths) != cols:
        return None
    flat = [(part.entries(), part.ncols()) for _, part in parts]
    rows_of = [
        entry for i in range(rows) for entries, w in flat for entry in entries[i * w : (i + 1) * w]
    ]
    return flint.arb_mat(rows, cols, rows_of)


def _add_at(total: flint.arb_mat, part: flint.arb_mat, offset: int) -> flint.arb_mat:
    if offset == 0 and part.ncols() == total.ncols():
        return total + part
    for i in range(part.nrows()):
        for j in range(part.ncols()):
            total[i, offset + j] += part[i, j]
    return total


def _tight(ball: flint.arb, bound: flint.arb) -> bool:
    return bool(ball.is_finite() and ball.rad() < bound)


def _at(value: sp.MatrixBase, bits: int) -> list[list[flint.arb]]:
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        return [[arb_of(value[i, j]) for j in range(value.cols)] for i in range(value.rows)]
    finally:
        flint.ctx.prec = old
