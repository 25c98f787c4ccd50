"""The parts of a solution about the whole model: setup, limit heading, fused reshape, summary."""

from __future__ import annotations

import sympy as sp

from mha_symbolic.exact.limits import LimitDerivation
from mha_symbolic.solution import latex
from mha_symbolic.solution.chosen import chosen_matrices, chosen_parameters, sharpened
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.view import FusedStep, Limit, Summary, SummaryRow, TokenRow
from mha_symbolic.spec import parameters


def setup(context: Context) -> tuple[str, ...]:
    """The setup list: lengths, sizes, heads, d_k, scaling, convention, mask, parameters."""
    facts, w = context.facts, context.words
    (lq, E), lk = facts.shape("query"), facts.shape("key")[0]
    given = "head1.q" not in context.d  # scores or weights given: no Q and K, no d_k
    dk = 0 if given else context.d.step("head1.q").shape[1]
    lines = []
    if facts.self_attention:
        lines.append(w("setup", "length", L=lq))
    else:
        lines.append(w("setup", "cross", Lq=lq, Lk=lk))
    if facts.has_inputs:
        lines.append(w("setup", "model", E=E))
    lines.append(w("setup", "heads", h=len(facts.heads)))
    if not facts.has_inputs:
        # Past the inputs: given Q, K, V; given scores (and values); given weights.
        lines.append(w("setup", "values_given" if facts.scores_given else f"{facts.given}_given"))
    if facts.given == "qkv":
        lines.append(w("setup", "dk_given", dk=dk))
    elif facts.given == "weights":
        return (*lines, *_after_softmax(context))
    else:
        lines.append(w("setup", "scores_given") if given else _dk_line(context, dk))
    return (*lines, *_scale_and_mask(context, dk, given), *_after_softmax(context))


def _scale_and_mask(context: Context, dk: int, given: bool) -> list[str]:
    """The setup's lines on the scale, the convention and the mask."""
    facts, w = context.facts, context.words
    scale, mask = facts.scale(), facts.mask
    if scale.is_default:
        root = sp.sqrt(dk)
        square = root.is_Integer and root != 1  # 1/sqrt(4) is 1/2: said as the number it is
        lines = [w("setup", "scale_sqrt_square" if square else "scale_sqrt", dk=dk, root=root)]
    elif scale.is_identity:
        lines = [w("setup", "scale_none")]
    else:
        lines = [w("setup", "scale_value", factor=latex.exact(scale.factor))]
    if facts.has_inputs:
        lines.append(w("setup", f"convention_{facts.convention}" + ("_v" if given else "")))
    if mask is None:
        return lines
    # masked_fill with a number: the matrix line says -oo, so only the fill's line is said
    if mask.kind == "causal" or not mask.filled:
        lines.append(w("setup", f"mask_{mask.kind}"))
    if mask.filled:
        lines.append(w("setup", "mask_fill", fill=latex.exact(mask.fill)))
    return lines


def _after_softmax(context: Context) -> tuple[str, ...]:
    """The setup's lines on the output projection and the declared parameters."""
    facts, w = context.facts, context.words
    lines = []
    if not facts.output_projection:
        lines.append(w("setup", "unknown_output" if context.output_unknown else "no_output"))
    for symbol in facts.parameters.values():
        kind = w("parameter_kinds", parameters.kind_of(symbol))
        lines.append(w("setup", "parameter", name=sp.latex(symbol), kind=kind))
    return (*lines, *_chosen(context))


def _chosen(context: Context) -> tuple[str, ...]:
    """Which numbers the solution chose for the symbols, so every step shows numbers."""
    d, w = context.d, context.words
    lines = []
    matrices = chosen_matrices(d, context.chosen)
    sharp, factor = sharpened(matrices)
    if matrices:
        names = ", ".join(f"${name}$" for name in matrices)
        if sharp:
            said = ", ".join(f"${name}$" for name in sharp)
            lines.append(w("setup", "chosen_sharp", names=names, sharp=said, factor=factor))
        else:
            lines.append(w("setup", "chosen_weights", names=names))
    parameters = chosen_parameters(d, context.chosen)
    if parameters is not None:
        lines.append(w("setup", "chosen_parameters", values=parameters))
    return tuple(lines)


def lets(context: Context) -> tuple[str, ...]:
    """``Let a = e^{\\sqrt{3}/3} \\approx 1.78``: each named exponential, before the steps."""
    out: list[str] = []
    for letter, base in context.names.bases:
        approx = latex.decimal(base, context.settings.decimals)
        name = sp.latex(letter)
        # Why a letter stands for an exponential is said once; the other letters just follow.
        table, key = ("setup", "let") if not out else ("names", "let_more")
        numbers = {"name": name, "value": latex.exact(base)}
        if approx is None:  # e^{1/tau}: a parameter's, no decimals
            out.append(context.words(table, f"{key}_exact", **numbers))
        else:
            out.append(context.words(table, key, approx=approx, **numbers))
    for letter, unit in context.names.angles:
        name, value, twice = sp.latex(letter), sp.latex(unit), sp.latex(2 * unit)
        out.append(context.words("setup", "let_angle", name=name, value=value, twice=twice))
    return tuple(out)


