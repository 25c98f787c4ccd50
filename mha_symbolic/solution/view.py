"""What a worked solution says: a Derivation turned into blocks of prose keys and LaTeX."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.exact.limits import LimitDerivation
from mha_symbolic.solution import latex
from mha_symbolic.solution.locale import fill, generic_key, load, step_title
from mha_symbolic.spec import parameters

if TYPE_CHECKING:
    from mha_symbolic.solution.plot import Plot

DETAILS = ("matrix", "token")
# Steps whose substituted form would only repeat the value (or a slice of an earlier value).
_NO_SUBSTITUTION = ("input", "slice", "concat")


@dataclass(frozen=True)
class Options:
    """How a solution is written: rounding, detail, language, elision and template folder."""

    decimals: int = 2
    detail: str = "matrix"
    lang: str = "en"
    max_size: int = 8
    max_width: float = 16
    templates: str | None = None
    # Step key -> printed numbers that do not hold (from check's Report.marks()), shown in place.
    marks: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    # Step entries drawn against a parameter (plot.figure), shown after the steps.
    plots: Sequence[Plot] = ()

    def __post_init__(self) -> None:
        if self.detail not in DETAILS:
            raise SpecError(f"unknown detail {self.detail!r}; choose one of {', '.join(DETAILS)}")
        if self.max_size < 2:
            raise SpecError("--max-size must be at least 2")

    @property
    def settings(self) -> latex.Settings:
        return latex.Settings(self.decimals, self.max_size, self.max_width)


class Words:
    """Locale strings, formatted with numbers only (user text never passes through them)."""

    def __init__(self, lang: str, templates: str | None) -> None:
        self.table = load(lang, templates)

    def __call__(self, section: str, key: str, **numbers: Any) -> str:
        return fill(self.table[section][key], self.table.where(section, key), **numbers)

    def get(self, section: str, key: str, **numbers: Any) -> str | None:
        text = self.table.get(section, {}).get(key)
        return None if text is None else fill(text, self.table.where(section, key), **numbers)


def _title_key(step: Step) -> str:
    return step.key if step.head is None else generic_key(step.key)


def _is_split_slice(step: Step) -> bool:
    return step.kind == "slice" and step.key.endswith((".x", ".query", ".key", ".value"))


def _shape(matrix: Any) -> str:
    return f"({matrix.shape[0]}, {matrix.shape[1]})"


def shape_text(step: Step) -> str:
    """Seed 002's shape arithmetic: ``(8, 2) \times (2, 2) = (8, 2)``."""
    formula = step.formula
    if isinstance(formula, sp.MatAdd):
        formula = formula.args[0] if isinstance(formula.args[0], sp.MatMul) else formula
    result = _shape(step.value)
    if isinstance(formula, sp.MatMul):
        factors = [a for a in formula.args if getattr(a, "is_Matrix", False)]
        if len(factors) > 1:
            return r" \times ".join(_shape(f) for f in factors) + f" = {result}"
    if isinstance(formula, sp.BlockMatrix):
        parts = ", ".join(_shape(b) for b in formula.blocks)
        return rf"\operatorname{{Concat}}[{parts}] = {result}"
    return result


