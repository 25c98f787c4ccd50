"""Step, Derivation and derive(spec): the exact pipeline, one readable step at a time."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.exact import ops
from mha_symbolic.model.nodes import RowSoftmax
from mha_symbolic.solution.locale import step_title
from mha_symbolic.spec.attention import AttentionSpec

# Step kinds, in pipeline order; renderers and the checker key their behaviour on these.
KINDS = (
    "input",
    "project",
    "slice",
    "scores",
    "scale",
    "mask",
    "softmax",
    "attend",
    "concat",
    "output",
    "loss",  # the backward pass (mha_symbolic.gradients): the scalar loss, then grad.* steps
    "grad",
)


Progress = Callable[[str], None]  # told each step's key as the step is done


@dataclass(frozen=True)
class Step:
    """One step: ``symbol`` = ``formula`` evaluates exactly to ``value``.

    ``formula`` is a structural SymPy matrix expression over the symbols of earlier steps and
    of the spec's inputs and weights (see :attr:`Derivation.bindings`).
    """

    key: str
    title: str
    kind: str
    symbol: sp.MatrixSymbol
    formula: sp.Basic
    value: Matrix
    head: int | None = None  # 1-based

    @property
    def shape(self) -> tuple[int, int]:
        return (self.value.rows, self.value.cols)


@dataclass(frozen=True)
class Derivation(Mapping[str, Matrix]):
    """The ordered, immutable steps of one attention computation; ``d[key]`` is an exact value."""

    spec: AttentionSpec
    steps: tuple[Step, ...]
    bindings: Mapping[sp.Basic, Any] = field(default_factory=dict)  # leaf symbol -> exact value

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {step.key: step for step in self.steps})
        object.__setattr__(self, "bindings", MappingProxyType(dict(self.bindings)))

    def step(self, key: str) -> Step:
        by_key: dict[str, Step] = self._by_key  # type: ignore[attr-defined]
        try:
            return by_key[key]
        except KeyError:
            raise KeyError(unknown_key_message(key, list(by_key))) from None

    def __getitem__(self, key: str) -> Matrix:
        return self.step(key).value

    def __iter__(self) -> Iterator[str]:
        return (step.key for step in self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def expression(self, key: str) -> sp.Basic:
        """The step's formula with every earlier step symbol replaced by its own formula."""
        replace = {step.symbol: step.formula for step in self.steps if step.kind != "input"}
        expr = self.step(key).formula
        while True:
            new = expr.xreplace(replace)
            if new == expr:
                return expr
            expr = new

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        """Scalar symbols left in the exact values (from "symbolic" weights or LaTeX inputs)."""
        return set().union(*(step.value.free_symbols for step in self.steps))

    def lambdify(self, key: str = "output") -> Any:
        """A vectorised NumPy function of the free symbols computing step ``key`` stably."""
        from mha_symbolic.numeric.lambdify import lambdify

        return lambdify(self, key)

    def limit(self, name: str, point: Any = 0) -> Any:
        """Every step's exact limit as parameter ``name`` goes to ``point`` (``0``, ``"0+"``,
        ``"0-"``, ``"oo"``); a positive parameter goes to 0 from the right. See limits.py."""
        from mha_symbolic.exact.limits import limit

        return limit(self, name, point)

    # Rendering lives in mha_symbolic.render; imported on use so the core never loads jinja2.
    def latex(self, key: str) -> str:
        """The exact value of step ``key`` as a bmatrix that latex2sympy2 reads back."""
        from mha_symbolic.solution.latex import exact

        return exact(self[key])

    def to_markdown(self, **options: Any) -> str:
        """The worked solution in Markdown (options: decimals, detail, lang, max_size, ...)."""
        return self._render("md", options)

    def to_latex(self, **options: Any) -> str:
        return self._render("tex", options)

    def to_html(self, **options: Any) -> str:
        return self._render("html", options)

    def write(self, path: str, fmt: str | None = None, **options: Any) -> list[Any]:
        """Write the solution (format from ``fmt`` or the suffix); returns the files written."""
        from mha_symbolic.solution.render import write
        from mha_symbolic.solution.view import Options

        return write(self, path, fmt, Options(**options))

    def _render(self, fmt: str, options: dict[str, Any]) -> str:
        from mha_symbolic.solution.render import render
        from mha_symbolic.solution.view import Options

        return render(self, fmt, Options(**options))

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_latex_(self) -> str:
        """Jupyter's LaTeX view: the final output's exact value."""
        return f"$${self.step('output').symbol.name} = {self.latex('output')}$$"


def unknown_key_message(key: str, keys: list[str]) -> str:
    close = difflib.get_close_matches(key, keys, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(k) for k in close)}?" if close else ""
    return f"unknown step key {key!r}{hint}"


