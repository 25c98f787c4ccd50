"""AttentionSpec: what to derive, read from TOML, a dict or keyword arguments, and validated."""

from __future__ import annotations

import copy
import difflib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import gqa, parameters
from mha_symbolic.spec import numbers as exact
from mha_symbolic.spec.rope import RopeSpec, check_widths, read_rope
from mha_symbolic.spec.torch_io import from_torch

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LAYOUTS = ("per_head", "split", "fused")
CONVENTIONS = ("xW", "xWT")
SCALES = ("sqrt_dk", "none")
MASKS = ("none", "causal")
TOP_KEYS = (
    "title",
    "description",
    "tokens",
    "key_tokens",
    "heads",
    "kv_heads",
    "layout",
    "convention",
    "scale",
    "mask",
    "x",
    "query",
    "key",
    "value",
    "weights",
    "parameters",
    "loss",
    "rope",
    "claims",
)
PROJECTIONS = ("w_q", "w_k", "w_v")
WEIGHT_KEYS = ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
_LETTER = {"w_q": "Q", "w_k": "K", "w_v": "V", "w_o": "O"}
_INPUT_OF = {"w_q": "query", "w_k": "key", "w_v": "value"}
LOSSES = ("sum", "mse")
LOSS_KEYS = ("kind", "target")


@dataclass(frozen=True)
class Loss:
    """The scalar loss of the gradients: ``sum`` of the output, or ``mse``: 1/2 ||O - T||^2."""

    kind: str = "sum"
    target: Matrix | None = None  # T, the output's shape; only with kind mse


def _closest(word: str, options: Sequence[str]) -> str:
    match = difflib.get_close_matches(word, options, n=1, cutoff=0.5)
    return f" (did you mean '{match[0]}'?)" if match else ""


def _shape(matrix: sp.MatrixBase) -> tuple[int, int]:
    return (matrix.rows, matrix.cols)


