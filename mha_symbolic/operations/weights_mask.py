"""Masking after the softmax: the weights times a 0/1 mask, then each row divided by its sum.

Some pages hide the future after the softmax rather than before it: ``masked = weights *
tril(ones)`` (step ``head{n}.kept``, A ∘ M: blocked weights become 0, the rest stay), whose
rows no longer add up to 1, then ``masked / masked.sum(-1, keepdim=True)`` (step
``head{n}.renormalised``). The renormalised weights equal the softmax of the scores masked
with -oo before it, exactly: each kept e^{s_ij} over the sum of the kept ones. Spec key
``weights_mask = "causal"`` or a 0/1 matrix (1 = kept, L_q x L_k, every row keeping one key at
least); the heads' output is then the renormalised weights times V (see ``renormalise``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.exact import ops
from mha_symbolic.operations import weights_chain
from mha_symbolic.operations.operation import Operation, Unary
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.text import one_line

KEY = "weights_mask"


# --------------------------------------------------------------------------- spec
def read_weights_mask(value: Any, values: Mapping[str, Any]) -> Matrix | None:
    """``"causal"``, ``"none"`` or a 0/1 matrix (1 = kept): the 0/1 matrix, or None."""
    if value is None or value == "none":
        return None
    rows, cols = values["query"].rows, values["key"].rows
    if value == "causal":
        return Matrix(rows, cols, lambda i, j: 1 if j <= i else 0)  # as the mask's causal
    if isinstance(value, str) and "\\begin" not in value:
        raise SpecError(
            f'{KEY} must be "causal", "none" or a 0/1 matrix, got {one_line(repr(value))}'
        )
    matrix = zero_one(value, KEY, rows, cols)
    for i in range(rows):
        if not any(matrix.row(i)):
            raise SpecError(
                f"{KEY} row {i + 1} keeps no key; its weights would sum to 0 and could not be "
                "renormalised (keep at least one key per row)"
            )
    return matrix


def zero_one(value: Any, where: str, rows: int, cols: int) -> Matrix:
    """A 0/1 matrix of the weights' shape (``where`` names it in errors)."""
    matrix = exact.to_matrix(value, where)
    if matrix.shape != (rows, cols):
        raise SpecError(
            f"{where} has shape {matrix.shape} but the weights have shape ({rows}, {cols}) "
            "(queries x keys)"
        )
    for (i, j), entry in sorted(matrix.todok().items()):
        if entry not in (0, 1):
            raise SpecError(f"{where}[{i + 1},{j + 1}] is {entry}; it holds 0 or 1")
    return matrix


# --------------------------------------------------------------------------- nodes
# Entries of a 0/1 matrix a formula writes out beside its operand's value (8 x 8 at most).
_WRITTEN_OUT = 64


def written(printer: Any, operand: Any, matrix: Any, name: str) -> str:
    """``name`` (M, D) in a formula; the 0/1 matrix itself where the formula is written with
    its operand's value (the printer substitutes the operand), so that a reader sees which
    weights it keeps: ``A ∘ M`` becomes ``[values] ∘ [0/1 entries]``."""
    values = getattr(printer, "substitute", None) or {}
    small = isinstance(matrix, sp.MatrixBase) and matrix.rows * matrix.cols <= _WRITTEN_OUT
    if not (small and operand in values):
        return name
    rows = (" & ".join(str(int(e)) for e in matrix.row(i)) for i in range(matrix.rows))
    return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"


def _literal(matrix: Matrix) -> str:
    """A 0/1 matrix as a tuple of rows of code."""
    return repr(tuple(tuple(int(e) for e in matrix.row(i)) for i in range(matrix.rows)))


