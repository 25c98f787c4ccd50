"""The renormalisation after a mask on the weights: each row of the kept weights divided by its
sum (step ``head{n}.renormalised``), so that the rows add up to 1 again.

It follows ``weights_mask`` (A ∘ M) and nothing else: with no kept weights in a head it adds
no step. Over a softmax's weights it keeps each row over one denominator, the sum of the kept
e^{s_ij}, so that the value is the softmax of the scores masked before it, as written. Its
reverse-mode rule is :class:`RenormalisedBackward`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.exact import ops
from mha_symbolic.operations import weights_chain
from mha_symbolic.operations.operation import Operation, Unary, each


class Renormalised(Unary):
    """``diag(K 1)^{-1} K``: each row of ``arg`` divided by its sum."""

    def _latex(self, printer: Any) -> str:
        arg = printer._print(self.arg)
        return rf"\operatorname{{diag}}\left({arg} \mathbf{{1}}\right)^{{-1}} {arg}"

    def _sympystr(self, printer: Any) -> str:
        return f"renormalised({printer._print(self.arg)})"

    _numpycode = _torchcode = _jaxcode = _sympystr


class RenormalisedBackward(Unary):
    """The gradient through ``R = diag(K 1)^{-1} K``: row i of ``bar`` less its dot with R's
    row, over the row's sum s, ``(\\bar{r}_j - \\sum_k r_k \\bar{r}_k) / s``."""

    def __new__(cls, kept: Any, bar: Any) -> RenormalisedBackward:
        return Unary.__new__(cls, kept, sp.sympify(bar))

    def _latex(self, printer: Any) -> str:
        k, g = (printer._print(a) for a in self.args)
        return rf"\operatorname{{renormalised\_backward}}\left({k}, {g}\right)"

    def _sympystr(self, printer: Any) -> str:
        k, g = (printer._print(a) for a in self.args)
        return f"renormalised_backward({k}, {g})"

    _numpycode = _torchcode = _jaxcode = _sympystr


def renormalised(kept: Matrix) -> Matrix:
    """Each row over its sum, put together (rationals stay rationals; a row of 0s stays 0)."""
    rows = []
    for i in range(kept.rows):
        row = list(kept.row(i))
        total = sp.together(sp.Add(*row))
        rows.append([sp.Integer(0) if total == 0 else sp.together(e / total) for e in row])
    return Matrix(rows)


def backward(kept: Matrix, bar: Matrix) -> Matrix:
    """(bar_ij - sum_k K_ik bar_ik / s_i) / s_i, s_i the sum of row i of K."""
    out = []
    for i in range(kept.rows):
        row, g = list(kept.row(i)), list(bar.row(i))
        total = sp.Add(*row)
        if total == 0:
            out.append([sp.Integer(0)] * len(row))
            continue
        dot = sp.Add(*(k * b for k, b in zip(row, g))) / total
        out.append([(b - dot) / total for b in g])
    return Matrix(out)


def _sums(exps: tuple[tuple[sp.Expr, ...], ...]) -> tuple[ops.Sum, ...]:
    return tuple(ops.linear_sum((e, sp.Integer(1)) for e in row if e != 0) for row in exps)


def _kept(d: Any, program: Any, node: Any) -> ops.Softmax:
    """The kept numerators over their own sums."""
    exps = weights_chain.before(d, program, node).exps
    return ops.Softmax(exps, _sums(exps))


def _backward_forms(f: Any, expr: RenormalisedBackward) -> Any:
    """Row i: (g_ij - sum_k r_ik g_ik) Z_i / Z'_i, r = e / Z' the renormalised weights, Z the
    kept weights' denominators and Z' the sums of their numerators (K's row sum is Z' / Z)."""
    kept, alg = f.kept[expr.args[0]], f.alg
    out = []
    for exps, total, g_row in zip(kept.exps, kept.sums, f.of(expr.args[1])):
        own = ops.linear_sum((e, sp.Integer(1)) for e in exps if e != 0)
        over = alg.reciprocal(own.value, 1)
        shares = [alg.multiply(over, {(): alg.atom(e)}) for e in exps]
        dot = alg.add(*(alg.multiply(r, g) for r, g, e in zip(shares, g_row, exps) if e != 0))
        scale = alg.multiply(over, {(): alg.numerator(total.value)})
        minus = (alg.one, alg.coefficient(sp.Integer(-1)))
        out.append([alg.multiply(alg.add(g, dot, factors=minus), scale) for g in g_row])
    return out


