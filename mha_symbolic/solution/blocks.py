"""A Derivation laid out as a worked solution: the steps walked once, in order, into blocks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import sympy as sp

from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.solution import latex
from mha_symbolic.solution.chosen import chosen_parameters
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.overview import fused_steps, lets, limit, setup, summary
from mha_symbolic.solution.step_block import shape_text, step_block
from mha_symbolic.solution.token_detail import for_step, token_work
from mha_symbolic.solution.view import (
    Block,
    Figure,
    Given,
    Heading,
    Heatmap,
    Options,
    Solution,
    StepBlock,
    TokenWork,
)


def build(
    derivation: Derivation, options: Options, images: Mapping[int, str] | None = None
) -> Solution:
    """The worked solution of ``derivation``; ``images`` maps a head to its heatmap."""
    context = Context.start(derivation, options, images)
    walk = _Walk(context)
    for step in derivation.steps:
        if step.kind in ("loss", "grad"):
            walk.backward(step)
        else:
            walk.forward(step)
    walk.blocks += figures(context)
    decimals = _shows_decimals(walk.blocks, context)
    return Solution(
        lang=options.lang,
        title=_translated(derivation, options.lang, "title"),
        description=_translated(derivation, options.lang, "description").strip(),
        setup=setup(context),
        lets=lets(context),
        limit=limit(context),
        blocks=tuple(walk.blocks),
        summary=summary(context),
        text=context.words.table["text"],
        decimals_note=_decimals_note(context, decimals),
    )


def _decimals_note(context: Context, decimals: bool) -> str:
    """The closing note: every value is exact; the decimals' places, each step's when a
    spec's [decimals] table gives some their own (seed 003: 2 and 3)."""
    if not decimals:
        return context.words("text", "exact_only")
    places = sorted({context.options.places(step.key) for step in context.d.steps})
    if places == [1]:  # "1 place", not "1 places"
        return context.words("text", "exact_one_place")
    if len(places) == 1:
        return context.words("text", "exact_equal", decimals=places[0])
    listed = ", ".join(str(p) for p in places[:-1]) + context.words("text", "and")
    return context.words("text", "exact_by_step", decimals=listed + str(places[-1]))


def _shows_decimals(blocks: list[Block], context: Context) -> bool:
    """Whether any decimals are printed (an approximate line, a heatmap's cells, a plot, a
    token's working, a named exponential's value): else the closing note speaks of none."""
    for block in blocks:
        if isinstance(block, (Figure, TokenWork)) or (isinstance(block, Heatmap) and block.src):
            return True
        if isinstance(block, StepBlock) and (
            block.approx or block.chosen or block.by_token or any(m.approx for m in block.marks)
        ):
            return True
    decimals = context.settings.decimals
    return any(latex.decimal(base, decimals) is not None for _, base in context.names.bases)


@dataclass
class _Walk:
    """The blocks so far, and which headings have been written."""

    context: Context
    blocks: list[Block] = field(default_factory=list)
    heads: set[int] = field(default_factory=set)  # heads whose heading is written
    backward_heads: set[int] = field(default_factory=set)
    split: bool = False  # the "split into heads" heading is written
    detail: TokenWork | None = None  # --detail token: the current head's working, by query

    def detailed(self, block: StepBlock) -> StepBlock:
        """``block`` with each query's working of it in place of its matrix working: the
        matrix it makes is written once, exactly (each row's decimals are in the working)."""
        parts = () if self.detail is None else for_step(self.detail, block.key)
        if not parts:
            return block
        return replace(block, by_token=parts, substituted=None, approx=None)

    def heading(self, section: str, key: str, **numbers: int | None) -> None:
        self.blocks.append(Heading(self.context.words(section, key, **numbers)))

    def given(self, head: int | None, letters: str) -> None:
        block = given(self.context, head, letters)
        if block is not None:
            self.blocks.append(block)

    def forward(self, step: Step) -> None:
        """A forward step, after the headings and given weights that open it."""
        context = self.context
        layout = context.facts.layout
        if context.facts.is_a(step.kind, "projection") and step.head is None and step.key == "q":
            self.heading("text", "projection")
            self.given(None, "QKV")
        if _is_split_slice(step) and not self.split:
            self.split = True
            self.heading("text", "split")
        elif step.head is not None and not _is_split_slice(step) and step.head not in self.heads:
            self.heads.add(step.head)
            self.heading("text", "head", head=step.head)
            if layout != "fused":
                self.given(step.head, "QKV")
        if context.facts.is_a(step.kind, "final"):
            self.given(None, "O")
        if context.facts.is_a(step.kind, "scores") and context.options.detail == "token":
            self.detail = token_work(context, step.head or 1)
            if not self.detail.parts:  # (why there is no working, in its place)
                self.blocks.append(self.detail)
        self.blocks.append(self.detailed(step_block(context, step)))
        if step.key == "v" and layout == "fused":
            self.blocks += fused_steps(context)
        if _drawn_after(context, step) and context.images is not None:
            block = heatmap(context, step)
            if block is not None:
                self.blocks.append(block)

    def backward(self, step: Step) -> None:
        """The "Backpropagation" heading before the loss, one where each head's gradients start."""
        if step.kind == "loss":
            self.heading("text", "backprop")
        elif step.head is not None and step.head not in self.backward_heads:
            self.backward_heads.add(step.head)
            self.heading("text", "backprop_head", head=step.head)
        self.blocks.append(step_block(self.context, step))


