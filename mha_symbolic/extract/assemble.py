"""Assembling a draft spec from what was read: the input, the weights, the heads, the layout and
the convention, each from the document's matrices and prose, with its source and its guesses."""

from __future__ import annotations

import re
from collections.abc import Sequence

import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.extract.draft import Draft, minus_infinity
from mha_symbolic.extract.facts import Facts, stated, stated_heads
from mha_symbolic.extract.printed_projections import (
    printed_as_input,
    printed_projection,
    scores_are_gram,
)
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.weight_convention import applied_as_printed, only_as_printed
from mha_symbolic.language.extract_phrases import code, named, phrase

Rows = tuple[tuple[str, ...], ...]
PROJECTIONS = ("w_q", "w_k", "w_v")
_WEIGHT_NAMES = re.compile(r"\bW\s*_?\s*\{?\s*[QKVqkv]|\bW[qkv]\b|weight matri", re.I)


def shape(rows: Rows) -> tuple[int, int]:
    return (len(rows), len(rows[0]))


def quoted(seen: Seen) -> str:
    return f"{seen.where}: {seen.name or 'unnamed'} {shape(seen.item.rows)}"


def plain(rows: Rows) -> list[list[str]]:
    """Entries for the spec's number reader (the document's minus sign made ASCII)."""
    return [[e.replace("−", "-") for e in row] for row in rows]


def transposed(rows: Rows) -> Rows:
    return tuple(zip(*rows))


# ------------------------------------------------------------------ the input
def build_input(draft: Draft, seen: Sequence[Seen], facts: Facts) -> tuple[int, int]:
    """x: a printed matrix named X, else token rows, else the heads' slices side by side, else
    a placeholder of symbols when the text gives the sizes. Returns (L, E)."""
    full = [s for s in seen if s.role == "x" and s.row is None]
    rows = _token_rows(seen)
    if full:
        chosen = full[0]
        draft.set(
            "x", plain(chosen.item.rows), quoted(chosen), name=chosen.name, where=(chosen.where,)
        )
        if rows and plain(rows[1]) != plain(chosen.item.rows):
            draft.notes.append(phrase("notes.rows_differ", rows=rows[0], x=chosen.where))
        return shape(chosen.item.rows)
    if rows:
        draft.set(
            "x",
            plain(rows[1]),
            f"{rows[0]}: the token rows, in order",
            name=phrase("names.token_rows"),
            where=(rows[0],),
        )
        return shape(rows[1])
    slices = sorted((s for s in seen if s.role == "head.x" and s.head), key=lambda s: s.head or 0)
    if slices and len({len(s.item.rows) for s in slices}) == 1:
        joined = tuple(
            sum((s.item.rows[i] for s in slices), ()) for i in range(len(slices[0].item.rows))
        )
        where = slices[0].where
        source = f"{where}: the heads' slices side by side"
        draft.set("x", plain(joined), source, name="X_i", where=(where,))
        return shape(joined)
    direct = _projected(draft, seen) or _direct_inputs(draft, seen) or given_stage(draft, seen)
    return direct if direct else _symbolic_input(draft, facts)


def _projected(draft: Draft, seen: Sequence[Seen]) -> tuple[int, int] | None:
    """Q, K and V printed whole together with the weights that project them ("head_i =
    Attention(Q W_i^Q, K W_i^K, V W_i^V)"): they are the inputs query, key and value."""
    given = {s.role: s for s in reversed(seen) if s.role in "qkv" and _whole(s)}
    weights = projection_matrices(seen)
    if len(given) < 3 or not all(weights[role] for role in PROJECTIONS):
        return None
    width = shape(given["q"].item.rows)[1]
    if any(shape(w.item.rows)[0] != width for role in PROJECTIONS for w in weights[role].values()):
        return None  # the weights do not take Q's rows: not its projections
    for role, key in (("q", "query"), ("k", "key"), ("v", "value")):
        s = given[role]
        draft.set(key, plain(s.item.rows), quoted(s), name=s.name, where=(s.where,))
    draft.notes.append(phrase("notes.projected", names=code("query, key, value")))
    return (len(given["q"].item.rows), width)


def _whole(s: Seen) -> bool:
    return s.row is None and s.col is None and s.head is None and len(s.item.rows) > 0


