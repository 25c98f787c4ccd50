"""RoPE, rotary position embeddings (Su et al.): each head's queries and keys turned by position.

Row p (position p, 0-based) of Q and of K has its feature pair j turned by the angle
p * base^(-2j/d_k), so a score depends only on how far apart a query and a key are. Spec key
``rope = true`` (base 10000, halves) or ``rope = {base, pairs}``; steps ``head{n}.q_rot`` and
``head{n}.k_rot``; the reverse-mode rule is the opposite rotation (R is orthogonal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import flint
import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.rope_arb import Rotated, turn
from mha_symbolic.exact.rope_rows import relative_score, turned
from mha_symbolic.exact.structured_values import Unstructured, rational_of
from mha_symbolic.operations.operation import Operation, Unary
from mha_symbolic.operations.projection import query_widths
from mha_symbolic.spec import bounds
from mha_symbolic.text import did_you_mean

PAIRS = ("halves", "interleaved")
KEYS = ("base", "pairs")
DEFAULT_BASE = 10000


# --------------------------------------------------------------------------- spec
@dataclass(frozen=True)
class RopeSpec:
    """Rotate each head's q and k: pair j of position p by p * base^(-2j/d_k)."""

    base: int = DEFAULT_BASE
    pairs: str = "halves"


def read_rope(value: Any, values: Mapping[str, Any]) -> RopeSpec | None:
    """``rope = true`` (base 10000, halves), ``false``, or a table {base, pairs}; every
    head's query width must be even (features turn in pairs)."""
    if value is None or value is False:
        return None
    if values["stage"] == "scores":
        raise SpecError("scores are given, so rope (a rotation of Q and K) cannot apply")
    rope = RopeSpec() if value is True else _table(value)
    for head, width in enumerate(query_widths(values), start=1):
        if width % 2:
            raise SpecError(
                f"rope rotates features in pairs, but head {head}'s queries and keys have "
                f"odd width {width}"
            )
    return rope


def _table(value: Any) -> RopeSpec:
    if not isinstance(value, Mapping):
        raise SpecError(
            f'rope must be true, false or a table {{base = 10000, pairs = "halves"}}, got {value!r}'
        )
    for key in value:
        if key not in KEYS:
            raise SpecError(f"unknown key 'rope.{key}'{did_you_mean(str(key), KEYS)}")
    given = value.get("base", DEFAULT_BASE)
    base = bounds.integer(given)  # a NumPy integer is an integer
    if base is None or base < 2:
        raise SpecError(f"rope.base must be an integer of at least 2, got {given!r}")
    pairs = value.get("pairs", "halves")
    if pairs not in PAIRS:
        hint = did_you_mean(pairs, PAIRS) if isinstance(pairs, str) else ""
        raise SpecError(f"unknown rope.pairs {pairs!r}{hint}; choose halves or interleaved")
    return RopeSpec(base, pairs)


# --------------------------------------------------------------------------- node
class Rope(Unary):
    """Rotary position embeddings: row p (position p, 0-based) of ``arg`` rotated pair by pair.

    Pair j of a row of width d turns by the angle p * base^(-2j/d); ``pairs`` says which
    features pair up: ``halves`` (feature j with j + d/2, the rotate-half convention of the
    common open-source LLaMA code) or ``interleaved`` (2j with 2j + 1, as RoFormer writes it).
    ``sign`` -1 turns the other way: the transpose, which is the rule of the backward pass.
    """

    def __new__(cls, arg: Any, base: Any, pairs: str, sign: int = 1) -> Rope:
        return Unary.__new__(cls, arg, sp.sympify(base), sp.Symbol(pairs), sp.Integer(sign))

    @property
    def base(self) -> sp.Expr:
        return self.args[1]

    @property
    def pairs(self) -> str:
        return str(self.args[2])

    @property
    def sign(self) -> int:
        return int(self.args[3])

    def inverse(self, arg: Any) -> Rope:
        """The opposite rotation applied to ``arg`` (R^T, as R is orthogonal)."""
        return Rope(arg, self.base, self.pairs, -self.sign)

    def _latex(self, printer: Any) -> str:
        power = "" if self.sign == 1 else r"^{\top}"
        return rf"\operatorname{{RoPE}}{power}\left({printer._print(self.arg)}\right)"

    def _sympystr(self, printer: Any) -> str:
        arg = printer._print(self.arg)
        return f"rope({arg}, {float(self.base)!r}, {self.pairs!r}, {self.sign})"

    _numpycode = _torchcode = _jaxcode = _sympystr


