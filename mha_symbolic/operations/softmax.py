"""The row softmax: each row of a head's logits turned into weights that are positive and add
up to 1, and its backward rule ``A \\circ (\\bar{A} - (A \\circ \\bar{A}) 1 1^T)``.

Everything the softmax means is here: its place (the step ``head{n}.weights`` from a head's
last logits), its exact step (each row over one denominator, :mod:`mha_symbolic.exact.ops`)
and its limit (from the limits of the logits' gaps), its structured form (its rational
logits) and its gradient in arb, its reverse-mode rule over its step's name A, what the
backward forms keep of it, its stable numeric form (max-shifted rows), and its code: a
stable ``softmax`` helper per backend that can fuse the product with the values (torch:
``scaled_dot_product_attention``), and the backward helper ``softmax_backward``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import flint
import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.matrices.expressions.matexpr import MatrixExpr

from mha_symbolic.exact import ops
from mha_symbolic.exact.rope_arb import RotatedScores
from mha_symbolic.exact.structured_values import Logits, Unstructured, Weights
from mha_symbolic.operations.operation import Operation, Unary, each


def _terms(expr: sp.Basic) -> tuple[sp.Basic, ...]:
    return expr.args if isinstance(expr, sp.MatAdd) else (expr,)


class RowSoftmax(Unary):
    """softmax applied to each row of a matrix expression."""

    def _latex(self, printer: Any) -> str:
        return rf"\operatorname{{softmax}}\left({printer._print(self.arg)}\right)"

    def _sympystr(self, printer: Any) -> str:
        return f"softmax({printer._print(self.arg)})"

    def entry_latex(self, entry: Any) -> str | None:
        """Its entry (i, j) in LaTeX, ``e^{s_ij} / sum_k e^{s_ik}``, ``entry(matrix, row,
        col)`` writing an entry of the named logits it reads; None when they are no one
        matrix."""
        if not isinstance(self.arg, sp.MatrixSymbol):
            return None
        top = rf"e^{{{entry(self.arg, 'i', 'j')}}}"
        bottom = rf"\sum_{{k=1}}^{{{self.shape[1]}}} e^{{{entry(self.arg, 'i', 'k')}}}"
        return rf"\frac{{{top}}}{{{bottom}}}"

    def _code(self, printer: Any, right: str | None, owned: bool) -> str:
        terms = [printer._print(t) for t in _terms(self.arg)]
        first = _terms(self.arg)[0]
        if not owned and isinstance(first, (sp.MatrixSymbol, sp.MatrixSlice)):
            terms[0] += ".copy()"  # the NumPy helper overwrites its first term
        # The terms of a sum are passed apart, so the helper adds them in one pass and
        # skips a term that is None (no mask).
        return f"softmax({', '.join(terms)}{'' if right is None else f', right={right}'})"

    def _numpycode(self, printer: Any, right: str | None = None) -> str:
        """``softmax(terms..., right=R)``: softmax(sum of the terms) @ R."""
        return self._code(printer, right, owned=False)

    def _torchcode(self, printer: Any, right: str | None = None) -> str:
        return self._code(printer, right, owned=True)

    _jaxcode = _torchcode

    def _print_product(self, printer: Any, right: sp.Basic) -> str:
        """softmax(S) R in one helper call: it divides by the row sums after the product. In
        torch, softmax(s Q K^T + M) V is ``scaled_dot_product_attention`` (with at most one
        more logit term, the mask)."""
        parts = _attention_parts(self, right) if printer.backend == "torch" else None
        if parts is None or len(parts[4]) > 1:
            return str(getattr(self, printer.printmethod)(printer, right=printer._print(right)))
        scale, q, k, v, extra = parts
        mask = f", attn_mask={printer._print(extra[0])}" if extra else ""
        return (
            f"scaled_dot_product_attention({printer._print(q)}, {printer._print(k)}, "
            f"{printer._print(v)}{mask}, scale={printer._number(scale)})"
        )


def _attention_parts(
    softmax: RowSoftmax, v: sp.Basic
) -> tuple[sp.Expr, sp.Basic, sp.Basic, sp.Basic, list] | None:
    """(scale, Q, K, V, other logit terms) when ``softmax V`` is softmax(s Q K^T + ...) V."""
    terms = list(_terms(softmax.arg))
    scores = terms.pop(0)
    if not isinstance(scores, sp.MatMul):
        return None
    scale, matrices = scores.as_coeff_matrices()
    if len(matrices) != 2 or not isinstance(matrices[1], sp.Transpose):
        return None
    return scale, matrices[0], matrices[1].arg, v, terms


class SoftmaxBackward(MatrixExpr):
    """The row softmax's backward rule: ``A \\circ (\\bar{A} - (A \\circ \\bar{A}) 1 1^T)``.

    ``A`` is the softmax's output and ``\\bar{A}`` the gradient of the loss with respect to it;
    each row is ``(diag(a) - a^T a) \\bar{a}``. A blocked position has a = 0, so its gradient
    is exactly 0.
    """

    def __new__(cls, weights: Any, grad: Any) -> SoftmaxBackward:
        return MatrixExpr.__new__(cls, sp.sympify(weights), sp.sympify(grad))

    @property
    def shape(self) -> tuple[Any, Any]:
        return self.args[0].shape

    def _latex(self, printer: Any) -> str:
        a, g = (printer._print(m) for m in self.args)
        ones = r"\mathbf{1}\mathbf{1}^{\top}"
        return rf"{a} \circ \left({g} - \left({a} \circ {g}\right) {ones}\right)"

    def _sympystr(self, printer: Any) -> str:
        a, g = (printer._print(m) for m in self.args)
        return f"softmax_backward({a}, {g})"

    _numpycode = _torchcode = _jaxcode = _sympystr


def _exact_backward(expr: SoftmaxBackward, values: Any, evaluate: Any) -> Matrix:
    a, g = (evaluate(arg, values) for arg in expr.args)
    dots = [sum(a[r, k] * g[r, k] for k in range(a.cols)) for r in range(a.rows)]
    return Matrix(a.rows, a.cols, lambda r, j: a[r, j] * (g[r, j] - dots[r]))


def place(builder: Any, n: int, on: bool, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's weights, the row softmax of its last logits (none when the spec gives them)."""
    if "weights" in parts:
        return parts
    expr = RowSoftmax(parts["logits"])
    return {**parts, "weights": builder.add(f"head{n}.weights", "softmax", f"A_{{{n}}}", expr, n)}


