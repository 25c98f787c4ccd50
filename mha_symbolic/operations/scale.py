"""The scale: the scores times the factor s of softmax(s Q K^T) (step ``head{n}.scaled``).

The spec's ``scale`` is ``sqrt_dk`` (s = 1/sqrt(d_k), d_k a leaf of the program), ``none``
(s = 1) or an exact number, maybe in declared parameters (``1/tau``); it is read here
(:func:`read_scale`, as the spec reader asks its ``fields``) into the spec's field.
In code the factor multiplies the cheaper of the product's factors; in the backward forms
it is a generator of the ring of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.operations.operation import Operation, each
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.spec import stages
from mha_symbolic.text import did_you_mean

SCALES = ("sqrt_dk", "none")


# --------------------------------------------------------------------------- spec
def read_scale(value: Any) -> str | sp.Expr:
    """The spec's ``scale``: sqrt_dk, none, or an exact positive number (maybe in declared
    parameters, ``1/tau``)."""
    if isinstance(value, str) and value in SCALES:
        return value
    names = {symbol.name for symbol in exact.declared_symbols()}
    if isinstance(value, str) and value.replace("_", "").isalpha() and value not in names:
        raise SpecError(
            f"unknown scale {value!r}{did_you_mean(value, SCALES)}; "
            "choose sqrt_dk, none or an exact number"
        )
    number = exact.to_number(value, "scale")
    if number.free_symbols:
        return _parametric_scale(number, value)
    if not number.is_positive:
        raise SpecError(f"scale must be a positive number, got {value!r}")
    return number


def _fields(raw: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The spec's ``scale``: by default 1/sqrt(d_k) where there are queries and keys, else 1."""
    return {"scale": read_scale(raw.get("scale", "sqrt_dk" if stages.has_q(raw) else "none"))}


def _parametric_scale(number: sp.Expr, value: Any) -> sp.Expr:
    """A scale in declared parameters (``1/tau``): it may not be provably zero or negative."""
    declared = set(exact.declared_symbols())
    unknown = sorted((s for s in number.free_symbols if s not in declared), key=str)
    if unknown:
        raise SpecError(
            f"scale {value!r} uses {unknown[0]}, which is not a declared parameter "
            f'(declare it: [parameters] {unknown[0]} = "positive")'
        )
    if number.is_positive is False:
        raise SpecError(f"scale {value!r} is never positive for the declared parameters")
    return number


# --------------------------------------------------------------------------- model


def factor(builder: Any, d_k: int) -> sp.Expr:
    """The factor s of softmax(s Q K^T) as formulas write it (1/sqrt(d_k), d_k a leaf)."""
    scale = builder.spec.scale
    if scale == "none":
        return sp.Integer(1)
    if scale == "sqrt_dk":
        symbol = sp.Symbol("d_k", positive=True, integer=True)
        known = [lf for lf in builder.leaves if lf.symbol == symbol]
        if known and known[0].value != d_k:  # heads of different widths: the number itself
            return sp.Pow(sp.Integer(d_k), sp.Rational(-1, 2), evaluate=False)
        if not known:
            builder.scalar(symbol, "d_k", sp.Integer(d_k))
        return 1 / sp.sqrt(symbol)
    assert isinstance(scale, sp.Expr)
    return scale