@dataclass(frozen=True, init=False, eq=False)
class AttentionSpec:
    """A validated multi-head attention problem with exact values.

    Build it from keyword arguments with the keys of a TOML spec
    (``AttentionSpec(x=..., heads=2, weights={"w_q": ...})``), from a dict
    (:meth:`from_dict`), a file (:meth:`from_toml`) or a built-in example (:meth:`example`).
    Weights are stored as given; ``convention`` says how they multiply (``xW``: ``X W``,
    ``xWT``: ``X W^T``). Per-head weights are tuples with one matrix per head; fused ones
    are tuples of one matrix.
    """

    title: str
    description: str
    heads: int
    kv_heads: int  # key/value heads (grouped-query attention); weights repeated per query head
    layout: str
    convention: str
    scale: str | sp.Expr  # "sqrt_dk", "none" or the exact factor s in softmax(s Q K^T)
    mask_kind: str  # "none", "causal" or "matrix"
    mask: Matrix | None  # 0/1, 1 = may attend; None when mask_kind is "none"
    query: Matrix
    key: Matrix
    value: Matrix
    self_attention: bool
    tokens: tuple[str, ...]
    key_tokens: tuple[str, ...]
    weights: Mapping[str, tuple[Matrix, ...]]  # w_q, w_k, w_v always; w_o and biases if given
    omitted: frozenset[str]  # projections filled in as the identity
    symbolic: frozenset[str]  # weights given as "symbolic"
    # Declared parameters (name -> Symbol with its assumptions), usable wherever a number goes.
    parameters: Mapping[str, sp.Symbol] = field(default_factory=dict)
    loss: Loss | None = None  # the [loss] table; None when not given (gradients use the sum)
    rope: RopeSpec | None = None  # rotary position embeddings of q and k; None: none
    claims: Mapping[str, Any] = field(default_factory=dict)
    source: str = "<arguments>"

    def __init__(self, *, source: str = "<arguments>", **raw: Any) -> None:
        try:
            values = _normalize(raw)
        except SpecError as error:
            raise error.located(source) from None
        values["source"] = source
        for name, value in values.items():
            object.__setattr__(self, name, value)

    # ----------------------------------------------------------------- constructors
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<dict>") -> AttentionSpec:
        if not isinstance(data, Mapping):
            raise SpecError(f"a spec is a table of keys, got {type(data).__name__}", source=source)
        bad = [key for key in data if not isinstance(key, str)]
        if bad:
            raise SpecError(f"spec keys must be text, got {bad[0]!r}", source=source)
        return cls(source=source, **dict(data))

    @classmethod
    def from_toml(cls, path: str | Path) -> AttentionSpec:
        path = Path(path)
        return cls.from_dict(_read_toml(path, str(path)), source=str(path))

    @classmethod
    def example(cls, name: str) -> AttentionSpec:
        names = example_names()
        if name not in names:
            raise SpecError(
                f"unknown example '{name}'{_closest(name, names)}; known: {', '.join(names)}"
            )
        text = (
            resources.files("mha_symbolic")
            .joinpath("examples", f"{name}.toml")
            .read_text(encoding="utf-8")
        )
        return cls.from_dict(_parse_toml(text, f"example {name}"), source=f"example {name}")

    @classmethod
    def from_torch(
        cls, module: Any, query: Any, key: Any = None, value: Any = None, **masks: Any
    ) -> AttentionSpec:
        """An ``nn.MultiheadAttention`` and its inputs as a fused ``xWT`` spec (see torch_io)."""
        try:
            return cls(source="from_torch", **from_torch(module, query, key, value, **masks))
        except SpecError as error:
            raise error.located("from_torch") from None

    def evolve(self, **changes: Any) -> AttentionSpec:
        """A copy with normalized fields replaced (used to re-derive under other assumptions)."""
        unknown = set(changes) - set(self.__dataclass_fields__)
        if unknown:
            raise TypeError(f"unknown AttentionSpec fields: {sorted(unknown)}")
        clone = copy.copy(self)
        for name, value in changes.items():
            object.__setattr__(clone, name, value)
        return clone

    # ----------------------------------------------------------------- derived facts
    @property
    def has_output_projection(self) -> bool:
        return "w_o" in self.weights

    def effective(self, name: str, head: int = 0) -> Matrix:
        """Weight ``name`` of ``head`` (0-based) as the (in x out) matrix that multiplies X."""
        matrix = self.weights[name][head]
        return matrix.T if self.convention == "xWT" and name.startswith("w_") else matrix


def _read_toml(path: Path, where: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError("no such file", source=where) from None
    except IsADirectoryError:
        raise SpecError("is a directory, not a spec file", source=where) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"cannot read: {exc}", source=where) from None
    return _parse_toml(text, where)


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        # Decimal keeps every float exactly as written (0.1 -> 1/10, 0.730 keeps its digits).
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"invalid TOML: {exc}", source=where) from None


def example_names() -> list[str]:
    folder = resources.files("mha_symbolic").joinpath("examples")
    return sorted(
        entry.name[: -len(".toml")] for entry in folder.iterdir() if entry.name.endswith(".toml")
    )


def examples() -> list[tuple[str, str, str]]:
    """(name, title, description) of every built-in example."""
    out = []
    for name in example_names():
        spec = AttentionSpec.example(name)
        out.append((name, spec.title, spec.description))
    return out


# --------------------------------------------------------------------- normalization
def _normalize(raw: Mapping[str, Any]) -> dict[str, Any]:
    for key in raw:
        if key not in TOP_KEYS:
            raise SpecError(f"unknown key '{key}'{_closest(key, TOP_KEYS)}")
    declared = parameters.declare(raw.get("parameters", {}))
    with exact.declared(declared):
        values = _read(raw)
    values["parameters"] = declared
    return values