class _Builder:
    """Walks the spec once, appending steps; every value comes from a function in ``ops``."""

    def __init__(self, spec: AttentionSpec, progress: Progress | None = None) -> None:
        self.spec = spec
        self.progress = progress
        self.steps: list[Step] = []
        self.bindings: dict[sp.Basic, Any] = {}
        self.symbols: dict[str, sp.MatrixSymbol] = {}

    # --------------------------------------------------------------- bookkeeping
    def add(
        self,
        key: str,
        kind: str,
        name: str,
        formula: sp.Basic,
        value: Matrix,
        head: int | None = None,
    ) -> sp.MatrixSymbol:
        symbol = sp.MatrixSymbol(name, value.rows, value.cols)
        title = step_title(key, head)
        self.steps.append(Step(key, title, kind, symbol, formula, Matrix(value), head))
        self.symbols[key] = symbol
        if self.progress is not None:
            self.progress(key)
        return symbol

    def leaf(self, name: str, value: Matrix) -> sp.MatrixSymbol:
        symbol = sp.MatrixSymbol(name, value.rows, value.cols)
        self.bindings[symbol] = value
        return symbol

    def weight(self, name: str, head: int, per_head: bool) -> tuple[Any, Matrix]:
        """(formula factor, effective in x out matrix) of weight ``name`` for ``head`` (0-based)."""
        letter = name[-1].upper()
        label = f"W_{{{letter}}}" + (f"^{{{head + 1}}}" if per_head else "")
        symbol = self.leaf(label, self.spec.weights[name][head])
        factor = symbol.T if self.spec.convention == "xWT" else symbol
        return factor, self.spec.effective(name, head)

    def bias(self, name: str, head: int, per_head: bool, rows: int) -> tuple[Any, Matrix | None]:
        if name not in self.spec.weights:
            return None, None
        letter = name[-1].upper()
        label = f"b_{{{letter}}}" + (f"^{{{head + 1}}}" if per_head else "")
        value = self.spec.weights[name][head]
        return sp.OneMatrix(rows, 1) * self.leaf(label, value), value

    def projection(self, x: Any, x_value: Matrix, name: str, head: int, per_head: bool) -> tuple:
        w_formula, w_value = self.weight(name, head, per_head)
        b_formula, b_value = self.bias("b" + name[1:], head, per_head, x_value.rows)
        formula = sp.MatMul(x, w_formula)
        if b_formula is not None:
            formula = sp.MatAdd(formula, b_formula)
        return formula, ops.project(x_value, w_value, b_value)

    # --------------------------------------------------------------- pipeline
    def inputs(self) -> dict[str, tuple[Any, Matrix]]:
        spec = self.spec
        if spec.self_attention:
            x = self.leaf("X", spec.query)
            self.add("x", "input", "X", x, spec.query)
            return dict.fromkeys(("query", "key", "value"), (x, spec.query))
        out = {}
        for name in ("query", "key", "value"):
            value = getattr(spec, name)
            symbol = self.leaf(f"X_{{{name[0]}}}", value)
            self.add(name, "input", f"X_{{{name[0]}}}", symbol, value)
            out[name] = (symbol, value)
        return out

    def head_inputs(self, inputs: dict[str, tuple[Any, Matrix]]) -> list[dict[str, tuple]]:
        """Per head: the (formula, value) of its q, k, v, after any fused projection or split."""
        spec = self.spec
        h = spec.heads
        heads: list[dict[str, tuple]] = [{} for _ in range(h)]
        if spec.layout == "per_head":
            for name, source in zip("qkv", ("query", "key", "value")):
                for i in range(h):
                    x, x_value = inputs[source]
                    heads[i][name] = self.projection(x, x_value, f"w_{name}", i, True)
            return heads
        if spec.layout == "split":
            slices = self.split_inputs(inputs)
            for name, source in zip("qkv", ("query", "key", "value")):
                for i in range(h):
                    x, x_value = slices[i][source]
                    heads[i][name] = self.projection(x, x_value, f"w_{name}", i, True)
            return heads
        for name, source in zip("qkv", ("query", "key", "value")):
            x, x_value = inputs[source]
            formula, value = self.projection(x, x_value, f"w_{name}", 0, False)
            full = self.add(name, "project", name.upper(), formula, value)
            width = value.cols // h
            for i, part in enumerate(ops.split_columns(value, h)):
                heads[i][name] = (full[:, i * width : (i + 1) * width], part)
        return heads

    def split_inputs(self, inputs: dict[str, tuple[Any, Matrix]]) -> list[dict[str, tuple]]:
        h = self.spec.heads
        slices: list[dict[str, tuple]] = [{} for _ in range(h)]
        sources = ("query",) if self.spec.self_attention else ("query", "key", "value")
        for source in sources:
            x, x_value = inputs[source]
            width = x_value.cols // h
            for i, part in enumerate(ops.split_columns(x_value, h)):
                key = f"head{i + 1}.x" if self.spec.self_attention else f"head{i + 1}.{source}"
                name = (
                    f"X_{{{i + 1}}}" if self.spec.self_attention else f"X_{{{source[0]},{i + 1}}}"
                )
                symbol = self.add(
                    key, "slice", name, x[:, i * width : (i + 1) * width], part, i + 1
                )
                slices[i][source] = (symbol, part)
        if self.spec.self_attention:
            for entry in slices:
                entry["key"] = entry["value"] = entry["query"]
        return slices

    def scale_factor(self, d_k: int) -> tuple[Any, sp.Expr]:
        """(formula factor, exact value) of the score scaling."""
        scale = self.spec.scale
        if scale == "none":
            return sp.Integer(1), sp.Integer(1)
        if scale == "sqrt_dk":
            symbol = sp.Symbol("d_k", positive=True, integer=True)
            previous = self.bindings.setdefault(symbol, d_k)
            if previous != d_k:  # heads of different widths: write the number itself
                return sp.Pow(sp.Integer(d_k), sp.Rational(-1, 2), evaluate=False), 1 / sp.sqrt(d_k)
            return 1 / sp.sqrt(symbol), 1 / sp.sqrt(d_k)
        assert isinstance(scale, sp.Expr)
        return scale, scale

    def head(self, i: int, parts: dict[str, tuple]) -> tuple[ops.Softmax, Matrix, sp.MatrixSymbol]:
        n = i + 1
        names = {"q": "Q", "k": "K", "v": "V"}
        symbols = {}
        for name in "qkv":
            formula, value = parts[name]
            symbols[name] = self.add(
                f"head{n}.{name}",
                "project" if self.spec.layout != "fused" else "slice",
                f"{names[name]}_{{{n}}}",
                formula,
                value,
                n,
            )
        q_value, k_value, v_value = (parts[name][1] for name in "qkv")
        raw = ops.scores(q_value, k_value)
        self.add(
            f"head{n}.scores",
            "scores",
            f"S_{{{n}}}",
            sp.MatMul(symbols["q"], symbols["k"].T),
            raw,
            n,
        )
        factor_formula, factor = self.scale_factor(q_value.cols)
        scaled = ops.scale(raw, factor)
        logits = self.add(
            f"head{n}.scaled",
            "scale",
            f"S'_{{{n}}}",
            sp.MatMul(factor_formula, symbols["q"], symbols["k"].T),
            scaled,
            n,
        )
        if self.spec.mask is not None:
            blocked = Matrix(
                scaled.rows, scaled.cols, lambda r, c: 0 if self.spec.mask[r, c] else -sp.oo
            )
            m = self.leaf("M", blocked)
            scaled = ops.mask(scaled, self.spec.mask)
            logits = self.add(
                f"head{n}.masked", "mask", f"\\tilde{{S}}_{{{n}}}", sp.MatAdd(logits, m), scaled, n
            )
        softmax = ops.row_softmax(scaled)
        a = self.add(
            f"head{n}.weights", "softmax", f"A_{{{n}}}", RowSoftmax(logits), softmax.weights, n
        )
        output = ops.attend(softmax, v_value)
        head = self.add(
            f"head{n}.output",
            "attend",
            f"\\mathrm{{head}}_{{{n}}}",
            sp.MatMul(a, symbols["v"]),
            output,
            n,
        )
        return softmax, output, head

    def finish(self, results: list[tuple[ops.Softmax, Matrix, sp.MatrixSymbol]]) -> None:
        outputs = [r[1] for r in results]
        joined = ops.concat(outputs)
        c = self.add("concat", "concat", "C", sp.BlockMatrix([[r[2] for r in results]]), joined)
        if not self.spec.has_output_projection:
            self.add("output", "output", "O", c, joined)
            return
        w_formula, w_value = self.weight("w_o", 0, False)
        b_formula, b_value = self.bias("b_o", 0, False, joined.rows)
        formula = sp.MatMul(c, w_formula)
        if b_formula is not None:
            formula = sp.MatAdd(formula, b_formula)
        softmaxes = [r[0] for r in results]
        values = [self.steps_value(f"head{i + 1}.v") for i in range(len(results))]
        value = ops.output_projection(softmaxes, values, w_value, b_value)
        self.add("output", "output", "O", formula, value)

    def steps_value(self, key: str) -> Matrix:
        return next(step.value for step in self.steps if step.key == key)


def derive(
    spec: AttentionSpec, gradients: bool | None = None, progress: Progress | None = None
) -> Derivation:
    """Every step of multi-head attention for ``spec``, exactly.

    ``gradients``: also backpropagate the spec's loss (the ``loss`` and ``grad.*`` steps, see
    mha_symbolic.gradients); by default only when the spec has a ``[loss]`` table.
    ``progress`` is called with each step's key once its value is known (for long work).
    """
    builder = _Builder(spec, progress)
    heads = builder.head_inputs(builder.inputs())
    results = [builder.head(i, parts) for i, parts in enumerate(heads)]
    builder.finish(results)
    d = Derivation(spec, tuple(builder.steps), dict(builder.bindings))
    if gradients if gradients is not None else spec.loss is not None:
        from mha_symbolic.exact.gradients import backward

        return backward(d, progress)
    return d