def _step(evaluator: Any, node: Any) -> Matrix:
    """softmax(L), each row over one shared denominator (kept for the attention)."""
    if not isinstance(node.expr, RowSoftmax):
        return evaluator.generic(node)
    softmax = ops.row_softmax(evaluator.value(node.expr.arg))
    evaluator.softmaxes[node.symbol] = softmax
    return softmax.weights


def _limit(walk: Any, node: Any) -> Matrix:
    """The limit of the weights from the limits of the logits' gaps (see :func:`limit_of`)."""
    logits = next(n for n in walk.program.nodes if n.symbol == node.expr.arg)
    softmax = limit_of(walk.take, walk.d[logits.key])
    walk.softmaxes[node.symbol] = softmax
    return softmax.weights if softmax is not None else walk.original(node)


def limit_of(take: Any, logits: Matrix) -> ops.Softmax | None:
    """The limit of softmax(logits) (``take.entry``: the limit of one entry), from the
    logits' differences to the row's leader.

    Each weight is 1 / sum_k e^{a_k - a_j}, so only the limits of a_k - a_lead matter:
    keys whose logit falls infinitely behind the largest get exactly 0, the rest share
    e^{lim(a_k - a_lead)}: one-hot at argmax (ties split equally) as a temperature goes
    to 0, uniform over the unmasked keys as it goes to oo. None when a difference has
    no limit in [-oo, oo).
    """
    rows = []
    for i in range(logits.rows):
        row = list(logits.row(i))
        finite = [j for j, a in enumerate(row) if a != -sp.oo]
        lead = finite[0]
        for j in finite[1:]:
            if take.entry(row[j] - row[lead]) == sp.oo:
                lead = j
        gaps = [a if a == -sp.oo else take.entry(a - row[lead]) for a in row]
        if not all(g == -sp.oo or (g.is_finite and g.is_extended_real) for g in gaps):
            return None
        rows.append(gaps)
    return ops.row_softmax(Matrix(rows))


