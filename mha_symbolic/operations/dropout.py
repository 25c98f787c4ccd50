"""Dropout on the attention weights: each weight kept or zeroed, the kept ones scaled by
1/(1-p) (step ``head{n}.dropped``), and the heads' output made of the dropped-out weights.

Dropout is random; a worked example fixes its draw. Spec key ``dropout = {p = 0.5, keep =
[[1, 0, ...], ...]}``: the rate p (a rational number in [0, 1)) and the keep pattern, a 0/1
matrix of the weights' shape (1 = kept), one for every head or a list of one per head. With
p = 1/2 the kept weights are exactly doubled (``torch.nn.Dropout(0.5)`` in training). It acts
last on the weights, after any renormalisation; being linear, its reverse-mode rule is itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.exact import ops
from mha_symbolic.operations import weights_chain
from mha_symbolic.operations.operation import Operation, Unary, each
from mha_symbolic.operations.weights_mask import written, zero_one
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.text import did_you_mean, one_line

KEYS = ("p", "keep")


# --------------------------------------------------------------------------- spec
@dataclass(frozen=True)
class DropoutSetting:
    """The rate and each head's keep pattern (0/1, 1 = kept)."""

    p: sp.Expr
    keep: tuple[Matrix, ...]


def read_dropout(value: Any, values: Mapping[str, Any]) -> DropoutSetting | None:
    """``{p = ..., keep = ...}``, or none (absent, false)."""
    if value is None or value is False:
        return None
    if not isinstance(value, Mapping):
        raise SpecError(
            "dropout must be a table {p = 0.5, keep = [[1, 0], ...]}, got " + one_line(repr(value))
        )
    for key in value:
        if key not in KEYS:
            raise SpecError(f"unknown key 'dropout.{key}'{did_you_mean(str(key), KEYS)}")
    for key in KEYS:
        if key not in value:
            raise SpecError(f"dropout.{key} is missing; dropout needs p and keep (0/1, 1 = kept)")
    p = exact.to_number(value["p"], "dropout.p")
    if not (p.is_Rational and 0 <= p < 1):
        raise SpecError(
            f"dropout.p must be a rational number in [0, 1) (0.5, 1/10), got "
            f"{one_line(repr(value['p']))}"
        )
    return DropoutSetting(p, _keeps(value["keep"], values))


def _keeps(given: Any, values: Mapping[str, Any]) -> tuple[Matrix, ...]:
    heads, rows, cols = values["heads"], values["query"].rows, values["key"].rows
    per_head = _depth(given) == 3
    if not per_head:
        return (zero_one(given, "dropout.keep", rows, cols),) * heads
    if len(given) != heads:
        raise SpecError(
            f"dropout.keep has {len(given)} matrices but the spec has {heads} heads; give one "
            "pattern for every head or one per head"
        )
    return tuple(
        zero_one(m, f"dropout.keep[{h}]", rows, cols) for h, m in enumerate(given, start=1)
    )


def _depth(value: Any) -> int:
    depth = 0
    while isinstance(value, Sequence) and not isinstance(value, str) and value:
        depth, value = depth + 1, value[0]
    return depth


# --------------------------------------------------------------------------- node
def _rows(matrix: Matrix) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(e) for e in matrix.row(i)) for i in range(matrix.rows))


def _literal(keep: Any) -> str:
    """A 0/1 pattern (or a tuple of one per head) as code: nested tuples of 0 and 1."""
    if isinstance(keep, sp.MatrixBase):
        return repr(_rows(keep))
    return repr(tuple(_rows(k) for k in keep))


class Dropout(Unary):
    """``arg ∘ D / (1 - p)``: the weights the 0/1 matrix ``D`` keeps, scaled by 1/(1-p).

    In generated code the weights may hold every head (stacked on the axis before the rows);
    then ``keep`` is a tuple of one pattern per head. The model's node has one."""

    def __new__(cls, arg: Any, keep: Any, p: Any) -> Dropout:
        return Unary.__new__(cls, arg, sp.sympify(keep), sp.sympify(p))

    @property
    def keep(self) -> Any:
        return self.args[1]

    @property
    def p(self) -> sp.Expr:
        return self.args[2]

    def _latex(self, printer: Any) -> str:
        factor, keep = sp.latex(1 / (1 - self.p)), written(printer, self.arg, self.keep, "D")
        return rf"{factor} \left({printer._print(self.arg)} \circ {keep}\right)"

    def caption_numbers(self) -> dict[str, Any]:
        """What its step's caption names: the rate and the factor the kept weights take."""
        return {"p": self.p, "factor": 1 / (1 - self.p)}

    def _sympystr(self, printer: Any) -> str:
        factor = float(1 / (1 - self.p))
        return f"dropout({printer._print(self.arg)}, {_literal(self.keep)}, {factor!r})"

    _numpycode = _torchcode = _jaxcode = _sympystr