def _dk_line(context: Context, dk: int) -> str:
    """d_k as this layout makes it: d_model / h only where a head's width really is that."""
    facts, w = context.facts, context.words
    E, h = facts.shape("query")[1], len(facts.heads)
    width = next((s.shape[1] for s in context.d.steps if s.key == "head1.x"), None)
    if facts.layout == "per_head":
        return w("setup", "dk_per_head", dk=dk)
    if width is not None and width != dk:
        return w("setup", "dk_split_project", E=E, h=h, width=width, dk=dk)
    if E % h != 0 or E // h != dk:
        return w("setup", "dk_per_head", dk=dk)
    return w("setup", "dk_split", E=E, h=h, dk=dk)


def limit(context: Context) -> Limit | None:
    """The heading of a derivation whose values are limits (Derivation.limit)."""
    if not isinstance(context.d, LimitDerivation):
        return None
    taken = context.d.taken.latex
    words = context.words
    return Limit(words("limit", "heading", limit=taken), words("limit", "note", limit=taken))


def fused_steps(context: Context) -> tuple[FusedStep, FusedStep]:
    """Reshape (L, E) -> (L, h, d) and transpose to (h, L, d), shown on Q's rows."""
    q = context.d.step("q")
    h = len(context.facts.heads)
    L, E = q.shape
    d = E // h
    numbers = {"L": L, "E": E, "h": h, "d": d}
    rows = []
    for i in latex.layout(q.entries, context.settings.max_size).rows:
        if i is None:
            continue
        chunks = [
            r",\; ".join(context.exact(q.entries[i, c]) for c in range(k * d, (k + 1) * d))
            for k in range(h)
        ]
        row = r"\left[" + r" \;\middle|\; ".join(chunks) + r"\right]"
        rows.append(TokenRow(i + 1, context.spec.tokens[i], row))
    w = context.words

    def part(name: str, rows_title: str | None, tokens: tuple[TokenRow, ...]) -> FusedStep:
        return FusedStep(
            part=name,
            title=w("fused", name),
            caption=w("fused", f"{name}_caption", **numbers),
            insight=w("fused", f"{name}_insight"),
            without=w("fused", f"{name}_without"),
            rows_title=rows_title,
            tokens=tokens,
        )

    return part("reshape", w("fused", "chunks"), tuple(rows)), part("transpose", None, ())


def _shape_rows(context: Context) -> list[tuple[str, str, str]]:
    """(operation, shapes in letters, shapes here) up to the heads' attention."""
    facts = context.facts
    (L, E), h = facts.shape("query"), len(facts.heads)
    first = ("input", "(L, E)", f"({L}, {E})")
    if not facts.has_inputs:  # the given stage is the first row
        return _given_rows(context)
    if facts.scores_given:  # only the values are projected
        dv = context.d.step("head1.v").shape[1]
        return [first, ("projection", r"(L, E) \to h \times (L, d)", rf"{h} \times ({L}, {dv})")]
    dq = context.d.step("head1.q").shape[1]
    if facts.fused:
        return [
            first,
            ("projection", r"(L, E) \to (L, E) \times 3", rf"({L}, {E}) \times 3"),
            ("reshape", r"(L, E) \to (L, h, d)", rf"({L}, {E}) \to ({L}, {h}, {dq})"),
            ("transpose", r"(L, h, d) \to (h, L, d)", rf"({L}, {h}, {dq}) \to ({h}, {L}, {dq})"),
        ]
    dv = context.d.step("head1.v").shape[1]
    # Q, K and V as wide as each other, or (RoPE's example) values narrower than queries/keys
    three = (r"h \times (L, d) \times 3", rf"{h} \times ({L}, {dq}) \times 3")
    if dv != dq:
        three = (three[0], rf"{h} \times ({L}, {dq}) \times 2,\ {h} \times ({L}, {dv})")
    if facts.layout == "split":
        return [
            first,
            (
                "split",
                r"(L, E) \to h \times (L, E/h)",
                rf"({L}, {E}) \to {h} \times ({L}, {E // h})",
            ),
            ("projection", rf"h \times (L, E/h) \to {three[0]}", three[1]),
        ]
    return [first, ("projection", rf"(L, E) \to {three[0]}", three[1])]