def _direct_inputs(draft: Draft, seen: Sequence[Seen]) -> tuple[int, int] | None:
    """Q, K and V printed as the inputs ("Q = K = [[1, 0], [0, 1]]", "V = [[1, 2], [3, 4]]"):
    the example starts at them (spec keys q, k, v; each head's own when heads are named)."""
    given = given_arrays(seen, ("q", "k", "v"))
    if "q" not in given or "k" not in given:
        return None
    if "v" not in given:  # no values: checked up to the weights, V as symbols
        if not set_stage(draft, given, ("q", "k")):
            return None
        keys = [len(s.item.rows) for _, s in sorted(given["k"].items())]
        symbolic_values(draft, keys)
        draft.notes.append(phrase("notes.given", names=code("q, k")))
        return (len(given["q"][min(given["q"])].item.rows), 0)
    if not set_stage(draft, given, ("q", "k", "v")):
        return None
    draft.notes.append(phrase("notes.given", names=code("q, k, v")))
    return (len(given["q"][min(given["q"])].item.rows), 0)


def given_stage(draft: Draft, seen: Sequence[Seen]) -> tuple[int, int] | None:
    """The scores or the softmax weights printed with V and no input: where the example
    starts (spec keys scores + v, or attention_weights + v; from the scores when both are
    printed, so that the weights are checked too: scores a program printed are judged to
    their printed digits, see run._printed_inputs)."""
    given = given_arrays(seen, ("scores", "weights", "v"))
    for role, key in (("scores", "scores"), ("weights", "attention_weights")):
        if role in given and "v" in given and set_stage(draft, given, (role, "v"), key):
            draft.notes.append(phrase("notes.given", names=code(f"{key}, v")))
            return (len(given[role][min(given[role])].item.rows), 0)
    argument = given_arrays(seen, ("softmax_argument",)).get("softmax_argument")
    if "scores" not in given and "weights" in given and argument:  # softmax([1, 2, 3]) = [...]
        given["scores"] = argument
    stages = [("scores", "scores")]
    if draft.get("weights_mask") is not None or draft.get("dropout") is not None:
        stages.append(("weights", "attention_weights"))  # the steps after the softmax checked
    for role, key in stages:
        if role in given and "v" not in given and set_stage(draft, given, (role,), key):
            symbolic_values(draft, [len(s.item.rows[0]) for _, s in sorted(given[role].items())])
            _masked_scores(draft)
            draft.notes.append(phrase("notes.given", names=code(key)))
            return (len(given[role][min(given[role])].item.rows), 0)
    return None


def _masked_scores(draft: Draft) -> None:
    """Given scores printed with -inf entries (masked_fill(~mask, -inf)): the page's mask is
    where they stand; the scores under it were never printed, so they are symbols s_{i,j}
    (the softmax does not depend on them), never a number made up in their place."""
    value = draft.get("scores")
    if not isinstance(value, list) or not value or not isinstance(value[0][0], str):
        return  # one matrix of entries; heads' own scores are left as printed
    masked = [[minus_infinity(e) for e in row] for row in value]
    if not any(any(row) for row in masked) or not all(not all(row) for row in masked):
        return
    scores = [
        [f"s_{{{i},{j}}}" if m else e for j, (e, m) in enumerate(zip(row, flags), start=1)]
        for i, (row, flags) in enumerate(zip(value, masked), start=1)
    ]
    entry = next(v for v in draft.values if v.key == "scores")
    draft.set(
        "scores", scores, f"{entry.source}; -inf entries masked", name=entry.name, where=entry.where
    )
    allowed = [[0 if m else 1 for m in row] for row in masked]
    causal = all(a == (j <= i) for i, row in enumerate(allowed) for j, a in enumerate(row))
    where = "the given scores print -inf where the mask blocks"
    draft.set("mask", "causal" if causal else allowed, where + (": causal" if causal else ""))


def symbolic_values(draft: Draft, keys: list[int]) -> None:
    """V as symbols (one column per head; ``keys``: each head's key count) when the page
    prints no values: what follows the softmax is not checked, the steps up to it are."""
    values = [[[f"v_{{{i}}}"] for i in range(1, n + 1)] for n in keys]
    draft.set(
        "v",
        values[0] if len(values) == 1 else values,
        "PLACEHOLDER: the document prints no values V; symbols v_i",
        name=phrase("names.not_printed", name=code("V")),
        where=(phrase("where.placeholder"),),
    )


