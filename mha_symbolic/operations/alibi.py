"""ALiBi, attention with linear biases (Press, Smith and Lewis 2021; BLOOM and MPT use it).

No position is added to the tokens: each head's scaled scores get a penalty that grows with
the distance between query i and key j, ``m_h (j - i)`` (``-m_h (i - j)``), before the mask
and the softmax. Head h of H has the slope ``m_h = 2^(-8h/H)``, exactly; for H not a power of
two the paper's reference code takes the slopes of the power of two n below H, then every
other slope of 2n. Spec key ``alibi = true`` or ``alibi = {slopes = [...]}``; step
``head{n}.bias``; the bias does not depend on the scores, so its reverse-mode rule passes
the gradient through unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.operations.operation import Operation, Unary
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.text import did_you_mean, one_line

KEYS = ("slopes",)


# --------------------------------------------------------------------------- spec
def paper_slopes(heads: int) -> tuple[sp.Expr, ...]:
    """The slopes of the paper's reference code, exactly: 2^(-8h/H) for h = 1..H when H is a
    power of two; otherwise those of the power of two n below H, then every other of 2n."""
    if heads & (heads - 1) == 0:
        return tuple(sp.Pow(2, sp.Rational(-8 * h, heads)) for h in range(1, heads + 1))
    below = 1 << (heads.bit_length() - 1)
    return paper_slopes(below) + paper_slopes(2 * below)[0::2][: heads - below]


def read_alibi(value: Any, values: Mapping[str, Any]) -> tuple[sp.Expr, ...] | None:
    """``alibi = true`` (the paper's slopes), ``false``, or ``{slopes = [...]}`` (one number
    per head): the slope of each head, or None."""
    if value is None or value is False:
        return None
    given = {"scores": "scores are", "weights": "attention weights are"}.get(values["stage"])
    if given is not None:
        raise SpecError(f"{given} given, so alibi (a bias on the scaled scores) cannot apply")
    heads = values["heads"]
    if value is True:
        return paper_slopes(heads)
    if not isinstance(value, Mapping):
        raise SpecError(
            f"alibi must be true, false or a table {{slopes = [...]}}, got {one_line(repr(value))}"
        )
    for key in value:
        if key not in KEYS:
            raise SpecError(f"unknown key 'alibi.{key}'{did_you_mean(str(key), KEYS)}")
    if "slopes" not in value:
        return paper_slopes(heads)
    return _slopes(value["slopes"], heads)


def _slopes(given: Any, heads: int) -> tuple[sp.Expr, ...]:
    if not isinstance(given, Sequence) or isinstance(given, str):
        raise SpecError(f"alibi.slopes must be a list of {heads} numbers, one per head")
    if len(given) != heads:
        noun = "number" if len(given) == 1 else "numbers"
        raise SpecError(
            f"alibi.slopes has {len(given)} {noun} but the spec has {heads} heads; "
            "give one slope per head"
        )
    slopes = []
    for h, item in enumerate(given, start=1):
        slope = exact.to_number(item, f"alibi.slopes[{h}]")
        if slope.free_symbols or not slope.is_real:
            raise SpecError(f"alibi.slopes[{h}] must be a real number, got {one_line(repr(item))}")
        slopes.append(slope)
    return tuple(slopes)


# --------------------------------------------------------------------------- node
class Alibi(Unary):
    """``arg`` plus ``m (j - i)`` at row i, column j: the linear bias of one head's slope m.

    In generated code the scores may hold every head (stacked on the axis before the rows);
    then ``slopes`` has one slope per head, in order. The model's node has one.
    """

    def __new__(cls, arg: Any, slopes: Sequence[Any]) -> Alibi:
        return Unary.__new__(cls, arg, sp.Tuple(*slopes))

    @property
    def slopes(self) -> tuple[sp.Expr, ...]:
        return tuple(self.args[1])

    def caption_numbers(self) -> dict[str, Any]:
        """What its step's caption names: the head's slope."""
        return {"slope": sp.latex(self.slopes[0])}

    def _latex(self, printer: Any) -> str:
        slope = sp.latex(self.slopes[0]) if len(self.slopes) == 1 else "m_{h}"  # exact
        return rf"{printer._print(self.arg)} + {slope} \left[j - i\right]_{{i j}}"

    def _sympystr(self, printer: Any) -> str:
        slopes = ", ".join(repr(float(m)) for m in self.slopes)
        one = "," if len(self.slopes) == 1 else ""  # a tuple of one
        return f"alibi({printer._print(self.arg)}, ({slopes}{one}))"

    _numpycode = _torchcode = _jaxcode = _sympystr


def distances(rows: int, cols: int) -> Matrix:
    """``j - i`` at row i, column j: how far key j is after query i (negative: before)."""
    return Matrix(rows, cols, lambda i, j: j - i)


def place(builder: Any, n: int, slopes: tuple[sp.Expr, ...], parts: dict[str, Any]) -> Any:
    """Head n's scaled scores with its linear bias, a step of its own before the mask."""
    expr = Alibi(parts["logits"], (slopes[n - 1],))
    return {
        **parts,
        "logits": builder.add(f"head{n}.bias", "alibi", rf"\hat{{S}}_{{{n}}}", expr, n),
    }


def _exact(expr: Alibi, values: Any, evaluate: Any) -> Matrix:
    scores = evaluate(expr.arg, values)
    return Matrix(scores + expr.slopes[0] * distances(scores.rows, scores.cols))


def _code(lowering: Any, node: Any) -> Alibi:
    """The bias on the scaled scores' code: every head's slope when the heads are stacked."""
    heads = lowering.model.heads()
    stacked = lowering.stacked_heads and len(heads) > 1
    nodes = [lowering.model.node(f"head{n}.bias") for n in heads] if stacked else [node]
    slopes = [m for n in nodes for m in n.expr.slopes]
    return Alibi(lowering.operand(node.expr.arg, None), slopes)


_ARRAY = '''
def alibi(scores, slopes):
    """ALiBi: the scores plus slope * (j - i) at query i, key j (one slope per stacked head)."""
    rows, cols = scores.shape[-2], scores.shape[-1]
    distance = (xp.arange(cols)[None, :] - xp.arange(rows)[:, None]).astype(scores.dtype)
    if len(slopes) == 1:
        return scores + slopes[0] * distance
    return scores + xp.asarray(slopes, dtype=scores.dtype)[:, None, None] * distance
'''
_TORCH = '''
def alibi(scores, slopes):
    """ALiBi: the scores plus slope * (j - i) at query i, key j (one slope per stacked head)."""
    rows, cols = scores.shape[-2], scores.shape[-1]
    keys = torch.arange(cols, device=scores.device)
    queries = torch.arange(rows, device=scores.device)
    distance = (keys[None, :] - queries[:, None]).to(scores.dtype)
    if len(slopes) == 1:
        return scores + slopes[0] * distance
    per_head = torch.tensor(slopes, dtype=scores.dtype, device=scores.device)
    return scores + per_head[:, None, None] * distance
'''

OPERATION = Operation(
    kind="alibi",
    roles=frozenset({"query_by_key"}),
    steps=("bias",),
    nodes=(Alibi,),
    spec_key="alibi",
    read=read_alibi,
    stage="logits",
    place=place,
    exact={Alibi: _exact},
    vjp={Alibi: lambda r, e, g: r.vjp(e.arg, g)},
    code=_code,
    prelude={"numpy": _ARRAY, "jax": _ARRAY, "torch": _TORCH},
)