def place(builder: Any, n: int, rope: RopeSpec, parts: dict[str, Any]) -> dict[str, Any]:
    """Head n's queries and keys rotated, each a step of its own (the values unchanged)."""
    out = dict(parts)
    if "q" not in parts:  # the weights are given: no Q and K to turn
        return out
    for stream in ("q", "k"):
        expr = Rope(parts[stream], rope.base, rope.pairs)
        name = rf"\hat{{{stream.upper()}}}_{{{n}}}"
        out[stream] = builder.add(f"head{n}.{stream}_rot", "rope", name, expr, n, None, stream)
    return out


# --------------------------------------------------------------------------- exact
def angle(position: int, pair: int, width: int, base: sp.Expr) -> sp.Expr:
    """The exact angle of pair ``pair`` at ``position``: p * base^(-2j/d) (1, 1/100, ...)."""
    return sp.Integer(position) * sp.Pow(base, sp.Rational(-2 * pair, width))


def pairs_of(width: int, pairs: str) -> list[tuple[int, int]]:
    """The feature pairs that turn together: (j, j + d/2) for halves, (2j, 2j + 1) interleaved."""
    half = width // 2
    if pairs == "halves":
        return [(j, j + half) for j in range(half)]
    return [(2 * j, 2 * j + 1) for j in range(half)]


def _caption(program: Any, node: Any) -> tuple[dict[str, str], str]:
    """The rotated queries' caption says in words which features pair up (``_halves``,
    ``_interleaved``) and lists the pairs, ``(q_{1}, q_{3}),\\ (q_{2}, q_{4})``: the
    introduction said it as a spec fragment, ``rope = {pairs = "interleaved"}``."""
    if node.stream != "q":
        return {}, ""
    expr = node.expr
    said = [f"(q_{{{a + 1}}}, q_{{{b + 1}}})" for a, b in pairs_of(expr.shape[1], expr.pairs)]
    if len(said) > 3:  # a wide head: the first two and the last
        said = [*said[:2], r"\dots", said[-1]]
    return {"pairs": r",\ ".join(said)}, f"_{expr.pairs}"


def rotate(matrix: Matrix, base: sp.Expr, pairs: str, sign: int = 1) -> Matrix:
    """Row p of ``matrix`` with every feature pair (a, b) turned by sign * its angle at p:
    (x_a cos t - x_b sin t, x_a sin t + x_b cos t)."""
    width = matrix.cols
    out = [list(matrix.row(p)) for p in range(matrix.rows)]
    for p in range(matrix.rows):
        for j, (a, b) in enumerate(pairs_of(width, pairs)):
            turn = sign * angle(p, j, width, base)
            out[p][a], out[p][b] = turned(matrix[p, a], matrix[p, b], turn)
    return Matrix(out)


def rotated_scores(q: Matrix, k: Matrix, base: sp.Expr, pairs: str) -> Matrix:
    """RoPE(Q) RoPE(K)^T from the unrotated Q and K, written by relative position.

    Query p and key r meet at the angle phi = (r - p) theta_j in each pair (a, b), and the
    rotations leave (q_a k_a + q_b k_b) cos(phi) + (q_b k_a - q_a k_b) sin(phi): each score
    holds cos and sin of the distance between the tokens, not of where they are.
    """
    width = q.cols
    turns = pairs_of(width, pairs)

    def entry(p: int, r: int) -> sp.Expr:
        angles = [angle(r - p, j, width, base) for j in range(len(turns))]
        trig = [(sp.cos(phi), sp.sin(phi)) for phi in angles]
        return relative_score(q.row(p), k.row(r), trig, turns)

    return Matrix(q.rows, k.rows, entry)


def _exact(expr: Rope, values: Any, evaluate: Any) -> Matrix:
    return rotate(evaluate(expr.arg, values), expr.base, expr.pairs, expr.sign)


def _scores(q: Any, k: Any, evaluator: Any) -> Matrix | None:
    """Q K^T by relative position when both are turned the same way (None: a product)."""
    if not isinstance(q, Rope) or not isinstance(k, Rope):
        return None
    if (q.base, q.pairs, q.sign) != (k.base, k.pairs, k.sign):
        return None
    return rotated_scores(evaluator.value(q.arg), evaluator.value(k.arg), q.base, q.pairs)


