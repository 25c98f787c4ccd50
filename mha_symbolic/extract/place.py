"""Placing printed results on step keys: claims (what the document computes) and assumptions
(what it says it assumes), a vector on its token's row, and the stated shapes checked."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any

import sympy as sp

from mha_symbolic.exact import balls
from mha_symbolic.extract.draft import Draft, Value, minus_infinity, rows_text
from mha_symbolic.extract.infer.float32_slack import SLACK
from mha_symbolic.extract.reading import Seen
from mha_symbolic.language.extract_phrases import code, phrase

Shapes = Mapping[str, tuple[int, int]]
# Role -> the per-head step it is a value of.
PER_HEAD = {
    "head.x": "x",
    "q": "q",
    "k": "k",
    "v": "v",
    "scores": "scores",
    "scaled": "scaled",
    "softmax_argument": "scaled",
    "masked": "masked",
    "weights": "weights",
    "kept": "kept",
    "renormalised": "renormalised",
    "dropped": "dropped",
    "head.output": "output",
}
WHOLE = {"concat": "concat", "output": "output"}


def claim_roles(s: Seen) -> list[tuple[str, int | None, str]]:
    """The claim roles of a printed value ("Q_1 = K_1 = V_1 = ..." is three), with names."""
    if s.role not in PER_HEAD and s.role not in WHOLE:
        return []
    chained = [(*t.split(":"), n) for t, n in zip(s.names[1:], s.printed[1:])]
    others = [(r, int(h) if h else s.head, n) for r, h, n in chained if r in PER_HEAD or r in WHOLE]
    return [(s.role, s.head, s.name), *others]


def step_key(
    role: str, head: int | None, heads: int, shapes: Shapes, scaled: bool = True
) -> str | None:
    if role == "x":
        return "x"
    if role in WHOLE:
        return WHOLE[role]
    if role not in PER_HEAD:
        return None
    step = PER_HEAD[role] if role != "softmax_argument" or scaled else "scores"
    if head is None and step in ("q", "k", "v") and step in shapes and heads > 1:
        return step  # the fused layout's full projection
    if head is None:
        if heads != 1:
            return None
        head = 1
    key = f"head{head}.{step}"
    if key not in shapes and step == "scaled":
        key = f"head{head}.scores"  # no scaling: the softmax takes the scores
    return key if key in shapes else None


def place_claims(
    draft: Draft, seen: Sequence[Seen], heads: int, shapes: Shapes, scaled: bool
) -> None:
    draft.claims, draft.assumed, draft.placing, draft.repeats = [], [], [], []
    given = _given_roles(draft)  # the arrays the example starts from are inputs, not claims
    inputs = {w for v in draft.values if v.key in ("query", "key", "value") for w in v.where}
    start = _start(draft, seen)
    for s in seen:
        if s.where in inputs:
            continue  # Q, K, V projected by the weights printed with them: the inputs
        if s.role in _RESULTS and s.item.line < start:
            continue  # a result printed before the example's inputs: another computation's
        for n, (role, head, name) in enumerate(claim_roles(s)):
            if role in given and s.col is None:
                continue
            if inputs and n and role in ("q", "k", "v"):
                continue  # "head_1 = α_1 V_1" names a factor of a product, not the numbers
            role = _masked_role(role, s, draft)
            key = step_key(role, head, heads, shapes, scaled)
            _place(draft, replace(s, name=name), role, head, key, shapes)


def _masked_role(role: str, s: Seen, draft: Draft) -> str:
    """Scores printed with -inf entries are the masked scores (only a mask puts -inf there),
    whatever they are called, when the example masks."""
    if role not in ("scores", "scaled", "softmax_argument") or draft.get("mask") is None:
        return role
    return "masked" if any(minus_infinity(e) for row in s.item.rows for e in row) else role


_RESULTS = ("output", "head.output", "concat")
_GIVEN = ("x", "query", "key", "value", "q", "k", "v", "scores", "attention_weights")


def _start(draft: Draft, seen: Sequence[Seen]) -> int:
    """The line of the first print the example starts from (its input, or what it gives)."""
    wheres = {w for v in draft.values if v.key in _GIVEN for w in v.where}
    return min((s.item.line for s in seen if s.where in wheres), default=-1)


def _given_roles(draft: Draft) -> tuple[str, ...]:
    if draft.get("q") is not None:
        return ("q", "k", "v")
    if draft.get("attention_weights") is not None:
        return ("weights", "v")
    if draft.get("scores") is not None:
        return ("scores", "v")
    return ()


def _place(
    draft: Draft, s: Seen, role: str, head: int | None, key: str | None, shapes: Shapes
) -> None:
    if key is None:
        name, shape = code(s.name or role), _shape(s)
        draft.placing.append(
            phrase("placing.which_head", where=s.where, name=name, shape=shape)
            if head is None
            else phrase("placing.no_step", where=s.where, name=name, shape=shape, head=head)
        )
        return
    rows = s.item.rows
    target = shapes[key]
    if s.col is not None and s.row is not None:
        if s.row > target[0] or s.col > target[1]:
            _skip(draft, "outside", s, key, row=s.row, col=s.col, target=target)
            return
        value = _value(f"{key}[{s.row},{s.col}]", rows[0][0], s)
        _record(draft, value, s.assumed)
        return
    if (len(rows) == 1 and target[0] > 1) or (
        len(rows) == 1 and target[0] == 1 and target[1] == len(rows[0])
    ):
        if s.row is None and target[0] > 1:
            _skip(draft, "which_token", s, key, shape=_shape(s))
            return
        key = f"{key}[{s.row or 1}]"
        if s.row_from:  # a guess from the text above: say where, in the comment
            where = phrase("where.with_row", where=s.where, row_from=s.row_from)
            s = replace(s, name=s.name, where=where)
        if len(rows[0]) != target[1] or (s.row or 1) > target[0]:
            _skip(draft, "not_row", s, key, shape=_shape(s), row=s.row or 1, target=target)
            return
    elif _shape(s) != target:
        _skip(draft, "shape", s, key, shape=_shape(s), target=target)
        return
    elif _taken(draft, key, s.where) and len(rows) > 1:
        # Printed twice (exactly, then rounded "for readability"; a table, then the tensor):
        # the second print row by row.
        for number, row in enumerate(rows, start=1):
            _record(draft, _value(f"{key}[{number}]", rows_text((row,)), s), s.assumed)
        return
    _record(draft, _value(key, rows_text(rows), s), s.assumed)


def _value(key: str, value: str, s: Seen) -> Value:
    return Value(key, value, f"{s.where}: {s.name}", name=s.name, where=(s.where,))


def _skip(draft: Draft, why: str, s: Seen, key: str, **numbers: object) -> None:
    """A printed value not placed: ``[extract.placing] why``, saying where and what it is."""
    draft.placing.append(
        phrase(f"placing.{why}", where=s.where, name=code(s.name), key=code(key), **numbers)
    )


def _taken(draft: Draft, key: str, where: str) -> bool:
    """Whether another print (elsewhere) already claims this step."""
    return any(v.key == key and v.where != (where,) for v in (*draft.claims, *draft.assumed))


def _record(draft: Draft, value: Value, assumed: bool) -> None:
    table = draft.assumed if assumed else draft.claims
    for earlier in (*draft.claims, *draft.assumed):
        if earlier.key == value.key:
            if earlier.value != value.value:
                draft.placing.append(
                    phrase(
                        "placing.again",
                        where=_origin(value),
                        key=code(value.key),
                        value=value.value,
                        first=earlier.value,
                        first_where=_origin(earlier),
                    )
                )
            elif value.where and earlier.where != value.where and earlier in draft.claims:
                again = Value(value.key, value.value, f"{_origin(value)}: printed again")
                draft.repeats.append((_origin(earlier), replace(again, where=value.where)))
            return
    table.append(value)


def _origin(value: Value) -> str:
    """Where a claim was read ("line 12"), from its source when it does not say."""
    return value.where[0] if value.where else value.source.split(":")[0]


def _shape(s: Seen) -> tuple[int, int]:
    return (len(s.item.rows), len(s.item.rows[0]))


# ------------------------------------------------------------------ agreement
# Steps a name may confuse ("S" for the scaled scores): the numbers decide among them.
_NEIGHBOURS = {"scores": ("scaled",), "scaled": ("scores",), "masked": ("scaled", "scores")}


_ROW_STEPS = (
    "scores", "scaled", "masked", "weights", "kept", "renormalised", "dropped", "output", "concat",
)  # fmt: skip


def placed_rows(draft: Draft, seen: Sequence[Seen], values: Mapping[str, sp.MatrixBase]) -> None:
    """A vector printed without its token ("Attention weights: [0.14, 0.24, ...]", or a
    bare print after the matrix) is the one row of a step its numbers give, when exactly one
    row of one step does: claimed there, and the row said; a row claimed already (the
    matrix printed twice) is judged again, as that row's print."""
    taken = {c.key for c in (*draft.claims, *draft.assumed)}
    placed = {c.where for c in (*draft.claims, *draft.assumed)} | _again_at(draft)
    float32 = draft.get("dtype") == "float32"
    for s in seen:
        if s.row is not None or s.col is not None or len(s.item.rows) != 1 or s.assumed:
            continue
        if (s.where,) in placed:
            continue  # claimed already where its name says
        if s.role in PER_HEAD or s.role in WHOLE:
            steps = [k for k in values if _step_of(k) == (PER_HEAD | WHOLE)[s.role]]
        elif s.role == "unnamed" and _fractional(s.item.rows[0]):
            steps = [k for k in values if _step_of(k) in _ROW_STEPS]
        else:
            continue
        found = [
            f"{key}[{n}]"
            for key in steps
            for n in range(1, values[key].rows + 1)
            if values[key].cols == len(s.item.rows[0]) > 1
            and agreeing([_value(f"{key}[{n}]", rows_text(s.item.rows), s)], values, float32)
            == len(s.item.rows[0])
        ]
        key = _one_row(found, values)
        if key is None:
            continue
        _record(draft, _value(key, rows_text(s.item.rows), s), False)  # taken: a reprint
        draft.placing = [p for p in draft.placing if not _asks_row(p, s.where)]
        if key not in taken:
            draft.placing.append(phrase("placing.row_found", where=s.where, key=code(key)))
        taken.add(key)


