"""The parts of a solution about the whole model: setup, limit heading, fused reshape, summary."""

from __future__ import annotations

import sympy as sp

from mha_symbolic.exact.limits import LimitDerivation
from mha_symbolic.solution import latex
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.view import FusedStep, Limit, Summary, SummaryRow, TokenRow
from mha_symbolic.spec import parameters

# The setup's line for an example that starts past the inputs, by its stage.
_GIVEN = {"qkv": "qkv_given", "scores": "values_given", "weights": "weights_given"}


def setup(context: Context) -> tuple[str, ...]:
    """The setup list: lengths, sizes, heads, d_k, scaling, convention, mask, parameters."""
    spec, w = context.spec, context.words
    x = spec.query
    given = "head1.q" not in context.d  # scores or weights given: no Q and K, no d_k
    dk = 0 if given else context.d.step("head1.q").shape[1]
    lines = []
    if spec.self_attention:
        lines.append(w("setup", "length", L=x.rows))
    else:
        lines.append(w("setup", "cross", Lq=x.rows, Lk=spec.key.rows))
    if spec.has_inputs:
        lines.append(w("setup", "model", E=x.cols))
    lines.append(w("setup", "heads", h=spec.heads))
    if not spec.has_inputs:
        lines.append(w("setup", _GIVEN[spec.stage]))
    if spec.stage == "qkv":
        lines.append(w("setup", "dk_given", dk=dk))
    elif spec.stage == "weights":
        return (*lines, *_after_softmax(context))
    else:
        lines.append(w("setup", "scores_given") if given else _dk_line(context, dk))
    if spec.scale == "sqrt_dk":
        lines.append(w("setup", "scale_sqrt", dk=dk))
    elif spec.scale == "none":
        lines.append(w("setup", "scale_none"))
    else:
        lines.append(w("setup", "scale_value", factor=latex.exact(spec.scale)))
    if spec.has_inputs:
        lines.append(w("setup", f"convention_{spec.convention}" + ("_v" if given else "")))
    filled = spec.mask_fill != -sp.oo  # masked_fill with a number: the matrix line says -oo
    if spec.mask_kind == "causal" or (spec.mask_kind == "matrix" and not filled):
        lines.append(w("setup", f"mask_{spec.mask_kind}"))
    if filled:
        lines.append(w("setup", "mask_fill", fill=latex.exact(spec.mask_fill)))
    return (*lines, *_after_softmax(context))


def _after_softmax(context: Context) -> tuple[str, ...]:
    """The setup's lines on the output projection and the declared parameters."""
    spec, w = context.spec, context.words
    lines = []
    if not spec.has_output_projection:
        lines.append(w("setup", "unknown_output" if context.output_unknown else "no_output"))
    for symbol in spec.parameters.values():
        kind = w("parameter_kinds", parameters.kind_of(symbol))
        lines.append(w("setup", "parameter", name=sp.latex(symbol), kind=kind))
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
    return tuple(out)