def dropped(weights: Matrix, keep: Matrix, p: sp.Expr) -> Matrix:
    factor = 1 / (1 - p)
    return Matrix(weights.rows, weights.cols, lambda i, j: weights[i, j] * keep[i, j] * factor)


def _step(evaluator: Any, node: Any) -> Matrix:
    """The kept weights times 1/(1-p); over the softmax's denominators when the weights are a
    softmax's (the attention after it keeps them)."""
    expr = node.expr
    softmax = evaluator.softmaxes.get(expr.arg) if isinstance(expr, Dropout) else None
    if softmax is None:
        return evaluator.generic(node)
    evaluator.softmaxes[node.symbol] = kept_softmax(softmax, expr.keep, expr.p)
    return evaluator.softmaxes[node.symbol].weights


def kept_softmax(softmax: ops.Softmax, keep: Matrix, p: sp.Expr) -> ops.Softmax:
    """The numerators D keeps over the denominators times (1 - p): the kept weights scaled by
    1/(1-p), each exponential still an atom of its own."""
    exps = weights_chain.entrywise(softmax, lambda i, j, e: e if keep[i, j] else 0)
    sums = tuple(ops.Sum(z.content * (1 - p), z.primitive) for z in softmax.sums)
    return ops.Softmax(exps, sums)


def _kept(d: Any, program: Any, node: Any) -> ops.Softmax:
    return kept_softmax(weights_chain.before(d, program, node), node.expr.keep, node.expr.p)


def _forms(f: Any, expr: Dropout) -> Any:
    """The forms D keeps times 1/(1-p), none (0) where it drops."""
    factor = (f.alg.coefficient(1 / (1 - expr.p)),)
    return [
        [f.alg.add(form, factors=factor) if expr.keep[i, j] else {} for j, form in enumerate(row)]
        for i, row in enumerate(f.of(expr.arg))
    ]


def place(builder: Any, n: int, setting: DropoutSetting, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's weights with dropout: the weights the head's output is made of."""
    keep = setting.keep[n - 1]
    if parts["weights"].shape != keep.shape:
        raise SpecError(
            f"dropout.keep has shape {keep.shape} but head {n}'s weights have shape "
            f"{parts['weights'].shape}"
        )
    expr = Dropout(parts["weights"], keep, setting.p)
    made = builder.add(f"head{n}.dropped", "dropout", rf"\tilde{{A}}_{{{n}}}", expr, n)
    return {**parts, "weights": made}


def _code(lowering: Any, node: Any) -> Dropout:
    """The dropout of the weights' code: every head's pattern when the heads are stacked."""
    heads = lowering.model.heads()
    stacked = lowering.stacked_heads and len(heads) > 1
    if not stacked:
        return Dropout(lowering.operand(node.expr.arg, None), node.expr.keep, node.expr.p)
    keeps = [lowering.model.node(f"head{n}.dropped").expr.keep for n in heads]
    return Dropout(lowering.operand(node.expr.arg, None), sp.Tuple(*keeps), node.expr.p)


def unscaled(program: Any) -> Any:
    """The likely mistake of the kept weights left as they were, not times 1/(1-p)."""
    return each(program, "dropout", lambda n: replace(n, expr=Dropout(n.expr.arg, n.expr.keep, 0)))


def rate_of(program: Any) -> sp.Expr | None:
    """The fact ``dropout``: its rate p, None when the weights are not dropped out."""
    node = next((n for n in program if n.kind == "dropout"), None)
    return None if node is None else node.expr.p


_ARRAY = '''
def dropout(weights, keep, factor):
    """The weights the 0/1 pattern keeps (one per stacked head), times 1/(1-p)."""
    return weights * (xp.asarray(keep, dtype=weights.dtype) * factor)
'''
_TORCH = '''
def dropout(weights, keep, factor):
    """The weights the 0/1 pattern keeps (one per stacked head), times 1/(1-p)."""
    kept = torch.tensor(keep, dtype=weights.dtype, device=weights.device)
    return weights * (kept * factor)
'''

OPERATION = Operation(
    kind="dropout",
    roles=frozenset({"query_by_key"}),
    steps=("dropped",),
    nodes=(Dropout,),
    spec_key="dropout",
    read=read_dropout,
    stage="weights",
    rank=3,  # last on the weights: after the softmax and any renormalisation
    place=place,
    exact={Dropout: lambda e, v, evaluate: dropped(evaluate(e.arg, v), e.keep, e.p)},
    step=_step,
    vjp={Dropout: lambda r, e, g: r.vjp(e.arg, Dropout(g, e.keep, e.p))},
    forms={Dropout: _forms},
    kept=_kept,
    forward_forms=weights_chain.forward_forms,
    code=_code,
    prelude={"numpy": _ARRAY, "jax": _ARRAY, "torch": _TORCH},
    rewrites={"dropout_unscaled": unscaled},
    facts={"dropout": rate_of},
)