def _again_at(draft: Draft) -> set[tuple[str, ...]]:
    """Where the prints stand that are judged already as a step's print again."""
    again = {v.where for _, v in draft.repeats}
    return again | {(str(said.numbers.get("where", "")),) for said in placed_again(draft)}


def placed_again(draft: Draft) -> list[Any]:
    """The placing's notes on a step's second print with other digits (``placing.again``)."""
    return [p for p in draft.placing if getattr(p, "key", "") == "placing.again"]


def _asks_row(said: str, where: str) -> bool:
    """The note that asked which token a vector is, now answered by its numbers."""
    key, numbers = getattr(said, "key", ""), getattr(said, "numbers", {})
    return bool(key == "placing.which_token" and numbers.get("where") == where)


def _one_row(found: list[str], values: Mapping[str, sp.MatrixBase]) -> str | None:
    """The one row the numbers give; the same numbers under several keys (one head: its
    output is the concat and the output) are that row once, under the first key."""
    if not found:
        return None
    rows = [
        values[k.partition("[")[0]].row(int(k.partition("[")[2].rstrip("]")) - 1) for k in found
    ]
    return found[0] if all(row == rows[0] for row in rows) else None


def _step_of(key: str) -> str:
    return key.rpartition(".")[2] if key.startswith("head") else key