def _read(raw: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {
        "title": _text(raw.get("title", "Multi-head attention"), "title"),
        "description": _text(raw.get("description", ""), "description"),
        "heads": _heads(raw.get("heads", 1)),
        "layout": _choice(raw.get("layout", "per_head"), "layout", LAYOUTS),
        "convention": _choice(raw.get("convention", "xW"), "convention", CONVENTIONS),
        "scale": _scale(raw.get("scale", "sqrt_dk")),
        "claims": _claims(raw.get("claims", {})),
    }
    values.update(_inputs(raw))
    values.update(_labels(raw, values["query"].rows, values["key"].rows, values["self_attention"]))
    values.update(_mask(raw.get("mask", "none"), values["query"].rows, values["key"].rows))
    values["kv_heads"] = gqa.kv_heads(raw.get("kv_heads"), values["heads"], values["layout"])
    table = gqa.expand(
        raw.get("weights", {}),
        values["heads"],
        values["kv_heads"],
        values["layout"],
        values["convention"],
    )
    values.update(_Weights(values).normalize(table))
    values["loss"] = _loss(raw["loss"], values) if "loss" in raw else None
    values["rope"] = read_rope(raw.get("rope"))
    check_widths(values["rope"], _query_widths(values))
    return values


def _query_widths(values: Mapping[str, Any]) -> list[int]:
    """Each head's query width d_k."""
    transposed = values["convention"] == "xWT"
    widths = [m.rows if transposed else m.cols for m in values["weights"]["w_q"]]
    if values["layout"] == "fused":
        return [widths[0] // values["heads"]] * values["heads"]
    return widths


def _output_shape(values: Mapping[str, Any]) -> tuple[int, int]:
    weights, transposed = values["weights"], values["convention"] == "xWT"
    if "w_o" in weights:
        cols = weights["w_o"][0].rows if transposed else weights["w_o"][0].cols
    else:
        cols = sum(m.rows if transposed else m.cols for m in weights["w_v"])
    return (values["query"].rows, cols)


def _loss(table: Any, values: Mapping[str, Any]) -> Loss:
    if not isinstance(table, Mapping):
        raise SpecError(f'loss must be a table (kind = "sum" or "mse", target), got {table!r}')
    for key in table:
        if key not in LOSS_KEYS:
            raise SpecError(f"unknown key 'loss.{key}'{_closest(str(key), LOSS_KEYS)}")
    kind = _choice(table.get("kind", "sum"), "loss.kind", LOSSES)
    shape = _output_shape(values)
    if kind == "sum":
        if "target" in table:
            raise SpecError(
                'loss.target is given but loss.kind is sum; a target needs kind = "mse"'
            )
        return Loss()
    if "target" not in table:
        raise SpecError(f"loss.kind mse needs loss.target, a matrix of the output's shape {shape}")
    target = exact.to_matrix(table["target"], "loss.target")
    if _shape(target) != shape:
        raise SpecError(f"loss.target has shape {_shape(target)} but the output has shape {shape}")
    return Loss("mse", target)


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise SpecError(f"{name} must be text, got {value!r}")
    return value


def _heads(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SpecError(f"heads must be a positive integer, got {value!r}")
    return value


def _choice(value: Any, name: str, options: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in options:
        hint = _closest(value, options) if isinstance(value, str) else ""
        raise SpecError(f"unknown {name} {value!r}{hint}; choose one of {', '.join(options)}")
    return value


def _scale(value: Any) -> str | sp.Expr:
    if isinstance(value, str) and value in SCALES:
        return value
    names = {symbol.name for symbol in exact.declared_symbols()}
    if isinstance(value, str) and value.replace("_", "").isalpha() and value not in names:
        raise SpecError(
            f"unknown scale {value!r}{_closest(value, SCALES)}; "
            "choose sqrt_dk, none or an exact number"
        )
    number = exact.to_number(value, "scale")
    if number.free_symbols:
        return _parametric_scale(number, value)
    if not number.is_positive:
        raise SpecError(f"scale must be a positive number, got {value!r}")
    return number


def _parametric_scale(number: sp.Expr, value: Any) -> sp.Expr:
    """A scale in declared parameters (``1/tau``): it may not be provably zero or negative."""
    declared = set(exact.declared_symbols())
    unknown = sorted((s for s in number.free_symbols if s not in declared), key=str)
    if unknown:
        raise SpecError(
            f"scale {value!r} uses {unknown[0]}, which is not a declared parameter "
            f'(declare it: [parameters] {unknown[0]} = "positive")'
        )
    if number.is_positive is False:
        raise SpecError(f"scale {value!r} is never positive for the declared parameters")
    return number


def _claims(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise SpecError(f"claims must be a table of step keys, got {value!r}")
    for key in value:
        if not isinstance(key, str):
            raise SpecError(f"claims: keys must be text, got {key!r}")
    return dict(value)


def _inputs(raw: Mapping[str, Any]) -> dict[str, Any]:
    cross = [name for name in ("query", "key", "value") if name in raw]
    if "x" in raw:
        if cross:
            raise SpecError(
                f"give either x (self-attention) or query/key/value, not both "
                f"(found x and {cross[0]})"
            )
        x = exact.to_matrix(raw["x"], "x")
        return {"query": x, "key": x, "value": x, "self_attention": True}
    if not cross:
        raise SpecError("no input: give x (self-attention) or query and key (cross-attention)")
    for needed in ("query", "key"):
        if needed not in raw:
            raise SpecError(f"cross-attention needs {needed} (found {', '.join(cross)})")
    query = exact.to_matrix(raw["query"], "query")
    key = exact.to_matrix(raw["key"], "key")
    value = exact.to_matrix(raw["value"], "value") if "value" in raw else key
    if value.rows != key.rows:
        raise SpecError(
            f"value has shape {_shape(value)} but key has shape {_shape(key)}; "
            "each key needs one value row"
        )
    return {"query": query, "key": key, "value": value, "self_attention": False}


def _labels(raw: Mapping[str, Any], n_query: int, n_key: int, self_attention: bool) -> dict:
    def read(name: str, count: int, prefix: str) -> tuple[str, ...]:
        if name not in raw:
            return tuple(f"{prefix}{i}" for i in range(1, count + 1))
        labels = raw[name]
        if (
            not isinstance(labels, Sequence)
            or isinstance(labels, str)
            or not all(isinstance(label, str) for label in labels)
        ):
            raise SpecError(f"{name} must be a list of text labels, got {labels!r}")
        if len(labels) != count:
            rows = "x" if self_attention else ("query" if name == "tokens" else "key")
            noun = "label" if len(labels) == 1 else "labels"
            raise SpecError(f"{name} has {len(labels)} {noun} but {rows} has {count} rows")
        return tuple(labels)

    tokens = read("tokens", n_query, "t")
    if self_attention:
        if "key_tokens" in raw:
            raise SpecError("key_tokens is for cross-attention; self-attention uses tokens")
        return {"tokens": tokens, "key_tokens": tokens}
    return {"tokens": tokens, "key_tokens": read("key_tokens", n_key, "k")}


def _mask(value: Any, n_query: int, n_key: int) -> dict[str, Any]:
    if isinstance(value, str) and "\\begin" not in value:
        kind = _choice(value, "mask", MASKS)
        if kind == "none":
            return {"mask_kind": "none", "mask": None}
        causal = Matrix(n_query, n_key, lambda i, j: 1 if j <= i else 0)
        return {"mask_kind": "causal", "mask": causal}
    matrix = exact.to_matrix(value, "mask")
    if _shape(matrix) != (n_query, n_key):
        raise SpecError(
            f"mask has shape {_shape(matrix)} but the scores have shape "
            f"({n_query}, {n_key}) (queries x keys)"
        )
    for (i, j), entry in sorted(matrix.todok().items()):
        if entry not in (0, 1):
            raise SpecError(
                f"mask[{i + 1},{j + 1}] is {entry}; a mask holds 0 (blocked) or 1 (may attend)"
            )
    for i in range(n_query):
        if not any(matrix[i, j] == 1 for j in range(n_key)):
            raise SpecError(
                f"mask row {i + 1} blocks every key; softmax over no keys is "
                "undefined (allow at least one key per row)"
            )
    return {"mask_kind": "matrix", "mask": matrix}


def _is_matrix_like(value: Any) -> bool:
    if isinstance(value, sp.MatrixBase) or (isinstance(value, str) and "\\begin" in value):
        return True
    if hasattr(value, "ndim"):
        return bool(value.ndim == 2)
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and bool(value)
        and all(isinstance(row, Sequence) and not isinstance(row, str) for row in value)
        and not any(_is_matrix_like(row) for row in value)
    )


def _is_symbolic(name: str, value: Any) -> bool:
    """True for "symbolic"; other text is only accepted as a LaTeX matrix."""
    if not isinstance(value, str) or "\\begin" in value:
        return False
    if value == "symbolic":
        return True
    raise SpecError(f'{name} is the text {value!r}; give numbers or "symbolic"')


class _Weights:
    """Reads the [weights] table against the inputs' shapes, filling identities."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.h: int = values["heads"]
        self.layout: str = values["layout"]
        self.fused = self.layout == "fused"
        self.transposed = values["convention"] == "xWT"
        self.inputs: dict[str, Matrix] = {n: values[n] for n in ("query", "key", "value")}
        self.input_name = (
            dict.fromkeys(self.inputs, "x")
            if values["self_attention"]
            else {n: n for n in self.inputs}
        )
        self.out: dict[str, Any] = {}
        self.omitted: set[str] = set()
        self.symbolic: set[str] = set()

    def normalize(self, table: Any) -> dict[str, Any]:
        if not isinstance(table, Mapping):
            raise SpecError(f"weights must be a table of w_q, w_k, w_v, w_o, b_*, got {table!r}")
        for key in table:
            if key not in WEIGHT_KEYS:
                raise SpecError(f"unknown key 'weights.{key}'{_closest(str(key), WEIGHT_KEYS)}")
        for name in PROJECTIONS:
            self.out[name] = self._projection(name, table.get(name))
            if name == "w_q" and self.fused and self._fused_width() % self.h:
                raise SpecError(
                    f"heads = {self.h} does not divide d_model {self._fused_width()} "
                    f"(the width of Q = {self.input_name['query']} W_Q)"
                )
        if "w_o" in table:
            self.out["w_o"] = (self._output(table["w_o"]),)
        for bias in ("b_q", "b_k", "b_v"):
            if bias in table:
                self.out[bias] = self._bias(bias, table[bias])
        if "b_o" in table:
            if "w_o" not in table:
                raise SpecError("b_o is given but w_o is not; b_o belongs to the output projection")
            self.out["b_o"] = (self._vector("b_o", table["b_o"], self.out["w_o"][0], "O"),)
        return {
            "weights": self.out,
            "omitted": frozenset(self.omitted),
            "symbolic": frozenset(self.symbolic),
        }

    # ---------------------------------------------------------------- shapes
    def _eff(self, matrix: Matrix) -> tuple[int, int]:
        rows, cols = _shape(matrix)
        return (cols, rows) if self.transposed else (rows, cols)

    def _given(self, shape: tuple[int, int]) -> tuple[int, int]:
        """The shape a user writes for an (in x out) matrix in this convention."""
        return (shape[1], shape[0]) if self.transposed else shape

    def _slice_width(self, name: str) -> int:
        source = _INPUT_OF[name]
        width = self.inputs[source].cols
        if width % self.h:
            raise SpecError(
                f"heads = {self.h} does not divide the width {width} of "
                f"{self.input_name[source]} (shape {_shape(self.inputs[source])})"
            )
        return width // self.h

    def _in_width(self, name: str) -> int:
        """Rows an (in x out) projection of ``name`` needs."""
        if self.layout == "split":
            return self._slice_width(name)
        return self.inputs[_INPUT_OF[name]].cols

    def _default_out(self, name: str, head: int) -> int:
        """Output width of a symbolic projection: d_k = d_model / h, or what Q already fixed."""
        if name == "w_k" and "w_q" in self.out:
            return self._eff(self.out["w_q"][head])[1]
        if self.layout == "fused":
            return self.inputs["query"].cols if name != "w_v" else self._fused_width()
        if self.layout == "split":
            return self._in_width(name)
        return self._slice_width("w_q") if name != "w_v" else self._slice_width("w_v")

    def _fused_width(self) -> int:
        return self._eff(self.out["w_q"][0])[1] if "w_q" in self.out else self.inputs["query"].cols

    # ---------------------------------------------------------------- projections
    def _projection(self, name: str, value: Any) -> tuple[Matrix, ...]:
        count = 1 if self.layout == "fused" else self.h
        if value is None:
            self.omitted.add(name)
            return tuple(self._identity(name) for _ in range(count))
        if _is_symbolic(name, value):
            self.symbolic.add(name)
            return tuple(self._symbolic(name, head) for head in range(count))
        matrices = self._matrices(name, value, count)
        for head, matrix in enumerate(matrices):
            self._check_projection(name, head, matrix)
        return matrices

    def _identity(self, name: str) -> Matrix:
        size = self._in_width(name)
        if name != "w_q" and self.layout == "fused":
            width = self._fused_width()
            if size != width:
                source = self.input_name[_INPUT_OF[name]]
                raise SpecError(
                    f"{name} is omitted, but the identity needs {source}'s width "
                    f"{size} to equal d_model {width}; give {name}"
                )
        query_widths = {self._eff(m)[1] for m in self.out["w_q"]} if name == "w_k" else set()
        if query_widths - {size}:
            raise SpecError(
                f"w_k is omitted, but the identity gives keys of width {size} "
                f"and w_q gives queries of width {max(query_widths - {size})}; give w_k"
            )
        return sp.ImmutableMatrix(sp.eye(size))

    def _symbolic(self, name: str, head: int) -> Matrix:
        shape = (self._in_width(name), self._default_out(name, head))
        tag = _LETTER[name] + ("" if self.fused else str(head + 1))
        rows, cols = self._given(shape)
        return exact.symbolic_matrix("W", tag, rows, cols)

    def _matrices(self, name: str, value: Any, count: int) -> tuple[Matrix, ...]:
        if self.fused:
            if (
                not _is_matrix_like(value)
                and isinstance(value, Sequence)
                and value
                and all(_is_matrix_like(m) for m in value)
            ):
                raise SpecError(
                    f"{name} is a list of {len(value)} matrices but layout fused "
                    "takes one matrix for all heads"
                )
            return (exact.to_matrix(value, name),)
        if _is_matrix_like(value) or isinstance(value, sp.MatrixBase):
            matrix = exact.to_matrix(value, name)
            if count == 1:  # one head: its one matrix needs no enclosing list
                return (matrix,)
            raise SpecError(
                f"{name} is one matrix of shape {_shape(matrix)} but layout "
                f"{self.layout} needs a list of {count} matrices, one per head"
            )
        if hasattr(value, "ndim") and value.ndim == 3:
            value = list(value)
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise SpecError(
                f'{name} must be a list of {count} matrices or "symbolic", got {value!r}'
            )
        if len(value) != count:
            noun = "matrix" if len(value) == 1 else "matrices"
            raise SpecError(
                f"{name} has {len(value)} {noun} but heads = {count}; layout "
                f"{self.layout} needs one matrix per head"
            )
        return tuple(exact.to_matrix(m, f"{name}[{i}]") for i, m in enumerate(value, start=1))

    def _check_projection(self, name: str, head: int, matrix: Matrix) -> None:
        label = name if self.fused else f"{name}[{head + 1}]"
        need = self._in_width(name)
        rows, cols = self._eff(matrix)
        if rows != need:
            source = self.input_name[_INPUT_OF[name]]
            what = f"head {head + 1}'s slice of {source}" if self.layout == "split" else source
            self._mismatch(label, matrix, f"{what} has {need} columns", need)
        if name == "w_k":
            query_width = self._eff(self.out["w_q"][head])[1]
            if cols != query_width:
                raise SpecError(
                    f"{label} gives keys of width {cols} but "
                    f"{'w_q' if self.fused else f'w_q[{head + 1}]'} gives queries "
                    f"of width {query_width}; scores need equal widths"
                )
        if self.layout == "fused" and cols % self.h:
            raise SpecError(
                f"heads = {self.h} does not divide the width {cols} that {label} "
                f"projects to (shape {_shape(matrix)})"
            )

    def _mismatch(self, label: str, matrix: Matrix, reason: str, need: int) -> None:
        shape = _shape(matrix)
        convention = " (convention xWT multiplies by its transpose)" if self.transposed else ""
        fits = self._eff(matrix.T)[0] == need
        hint = f"; its transpose {(shape[1], shape[0])} would fit" if fits else ""
        raise SpecError(f"{label} has shape {shape} but {reason}{convention}{hint}")

    # ---------------------------------------------------------------- output projection
    def _concat_width(self) -> int:
        return sum(self._eff(m)[1] for m in self.out["w_v"])

    def _output(self, value: Any) -> Matrix:
        width = self._concat_width()
        if _is_symbolic("w_o", value):
            self.symbolic.add("w_o")
            return exact.symbolic_matrix("W", "O", width, width)
        matrix = exact.to_matrix(value, "w_o")
        if self._eff(matrix)[0] != width:
            self._mismatch("w_o", matrix, f"concat has {width} columns", width)
        return matrix

    # ---------------------------------------------------------------- biases
    def _bias(self, name: str, value: Any) -> tuple[Matrix, ...]:
        projections = self.out["w" + name[1:]]
        letter = name[-1].upper()
        if self.fused:
            return (self._vector(name, value, projections[0], letter),)
        widths = [self._eff(m)[1] for m in projections]
        if _is_symbolic(name, value):
            self.symbolic.add(name)
            return tuple(
                exact.symbolic_vector("b", f"{letter}{i}", w) for i, w in enumerate(widths, start=1)
            )
        if _is_matrix_like(value):
            rows = exact.to_matrix(value, name)
            if rows.rows != self.h:
                raise SpecError(
                    f"{name} has {rows.rows} vectors but heads = {self.h}; give one "
                    "per head or one flat vector"
                )
            vectors = [rows.row(i) for i in range(self.h)]
        else:
            flat = exact.to_vector(value, name)
            if flat.cols != sum(widths):
                parts = f" ({' + '.join(map(str, widths))})" if self.h > 1 else ""
                raise SpecError(
                    f"{name} has {flat.cols} entries but the heads' "
                    f"{letter} widths add up to {sum(widths)}{parts}"
                )
            starts = [sum(widths[:i]) for i in range(self.h)]
            vectors = [flat[:, s : s + w] for s, w in zip(starts, widths)]
        for head, (vector, width) in enumerate(zip(vectors, widths), start=1):
            if vector.cols != width:
                raise SpecError(
                    f"{name}[{head}] has {vector.cols} entries but head {head}'s "
                    f"{letter} has {width} columns"
                )
        return tuple(sp.ImmutableMatrix(v) for v in vectors)

    def _vector(self, name: str, value: Any, projection: Matrix, letter: str) -> Matrix:
        width = self._eff(projection)[1]
        if _is_symbolic(name, value):
            self.symbolic.add(name)
            return exact.symbolic_vector("b", letter, width)
        vector = exact.to_vector(value, name)
        if vector.cols != width:
            target = "w_o" if name == "b_o" else "w" + name[1:]
            raise SpecError(
                f"{name} has {vector.cols} entries but {target} projects to {width} columns"
            )
        return vector
