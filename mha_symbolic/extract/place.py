"""Placing printed results on step keys: claims (what the document computes) and assumptions
(what it says it assumes), a vector on its token's row, and the stated shapes checked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation

import sympy as sp

from mha_symbolic.extract.draft import Draft, Value, rows_text
from mha_symbolic.extract.reading import Seen

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
    "weights": "weights",
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
    draft.claims, draft.assumed, draft.placing = [], [], []
    direct = draft.get("query") is not None  # Q, K, V are the inputs, not claims
    for s in seen:
        for role, head, name in claim_roles(s):
            if direct and role in ("q", "k", "v") and s.col is None:
                continue
            key = step_key(role, head, heads, shapes, scaled)
            _place(draft, replace(s, name=name), role, head, key, shapes)


def _place(
    draft: Draft, s: Seen, role: str, head: int | None, key: str | None, shapes: Shapes
) -> None:
    if key is None:
        which = "which head" if head is None else f"no step for head {head}"
        draft.placing.append(f"{s.where}: {s.name or role} {_shape(s)} not checked ({which}?)")
        return
    rows = s.item.rows
    target = shapes[key]
    if s.col is not None and s.row is not None:
        if s.row > target[0] or s.col > target[1]:
            draft.placing.append(f"{s.where}: {s.name}[{s.row}, {s.col}] is outside {key} {target}")
            return
        value = Value(f"{key}[{s.row},{s.col}]", rows[0][0], f"{s.where}: {s.name}", name=s.name)
        _record(draft, value, s.assumed)
        return
    if (len(rows) == 1 and target[0] > 1) or (
        len(rows) == 1 and target[0] == 1 and target[1] == len(rows[0])
    ):
        if s.row is None and target[0] > 1:
            draft.placing.append(
                f"{s.where}: {s.name} {_shape(s)} is one row of {key}, but which token?"
            )
            return
        key = f"{key}[{s.row or 1}]"
        if s.row_from:  # a guess from the text above: say where, in the comment
            s = replace(s, name=s.name, where=f"{s.where} ({s.row_from})")
        if len(rows[0]) != target[1] or (s.row or 1) > target[0]:
            draft.placing.append(
                f"{s.where}: {s.name} {_shape(s)} cannot be row {s.row or 1} of {key} {target}"
            )
            return
    elif _shape(s) != target:
        draft.placing.append(
            f"{s.where}: {s.name} has shape {_shape(s)} but {key} has shape {target}"
        )
        return
    elif _taken(draft, key, rows_text(rows)) and len(rows) > 1:
        # Printed twice (exactly, then rounded "for readability"): the second print row by row.
        for number, row in enumerate(rows, start=1):
            value = Value(
                f"{key}[{number}]", rows_text((row,)), f"{s.where}: {s.name}", name=s.name
            )
            _record(draft, value, s.assumed)
        return
    _record(draft, Value(key, rows_text(rows), f"{s.where}: {s.name}", name=s.name), s.assumed)


def _taken(draft: Draft, key: str, value: str) -> bool:
    return any(v.key == key and v.value != value for v in (*draft.claims, *draft.assumed))


def _record(draft: Draft, value: Value, assumed: bool) -> None:
    table = draft.assumed if assumed else draft.claims
    for earlier in (*draft.claims, *draft.assumed):
        if earlier.key == value.key:
            if earlier.value != value.value:
                draft.placing.append(
                    f"{value.source.split(':')[0]}: {value.key} is printed again as {value.value} "
                    f"(first {earlier.value}, {earlier.source.split(':')[0]}); the first is checked"
                )
            return
    table.append(value)


def _shape(s: Seen) -> tuple[int, int]:
    return (len(s.item.rows), len(s.item.rows[0]))


# ------------------------------------------------------------------ agreement
def agreeing(claims: Sequence[Value], values: Mapping[str, sp.MatrixBase]) -> int:
    """How many claimed entries a derivation's values round to (within one printed unit)."""
    count = 0
    for claim in claims:
        step, _, index = claim.key.partition("[")
        matrix = values[step]
        row = int(index.rstrip("]")) - 1 if index else None
        printed = _entries(claim.value)
        exact = list(matrix.row(row)) if row is not None else list(matrix)
        count += sum(_close(p, e) for p, e in zip(printed, exact))
    return count


def _entries(text: str) -> list[str]:
    return [e.strip() for e in text.replace("[", " ").replace("]", " ").split(",") if e.strip()]


def _close(printed: str, exact: sp.Expr) -> bool:
    if exact.free_symbols:
        return False
    try:
        number = Decimal(printed.replace("−", "-"))
    except InvalidOperation:
        return False
    exponent = number.as_tuple().exponent
    unit = (
        Decimal(10) ** exponent if isinstance(exponent, int) and exponent < 0 else Decimal("1e-9")
    )
    value = Decimal(str(sp.N(exact, 30)))
    return abs(value - number) <= unit