def _structured(expr: RowSoftmax, values: Any, value_of: Any) -> Weights:
    """The weights held as their logits (``factor * matrix``, blocked entries apart)."""
    logits = value_of(expr.arg, values)
    if isinstance(logits, (flint.fmpq_mat, RotatedScores)):
        logits = Logits(sp.Integer(1), logits)
    if not isinstance(logits, Logits):
        raise Unstructured("a softmax of a non-logit value")
    return Weights(logits)


def _balls(balls: Any, expr: SoftmaxBackward) -> flint.arb_mat:
    """A o (G - (A o G) 1 1^T) in arb: each row's weights times its gradient less their dot."""
    a, g = (balls.of(arg) for arg in expr.args)
    out = flint.arb_mat(a.nrows(), a.ncols())
    for i in range(a.nrows()):
        row = [(a[i, j], g[i, j]) for j in range(a.ncols())]
        dot = sum((x * y for x, y in row), flint.arb(0))
        for j, (x, y) in enumerate(row):
            out[i, j] = x * (y - dot)
    return out


def _no_balls(balls: Any, expr: RowSoftmax) -> flint.arb_mat:
    raise ValueError("enclose: a softmax inside a gradient formula is not enclosed")


def _assigned_vjp(reverse: Any, symbol: Any, expr: RowSoftmax, bar: sp.Basic) -> None:
    """A = softmax(L): L gets ``SoftmaxBackward(A, bar)``, written over A's name (in code an
    assignment of its own, ``S_bar``, when the policy asks for one)."""
    logits: sp.Basic = SoftmaxBackward(symbol, bar)
    if reverse.policy.own_steps:
        label, code = (n.replace("A", "S", 1) for n in reverse.policy.names(symbol, False))
        logits = reverse.assign(label, code, logits)
    reverse.vjp(expr.arg, logits)


class RowMax(sp.Function):
    """The largest of its arguments, as an elementwise ``numpy.maximum`` chain in code.

    (``Max`` prints as ``numpy.amax`` of a tuple, which fails when a constant meets an array.)
    """

    def _numpycode(self, printer: Any) -> str:
        text = printer._print(self.args[-1])
        for arg in reversed(self.args[:-1]):
            text = f"{printer._module_format('numpy.maximum')}({printer._print(arg)}, {text})"
        return text


def _row_max(entries: list[sp.Expr]) -> sp.Expr:
    if len(entries) == 1:
        return entries[0]
    if all(a.is_comparable for a in entries):
        return max(entries, key=lambda a: sp.N(a, 30))
    return RowMax(*entries)


def _stable(stages: Any, node: Any) -> Matrix:
    """Each row as e^{a_j - m} / sum_k e^{a_k - m}, m the row's largest logit, every logit,
    exponential, sum and weight named once (numeric evaluation that does not overflow)."""
    logits = stages.named(stages.value(node.expr.arg), "a")
    rows = []
    for i in range(logits.rows):
        row = list(logits.row(i))
        finite = [a for a in row if a != -sp.oo]
        top = stages.name(_row_max(finite), "m")
        exps = [sp.Integer(0) if a == -sp.oo else stages.name(sp.exp(a - top), "e") for a in row]
        total = stages.name(sp.Add(*exps), "z")
        rows.append([stages.name(e / total, "w") for e in exps])
    return Matrix(rows)


def _vjp(reverse: Any, expr: RowSoftmax, bar: sp.Basic) -> None:
    """A softmax inside an expression (not an assignment of its own): its weights inline."""
    reverse.vjp(expr.arg, SoftmaxBackward(expr, bar))


def _code(lowering: Any, node: Any) -> RowSoftmax:
    """The softmax of the logits' code, plus the mask given at call time when unmasked."""
    logits = lowering.operand(node.expr.arg, None)
    if f"head{node.head}.masked" not in lowering.model:
        logits = sp.MatAdd(logits, lowering.mask, evaluate=False)  # a mask given at call time
    return RowSoftmax(logits)