def _translated(derivation: Derivation, lang: str, key: str) -> str:
    """The spec's title or description in ``lang`` when it has one, else as written."""
    spec = derivation.spec
    return str(spec.translations.get(lang, {}).get(key, getattr(spec, key)))


def _is_split_slice(step: Step) -> bool:
    return step.kind == "slice" and step.key.endswith((".x", ".query", ".key", ".value"))


def given(context: Context, head: int | None, letters: str) -> Given | None:
    """The weights the spec gives (or fills in) for ``head``: seed 001 lists them first."""
    suffix = "" if head is None else f"^{{{head}}}"
    lines: list[str] = []
    turned: list[str] = []  # notes on weights the document prints transposed
    stated: list[tuple[str, str, tuple[int, int]]] = []  # weights whose shape it states otherwise
    omitted: list[str] = []
    symbolic: dict[str, list[tuple[str, str]]] = {"symbolic": [], "symbolic_shared": []}
    for letter in letters:
        for kind in ("W", "b"):
            name = f"{kind}_{{{letter}}}{suffix}"
            symbol = next((k for k in context.d.bindings if str(k) == name), None)
            if symbol is None:
                continue
            value = context.d.bindings[symbol]
            lines.append(_given_line(context, name, value))
            label = f"{kind.lower()}_{letter.lower()}"
            if label in context.spec.printed_transposed:
                before = "C" if letter == "O" else "X"  # what it multiplies
                turned.append(_printed_transposed(context, name, value.shape, before))
            if label in context.spec.printed_shapes:
                stated.append((name, label, value.shape))
            if label in context.facts.identity:
                omitted.append(name)
            elif label in context.facts.symbolic:
                key = "symbolic" if head is not None or letter != "O" else "symbolic_shared"
                symbolic[key].append((name, letter))
    if not lines:
        return None
    title = context.words("text", "weights" if head is None else "head_weights", head=head)
    shapes = _printed_shapes(context, head, stated)
    notes = (*turned, *shapes, *_given_notes(context, omitted, symbolic))
    return Given(title, tuple(lines), notes)


def _printed_shapes(
    context: Context, head: int | None, stated: list[tuple[str, str, tuple[int, int]]]
) -> tuple[str, ...]:
    """Seed 002: "W_Q, W_K and W_V have the shape (4, 2)", then X_1 W_Q1 is (8, 2) x (2, 2).
    One note per stated shape, naming the first product that uses the weights otherwise."""
    groups: dict[tuple[int, int], list[tuple[str, str, tuple[int, int]]]] = {}
    for weight in stated:
        groups.setdefault(context.spec.printed_shapes[weight[1]], []).append(weight)
    notes = []
    for (rows, cols), named in groups.items():
        _, label, used = named[0]
        step = context.d.step(_product_key(label, head))
        numbers = {
            "printed": f"({rows}, {cols})",
            "product": f"{step.symbol.name} = {latex.formula(step.formula)}",
            "shapes": shape_text(step),
            "used": rf"{used[0]} \times {used[1]}",
        }
        if len(named) == 1:
            notes.append(context.words("text", "printed_shape", name=named[0][0], **numbers))
        elif _first_time(context, f"printed_shape_many {rows} {cols}"):
            names = _listed(context, [name for name, _, _ in named])
            notes.append(context.words("text", "printed_shape_many", names=names, **numbers))
    return tuple(notes)