def place(builder: Any, n: int, on: bool, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's scaled scores s S, written s Q K^T (none when the spec gives the weights)."""
    if "scores" not in parts:
        return parts
    s = parts["scores"]
    if "q" in parts:
        q, k = parts["q"], parts["k"]
        s_of = factor(builder, int(q.shape[1]))
        written = sp.MatMul(s_of, q, k.T)
    else:  # given scores
        s_of = factor(builder, 0)
        written = sp.MatMul(s_of, s)
    expr = sp.MatMul(s_of, s)
    logits = builder.add(f"head{n}.scaled", "scale", f"S'_{{{n}}}", expr, n, written)
    return {**parts, "logits": logits}


def _code(lowering: Any, node: Any) -> sp.Basic:
    """s Q K^T as one product of the scores' code (or the given scores) and the factor."""
    factor, scores = node.expr.args if isinstance(node.expr, sp.MatMul) else (1, node.expr)
    factor = sp.sympify(factor).xreplace(lowering.scalars)
    code = lowering.operand(scores, None)
    factors = code.args if isinstance(code, sp.MatMul) else (code,)  # Q K^T, or given
    if factor == 1:
        return sp.MatMul(*factors, evaluate=False)
    return sp.MatMul(factor, *factors, evaluate=False)


def _factors(node: Any, scalars: dict[sp.Basic, Any]) -> list[sp.Expr]:
    """The factor (1/sqrt(2), 1/tau), d_k replaced by its value."""
    if not isinstance(node.expr, sp.MatMul):
        return []
    return [node.expr.args[0].xreplace(scalars)]


def _scores_of(node: Any) -> sp.Basic:
    """The scores symbol S that a scaled node multiplies."""
    return node.expr if isinstance(node.expr, sp.MatrixSymbol) else node.expr.args[-1]


def scaled_by(factor: sp.Expr) -> Any:
    """The likely mistake of another scale: the scores multiplied by ``factor`` instead."""

    def change(node: Any) -> Any:
        s = _scores_of(node)
        return replace(node, expr=sp.MatMul(factor, s) if factor != 1 else s)

    return lambda program: each(program, "scale", change)


@dataclass(frozen=True)
class Scale:
    """The factor s of a head's ``softmax(s Q K^T)``."""

    factor: sp.Expr  # as the formulas write it: 1/sqrt(d_k) with d_k a symbol, 1/tau, 1
    is_identity: bool  # s = 1: the scores are the logits
    is_default: bool  # s = 1/sqrt(d_k) of the head's own width, as the spec's default makes it

    @property
    def given(self) -> bool:
        """A factor the spec gives (neither 1 nor the default)."""
        return not (self.is_identity or self.is_default)


class ScaleOf(Protocol):
    """The fact ``scale``: a head's scale (head 1's when none is named)."""

    def __call__(self, head: int = 1) -> Scale: ...


def scale_of(program: Any) -> ScaleOf:
    """The fact ``scale(head=1)``: head ``head``'s scale, read off its scaled node (the
    identity when the weights are given: nothing is scaled)."""

    def of(head: int = 1) -> Scale:
        key = f"head{head}.scaled"
        if key not in program:
            return Scale(sp.Integer(1), True, False)
        factor = _factored(program, program.node(key))[0]
        return Scale(factor, factor == 1, _is_default(program, factor))

    return of


def _factored(program: Any, node: Any) -> tuple[sp.Expr, sp.Basic]:
    """(s, S): the factor as the formulas write it and the scores it multiplies."""
    factor = sp.Mul(*(a for a in node.expr.args if not getattr(a, "is_Matrix", False)))
    return factor, _scores_of(node)


def _is_default(program: Any, factor: sp.Expr) -> bool:
    """1/sqrt(d_k) as the program writes it: over its d_k leaf, or (heads of another width)
    the unevaluated power the spec's numbers never make."""
    if any(leaf.role == "d_k" and factor.has(leaf.symbol) for leaf in program.leaves):
        return True
    return (
        isinstance(factor, sp.Pow)
        and factor.exp == sp.Rational(-1, 2)
        and bool(factor.base.is_Integer)
    )


def _caption(program: Any, node: Any) -> tuple[dict[str, sp.Expr], str]:
    """Its caption: ``_none`` when s = 1; a factor the spec gives, with its value and its
    divisor (``_divided``: 1/tau is "divided by tau"; else ``_value``)."""
    scale = scale_of(program)(node.head or 1)
    if scale.is_identity:
        return {}, "_none"
    if not scale.given:
        return {}, ""
    top, bottom = sp.fraction(scale.factor)
    variant = "_divided" if top == 1 and bottom != 1 else "_value"
    return {"factor": scale.factor, "divisor": bottom}, variant


OPERATION = Operation(
    kind="scale",
    roles=frozenset({"query_by_key", "inside_softmax"}),
    steps=("scaled",),
    spec_key="scale",
    fields=_fields,  # into the spec's ``scale`` field
    stage="scale",
    place=place,
    code=_code,
    ring_factors=_factors,
    rewrites={"scaled_by": scaled_by},
    facts={"scale": scale_of},
    caption=_caption,
    factored=_factored,
)