def _fractional(row: tuple[str, ...]) -> bool:
    """Printed numbers with decimals that are not all whole (1., 0. are no results)."""
    try:
        numbers = [Decimal(e.replace("−", "-")) for e in row]
    except InvalidOperation:
        return False
    return any(n.is_finite() and n != n.to_integral_value() for n in numbers)


def restaged(draft: Draft, values: Mapping[str, sp.MatrixBase]) -> None:
    """A claim its step does not give but a neighbouring step gives in full is that step's
    (the scaled scores named S, as the scores are): the numbers overrule the name."""
    keys = {c.key for c in (*draft.claims, *draft.assumed)}
    for table in (draft.claims, draft.assumed):
        for n, claim in enumerate(table):
            step, _, index = claim.key.partition("[")
            head, _, name = step.rpartition(".")
            total = len(_entries(claim.value))
            if agreeing([claim], values) == total:
                continue
            for other in _NEIGHBOURS.get(name, ()):
                key = f"{head}.{other}" + (f"[{index}" if index else "")
                moved = replace(claim, key=key)
                if key in keys or f"{head}.{other}" not in values:
                    continue
                if agreeing([moved], values) == total:
                    table[n] = moved
                    keys.add(key)
                    draft.placing.append(
                        phrase(
                            "placing.restaged",
                            where=_origin(claim),
                            key=code(claim.key),
                            other=code(key),
                        )
                    )
                    break


def numbers_placed(draft: Draft, seen: Sequence[Seen], values: Mapping[str, sp.MatrixBase]) -> None:
    """The claims moved to the steps (and rows) their numbers give."""
    restaged(draft, values)
    placed_rows(draft, seen, values)