def given_arrays(seen: Sequence[Seen], roles: tuple[str, ...]) -> dict[str, dict[int, Seen]]:
    """The whole matrices of these roles, by role and head (0 when no head is named)."""
    given: dict[str, dict[int, Seen]] = {}
    for s in seen:
        if s.row is None and s.col is None and s.role in roles:
            for tag in s.names or (f"{s.role}:{s.head or ''}",):
                role, head = tag.split(":")
                if role in roles:
                    given.setdefault(role, {}).setdefault(int(head) if head else 0, s)
    return given


def set_stage(
    draft: Draft, given: dict[str, dict[int, Seen]], roles: tuple[str, ...], first: str = ""
) -> bool:
    """Each role's matrices as one spec key (one matrix, or one per head 1..n); False when
    the heads printed do not line up."""
    heads = sorted(given[roles[0]])
    if any(sorted(given[role]) != heads for role in roles):
        return False
    if len(heads) > 1 and heads != list(range(1, len(heads) + 1)):
        return False
    for role in roles:
        chosen = [given[role][h] for h in heads]
        value = (
            plain(chosen[0].item.rows) if len(chosen) == 1 else [plain(s.item.rows) for s in chosen]
        )
        source = "; ".join(f"{quoted(s)}: given" for s in chosen)
        names, wheres = ", ".join(s.name for s in chosen), tuple(s.where for s in chosen)
        key = first if role == roles[0] and first else role
        draft.set(key, value, source, name=names, where=wheres)
    return True


def past_inputs(draft: Draft) -> bool:
    """True when the example starts at Q, K, V, the scores or the softmax weights."""
    return any(draft.get(key) is not None for key in ("q", "scores", "attention_weights"))


def _token_rows(seen: Sequence[Seen]) -> tuple[str, Rows] | None:
    rows = sorted(
        (s for s in seen if s.role == "x" and s.row is not None), key=lambda s: s.row or 0
    )
    numbers = [s.row for s in rows]
    if not rows or numbers != list(range(1, len(rows) + 1)):
        return None
    if len({len(s.item.rows[0]) for s in rows}) != 1:
        return None
    last = rows[-1].where.split()[-1]  # "line 21", "cell 2, line 21": 21
    where = phrase("where.range", first=rows[0].where, last=last)
    return where, tuple(s.item.rows[0] for s in rows)


def _symbolic_input(draft: Draft, facts: Facts) -> tuple[int, int]:
    length, width = stated(facts.length), stated(facts.width)
    if length is None or width is None:
        raise SpecError(
            "no input found: no matrix named X (or Input, embeddings), no token rows, and no "
            "stated sequence length and width to make a symbolic one",
            source=draft.document,
        )
    symbols = [[f"x_{{{i},{j}}}" for j in range(1, width[0] + 1)] for i in range(1, length[0] + 1)]
    draft.set(
        "x",
        symbols,
        f"PLACEHOLDER: the document prints no input; symbols x_{{i,j}} of the size it states "
        f"({length[0]} tokens, {length[1]}; width {width[0]}, {width[1]})",
        name=phrase("names.not_printed", name=code("X")),
        where=(phrase("where.placeholder"),),
    )
    return (length[0], width[0])


# ------------------------------------------------------------------ heads
def build_heads(
    draft: Draft, seen: Sequence[Seen], facts: Facts, width: int, counted: int | None = None
) -> int:
    """The head count: as the numbers relate (one chain of scores, weights and outputs per
    head), else the text's or the names'."""
    named = max((s.head for s in seen if s.head and s.role != "shape"), default=0)
    if counted is not None and counted >= named:
        draft.set("heads", counted, f"the printed numbers form {counted} chain(s) of attention")
        return counted
    said = stated_heads(facts, width)
    if said and said[0] >= named:
        draft.set("heads", said[0], f"{said[1]}: the text says {said[0]} heads")
        return said[0]
    if named:
        draft.set("heads", named, f"the highest head number among the names is {named}")
        return named
    draft.set(
        "heads", 1, "the document names no heads", guess="one head; no head number is printed"
    )
    return 1