def _step(evaluator: Any, node: Any) -> Matrix:
    """Each kept e^{s_ij} over the kept ones' sum when the kept weights are a softmax's."""
    kept = evaluator.softmaxes.get(node.expr.arg) if isinstance(node.expr, Renormalised) else None
    if kept is None:
        return evaluator.generic(node)
    evaluator.softmaxes[node.symbol] = ops.Softmax(kept.exps, _sums(kept.exps))
    return evaluator.softmaxes[node.symbol].weights


def place(builder: Any, n: int, on: bool, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's kept weights over their row sums: the weights the head goes on with."""
    if "kept" not in parts:
        return parts
    rest = {name: part for name, part in parts.items() if name != "kept"}
    expr = Renormalised(parts["kept"])
    made = builder.add(f"head{n}.renormalised", "renormalise", rf"\hat{{A}}_{{{n}}}", expr, n)
    return {**rest, "weights": made}


def _vjp(reverse: Any, expr: Renormalised, bar: sp.Basic) -> None:
    reverse.vjp(expr.arg, RenormalisedBackward(expr.arg, bar))


def not_renormalised(program: Any) -> Any:
    """The likely mistake of the masked weights taken as they are, rows not divided by their
    sums."""
    return each(program, "renormalise", lambda node: replace(node, expr=node.expr.arg))


def renormalises(program: Any) -> bool:
    """The fact ``renormalised``: the weights are masked after the softmax and renormalised."""
    return any(node.kind == "renormalise" for node in program)


_ARRAY = '''
def renormalised(kept):
    """Each row over its sum (a row of zeros stays zeros)."""
    total = kept.sum(axis=-1, keepdims=True)
    return kept / xp.where(total == 0, 1, total)
'''
_TORCH = '''
def renormalised(kept):
    """Each row over its sum (a row of zeros stays zeros)."""
    total = kept.sum(dim=-1, keepdim=True)
    return kept / torch.where(total == 0, torch.ones_like(total), total)
'''
_BACKWARD = '''
def renormalised_backward(kept, g):
    """The gradient through R = K / (K 1): (g - (K o g) 1 / s) / s, s = K 1, row by row."""
    total = kept.sum(-1, keepdims=True)
    total = total + (total == 0)
    return (g - (kept * g).sum(-1, keepdims=True) / total) / total
'''

OPERATION = Operation(
    kind="renormalise",
    roles=frozenset({"weights", "query_by_key"}),
    steps=("renormalised",),
    nodes=(Renormalised, RenormalisedBackward),
    stage="weights",
    rank=2,  # after the mask on the weights (weights_mask, rank 1)
    place=place,
    exact={
        Renormalised: lambda e, v, evaluate: renormalised(evaluate(e.arg, v)),
        RenormalisedBackward: lambda e, v, evaluate: backward(
            evaluate(e.args[0], v), evaluate(e.args[1], v)
        ),
    },
    step=_step,
    vjp={Renormalised: _vjp},
    forms={RenormalisedBackward: _backward_forms},
    kept=_kept,
    forward_forms=weights_chain.forward_forms,
    code=lambda lowering, node: Renormalised(lowering.operand(node.expr.arg, None)),
    prelude={
        "numpy": _ARRAY,
        "jax": _ARRAY,
        "torch": _TORCH,
        "numpy_backward": _BACKWARD,
        "torch_backward": _BACKWARD,
        "jax_backward": _BACKWARD,
    },
    rewrites={"not_renormalised": not_renormalised},
    facts={"renormalised": renormalises},
)