# The helpers its code calls, per backend and pass: a stable row softmax that can fuse the
# product with the values, and the backward rule (NumPy's in place).
_NUMPY = '''
def softmax(*terms, right=None):
    """Row softmax of the sum of the terms (a None mask skipped), times ``right`` if given.

    The row max is subtracted before exp. With ``right`` the division by the row sums comes
    after the product (L x d divisions, not L x L). The first term, a temporary, is overwritten.
    """
    x, *rest = terms
    for term in rest:
        if term is None:
            continue
        grows = numpy.broadcast_shapes(x.shape, term.shape) != x.shape
        x = x + term if grows else numpy.add(x, term, out=x)
    x -= x.max(axis=-1, keepdims=True)
    numpy.exp(x, out=x)
    total = x.sum(axis=-1, keepdims=True)
    if right is None:
        x /= total
        return x
    out = x @ right
    out /= total
    return out
'''
_TORCH = '''
def softmax(*terms, right=None):
    """Row softmax of the sum of the terms (None terms skipped), times ``right`` if given."""
    logits, *rest = [term for term in terms if term is not None]
    for term in rest:
        logits = logits + term
    weights = torch.softmax(logits, dim=-1)  # subtracts the row max first
    return weights if right is None else weights @ right
'''
_JAX = '''
def softmax(*terms, right=None):
    """Row softmax of the sum of the terms (None terms skipped), times ``right`` if given."""
    logits, *rest = [term for term in terms if term is not None]
    for term in rest:
        logits = logits + term
    weights = jax.nn.softmax(logits, axis=-1)  # subtracts the row max first
    return weights if right is None else weights @ right
'''
_NUMPY_BACKWARD = '''
def softmax_backward(a, g):
    """A o (G - (A o G) 1 1^T): each row's softmax Jacobian diag(a) - a^T a applied to g."""
    out = a * g
    out -= a * out.sum(-1, keepdims=True)
    return out
'''
_BACKWARD = '''
def softmax_backward(a, g):
    """A o (G - (A o G) 1 1^T): each row's softmax Jacobian diag(a) - a^T a applied to g."""
    return a * (g - (a * g).sum(-1, keepdims=True))
'''


def column_softmax(program: Any) -> Any:
    """The likely mistake of a softmax over each column (the keys' axis confused with the
    queries')."""

    def change(node: Any) -> Any:
        return replace(node, expr=sp.Transpose(RowSoftmax(sp.Transpose(node.expr.arg))))

    return each(program, "softmax", change)


OPERATION = Operation(
    kind="softmax",
    roles=frozenset({"weights", "query_by_key", "inside_softmax"}),
    steps=("weights",),
    nodes=(RowSoftmax, SoftmaxBackward),
    stage="weights",
    place=place,
    exact={
        RowSoftmax: lambda e, v, evaluate: ops.row_softmax(evaluate(e.arg, v)).weights,
        SoftmaxBackward: _exact_backward,
    },
    step=_step,
    limit=_limit,
    structured={RowSoftmax: _structured},
    balls={SoftmaxBackward: _balls, RowSoftmax: _no_balls},
    vjp={RowSoftmax: _vjp},
    assigned_vjp={RowSoftmax: _assigned_vjp},
    forms={
        SoftmaxBackward: lambda f, e: f.alg.softmax_backward(f.kept[e.args[0]], f.of(e.args[1])),
        RowSoftmax: lambda f, e: f.alg.softmax_forms(ops.row_softmax(f.alg.matrix(f.of(e.arg)))),
    },
    kept=lambda d, program, node: ops.row_softmax(d[program.logits(node.head or 1).key]),
    forward_forms=lambda f, node: f.alg.softmax_forms(f.kept[node.symbol]),
    stable=_stable,
    code=_code,
    assigned_as="A",
    prelude={
        "numpy": _NUMPY,
        "torch": _TORCH,
        "jax": _JAX,
        "numpy_backward": _NUMPY_BACKWARD,
        "torch_backward": _BACKWARD,
        "jax_backward": _BACKWARD,
    },
    rewrites={"column_softmax": column_softmax},
)