class Builder:
    """Walks the steps once and appends the blocks a template renders in order."""

    def __init__(
        self, derivation: Derivation, options: Options, images: Mapping[int, str] | None
    ) -> None:
        self.d = derivation
        self.spec = derivation.spec
        self.options = options
        self.settings = options.settings
        self.words = Words(options.lang, options.templates)
        self.images = images
        self.blocks: list[dict[str, Any]] = []
        self.shown: dict[str, latex.Shown] = {}
        self.substitutes: dict[sp.Basic, str] = {}
        self.said: set[tuple[str, str]] = set()

    # ----------------------------------------------------------------- values
    def show(self, step: Step) -> latex.Shown:
        if step.key not in self.shown:
            self.shown[step.key] = latex.show(step.value, step.symbol.name, self.settings)
        return self.shown[step.key]

    def leaf(self, symbol: sp.Basic, value: Any) -> str | None:
        if isinstance(value, sp.MatrixBase):
            shown = latex.show(value, symbol.name, self.settings)
            return None if shown.named else shown.exact
        return latex.exact(sp.sympify(value))

    def substituted(self, step: Step) -> str | None:
        """The formula with every operand replaced by its value, or None when unreadable."""
        if step.kind in _NO_SUBSTITUTION or step.formula == step.symbol:
            return None
        if isinstance(step.formula, (sp.MatrixSlice, sp.BlockMatrix, sp.MatrixSymbol)):
            return None  # a gradient cut out, put side by side or passed on: nothing to compute
        if not step.formula.free_symbols:
            return None
        if step.kind == "output" and not self.spec.has_output_projection:
            return None
        formula = step.formula
        if step.kind == "scale":
            formula = self._scale_of_scores(step)
        replace = {}
        for symbol in formula.free_symbols:
            text = self.substitutes.get(symbol)
            if text is None:
                return None
            replace[symbol] = text
        return latex.formula(formula, replace)

    def _scale_of_scores(self, step: Step) -> sp.Basic:
        """``c Q K^T`` written as ``c S``: the scores were just shown."""
        scores = self.d.step(step.key.replace(".scaled", ".scores")).symbol
        factors = [a for a in step.formula.args if not getattr(a, "is_Matrix", False)]
        return sp.MatMul(*factors, scores, evaluate=False)

    # ----------------------------------------------------------------- blocks
    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append({"type": "heading", "level": level, "text": text})

    def step(self, step: Step) -> None:
        shown = self.show(step)
        lines = []
        if step.kind != "input":
            lines.append(latex.formula(step.formula))
            sub = self.substituted(step)
            if sub is not None:
                lines.append(sub)
        lines.append(shown.exact)
        block = {
            "type": "step",
            "key": step.key,
            "kind": step.kind,
            "head": step.head,
            "title": step_title(step.key, step.head, self.options.lang, self.options.templates),
            "caption": self.caption(step),
            "insight": self.once("insights", _title_key(step), self.numbers(step)),
            "without": self.once("without", _title_key(step), self.numbers(step)),
            "shape": shape_text(step),
            "entry": self.first_entry(step, shown),
            "symbol": step.symbol.name,
            "lines": lines,
            "approx": shown.approx,
            "notes": self.notes(step, shown),
            "marks": [self.mark(step, m) for m in self.options.marks.get(step.key, ())],
            "tokens": self.token_rows(step) if step.kind == "input" else [],
        }
        self.blocks.append(block)
        if not shown.named:
            self.substitutes[step.symbol] = shown.exact

    def mark(self, step: Step, mark: Mapping[str, Any]) -> dict[str, Any]:
        """A printed number that does not hold: what was printed, and the exact value."""
        shown = latex.show(mark["exact"], step.symbol.name, self.settings)
        return {
            "key": mark["key"],
            "claimed": mark["claimed"],
            "verdict": mark["verdict"],
            "exact": shown.exact,
            "approx": shown.approx,
            "diagnosis": mark["diagnosis"],
        }

    def first_entry(self, step: Step, shown: latex.Shown) -> str | None:
        """When entries are written by name, the first one in full if it is not too long."""
        entry = step.value[0, 0]
        if not shown.named or latex.too_long(entry, 4 * self.settings.max_width):
            return None
        return rf"\left({step.symbol.name}\right)_{{1,1}} = {latex.exact(entry)}"

    def once(self, section: str, key: str, numbers: dict[str, Any]) -> str | None:
        """An insight is said at its first step only (not again for every head)."""
        if (section, key) in self.said:
            return None
        self.said.add((section, key))
        return self.words.get(section, key, **numbers)

    def numbers(self, step: Step) -> dict[str, Any]:
        first = self._first_column(step)
        return {
            "head": step.head,
            "width": step.shape[1],
            "first": first,
            "last": first + step.shape[1] - 1,
        }

    def _first_column(self, step: Step) -> int:
        slice_ = step.formula
        return int(slice_.colslice[0]) if isinstance(slice_, sp.MatrixSlice) else 0

    def caption(self, step: Step) -> str:
        key = _title_key(step)
        numbers = self.numbers(step)
        if step.kind == "scale" and self.spec.scale != "sqrt_dk":
            key += "_none" if self.spec.scale == "none" else "_value"
        if step.kind == "output" and not self.spec.has_output_projection:
            key = "output_none"
        if step.kind in ("loss", "grad"):
            key = self._grad_caption(key)
        if self.spec.layout == "fused":
            fused = self.words.get("captions_fused", key, **numbers)
            if fused is not None:
                return fused
        return self.words("captions", key, **numbers)

    def _grad_caption(self, key: str) -> str:
        """Which caption a backward step takes: by loss, mask, scaling and W_O."""
        spec = self.spec
        if key in ("loss", "grad.output"):
            return f"{key}_{spec.loss.kind if spec.loss is not None else 'sum'}"
        if key == "grad.concat" and not spec.has_output_projection:
            return "grad.concat_none"
        if key == "grad.head.scaled" and spec.mask is not None:
            return "grad.head.scaled_mask"
        if key == "grad.head.scores" and spec.scale == "none":
            return "grad.head.scores_none"
        return key

    def notes(self, step: Step, shown: latex.Shown) -> list[str]:
        rows, cols = step.shape
        notes = []
        if shown.named:
            notes.append(self.words("text", "named", rows=rows, cols=cols))
        elif shown.elided:
            notes.append(self.words("text", "elided", rows=rows, cols=cols))
        return notes

    def token_rows(self, step: Step) -> list[dict[str, Any]]:
        labels = self.spec.key_tokens if step.key in ("key", "value") else self.spec.tokens
        indices = latex.layout(step.value, self.settings.max_size).rows
        return [
            {"index": i + 1, "label": labels[i], "row": self.row(step.value, i)}
            for i in indices
            if i is not None
        ]

    def row(self, matrix: sp.MatrixBase, i: int) -> str:
        """Row ``i`` as the documents write vectors: ``[1, 0]``."""
        cols = latex.layout(matrix, self.settings.max_size).cols
        cells = [r"\cdots" if j is None else latex.exact(matrix[i, j]) for j in cols]
        return r"\left[" + r",\; ".join(cells) + r"\right]"

    def approx_row(self, matrix: sp.MatrixBase, i: int) -> str | None:
        cols = [j for j in latex.layout(matrix, self.settings.max_size).cols]
        entries = [matrix[i, j] for j in cols if j is not None]
        if all(latex.is_literal(e) for e in entries):
            return None
        cells = [
            r"\cdots" if j is None else latex.decimal(matrix[i, j], self.settings.decimals)
            for j in cols
        ]
        if any(c is None for c in cells):
            return None
        return r"\left[" + r",\; ".join(str(c) for c in cells) + r"\right]"

    # ----------------------------------------------------------------- sections
    def setup(self) -> list[str]:
        spec, w = self.spec, self.words
        x = spec.query
        first_q = self.d.step("head1.q")
        dk = first_q.shape[1]
        lines = []
        if spec.self_attention:
            lines.append(w("setup", "length", L=x.rows))
        else:
            lines.append(w("setup", "cross", Lq=x.rows, Lk=spec.key.rows))
        lines += [w("setup", "model", E=x.cols), w("setup", "heads", h=spec.heads)]
        if spec.layout == "per_head":
            lines.append(w("setup", "dk_per_head", dk=dk))
        else:
            lines.append(w("setup", "dk_split", E=x.cols, h=spec.heads, dk=dk))
        if spec.scale == "sqrt_dk":
            lines.append(w("setup", "scale_sqrt", dk=dk))
        elif spec.scale == "none":
            lines.append(w("setup", "scale_none"))
        else:
            lines.append(w("setup", "scale_value", factor=latex.exact(spec.scale)))
        lines.append(w("setup", f"convention_{spec.convention}"))
        if spec.mask_kind != "none":
            lines.append(w("setup", f"mask_{spec.mask_kind}"))
        if not spec.has_output_projection:
            lines.append(w("setup", "no_output"))
        for symbol in spec.parameters.values():
            kind = w("parameter_kinds", parameters.kind_of(symbol))
            lines.append(w("setup", "parameter", name=sp.latex(symbol), kind=kind))
        return lines

    def limit(self) -> dict[str, str] | None:
        """The heading of a derivation whose values are limits (Derivation.limit)."""
        if not isinstance(self.d, LimitDerivation):
            return None
        limit = self.d.taken.latex
        return {
            "heading": self.words("limit", "heading", limit=limit),
            "note": self.words("limit", "note", limit=limit),
        }

    def plots(self) -> None:
        for plot in self.options.plots:
            symbol = sp.latex(self.spec.parameters[plot.name])
            caption = self.words(
                "plot", "caption", name=symbol, start=f"{plot.start:g}", stop=f"{plot.stop:g}"
            )
            self.blocks.append({"type": "plot", "src": plot.src, "caption": caption})

    def fused(self) -> None:
        """Reshape (L, E) -> (L, h, d) and transpose to (h, L, d), shown on Q's rows."""
        q = self.d.step("q")
        h = self.spec.heads
        L, E = q.shape
        d = E // h
        numbers = {"L": L, "E": E, "h": h, "d": d}
        rows = []
        for i in latex.layout(q.value, self.settings.max_size).rows:
            if i is None:
                continue
            chunks = [
                r",\; ".join(latex.exact(q.value[i, c]) for c in range(k * d, (k + 1) * d))
                for k in range(h)
            ]
            rows.append(
                {
                    "index": i + 1,
                    "label": self.spec.tokens[i],
                    "row": r"\left[" + r" \;\middle|\; ".join(chunks) + r"\right]",
                }
            )
        for part in ("reshape", "transpose"):
            self.blocks.append(
                {
                    "type": "fused",
                    "part": part,
                    "title": self.words("fused", part),
                    "caption": self.words("fused", f"{part}_caption", **numbers),
                    "insight": self.words("fused", f"{part}_insight"),
                    "without": self.words("fused", f"{part}_without"),
                    "rows_title": self.words("fused", "chunks") if part == "reshape" else None,
                    "tokens": rows if part == "reshape" else [],
                }
            )

    def heatmap(self, step: Step) -> None:
        head = step.head
        assert head is not None
        if step.value.free_symbols:
            text = self.words("text", "heatmap_symbolic", head=head)
            self.blocks.append({"type": "heatmap", "head": head, "src": None, "caption": text})
        elif self.images is not None and head in self.images:
            text = self.words("text", "heatmap", head=head)
            self.blocks.append(
                {"type": "heatmap", "head": head, "src": self.images[head], "caption": text}
            )

    def given(self, head: int | None, letters: str) -> None:
        """The weights the spec gives (or fills in) for ``head``: seed 001 lists them first."""
        suffix = "" if head is None else f"^{{{head}}}"
        lines, notes = [], []
        for letter in letters:
            for kind in ("W", "b"):
                name = f"{kind}_{{{letter}}}{suffix}"
                symbol = next((k for k in self.d.bindings if str(k) == name), None)
                if symbol is None:
                    continue
                value = self.d.bindings[symbol]
                shown = latex.show(value, name, self.settings)
                approx = "" if shown.approx is None else rf" \approx {shown.approx}"
                lines.append(rf"{name} = {shown.exact}{approx}")
                label = f"{kind.lower()}_{letter.lower()}"
                if label in self.spec.omitted:
                    notes.append(self.words("text", "omitted", name=name))
                elif label in self.spec.symbolic:
                    notes.append(self.words("text", "symbolic", name=name, letter=letter))
        if lines:
            title = self.words("text", "weights" if head is None else "head_weights", head=head)
            self.blocks.append({"type": "given", "title": title, "lines": lines, "notes": notes})

    # ----------------------------------------------------------------- token by token
    def tokens(self, head: int) -> None:
        """Seed 000's expansion: each query's dot products, its softmax row, its weighted sum."""
        steps = {s.key.split(".", 1)[1]: s for s in self.d.steps if s.head == head}
        keys = [k for k in ("q", "k", "v", "scores", "scaled", "masked", "weights", "output")]
        if any(self._too_long(steps[k].value) for k in keys if k in steps):
            note = self.words("tokens", "too_long", head=head)
            self.blocks.append(
                {
                    "type": "tokens",
                    "head": head,
                    "title": self.words("tokens", "heading", head=head),
                    "queries": [],
                    "note": note,
                }
            )
            return
        q = steps["q"].value
        queries = []
        for i in latex.layout(q, self.settings.max_size).rows:
            if i is not None:
                queries.append(
                    {"index": i + 1, "label": self.spec.tokens[i], "parts": self._query(steps, i)}
                )
        self.blocks.append(
            {
                "type": "tokens",
                "head": head,
                "title": self.words("tokens", "heading", head=head),
                "queries": queries,
                "note": None,
            }
        )

    def _too_long(self, matrix: sp.MatrixBase) -> bool:
        return any(latex.too_long(e, self.settings.max_width) for e in matrix)

    def _query(self, steps: dict[str, Step], i: int) -> list[dict[str, Any]]:
        w = self.words
        q, k, v = steps["q"].value, steps["k"].value, steps["v"].value
        s, a, z = steps["scores"].value, steps["weights"].value, steps["output"].value
        n = i + 1
        key_rows = [j for j in latex.layout(k, self.settings.max_size).rows if j is not None]
        dots = [rf"q_{{{n}}} = {self.row(q, i)}"] + [
            rf"q_{{{n}}} \cdot k_{{{j + 1}}} = {self.row(q, i)} \cdot {self.row(k, j)} = "
            + latex.exact(s[i, j])
            for j in key_rows
        ]
        parts = [{"text": w("tokens", "query", index=n), "lines": []}]
        parts.append({"text": w("tokens", "dot"), "lines": dots})
        parts.append(self._scaled_row(steps, i))
        logits = steps["scaled"].value
        if "masked" in steps:
            logits = steps["masked"].value
            line = rf"\tilde{{s}}_{{{n}}} = {self.row(logits, i)}"
            parts.append({"text": w("tokens", "masked"), "lines": [line]})
        softmax = (
            rf"a_{{{n}}} = \operatorname{{softmax}}\left({self.row(logits, i)}\right) = "
            + self.row(a, i)
            + self._approx(a, i)
        )
        parts.append({"text": w("tokens", "softmax"), "lines": [softmax]})
        terms = " + ".join(
            f"{self._coefficient(a[i, j])} {self.row(v, j)}" for j in key_rows if a[i, j] != 0
        )
        total = rf"z_{{{n}}} = \sum_j a_{{{n}j}}\, v_j = {terms} = {self.row(z, i)}" + self._approx(
            z, i
        )
        parts.append({"text": w("tokens", "sum"), "lines": [total]})
        return parts

    def _scaled_row(self, steps: dict[str, Step], i: int) -> dict[str, Any]:
        n = i + 1
        scaled = steps["scaled"]
        if self.spec.scale == "none":
            return {"text": self.words("tokens", "scaled_none"), "lines": []}
        row = sp.MatrixSymbol("s", 1, scaled.shape[1])
        factors = [a for a in scaled.formula.args if not getattr(a, "is_Matrix", False)]
        replace = {row: self.row(steps["scores"].value, i)}
        replace.update({k: latex.exact(v) for k, v in self.d.bindings.items() if k.is_Symbol})
        written = latex.formula(sp.MatMul(*factors, row, evaluate=False), replace)
        line = rf"s'_{{{n}}} = {written} = {self.row(scaled.value, i)}" + self._approx(
            scaled.value, i
        )
        key = "scaled" if self.spec.scale == "sqrt_dk" else "scaled_value"
        return {"text": self.words("tokens", key), "lines": [line]}

    def _approx(self, matrix: sp.MatrixBase, i: int) -> str:
        row = self.approx_row(matrix, i)
        return "" if row is None else rf" \approx {row}"

    @staticmethod
    def _coefficient(value: sp.Expr) -> str:
        text = latex.exact(value)
        return rf"\left({text}\right)" if isinstance(value, sp.Add) else text

    # ----------------------------------------------------------------- summary
    def summary(self) -> dict[str, Any]:
        w = self.words
        d, spec = self.d, self.spec
        x = spec.query
        L, E = x.rows, x.cols
        h = spec.heads
        dq = d.step("head1.q").shape[1]
        dv = d.step("head1.v").shape[1]
        Lk = spec.key.rows
        out = d.step("output").shape
        rows: list[tuple[str, str, str]] = [("input", "(L, E)", f"({L}, {E})")]
        if spec.layout == "fused":
            rows += [
                ("projection", r"(L, E) \to (L, E) \times 3", rf"({L}, {E}) \times 3"),
                ("reshape", r"(L, E) \to (L, h, d)", rf"({L}, {E}) \to ({L}, {h}, {dq})"),
                (
                    "transpose",
                    r"(L, h, d) \to (h, L, d)",
                    rf"({L}, {h}, {dq}) \to ({h}, {L}, {dq})",
                ),
            ]
        elif spec.layout == "split":
            rows += [
                (
                    "split",
                    r"(L, E) \to h \times (L, E/h)",
                    rf"({L}, {E}) \to {h} \times ({L}, {E // h})",
                ),
                (
                    "projection",
                    r"h \times (L, E/h) \to h \times (L, d) \times 3",
                    rf"{h} \times ({L}, {dq}) \times 3",
                ),
            ]
        else:
            rows.append(
                (
                    "projection",
                    r"(L, E) \to h \times (L, d) \times 3",
                    rf"{h} \times ({L}, {dq}) \times 3",
                )
            )
        weights, outputs = w("summary", "weights"), w("summary", "outputs")
        rows.append(
            (
                "attention",
                rf"\to \text{{{weights}}}\ (h, L, L),\ \text{{{outputs}}}\ (h, L, d)",
                rf"{h} \times ({L}, {Lk}),\ {h} \times ({L}, {dv})",
            )
        )
        merge = "merge" if spec.layout == "fused" else "concat"
        rows.append(
            (merge, r"(h, L, d) \to (L, h \cdot d)", rf"({h}, {L}, {dv}) \to ({L}, {h * dv})")
        )
        if spec.has_output_projection:
            w_o = "W_O^\\top" if spec.convention == "xWT" else "W_O"
            rows.append(
                ("output", rf"(L, h \cdot d) \cdot {w_o} \to (L, E)", rf"({out[0]}, {out[1]})")
            )
        return {
            "columns": [w("summary", k) for k in ("step", "operation", "shapes", "here")],
            "rows": [
                {"step": n, "operation": w("summary", op), "shapes": a, "here": b}
                for n, (op, a, b) in enumerate(rows)
            ],
            "closed_form": self.closed_form(),
        }

    def closed_form(self) -> list[str]:
        """``head_i = softmax(Q_i K_i^T / sqrt(d_k)) V_i`` per head, and the output formula."""
        lines = []
        inline = ("scale", "mask", "softmax")
        for head in range(1, self.spec.heads + 1):
            text: dict[sp.Basic, str] = {}
            for step in self.d.steps:
                if step.head == head and step.kind in inline:
                    text[step.symbol] = latex.formula(step.formula, text)
            output = self.d.step(f"head{head}.output")
            lines.append(rf"{output.symbol.name} = {latex.formula(output.formula, text)}")
        concat = self.d.step("concat")
        final = self.d.step("output")
        if final.formula != concat.symbol:
            text = {concat.symbol: latex.formula(concat.formula)}
            lines.append(rf"{final.symbol.name} = {latex.formula(final.formula, text)}")
        return lines

    # ----------------------------------------------------------------- order
    def backward_heading(self, step: Step, seen: set[int]) -> None:
        """The "Backpropagation" heading before the loss, one where each head's gradients start."""
        if step.kind == "loss":
            self.heading(self.words("text", "backprop"))
        elif step.head is not None and step.head not in seen:
            seen.add(step.head)
            self.heading(self.words("text", "backprop_head", head=step.head))

    def build(self) -> dict[str, Any]:
        for symbol, value in self.d.bindings.items():
            text = self.leaf(symbol, value)
            if text is not None:
                self.substitutes[symbol] = text
        seen_heads: set[int] = set()
        backward_heads: set[int] = set()
        split_started = False
        for step in self.d.steps:
            if step.kind in ("loss", "grad"):
                self.backward_heading(step, backward_heads)
                self.step(step)
                continue
            if step.kind == "project" and step.head is None and step.key == "q":
                self.heading(self.words("text", "projection"))
                self.given(None, "QKV")
            if _is_split_slice(step) and not split_started:
                split_started = True
                self.heading(self.words("text", "split"))
            elif (
                step.head is not None and not _is_split_slice(step) and step.head not in seen_heads
            ):
                seen_heads.add(step.head)
                self.heading(self.words("text", "head", head=step.head))
                if self.spec.layout != "fused":
                    self.given(step.head, "QKV")
            if step.kind == "output":
                self.given(None, "O")
            if step.kind == "scores" and self.options.detail == "token":
                self.tokens(step.head or 1)
            self.step(step)
            if step.key == "v" and self.spec.layout == "fused":
                self.fused()
            if step.kind == "softmax" and self.images is not None:
                self.heatmap(step)
        self.plots()
        return {
            "lang": self.options.lang,
            "title": self.spec.title,
            "description": self.spec.description.strip(),
            "setup": self.setup(),
            "limit": self.limit(),
            "blocks": self.blocks,
            "summary": self.summary(),
            "text": self.words.table["text"],
            "decimals_note": self.words("text", "exact_equal", decimals=self.settings.decimals),
        }


def build(
    derivation: Derivation, options: Options, images: Mapping[int, str] | None = None
) -> dict[str, Any]:
    """The template context of a worked solution; ``images`` maps a head to its heatmap."""
    return Builder(derivation, options, images).build()