def _turn(expr: Rope, width: int) -> tuple[tuple[sp.Expr, ...], tuple[tuple[int, int], ...]]:
    """Each feature pair's exact angle at position 1 (signed), and the pairs."""
    steps = tuple(expr.sign * angle(1, j, width, expr.base) for j in range(width // 2))
    return steps, tuple(pairs_of(width, expr.pairs))


def _structured(expr: Rope, values: Any, value_of: Any) -> Rotated:
    """The rational matrix it turns and the turn (enclosed with arb cos/sin when asked)."""
    matrix = rational_of(value_of(expr.arg, values))
    if not isinstance(matrix, flint.fmpq_mat):
        raise Unstructured("a rotation of a non-rational matrix")
    return Rotated(matrix, *_turn(expr, matrix.ncols()))


def _balls(balls: Any, expr: Rope) -> flint.arb_mat:
    """A gradient's rotation (the opposite turn) of an arb matrix."""
    x = balls.of(expr.arg)
    return turn(x, *_turn(expr, x.ncols()))


def _forms(f: Any, expr: Rope) -> Any:
    """Each feature pair (a, b) of row p turned by its angle t:
    (x_a cos t - x_b sin t, x_a sin t + x_b cos t)."""
    forms = f.of(expr.arg)
    width = len(forms[0])
    out = [list(row) for row in forms]
    for p, row in enumerate(forms):
        for j, (a, b) in enumerate(pairs_of(width, expr.pairs)):
            turn = expr.sign * angle(p, j, width, expr.base)
            cos, sin = f.alg.coefficient(sp.cos(turn)), f.alg.coefficient(sp.sin(turn))
            out[p][a] = f.alg.add(row[a], row[b], factors=(cos, -sin))
            out[p][b] = f.alg.add(row[a], row[b], factors=(sin, cos))
    return out


# --------------------------------------------------------------------------- code
def _code(lowering: Any, node: Any) -> Any:
    """The rotation of the code of the stream it turns (the head's q or k as assigned)."""
    return Rope(lowering.operand(node.expr.arg, node.stream), node.expr.base, node.expr.pairs)


_ARRAY = '''
def rope(x, base, pairs, sign):
    """Rotary positions: row p's feature pairs turned by sign * p * base^(-2j/d).

    ``pairs``: "halves" pairs feature j with j + d/2, "interleaved" 2j with 2j + 1.
    """
    length, width = x.shape[-2], x.shape[-1]
    inverse = base ** (-2.0 * xp.arange(width // 2) / width)
    angles = xp.arange(length)[:, None] * inverse[None, :]
    cos, sin = xp.cos(angles).astype(x.dtype), (sign * xp.sin(angles)).astype(x.dtype)
    if pairs == "halves":
        first, second = x[..., : width // 2], x[..., width // 2 :]
        return xp.concatenate([first * cos - second * sin, second * cos + first * sin], -1)
    even, odd = x[..., 0::2], x[..., 1::2]
    turned = xp.stack([even * cos - odd * sin, even * sin + odd * cos], -1)
    return turned.reshape(x.shape)
'''
_TORCH = '''
def rope(x, base, pairs, sign):
    """Rotary positions: row p's feature pairs turned by sign * p * base^(-2j/d).

    ``pairs``: "halves" pairs feature j with j + d/2, "interleaved" 2j with 2j + 1.
    """
    length, width = x.shape[-2], x.shape[-1]
    steps = torch.arange(width // 2, dtype=torch.float64, device=x.device)
    positions = torch.arange(length, dtype=torch.float64, device=x.device)
    angles = positions[:, None] * base ** (-2.0 * steps / width)[None, :]
    cos, sin = angles.cos().to(x.dtype), (sign * angles.sin()).to(x.dtype)
    if pairs == "halves":
        first, second = x[..., : width // 2], x[..., width // 2 :]
        return torch.cat([first * cos - second * sin, second * cos + first * sin], -1)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], -1).flatten(-2)
'''

OPERATION = Operation(
    kind="rope",
    steps=("q_rot", "k_rot"),
    nodes=(Rope,),
    spec_key="rope",
    read=read_rope,
    stage="streams",
    place=place,
    exact={Rope: _exact},
    structured={Rope: _structured},
    balls={Rope: _balls},
    vjp={Rope: lambda r, e, g: r.vjp(e.arg, e.inverse(g))},
    forms={Rope: _forms},
    scores=_scores,
    caption=_caption,
    ring_values=True,
    code=_code,
    prelude={"numpy": _ARRAY, "jax": _ARRAY, "torch": _TORCH},
    # The fact ``rope``: the queries and keys are turned (their gradients turn back).
    facts={"rope": lambda program: any(n.kind == "rope" for n in program)},
)