def undecidable(draft: Draft, values: Mapping[str, sp.MatrixBase]) -> list[str]:
    """The keys of the claims whose step depends on weights the page never gives (their
    symbols): no printed number is right or wrong for every value of those weights."""
    return [
        claim.key
        for claim in draft.claims
        if _numeric(claim.value) and any(e.free_symbols for e in _exact_entries(claim, values))
    ]


def drop_undecidable(draft: Draft) -> None:
    """The chosen reading's undecidable claims left out, each with a note: calling them wrong
    would be a false alarm (a reading with more of them is still a worse reading)."""
    for claim in draft.claims:
        if claim.key in draft.undecidable:
            draft.placing.append(
                phrase("placing.undecidable", where=_origin(claim), key=code(claim.key))
            )
    draft.claims = [c for c in draft.claims if c.key not in draft.undecidable]


def _exact_entries(claim: Value, values: Mapping[str, sp.MatrixBase]) -> list[sp.Expr]:
    """The derivation's entries a claim stands for (a whole step, a row or one entry)."""
    step, _, index = claim.key.partition("[")
    matrix = values.get(step)
    if matrix is None:
        return []
    at = [int(n) - 1 for n in index.rstrip("]").split(",")] if index else []
    if len(at) == 2:  # one entry, [i,j]
        return [matrix[at[0], at[1]]]
    return list(matrix.row(at[0])) if at else list(matrix)


def _numeric(text: str) -> bool:
    """Whether every printed entry is a number (not a symbol the page writes)."""
    try:
        for entry in _entries(text):
            Decimal(entry.replace("−", "-"))
    except InvalidOperation:
        return False
    return True


def agreeing(
    claims: Sequence[Value], values: Mapping[str, sp.MatrixBase], float32: bool = False
) -> int:
    """How many claimed entries a derivation's values round to (within one printed unit;
    ``float32``: or within float32's rounding of a softmax or a short sum, ``SLACK``)."""
    count = 0
    for claim in claims:
        exact = _exact_entries(claim, values)
        count += sum(_close(p, e, float32) for p, e in zip(_entries(claim.value), exact))
    return count


def _entries(text: str) -> list[str]:
    return [e.strip() for e in text.replace("[", " ").replace("]", " ").split(",") if e.strip()]


def _close(printed: str, exact: sp.Expr, float32: bool = False) -> bool:
    if _symbolic(exact):
        return False
    try:
        number = Decimal(printed.replace("−", "-"))
    except InvalidOperation:
        return False
    exponent = number.as_tuple().exponent
    unit = (
        Decimal(10) ** exponent if isinstance(exponent, int) and exponent < 0 else Decimal("1e-9")
    )
    infinite, negative = _infinite(exact)
    if infinite:  # -oo: a mask's entry, printed -inf
        return number.is_infinite() and (number < 0) == negative
    if number.is_infinite():
        return False
    value = _thirty_digits(exact)
    if float32:  # a float32 value printed to more digits than float32 holds
        unit = max(unit, Decimal(SLACK) * max(abs(value), Decimal(1)))
    return abs(value - number) <= unit


# What _close asks of an exact entry, kept: the same derivation's entries are compared with
# the printed numbers again and again (each claim, each neighbouring step, each scale).
@functools.lru_cache(maxsize=8192)
def _symbolic(exact: sp.Expr) -> bool:
    return bool(exact.free_symbols)


@functools.lru_cache(maxsize=8192)
def _infinite(exact: sp.Expr) -> tuple[bool, bool]:
    """Whether the entry is infinite (-oo: a mask's), and then whether it is negative."""
    if not exact.has(sp.oo, -sp.oo, sp.zoo) or not exact.is_infinite:  # a cheap walk first
        return False, False
    return True, bool(exact.is_extended_negative)


@functools.lru_cache(maxsize=8192)
def _thirty_digits(exact: sp.Expr) -> Decimal:
    """The entry to 30 digits: by an arb ball when one is tight enough (a softmax entry of
    twenty exponentials in a millisecond), else by SymPy's evalf."""
    with balls.precision(160):
        ball = balls.to_arb(exact, {})
    if ball is not None and ball.is_finite() and ball.rad() <= abs(ball.mid()) * 1e-32:
        return Decimal(ball.mid().str(32, radius=False))
    return Decimal(str(sp.N(exact, 30)))