# ------------------------------------------------------------------ weights
def projection_matrices(seen: Sequence[Seen]) -> dict[str, dict[int | None, Seen]]:
    """Numeric W_Q, W_K, W_V by role and head; one printed matrix may be several
    ("W_Q1 = W_K1 = W_V1 = [[1, 0], [0, 1]]")."""
    found: dict[str, dict[int | None, Seen]] = {name: {} for name in (*PROJECTIONS, "w_o")}
    for s in seen:
        if s.role not in found:
            continue
        tags = [t for t in s.names if t.split(":")[0] in found] or [f"{s.role}:{s.head or ''}"]
        for tag in tags:
            role, head = tag.split(":")
            found[role].setdefault(int(head) if head else s.head, s)
    return found


def build_layout(draft: Draft, seen: Sequence[Seen], facts: Facts, heads: int, width: int) -> str:
    found = projection_matrices(seen)
    per_head = any(h is not None for role in PROJECTIONS for h in found[role])
    slices = any(s.role == "head.x" for s in seen)
    square = any(
        shape(s.item.rows) == (width, width) for r in PROJECTIONS for s in found[r].values()
    )
    if slices or (facts.split and not per_head):
        where = next((s.where for s in seen if s.role == "head.x"), facts.split)
        layout, source = "split", f"{where}: each head takes a slice of X's columns"
    elif facts.fused and not per_head:
        layout, source = "fused", f"{facts.fused}: the projections are reshaped into heads"
    elif square and heads > 1 and not per_head:
        layout, source = "fused", f"one {width}x{width} projection for {heads} heads"
    else:
        layout = "per_head"
        source = "each head has its own projections" if per_head else "no split or reshape"
    guess = None if per_head or slices or facts.split or facts.fused else "split or fused also fit"
    draft.set("layout", layout, source, guess=guess if heads > 1 else None)
    return layout


def build_convention(
    draft: Draft, seen: Sequence[Seen], facts: Facts, width: int, layout: str, heads: int
) -> bool:
    """xWT when the text writes W^T (or nn.Linear), or when only the transposes fit X."""
    rows_needed = width // heads if layout == "split" else width
    found = projection_matrices(seen)
    given = [s for role in PROJECTIONS for s in found[role].values()]
    printed = applied_as_printed(seen) if facts.transposed else None
    if facts.transposed and printed is None:
        printed = only_as_printed(given, rows_needed)
    if facts.transposed and printed is None:
        draft.set(
            "convention", "xWT", f"{facts.transposed}: the weights are applied transposed (X W^T)"
        )
        return True
    if printed:  # the code says X W^T, the numbers say the print is already transposed
        draft.set("convention", "xW", f"{printed}: the printed X W fits, X W^T does not")
        return False
    if given and all(
        shape(s.item.rows)[0] != rows_needed and shape(s.item.rows)[1] == rows_needed for s in given
    ):
        draft.set(
            "convention",
            "xWT",
            f"every projection has {rows_needed} columns, not rows: out x in, applied as X W^T",
            guess="xW (in x out) does not fit these shapes",
        )
        return True
    draft.set(
        "convention", "xW", "Q = X W (weights are in x out)" if given else "no weights printed"
    )
    return False


