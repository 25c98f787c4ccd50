"""The mask: where a query may not look, its scores are blocked before the softmax.

The additive mask M holds 0 where query i may attend to key j and -oo where not (``causal``:
keys after the query), one leaf shared by every head; the step ``head{n}.masked`` is the
logits plus M, so a blocked weight is exactly 0. With a finite ``mask_fill`` (PyTorch's
``masked_fill(mask, -1e9)``) the blocked scores are replaced by the fill instead
(:class:`MaskedFill`), whose reverse-mode rule is the same fill with 0. The spec keys
``mask`` (``none``, ``causal`` or a 0/1 matrix, 1 = may attend) and ``mask_fill`` are read
here (:func:`read_mask`, as the spec reader asks its ``fields``); it acts last on the
logits, after any other operation there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.matrices.expressions.matexpr import MatrixExpr

from mha_symbolic.errors import SpecError
from mha_symbolic.operations.operation import Operation, Unary, each
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.text import did_you_mean

# --------------------------------------------------------------------------- spec
MASKS = ("none", "causal")


def read_mask(raw: Mapping[str, Any], n_query: int, n_key: int) -> dict[str, Any]:
    """``mask_kind``, ``mask`` (0/1, or None) and ``mask_fill`` of a spec."""
    fill = raw.get("mask_fill", "-inf")
    values = _mask(raw.get("mask", "none"), n_query, n_key, fill)
    values["mask_fill"] = mask_fill(fill, values["mask_kind"])
    return values


def _choice(value: str) -> str:
    if value not in MASKS:
        raise SpecError(
            f"unknown mask {value!r}{did_you_mean(value, MASKS)}; choose one of {', '.join(MASKS)}"
        )
    return value


def _shape(matrix: sp.MatrixBase) -> tuple[int, int]:
    return (matrix.rows, matrix.cols)


def _mask(value: Any, n_query: int, n_key: int, fill: Any) -> dict[str, Any]:
    if isinstance(value, str) and "\\begin" not in value:
        kind = _choice(value)
        if kind == "none":
            return {"mask_kind": "none", "mask": None}
        causal = Matrix(n_query, n_key, lambda i, j: 1 if j <= i else 0)
        return {"mask_kind": "causal", "mask": causal}
    matrix = exact.to_matrix(value, "mask")
    if _shape(matrix) != (n_query, n_key):
        raise SpecError(
            f"mask has shape {_shape(matrix)} but the scores have shape "
            f"({n_query}, {n_key}) (queries x keys)"
        )
    for (i, j), entry in sorted(matrix.todok().items()):
        if entry not in (0, 1):
            raise SpecError(
                f"mask[{i + 1},{j + 1}] is {entry}; a mask holds 0 (blocked) or 1 (may attend)"
            )
    for i in range(n_query if fill in ("-inf", "-oo") else 0):  # a finite fill: uniform row
        if not any(matrix[i, j] == 1 for j in range(n_key)):
            raise SpecError(
                f"mask row {i + 1} blocks every key; softmax over no keys is "
                "undefined (allow at least one key per row)"
            )
    return {"mask_kind": "matrix", "mask": matrix}


def mask_fill(value: Any, mask_kind: str) -> sp.Expr:
    """``"-inf"`` (masked weights exactly 0) or the exact number masked scores take
    (``"-1e9"``: PyTorch's ``masked_fill(mask, -1e9)``)."""
    if value in ("-inf", "-oo"):
        return -sp.oo
    if mask_kind == "none":
        raise SpecError("mask_fill is given but mask is none; give a mask (causal or 0/1)")
    number = exact.to_number(value, "mask_fill")
    if number.free_symbols or not number.is_real or not number.is_finite:
        raise SpecError(
            f'mask_fill must be "-inf" or an exact real number like "-1e9", got {value!r}'
        )
    return number


# --------------------------------------------------------------------------- node


class MaskedFill(Unary):
    """``masked_fill``: the scores with every blocked entry replaced by ``fill`` (-10^9, say).

    ``mask`` is the additive mask M (0 where a query may attend, -oo where not), so the value
    is S + M where M is 0 and ``fill`` where M is -oo: PyTorch's ``masked_fill(mask, -1e9)``.
    Its reverse-mode rule is the same fill with 0: a replaced entry takes no gradient.
    """

    def __new__(cls, arg: Any, mask: Any, fill: Any) -> MaskedFill:
        return Unary.__new__(cls, arg, sp.sympify(mask), sp.sympify(fill))

    @property
    def mask(self) -> MatrixExpr:
        return self.args[1]

    @property
    def fill(self) -> sp.Expr:
        return self.args[2]

    def _latex(self, printer: Any) -> str:
        arg, mask, fill = (printer._print(a) for a in self.args)
        return rf"\operatorname{{masked\_fill}}\left({arg}, {mask}, {fill}\right)"

    def _sympystr(self, printer: Any) -> str:
        arg, mask = printer._print(self.arg), printer._print(self.mask)
        return f"masked_fill({arg}, {mask}, {float(self.fill)!r})"

    _numpycode = _torchcode = _jaxcode = _sympystr


def leaf(builder: Any, allowed: Matrix) -> sp.MatrixSymbol:
    """The additive mask M (0 may attend, -oo blocked), one leaf for every head; its kind
    (causal, or a matrix the spec gives) is the leaf's."""
    for known in builder.leaves:
        if known.role == "mask":
            return known.symbol
    return builder.leaf("M", "mask", additive(allowed), None, builder.spec.mask_kind)


def additive(allowed: Matrix) -> Matrix:
    """The additive mask of a 0/1 one: 0 where it allows, -oo where it blocks. Made from the
    rows of its representation and given SymPy as its own (the form its constructor makes),
    not entry by entry: a causal mask of 1024 tokens is a million entries, and the
    constructor's check of each took a second."""
    from sympy.polys.domains import EXRAW
    from sympy.polys.matrices import DomainMatrix

    zero, blocked = sp.S.Zero, sp.S.NegativeInfinity
    rows = [[zero if a else blocked for a in row] for row in allowed._rep.to_list()]
    return Matrix._fromrep(DomainMatrix(rows, allowed.shape, EXRAW).to_sparse())


def place(builder: Any, n: int, allowed: Matrix, parts: dict[str, Any]) -> Any:
    """Head n's logits plus the mask (or filled where it blocks), a step of its own."""
    if "logits" not in parts:  # the weights are given
        return parts
    mask, fill = leaf(builder, allowed), builder.spec.mask_fill
    logits = parts["logits"]
    added = sp.MatAdd(logits, mask) if fill == -sp.oo else MaskedFill(logits, mask, fill)
    masked = builder.add(f"head{n}.masked", "mask", f"\\tilde{{S}}_{{{n}}}", added, n)
    return {**parts, "logits": masked}


def _exact(expr: MaskedFill, values: Any, evaluate: Any) -> Matrix:
    logits, mask = evaluate(expr.arg, values), evaluate(expr.mask, values)
    fill = evaluate(expr.fill, values)
    return Matrix(
        logits.rows,
        logits.cols,
        lambda i, j: fill if mask[i, j] == -sp.oo else logits[i, j] + mask[i, j],
    )


def _forms(f: Any, expr: MaskedFill) -> Any:
    """The entries M blocks replaced by the fill (0 in the backward rule), the rest kept."""
    mask = f.values[expr.mask]
    fill = f.alg.constants(sp.Matrix([[expr.fill]]))[0][0]
    return [
        [fill if mask[i, j] == -sp.oo else form for j, form in enumerate(row)]
        for i, row in enumerate(f.of(expr.arg))
    ]


def _code(lowering: Any, node: Any) -> Any:
    """The logits plus the mask in code (``masked_fill`` with a finite fill)."""
    if isinstance(node.expr, MaskedFill):  # masked_fill(S', M, -1e9)
        expr = node.expr
        arg, mask = lowering.operand(expr.arg, None), lowering.operand(expr.mask, None)
        return MaskedFill(arg, mask, expr.fill)
    logits, mask = node.expr.args
    return sp.MatAdd(lowering.operand(logits, None), lowering.operand(mask, None), evaluate=False)


def _helper(xp: str) -> str:
    return f'''
def masked_fill(logits, mask, fill):
    """``masked_fill``: ``fill`` where the additive mask blocks (-inf), the logits plus the
    mask elsewhere (no mask: the logits)."""
    if mask is None:
        return logits
    return {xp}.where({xp}.isneginf(mask), fill, logits + mask)
'''


def unmasked(program: Any) -> Any:
    """The likely mistake of the mask left out: the masked scores are the logits before it."""
    return each(program, "mask", lambda node: replace(node, expr=node.expr.args[0]))


@dataclass(frozen=True)
class Mask:
    """The mask every head's scores take."""

    kind: str  # "causal" or "matrix"
    fill: sp.Expr  # -oo: blocked scores are dropped; a number: they are set to it (masked_fill)

    @property
    def filled(self) -> bool:
        return self.fill != -sp.oo


def mask_of(program: Any) -> Mask | None:
    """The fact ``mask``: the mask of the scores, read off the masked node and the mask leaf;
    None when nothing is masked."""
    masked = next((n for n in program if n.kind == "mask"), None)
    if masked is None:
        return None
    fill = masked.expr.fill if isinstance(masked.expr, MaskedFill) else -sp.oo
    leaf = next(lf for lf in program.leaves if lf.role == "mask")
    return Mask(leaf.kind or "matrix", fill)


def _caption(program: Any, node: Any) -> tuple[dict[str, sp.Expr], str]:
    """Its caption: ``_fill`` with the fill when blocked scores are replaced by a number."""
    mask = mask_of(program)
    if mask is None or not mask.filled:
        return {}, ""
    return {"fill": mask.fill}, "_fill"


OPERATION = Operation(
    kind="mask",
    roles=frozenset({"query_by_key", "inside_softmax"}),
    steps=("masked",),
    nodes=(MaskedFill,),
    spec_key="mask",
    # With mask_fill, into the spec's ``mask_kind``, ``mask`` and ``mask_fill`` fields, once
    # the lengths of the queries and keys are known.
    fields=lambda raw, values: read_mask(raw, values["query"].rows, values["key"].rows),
    read_at="inputs",
    stage="logits",
    rank=1,  # after every other operation on the logits: what it blocks stays blocked
    place=place,
    exact={MaskedFill: _exact},
    vjp={MaskedFill: lambda r, e, g: r.vjp(e.arg, MaskedFill(g, e.mask, 0))},
    forms={MaskedFill: _forms},
    code=_code,
    prelude={"numpy": _helper("numpy"), "jax": _helper("jnp"), "torch": _helper("torch")},
    rewrites={"unmasked": unmasked},
    facts={"mask": mask_of},
    caption=_caption,
)
