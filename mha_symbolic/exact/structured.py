"""Attention's exact value in its own structure: rational matrices (FLINT's ``fmpq_mat``) for
everything linear and, for each head and query row, exponentials over one denominator.

``output = concat_h(diag(1/D_h) E_h V_h) W_O + b_O``: the rational parts (projections,
scores, ``V_h``, ``W_O``) are exact FLINT matrices, a softmax is its rational logits and their
one scale factor (``1/sqrt(d_k)``: rational, or a rational times a square root), and a mix of
heads is the list of (softmax, rational matrix) terms. Nothing here is a SymPy expression, so
a GPT-2-sized layer takes seconds; SymPy values are made only when a step is asked for (by
the ordinary evaluator, see :mod:`mha_symbolic.exact.evaluate`), and :func:`balls` encloses
any step's entries with arb from the structure directly.

:func:`structure` returns None when a spec has something this form does not hold (symbols,
irrational inputs): those specs are derived as SymPy values throughout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import flint
import sympy as sp

from mha_symbolic import operations
from mha_symbolic.exact.rope_arb import Rotated, RotatedScores, scores_of
from mha_symbolic.exact.structured_values import Blocked as Blocked
from mha_symbolic.exact.structured_values import Logits as Logits
from mha_symbolic.exact.structured_values import Mix as Mix
from mha_symbolic.exact.structured_values import Repeated as Repeated
from mha_symbolic.exact.structured_values import Scores as Scores
from mha_symbolic.exact.structured_values import Term as Term
from mha_symbolic.exact.structured_values import Unstructured as Unstructured
from mha_symbolic.exact.structured_values import Value as Value
from mha_symbolic.exact.structured_values import Weights as Weights
from mha_symbolic.exact.structured_values import rational_logits, rational_of
from mha_symbolic.model.program import Program
from mha_symbolic.spec.binary_arrays import expanded, flint_of, repeats_of

# ---------------------------------------------------------------------- leaves


def rational(matrix: sp.MatrixBase) -> flint.fmpq_mat:
    """A SymPy matrix of rationals as an ``fmpq_mat`` (Unstructured if any entry is not)."""
    held = flint_of(matrix)
    if held is not None:
        return held  # read from a binary float array: never made into SymPy entries
    rep = getattr(matrix, "_rep", None)
    if rep is not None and (rep.domain.is_QQ or rep.domain.is_ZZ):
        dense = rep.convert_to(rep.domain.get_field()).to_dfm_or_ddm()
        if isinstance(getattr(dense, "rep", None), flint.fmpq_mat):
            return dense.rep  # SymPy's own FLINT matrix (flint ground types): no copy
    entries = []
    for entry in matrix:
        if not isinstance(entry, sp.Rational):
            raise Unstructured(f"entry {entry} is not rational")
        entries.append(flint.fmpq(int(entry.p), int(entry.q)))
    return flint.fmpq_mat(matrix.rows, matrix.cols, entries)


def _leaf(value: Any) -> Value:
    if not isinstance(value, sp.MatrixBase):
        number = sp.sympify(value)
        if not number.is_Rational:
            raise Unstructured(f"scalar {number} is not rational")
        return number
    repeats = repeats_of(value)
    if repeats is not None:
        return Repeated(*repeats)
    try:
        return rational(value)
    except Unstructured:
        sparse = _sparse_mask(value)
        if sparse is not None:
            return sparse
        listed = value.tolist()  # read once: a causal mask of 1024 tokens has a million
        zero, blocked = sp.S.Zero, sp.S.NegativeInfinity  # (SymPy's singletons: no hashing)
        allowed = tuple(tuple(entry is zero for entry in row) for row in listed)
        if all(map(all, allowed)) or not all(e is zero or e is blocked for r in listed for e in r):
            raise
    return Blocked(allowed)


def _sparse_mask(value: sp.MatrixBase) -> Blocked | None:
    """An additive mask SymPy holds sparse (only its -oo entries stored, as the program's
    mask is made) read from those entries: a causal row is its open keys and its blocked
    ones, not a million entries listed and compared. None for any other matrix."""
    from sympy.polys.matrices.sdm import SDM

    rep = getattr(value, "_rep", None)
    sparse = getattr(rep, "rep", None)
    if not isinstance(sparse, SDM) or not sparse:
        return None
    blocked = sp.S.NegativeInfinity
    rows, cols = value.shape
    allowed = []
    for i in range(rows):
        row = sparse.get(i, {})
        if not all(entry is blocked for entry in row.values()):
            return None
        first = cols - len(row)  # a causal row blocks the keys first.. (a suffix)
        if not row or (min(row) == first and max(row) == cols - 1):
            allowed.append((True,) * first + (False,) * len(row))
        else:
            allowed.append(tuple(j not in row for j in range(cols)))
    return Blocked(tuple(allowed))


# ---------------------------------------------------------------------- rational helpers


# The entries of the matrices sliced, by id (each kept beside its matrix), while a structure
# is made: every head slices the same Q, K, V and W_O in turn, and listing a model's matrix
# costs seconds. None outside :func:`structure` (nothing is kept after it).
_SLICED: dict[int, tuple[flint.fmpq_mat, list[flint.fmpq]]] | None = None


def _entries(matrix: flint.fmpq_mat) -> list[flint.fmpq]:
    cache = _SLICED
    if cache is None:
        return matrix.entries()
    held = cache.get(id(matrix))
    if held is None:
        held = cache[id(matrix)] = (matrix, matrix.entries())
    return held[1]


# The column slices made while a structure is made, by (id of the matrix, start, stop): the
# query heads of a group slice the same keys and values (grouped-query attention), and share
# the one slice. None outside :func:`structure`, as :data:`_SLICED`.
_PICKED: dict[tuple[int, int, int], flint.fmpq_mat] | None = None


def _columns(matrix: flint.fmpq_mat, start: int, stop: int) -> flint.fmpq_mat:
    key = (id(matrix), start, stop)
    if _PICKED is not None and key in _PICKED:
        return _PICKED[key]
    rows, cols = matrix.nrows(), matrix.ncols()
    entries = _entries(matrix)  # (which keeps the matrix, so its id is not reused)
    picked = [entries[i * cols + j] for i in range(rows) for j in range(start, stop)]
    made = flint.fmpq_mat(rows, stop - start, picked)
    if _PICKED is not None:
        _PICKED[key] = made
    return made


def _rows(matrix: flint.fmpq_mat, start: int, stop: int) -> flint.fmpq_mat:
    cols = matrix.ncols()
    return flint.fmpq_mat(stop - start, cols, _entries(matrix)[start * cols : stop * cols])


def _hstack(blocks: list[flint.fmpq_mat]) -> flint.fmpq_mat:
    rows = blocks[0].nrows()
    lists = [(b.entries(), b.ncols()) for b in blocks]
    entries = [e for i in range(rows) for flat, c in lists for e in flat[i * c : (i + 1) * c]]
    return flint.fmpq_mat(rows, sum(c for _, c in lists), entries)


def _plain(value: Value) -> Value:
    """A repeated matrix as the plain one, rational logits as their rational matrix (for a
    rule with no shortcut for them)."""
    if isinstance(value, Repeated):
        return expanded(value.base, value.kv, value.group, value.by_rows)
    return rational_of(value)


def _shared(left: Value, right: Value) -> Repeated | None:
    """A product that keeps the blocks repeated: projected once per key/value head."""
    if isinstance(right, Repeated) and not right.by_rows and isinstance(left, flint.fmpq_mat):
        return Repeated(left * right.base, right.kv, right.group, False)
    if isinstance(left, Repeated) and left.by_rows and isinstance(right, flint.fmpq_mat):
        return Repeated(left.base * right, left.kv, left.group, True)
    return None


# ---------------------------------------------------------------------- evaluation


def _scalar(expr: sp.Basic, values: Mapping[sp.Basic, Value]) -> sp.Expr:
    scalars = {k: v for k, v in values.items() if isinstance(v, sp.Expr)}
    number = sp.sympify(expr).xreplace(scalars)
    number = number if number.free_symbols else number.doit()  # 4^(-1/2) written unevaluated
    if number.free_symbols or not (number.is_real and number.is_positive):
        raise Unstructured(f"factor {number} is not a positive number")
    return number


# A common denominator of a factor up to this many bits makes its product an integer one
# (binary floats: a power of two); beyond it (rationals of many unrelated denominators, whose
# lcm grows with each) FLINT's rational product is quicker.
_CLEARED_BITS = 256


def _product(left: flint.fmpq_mat, right: flint.fmpq_mat) -> Value:
    """``left @ right``. A product with more entries than its factors (the inner size below
    both outer ones: the scores ``Q_h K_h^T``) is kept as its integer factors and one
    rational factor, ``(A B) / (a b)`` for ``left = A / a`` and ``right = B / b`` over their
    common denominators: not multiplied out (:class:`Scores`: read by rows, or by the
    enclosure's blocks), and no entry is ever put in lowest terms (a gcd each: 12 million
    for a GPT-2 layer at 1024 tokens)."""
    inner = left.ncols()
    if not inner < min(left.nrows(), right.ncols()):
        return left * right
    whole, below = left.numer_denom()
    other, beside = right.numer_denom()
    if max(below.bit_length(), beside.bit_length()) > _CLEARED_BITS:
        return left * right
    factor = sp.Rational(1, int(below) * int(beside))
    return Logits(factor, Scores(whole, other))


def _times(left: Value, right: Value) -> Value:
    shared = _shared(left, right)
    if shared is not None:
        return shared
    if isinstance(left, sp.Expr) and rational_logits(right):
        assert isinstance(right, Logits)  # the scale joins the factor: no matrix is made
        return Logits(left * right.factor, right.matrix)
    left, right = _plain(left), _plain(right)
    rotated = scores_of(left, right)  # RoPE's queries times its keys: held as the pair
    if rotated is not None:
        return rotated
    if isinstance(left, sp.Expr):
        if isinstance(right, RotatedScores):
            return Logits(left, right)
        if not isinstance(right, flint.fmpq_mat):
            raise Unstructured("a factor times a non-rational matrix")
        # A rational factor too is kept apart, not multiplied in: the scaled scores would be
        # a second exact matrix as large as the scores (a GPT-2 layer at 1024 tokens: 12
        # million entries and a gcd each), and the softmax and enclose read the factor.
        return Logits(left, right)
    if isinstance(left, flint.fmpq_mat) and isinstance(right, flint.fmpq_mat):
        return _product(left, right)
    if isinstance(left, Weights) and isinstance(right, flint.fmpq_mat):
        # one row per query (the weights' rows), not per key: cross-attention has both
        return Mix(left.logits.matrix.nrows(), right.ncols(), (Term(left, right, 0),))
    if isinstance(left, Mix) and isinstance(right, flint.fmpq_mat):
        # the projection kept apart: the heads' values are not multiplied by it here
        after = right if left.after is None else left.after * right
        part = None if left.rational is None else left.rational * right
        return Mix(left.rows, right.ncols(), left.terms, part, after)
    raise Unstructured(f"a product of {type(left).__name__} and {type(right).__name__}")


def _plus(left: Value, right: Value) -> Value:
    if rational_logits(left) and isinstance(right, Blocked):
        assert isinstance(left, Logits)
        return Logits(left.factor, left.matrix, right.allowed)  # the scale still apart
    left, right = _plain(left), _plain(right)
    if isinstance(left, flint.fmpq_mat) and isinstance(right, flint.fmpq_mat):
        return left + right
    if isinstance(right, Mix):
        left, right = right, left
    if isinstance(left, Mix) and isinstance(right, flint.fmpq_mat):
        total = right if left.rational is None else left.rational + right
        return Mix(left.rows, left.cols, left.terms, total, left.after)
    if isinstance(right, Logits):
        left, right = right, left
    if isinstance(left, Logits) and isinstance(right, flint.fmpq_mat) and not any(right.entries()):
        return left  # a mask that blocks nothing
    if isinstance(left, (flint.fmpq_mat, RotatedScores)):
        left = Logits(sp.Integer(1), left)
    if isinstance(left, Logits) and isinstance(right, Blocked) and left.allowed is None:
        return Logits(left.factor, left.matrix, right.allowed)
    raise Unstructured(f"a sum of {type(left).__name__} and {type(right).__name__}")


def _hstack_values(parts: list[Value]) -> Value:
    parts = [_plain(part) for part in parts]
    if all(isinstance(p, flint.fmpq_mat) for p in parts):
        return _hstack(parts)  # type: ignore[arg-type]
    if not all(isinstance(p, Mix) and p.rational is None and p.after is None for p in parts):
        raise Unstructured("a concatenation of mixed values")
    terms: list[Term] = []
    offset = 0
    for part in parts:
        assert isinstance(part, Mix)
        terms.extend(Term(t.weights, t.matrix, offset + t.offset) for t in part.terms)
        offset += part.cols
    return Mix(parts[0].rows, offset, tuple(terms))  # type: ignore[union-attr]


def value_of(expr: sp.Basic, values: Mapping[sp.Basic, Value]) -> Value:
    """``expr`` (a node's structural expression) on structured values."""
    if isinstance(expr, sp.MatrixSymbol):
        return values[expr]
    rule = _RULES.get(type(expr))
    if rule is None:
        if isinstance(expr, sp.MatrixExpr):
            raise Unstructured(f"{type(expr).__name__} is not held in the structure")
        return _scalar(expr, values)
    return rule(expr, values)


def _matmul(expr: sp.MatMul, values: Mapping[sp.Basic, Value]) -> Value:
    parts = [value_of(arg, values) for arg in expr.args]
    result = parts[0]
    for part in parts[1:]:
        result = _times(result, part)
    return result


def _matadd(expr: sp.MatAdd, values: Mapping[sp.Basic, Value]) -> Value:
    parts = [value_of(arg, values) for arg in expr.args]
    parts.sort(key=lambda p: isinstance(p, Blocked))  # the mask joins the logits last
    result = parts[0]
    for part in parts[1:]:
        result = _plus(result, part)
    return result


def _transpose(expr: sp.Transpose, values: Mapping[sp.Basic, Value]) -> Value:
    inner = value_of(expr.arg, values)
    if rational_logits(inner):
        inner = _plain(inner)
    if isinstance(inner, (Rotated, Repeated)):
        return inner.transpose()
    if not isinstance(inner, flint.fmpq_mat):
        raise Unstructured("a transpose of a non-rational matrix")
    return inner.transpose()


def _slice(expr: sp.MatrixSlice, values: Mapping[sp.Basic, Value]) -> Value:
    inner = value_of(expr.parent, values)
    rows, cols = expr.rowslice, expr.colslice
    if rational_logits(inner):
        inner = _plain(inner)
    if isinstance(inner, Repeated):
        head = _head_of(inner, rows, cols)
        if head is not None:
            return head
        inner = _plain(inner)
    if not isinstance(inner, flint.fmpq_mat) or rows[2] != 1 or cols[2] != 1:
        raise Unstructured("a slice of a non-rational matrix")
    picked = _columns(inner, int(cols[0]), int(cols[1]))
    if (int(rows[0]), int(rows[1])) != (0, inner.nrows()):
        picked = _rows(picked, int(rows[0]), int(rows[1]))
    return picked


def _head_of(shared: Repeated, rows: tuple, cols: tuple) -> flint.fmpq_mat | None:
    """A query head's slice of repeated keys or values: its key/value head's block of the
    base (the one projection the heads of a group share); None when it is not one block."""
    start, stop, width = int(cols[0]), int(cols[1]), shared.width()
    whole = (int(rows[0]), int(rows[1]), rows[2]) == (0, shared.base.nrows(), 1)
    block = start // width
    if shared.by_rows or not whole or cols[2] != 1 or stop > (block + 1) * width:
        return None
    offset = block // shared.group * width - block * width
    return _columns(shared.base, start + offset, stop + offset)


def _ones(expr: sp.OneMatrix, values: Mapping[sp.Basic, Value]) -> Value:
    rows, cols = (int(n) for n in expr.shape)
    return flint.fmpq_mat(rows, cols, [1] * (rows * cols))


_RULES: dict[type, Callable[[Any, Mapping[sp.Basic, Value]], Value]] = {
    sp.MatMul: _matmul,
    sp.MatAdd: _matadd,
    sp.Transpose: _transpose,
    sp.MatrixSlice: _slice,
    sp.BlockMatrix: lambda e, v: _hstack_values([value_of(b, v) for b in e.blocks]),
    sp.OneMatrix: _ones,
    **{c: partial(rule, value_of=value_of) for c, rule in operations.rules("structured").items()},
}


def structure(
    program: Program, progress: Callable[[str], None] | None = None
) -> dict[str, Value] | None:
    """Every node's structured exact value by step key, or None when the spec has something
    the structure does not hold (then the SymPy evaluator derives it all)."""
    global _SLICED, _PICKED
    _SLICED, _PICKED = {}, {}
    try:
        values: dict[sp.Basic, Value] = {leaf.symbol: _leaf(leaf.value) for leaf in program.leaves}
        out: dict[str, Value] = {}
        for node in program.nodes:
            value = value_of(node.expr, values)
            values[node.symbol] = out[node.key] = value
            if progress is not None:
                progress(node.key)
    except Unstructured:
        return None
    finally:
        _SLICED = _PICKED = None
    return out