class Kept(Unary):
    """``arg ∘ M``: the weights where the 0/1 matrix ``M`` keeps them, 0 elsewhere."""

    def __new__(cls, arg: Any, allowed: Matrix) -> Kept:
        return Unary.__new__(cls, arg, sp.ImmutableMatrix(allowed))

    @property
    def allowed(self) -> Matrix:
        return self.args[1]

    def _latex(self, printer: Any) -> str:
        mask = written(printer, self.arg, self.allowed, "M")
        return rf"{printer._print(self.arg)} \circ {mask}"

    def _sympystr(self, printer: Any) -> str:
        return f"kept({printer._print(self.arg)}, {_literal(self.allowed)})"

    _numpycode = _torchcode = _jaxcode = _sympystr


# --------------------------------------------------------------------------- exact
def kept(weights: Matrix, allowed: Matrix) -> Matrix:
    return Matrix(weights.rows, weights.cols, lambda i, j: weights[i, j] * allowed[i, j])


def _kept_step(evaluator: Any, node: Any) -> Matrix:
    """A ∘ M; when A is a softmax's, over its denominators with the exps M blocks dropped
    (kept for the renormalisation after it)."""
    softmax = evaluator.softmaxes.get(node.expr.arg) if isinstance(node.expr, Kept) else None
    if softmax is None:
        return evaluator.generic(node)
    allowed = node.expr.allowed
    exps = tuple(
        tuple(e if allowed[i, j] else sp.Integer(0) for j, e in enumerate(row))
        for i, row in enumerate(softmax.exps)
    )
    evaluator.softmaxes[node.symbol] = ops.Softmax(exps, softmax.sums)
    return evaluator.softmaxes[node.symbol].weights


# --------------------------------------------------------------------------- place, code
def place(builder: Any, n: int, allowed: Matrix, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's weights times the mask (``kept``: the renormalisation after it divides them)."""
    weights = parts["weights"]
    if weights.shape != allowed.shape:
        raise SpecError(
            f"{KEY} has shape {allowed.shape} but head {n}'s weights have shape {weights.shape}"
        )
    expr = Kept(weights, allowed)
    masked = builder.add(f"head{n}.kept", "weights_mask", f"A'_{{{n}}}", expr, n)
    return {**parts, "kept": masked}


def _code_kept(lowering: Any, node: Any) -> Kept:
    return Kept(lowering.operand(node.expr.arg, None), node.expr.allowed)


def _kept(d: Any, program: Any, node: Any) -> ops.Softmax:
    """A ∘ M over the weights' denominators: the numerators M blocks are 0."""
    softmax, allowed = weights_chain.before(d, program, node), node.expr.allowed
    exps = weights_chain.entrywise(softmax, lambda i, j, e: e if allowed[i, j] else 0)
    return ops.Softmax(exps, softmax.sums)


def _forms(f: Any, expr: Kept) -> Any:
    """The forms M keeps, none (0) where it blocks."""
    allowed = expr.allowed
    return [
        [form if allowed[i, j] else {} for j, form in enumerate(row)]
        for i, row in enumerate(f.of(expr.arg))
    ]


_ARRAY = '''
def kept(weights, allowed):
    """The weights where the 0/1 matrix ``allowed`` keeps them, 0 elsewhere."""
    return weights * xp.asarray(allowed, dtype=weights.dtype)

'''
_TORCH = '''
def kept(weights, allowed):
    """The weights where the 0/1 matrix ``allowed`` keeps them, 0 elsewhere."""
    return weights * torch.tensor(allowed, dtype=weights.dtype, device=weights.device)

'''
OPERATION = Operation(
    kind="weights_mask",
    roles=frozenset({"query_by_key"}),
    steps=("kept",),
    nodes=(Kept,),
    spec_key=KEY,
    read=read_weights_mask,
    stage="weights",
    rank=1,  # after the softmax, before the renormalisation (rank 2)
    place=place,
    exact={Kept: lambda e, v, evaluate: kept(evaluate(e.arg, v), e.allowed)},
    step=_kept_step,
    vjp={Kept: lambda r, e, g: r.vjp(e.arg, Kept(g, e.allowed))},
    forms={Kept: _forms},
    kept=_kept,
    forward_forms=weights_chain.forward_forms,
    code=_code_kept,
    prelude={"numpy": _ARRAY, "jax": _ARRAY, "torch": _TORCH},
)