def _product_key(label: str, head: int | None) -> str:
    """The step that multiplies by weights ``label`` (``w_q``): ``head1.q``, ``q``, ``output``."""
    if label == "w_o":
        return "output"
    return label[-1] if head is None else f"head{head}.{label[-1]}"


def _printed_transposed(context: Context, name: str, shape: tuple[int, int], before: str) -> str:
    rows, cols = shape
    printed, used = rf"{cols} \times {rows}", rf"{rows} \times {cols}"
    numbers = {"name": name, "printed": printed, "used": used, "before": before}
    return context.words("text", "printed_transposed", **numbers)


def _given_notes(
    context: Context, omitted: list[str], symbolic: dict[str, list[tuple[str, str]]]
) -> tuple[str, ...]:
    """One note for the weights not given (identities), one for the symbolic ones: three
    matrices of a head in one sentence, not three sentences alike."""
    words, notes = context.words, []
    if len(omitted) == 1:
        notes.append(words("text", "omitted", name=omitted[0]))
    elif omitted:
        notes.append(words("text", "omitted_many", names=_listed(context, omitted)))
    for key, named in symbolic.items():
        if len(named) == 1 or (named and key == "symbolic_shared"):
            notes += [words("text", key, name=name, letter=letter) for name, letter in named]
        elif named and _first_time(context, "symbolic_many"):  # said of every head h at once
            names = _listed(context, [name for name, _ in named])
            notes.append(words("text", "symbolic_many", names=names, letter=named[0][1]))
    return tuple(notes)


def _first_time(context: Context, key: str) -> bool:
    """A note on a head's weights that holds for every head, said at the first head only
    (eight-tokens-split said head 1's two notes again, word for word, for head 2)."""
    first = ("given", key) not in context.said
    context.said.add(("given", key))
    return first


def _listed(context: Context, names: list[str]) -> str:
    """``$A$, $B$ and $C$``."""
    maths = [f"${name}$" for name in names]
    return ", ".join(maths[:-1]) + context.words("text", "and") + maths[-1]


def _given_line(context: Context, name: str, value: sp.MatrixBase) -> str:
    shown = context.show_value(value, name)
    approx = "" if shown.approx is None else rf" \approx {shown.approx}"
    return rf"{name} = {context.given(value, shown.exact)}{approx}"


def _drawn_after(context: Context, step: Step) -> bool:
    """A head's heatmap draws its last weights (renormalised, after a mask on the weights), so
    it follows that step, once: after the softmax too it showed numbers the softmax has not."""
    facts = context.facts
    if not facts.is_a(step.kind, "weights"):
        return False
    weights = [s for s in context.d.steps if s.head == step.head and facts.is_a(s.kind, "weights")]
    return weights[-1] is step


def heatmap(context: Context, step: Step) -> Heatmap | None:
    """The figure of a head's weights (with symbols: at the numbers chosen for them); words
    only when it has none."""
    head = step.head
    assert head is not None
    drawn = context.images is not None and head in context.images
    if context.subterms.free_symbols(step.entries):
        if not drawn or context.images is None:
            return Heatmap(head, None, context.words("text", "heatmap_symbolic", head=head))
        return Heatmap(head, context.images[head], _chosen_caption(context, head))
    if step.shape == (1, 1):  # one square of colour says nothing the number 1 does not
        return Heatmap(head, None, context.words("text", "heatmap_single", head=head))
    if context.images is not None and head in context.images:
        return Heatmap(head, context.images[head], context.words("text", "heatmap", head=head))
    return None


def _chosen_caption(context: Context, head: int) -> str:
    """The caption of a heatmap drawn at chosen numbers: it names the parameters' values
    (temperature's said "at the numbers chosen above" and not which τ it shows)."""
    values = chosen_parameters(context.d, context.chosen)
    if values is None:
        return context.words("text", "heatmap_chosen", head=head)
    return context.words("text", "heatmap_chosen_at", head=head, values=values)


def figures(context: Context) -> list[Block]:
    """The plots, after the steps."""
    out: list[Block] = []
    for plot in context.options.plots:
        symbol = sp.latex(context.facts.parameters[plot.name])
        caption = context.words(
            "plot", "caption", name=symbol, start=f"{plot.start:g}", stop=f"{plot.stop:g}"
        )
        out.append(Figure(plot.src, caption))
    return out