def build_weights(
    draft: Draft, seen: Sequence[Seen], facts: Facts, heads: int, layout: str, text: str
) -> None:
    found = projection_matrices(seen)
    numeric = any(found[role] for role in PROJECTIONS)
    gram = not numeric and scores_are_gram(draft.get("x"), seen)  # the numbers: no projection
    for role in PROJECTIONS:
        matrices = found[role]
        if not matrices:
            same = printed_as_input(draft.get("x"), seen, role)
            if same is not None:
                draft.notes.append(
                    phrase(
                        "notes.equals_input",
                        name=named(same.name),
                        where=same.where,
                        role=code(role),
                    )
                )
            elif numeric and printed_projection(seen, role):
                draft.set(
                    f"weights.{role}",
                    "symbolic",
                    f"PLACEHOLDER: never given, though the page prints {role[-1].upper()}: "
                    "symbolic entries",
                )
            elif not numeric and facts.random and not gram:
                draft.set(
                    f"weights.{role}",
                    "symbolic",
                    f"PLACEHOLDER: made by a random generator ({facts.random}) and never "
                    "printed: symbolic entries",
                )
            elif not numeric and _WEIGHT_NAMES.search(text) and not gram:
                draft.set(
                    f"weights.{role}", "symbolic", "named but never printed: symbolic entries"
                )
            elif not numeric:
                key = "notes.identity_gram" if gram else "notes.identity"
                draft.notes.append(phrase(key, role=code(role)))
            continue
        count = 1 if layout == "fused" else heads
        keys = sorted(matrices, key=lambda h: h or 0)
        if len(matrices) == count and (count == 1 or None not in matrices):
            chosen = [matrices[k] for k in keys]
            value = (
                plain(chosen[0].item.rows) if count == 1 else [plain(s.item.rows) for s in chosen]
            )
            source = "; ".join(quoted(s) for s in chosen)
            names, wheres = ", ".join(s.name for s in chosen), tuple(s.where for s in chosen)
            draft.set(f"weights.{role}", value, source, name=names, where=wheres)
        else:
            draft.set(
                f"weights.{role}", "symbolic", f"printed for heads {keys} of {count}: symbolic"
            )
            draft.notes.append(
                phrase("notes.some_heads", role=code(role), heads=code(keys), count=count)
            )


def output_projection(draft: Draft, seen: Sequence[Seen], facts: Facts, concat_width: int) -> None:
    """W_O as printed (times its printed factor), transposed when only its transpose fits."""
    printed = [s for s in seen if s.role == "w_o"]
    if not printed:
        _missing_output_projection(draft, facts)
        return
    s = printed[0]
    rows = s.item.rows
    if s.factor:
        rows = tuple(tuple(_times(s.factor, e) for e in row) for row in rows)
    given = shape(rows)
    if given[0] != concat_width:
        if given[1] != concat_width:
            raise SpecError(
                f"{s.name} ({s.where}) has shape {given} but concat has {concat_width} columns; "
                "neither it nor its transpose fits",
                source=draft.document,
            )
        rows = transposed(rows)
        draft.set("printed_transposed", ["w_o"], f"{s.name} ({s.where}) printed transposed")
        draft.notes.append(
            phrase(
                "notes.w_o_transposed",
                name=named(s.name),
                where=s.where,
                rows=given[0],
                cols=given[1],
                width=concat_width,
            )
        )
    factor = f" times {s.factor}" if s.factor else ""
    draft.set("weights.w_o", plain(rows), f"{quoted(s)}{factor}", name=s.name, where=(s.where,))


def _missing_output_projection(draft: Draft, facts: Facts) -> None:
    if not facts.output_projection:
        return
    symbolic = all(draft.get(f"weights.{r}") == "symbolic" for r in PROJECTIONS)
    if symbolic:
        draft.set(
            "weights.w_o", "symbolic", f"{facts.output_projection}: named, never printed: symbolic"
        )
        return
    draft.placeholders.append(
        f'# w_o = "symbolic"  # PLACEHOLDER: W_O is named ({facts.output_projection}) but never '
        "printed; without it output = concat"
    )
    draft.notes.append(phrase("notes.w_o_missing", where=facts.output_projection))


def _times(factor: str, entry: str) -> str:
    value = sp.Rational(factor) * sp.Rational(entry.replace("−", "-"))
    return str(value)


def check_fit(draft: Draft, seen: Sequence[Seen], width: int, heads: int, layout: str) -> None:
    """Each printed projection against X: one line naming both and their shapes."""
    needed = width // heads if layout == "split" else width
    flipped = draft.get("convention") == "xWT"
    x = next((v for v in draft.values if v.key == "x"), None)
    if x is None:
        return
    x_shape = (len(x.value), len(x.value[0]))
    for role in PROJECTIONS:
        for s in projection_matrices(seen)[role].values():
            rows, cols = shape(s.item.rows)
            if (cols if flipped else rows) == needed:
                continue
            product = "X W^T" if flipped else "X W"
            fits = "; its transpose would fit" if (rows if flipped else cols) == needed else ""
            raise SpecError(
                f"{s.name} ({s.where}) has shape {(rows, cols)} but {x.name or 'X'} "
                f"({x.source.split(':')[0]}) has shape {x_shape}: {product} needs "
                f"{needed} {'columns' if flipped else 'rows'} in {s.name}{fits}",
                source=draft.document,
            )