def _given_rows(context: Context) -> list[tuple[str, str, str]]:
    """The shapes of the given stage: Q, K and V, or the scores or weights and V."""
    facts = context.facts
    h, lq, lk = len(facts.heads), facts.shape("query")[0], facts.shape("key")[0]
    dv = context.d.step("head1.v").shape[1]
    values = rf"{h} \times ({lk}, {dv})"
    if facts.given == "qkv":
        dk = context.d.step("head1.q").shape[1]
        shapes = rf"{h} \times ({lq}, {dk}),\ {h} \times ({lk}, {dk}),\ {values}"
        return [("given_qkv", r"h \times (L, d) \times 3", shapes)]
    return [
        (
            "given_" + facts.given,
            r"h \times (L, L),\ h \times (L, d)",
            rf"{h} \times ({lq}, {lk}),\ {values}",
        )
    ]


def summary(context: Context) -> Summary:
    """The table of shapes, step by step, and the closed form."""
    facts, w = context.facts, context.words
    (L, E), h, lk = facts.shape("query"), len(facts.heads), facts.shape("key")[0]
    dv = context.d.step("head1.v").shape[1]
    weights, outputs = w("summary", "weights"), w("summary", "outputs")
    rows = _shape_rows(context)
    if facts.rope:  # each head's queries and keys turned, their shapes kept
        dq = context.d.step("head1.q").shape[1]
        rows.append(("rope", r"(h, L, d) \to (h, L, d)", rf"{h} \times ({L}, {dq}) \times 2"))
    rows.append(
        (
            "attention",
            rf"\to \text{{{weights}}}\ (h, L, L),\ \text{{{outputs}}}\ (h, L, d)",
            rf"{h} \times ({L}, {lk}),\ {h} \times ({L}, {dv})",
        )
    )
    if facts.renormalised:  # weights masked after the softmax, then each row over its sum
        rows.append(("renormalise", r"(h, L, L) \to (h, L, L)", rf"{h} \times ({L}, {lk})"))
    if facts.dropout is not None:  # the kept weights times 1/(1-p); the output made of them
        rows.append(("dropout", r"(h, L, L) \to (h, L, L)", rf"{h} \times ({L}, {lk})"))
    merge = "merge" if facts.fused else "concat"
    rows.append((merge, r"(h, L, d) \to (L, h \cdot d)", rf"({h}, {L}, {dv}) \to ({L}, {h * dv})"))
    if facts.output_projection:
        w_o = "W_O^\\top" if facts.convention == "xWT" else "W_O"
        out = context.d.step("output").shape
        rows.append(("output", rf"(L, h \cdot d) \cdot {w_o} \to (L, E)", rf"({out[0]}, {out[1]})"))
    elif context.output_unknown:  # W_O named by the document, its numbers not given
        rows.append(("output", r"(L, h \cdot d) \cdot W_O \to (L, E)", rf"({L}, {E})"))
    return Summary(
        columns=tuple(w("summary", k) for k in ("step", "operation", "shapes", "here")),
        rows=tuple(SummaryRow(n, w("summary", op), a, b) for n, (op, a, b) in enumerate(rows)),
        closed_form=closed_form(context),
    )


def closed_form(context: Context) -> tuple[str, ...]:
    """``head_i = softmax(Q_i K_i^T / sqrt(d_k)) V_i`` per head, and the output formula (``O =
    Concat(head_1, head_2)`` without an output projection, said here once: the output step
    only writes O = C)."""
    lines = [head_formula(context, head) for head in context.facts.heads]
    final, whole = context.d.step("output"), _whole_block(context)
    if whole is None:
        concat = context.d.step("concat").formula
        one = isinstance(concat, sp.BlockMatrix) and concat.blocks.shape == (1, 1)
        whole = latex.formula(concat.blocks[0, 0] if one else concat)
    lines.append(rf"{final.symbol.name} = {whole}")
    return tuple(lines)


def head_formula(context: Context, head: int) -> str:
    """``head_1 = softmax(Q_1 K_1^T / sqrt(d_k)) V_1``, in the head's own names and steps."""
    d, facts = context.d, context.facts
    text: dict[sp.Basic, str] = {}
    for step in d.steps:
        if step.head == head and facts.is_a(step.kind, "inside_softmax"):
            text[step.symbol] = latex.formula(step.formula, text)
    output = d.step(f"head{head}.output")
    return rf"{output.symbol.name} = {latex.formula(output.formula, text)}"


def _whole_block(context: Context) -> str | None:
    """``Concat(head_1, head_2) W_O``: what the output is made of; None when it is the
    concatenation itself."""
    concat, final = context.d.step("concat"), context.d.step("output")
    if final.formula != concat.symbol:
        return latex.formula(final.formula, {concat.symbol: latex.formula(concat.formula)})
    if context.output_unknown:
        return rf"{latex.formula(concat.formula)}\, W_O"
    return None