def _dk_line(context: Context, dk: int) -> str:
    """d_k as this layout makes it: d_model / h only where a head's width really is that."""
    spec, w = context.spec, context.words
    E = spec.query.cols
    width = next((s.shape[1] for s in context.d.steps if s.key == "head1.x"), None)
    if spec.layout == "per_head":
        return w("setup", "dk_per_head", dk=dk)
    if width is not None and width != dk:
        return w("setup", "dk_split_project", E=E, h=spec.heads, width=width, dk=dk)
    if E % spec.heads != 0 or E // spec.heads != dk:
        return w("setup", "dk_per_head", dk=dk)
    return w("setup", "dk_split", E=E, h=spec.heads, dk=dk)


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
    h = context.spec.heads
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
    spec = context.spec
    L, E, h = spec.query.rows, spec.query.cols, spec.heads
    first = ("input", "(L, E)", f"({L}, {E})")
    if not spec.has_inputs:  # the given stage is the first row
        return _given_rows(context)
    if spec.scores is not None:  # only the values are projected
        dv = context.d.step("head1.v").shape[1]
        return [first, ("projection", r"(L, E) \to h \times (L, d)", rf"{h} \times ({L}, {dv})")]
    dq = context.d.step("head1.q").shape[1]
    if spec.layout == "fused":
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
    if spec.layout == "split":
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
    spec = context.spec
    h, lq, lk = spec.heads, spec.query.rows, spec.key.rows
    dv = context.d.step("head1.v").shape[1]
    values = rf"{h} \times ({lk}, {dv})"
    if spec.stage == "qkv":
        dk = context.d.step("head1.q").shape[1]
        shapes = rf"{h} \times ({lq}, {dk}),\ {h} \times ({lk}, {dk}),\ {values}"
        return [("given_qkv", r"h \times (L, d) \times 3", shapes)]
    return [
        (
            "given_" + spec.stage,
            r"h \times (L, L),\ h \times (L, d)",
            rf"{h} \times ({lq}, {lk}),\ {values}",
        )
    ]


def summary(context: Context) -> Summary:
    """The table of shapes, step by step, and the closed form."""
    spec, w = context.spec, context.words
    L, h = spec.query.rows, spec.heads
    dv = context.d.step("head1.v").shape[1]
    weights, outputs = w("summary", "weights"), w("summary", "outputs")
    rows = _shape_rows(context)
    if spec.rope is not None:  # each head's queries and keys turned, their shapes kept
        dq = context.d.step("head1.q").shape[1]
        rows.append(("rope", r"(h, L, d) \to (h, L, d)", rf"{h} \times ({L}, {dq}) \times 2"))
    rows.append(
        (
            "attention",
            rf"\to \text{{{weights}}}\ (h, L, L),\ \text{{{outputs}}}\ (h, L, d)",
            rf"{h} \times ({L}, {spec.key.rows}),\ {h} \times ({L}, {dv})",
        )
    )
    merge = "merge" if spec.layout == "fused" else "concat"
    rows.append((merge, r"(h, L, d) \to (L, h \cdot d)", rf"({h}, {L}, {dv}) \to ({L}, {h * dv})"))
    if spec.has_output_projection:
        w_o = "W_O^\\top" if spec.convention == "xWT" else "W_O"
        out = context.d.step("output").shape
        rows.append(("output", rf"(L, h \cdot d) \cdot {w_o} \to (L, E)", rf"({out[0]}, {out[1]})"))
    elif context.output_unknown:  # W_O named by the document, its numbers not given
        E = spec.query.cols
        rows.append(("output", r"(L, h \cdot d) \cdot W_O \to (L, E)", rf"({L}, {E})"))
    return Summary(
        columns=tuple(w("summary", k) for k in ("step", "operation", "shapes", "here")),
        rows=tuple(SummaryRow(n, w("summary", op), a, b) for n, (op, a, b) in enumerate(rows)),
        closed_form=closed_form(context),
    )


def closed_form(context: Context) -> tuple[str, ...]:
    """``head_i = softmax(Q_i K_i^T / sqrt(d_k)) V_i`` per head, and the output formula."""
    d = context.d
    lines = []
    inline = ("scale", "mask", "softmax")
    for head in range(1, context.spec.heads + 1):
        text: dict[sp.Basic, str] = {}
        for step in d.steps:
            if step.head == head and step.kind in inline:
                text[step.symbol] = latex.formula(step.formula, text)
        output = d.step(f"head{head}.output")
        lines.append(rf"{output.symbol.name} = {latex.formula(output.formula, text)}")
    concat = d.step("concat")
    final = d.step("output")
    if final.formula != concat.symbol:
        text = {concat.symbol: latex.formula(concat.formula)}
        lines.append(rf"{final.symbol.name} = {latex.formula(final.formula, text)}")
    elif context.output_unknown:
        lines.append(rf"{final.symbol.name} = {latex.formula(concat.formula)}\, W_O")
    return tuple(lines)
