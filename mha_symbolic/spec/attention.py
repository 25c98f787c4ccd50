"""AttentionSpec: what to derive, read from TOML, a dict or keyword arguments, and validated."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import operations
from mha_symbolic.errors import SpecError
from mha_symbolic.spec import as_printed, bounds, gqa, input_files, parameters, stages
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.spec.catalogue import DEFAULT_TITLE, example_names, example_text
from mha_symbolic.spec.given_scores import check_scores_spec, read_scores
from mha_symbolic.spec.step_decimals import read_decimals
from mha_symbolic.spec.step_names import read_names
from mha_symbolic.text import did_you_mean, one_line

LAYOUTS = ("per_head", "split", "fused")
CONVENTIONS = ("xW", "xWT")
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
    *operations.SPEC_KEYS,  # rope, alibi, ...: read by their operations
    "claims",
    "assumed",
    "translations",  # [translations.bn] title = ..., description = ...: the spec's own words
    "scores",  # each head's Q K^T given directly (Q and K not known): see spec/given_scores.py
    "inputs",  # "printed": each input decimal stands for the interval its digits do (check)
    "dtype",  # "float32": claims are judged allowing float32 rounding (check)
    "floats",  # "binary": binary floats read as their exact values, not shortest decimals
    "printed_transposed",  # weights the document prints transposed: ["w_o"] (a note says so)
    "printed_shapes",  # shapes the document states otherwise: { w_q = [4, 2] } (a note too)
    # An example that starts past the inputs, and the masked scores' value: see spec/stages.py.
    *stages.STAGE_KEYS,
    "mask_fill",
    "decimals",  # how many decimals the worked solution prints (--decimals overrides it)
    "names",  # [names] "head1.output" = "Z_1": the document's own names for steps
)
INPUTS = ("exact", "printed")
DTYPES = ("exact", "float64", "float32")
LOSSES = ("sum", "mse")
LOSS_KEYS = ("kind", "target")


@dataclass(frozen=True)
class Loss:
    """The scalar loss of the gradients: ``sum`` of the output, or ``mse``: 1/2 ||O - T||^2."""

    kind: str = "sum"
    target: Matrix | None = None  # T, the output's shape; only with kind mse


def _closest(word: str, options: Sequence[str]) -> str:
    return did_you_mean(word, options)


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
    # Each operation's setting by its spec key (rope, alibi, ...; None: off), read by the
    # operation's own module; ``spec.rope`` reads it too.
    operations: Mapping[str, Any] = field(default_factory=dict)
    claims: Mapping[str, Any] = field(default_factory=dict)
    # Numbers the document assumes rather than computes (same keys and values as claims): a
    # solution reports what the inputs really give instead of calling the document wrong.
    assumed: Mapping[str, Any] = field(default_factory=dict)
    inputs: str = "exact"  # "printed": inputs known only to their printed digits (check)
    dtype: str = "exact"  # "float32" / "float64": claims allow that rounding (check)
    floats: str = "decimal"  # "binary": each float is its exact binary value (an oracle's input)
    # Each head's scores Q K^T as given (a document that prints them but not Q and K), or None.
    scores: tuple[Matrix, ...] | None = None
    # Where the example starts: "inputs", "qkv", "scores" or "weights" (see spec/stages.py).
    # Past the inputs, each head's given Q, K, V or softmax weights (None: computed), and
    # query/key/value are zero-width matrices that carry only the lengths L_q and L_k.
    stage: str = "inputs"
    q: tuple[Matrix, ...] | None = None
    k: tuple[Matrix, ...] | None = None
    v: tuple[Matrix, ...] | None = None
    attention_weights: tuple[Matrix, ...] | None = None
    mask_fill: sp.Expr = -sp.oo  # the value masked scores take: -oo, or -10^9 as masked_fill
    # The title and description in other languages: {"bn": {"title": ..., "description": ...}}.
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Weights the document prints transposed (a 2x4 W_O for a 4x2 one): the spec holds them as
    # the arithmetic uses them, and the solution says so at their step.
    printed_transposed: frozenset[str] = frozenset()
    # Shapes the document states for weights whose products use another (seed 002's (4, 2)
    # for the (2, 2) weights of a head's (8, 2) slice); the solution notes it there too.
    printed_shapes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    # The decimal places its worked solution prints, as the document prints them; None: the
    # printers' default. step_decimals: a step's own (seed 003: 0.707 for the scaled scores,
    # 0.67 for the rest; see step_decimals.py). Options(decimals=...) and --decimals override.
    decimals: int | None = None
    step_decimals: Mapping[str, int] = field(default_factory=dict)
    # Steps written under the document's own names (step key -> LaTeX: seed 003's Z_{1}).
    names: Mapping[str, str] = field(default_factory=dict)
    # How its non-whole numbers were written: "decimal" (0.5), "fraction" ("1/2"), both or
    # neither. A spec of fractions only (seed 000's W_O = ½ ...) is worked in fractions.
    written: frozenset[str] = frozenset()
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
        text = input_files.read_text(path, str(path))
        return cls.from_dict(input_files.parse_toml(text, str(path)), source=str(path))

    @classmethod
    def example(cls, name: str) -> AttentionSpec:
        names = example_names()
        if name not in names:
            raise SpecError(
                f"unknown example '{name}'{_closest(name, names)}; known: {', '.join(names)}"
            )
        where = f"example {name}"
        return cls.from_dict(input_files.parse_toml(example_text(name), where), source=where)

    @classmethod
    def from_torch(
        cls, module: Any, query: Any, key: Any = None, value: Any = None, **masks: Any
    ) -> AttentionSpec:
        """An ``nn.MultiheadAttention`` and its inputs as a fused ``xWT`` spec (see torch_io)."""
        from mha_symbolic.spec.torch_io import from_torch

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
    def has_inputs(self) -> bool:
        """True when x (or query/key/value) is given, False for an example that starts at Q,
        K and V, the scores with the values, or the attention weights."""
        return bool(self.query.cols)

    @property
    def has_output_projection(self) -> bool:
        return "w_o" in self.weights

    def __getattr__(self, name: str) -> Any:
        """An operation's setting by its spec key (``spec.rope``), None when it is off."""
        settings = self.__dict__.get("operations")
        if settings is None or name not in operations.SPEC_KEYS:
            raise AttributeError(name)
        return settings.get(name)

    def effective(self, name: str, head: int = 0) -> Matrix:
        """Weight ``name`` of ``head`` (0-based) as the (in x out) matrix that multiplies X."""
        matrix = self.weights[name][head]
        return matrix.T if self.convention == "xWT" and name.startswith("w_") else matrix


def as_spec(value: Any, takes: str) -> AttentionSpec:
    """``value`` as a spec: an AttentionSpec, or a dict of its keys (read as from_dict does);
    anything else is one line: ``takes`` (what the caller takes), and what it got."""
    if isinstance(value, AttentionSpec):
        return value
    if isinstance(value, Mapping):
        return AttentionSpec.from_dict(value)
    hint = ""
    if isinstance(value, str):
        hint = (
            f"; for a file pass AttentionSpec.from_toml({one_line(value)!r}), for an example "
            f"AttentionSpec.example({one_line(value)!r})"
        )
    raise SpecError(f"{takes}, got {type(value).__name__}{hint}")


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
    mode = _choice(raw.get("floats", "decimal"), "floats", exact.FLOATS)
    with exact.declared(declared), exact.floats(mode), exact.noting() as written:
        values = _read(raw)
    values["written"] = frozenset(written)
    values["parameters"] = declared
    values["floats"] = mode
    return values


def _read(raw: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {
        "title": _text(raw.get("title", DEFAULT_TITLE), "title"),
        "description": _text(raw.get("description", ""), "description"),
        "translations": _translations(raw.get("translations", {})),
        "heads": _heads(raw.get("heads", stages.heads_given(raw))),
        "layout": _choice(raw.get("layout", "per_head"), "layout", LAYOUTS),
        "convention": _choice(raw.get("convention", "xW"), "convention", CONVENTIONS),
    }
    _fields(raw, values, "settings")
    values["claims"] = _claims(raw.get("claims", {}), "claims")
    values["assumed"] = _claims(raw.get("assumed", {}), "assumed")
    values["inputs"] = _choice(raw.get("inputs", "exact"), "inputs", INPUTS)
    values["dtype"] = _choice(raw.get("dtype", "exact"), "dtype", DTYPES)
    values["decimals"], values["step_decimals"] = read_decimals(raw.get("decimals"))
    values["names"] = read_names(raw.get("names", {}))
    both = sorted(set(values["claims"]) & set(values["assumed"]))
    if both:
        raise SpecError(f"'{both[0]}' is both in [claims] and [assumed]; keep it in one")
    stages.check_combination(raw)
    values["stage"] = stages.stage_of(raw)
    values.update(dict.fromkeys(("scores", *stages.STAGE_KEYS)))
    if "scores" in raw:
        check_scores_spec(raw)
    if values["stage"] != "inputs" and not stages.has_inputs(raw):
        values.update(stages.read(raw, values["heads"]))
    if "query" not in values:
        values.update(_inputs(raw))
    values.update(_labels(raw, values["query"].rows, values["key"].rows, values["self_attention"]))
    _fields(raw, values, "inputs")
    _fields(_weights(raw, values), values, "weights")
    values["loss"] = _loss(raw["loss"], values) if "loss" in raw else None
    if values["stage"] == "scores" and values["v"] is None:
        rows, cols = values["query"].rows, values["key"].rows
        values["scores"] = read_scores(raw, values["heads"], rows, cols)
    values["operations"] = {
        op.spec_key: op.read(raw.get(op.spec_key), values)
        for op in operations.OPERATIONS
        if op.spec_key is not None and op.read is not None
    }
    values["printed_transposed"] = as_printed.printed_transposed(
        raw.get("printed_transposed", []), values
    )
    values["printed_shapes"] = as_printed.printed_shapes(raw.get("printed_shapes", {}), values)
    return values


def _fields(raw: Mapping[str, Any], values: dict[str, Any], at: str) -> None:
    """The spec's fields the operations read at ``at`` (see ``Operation.fields``)."""
    for op in operations.OPERATIONS:
        if op.fields is not None and op.read_at == at:
            values.update(op.fields(raw, values))


def _weights(raw: Mapping[str, Any], values: dict[str, Any]) -> Mapping[str, Any]:
    """The [weights] table: only w_o when the example starts past x (read here); else ``raw``
    with the projections' table, its grouped-query heads spread, for the projections to read."""
    if values["v"] is not None:
        values["kv_heads"] = values["heads"]
        values.update(stages.read_output_weights(raw.get("weights", {}), values))
        return raw
    values["kv_heads"] = gqa.kv_heads(raw.get("kv_heads"), values["heads"], values["layout"])
    table = gqa.expand(
        raw.get("weights", {}),
        values["heads"],
        values["kv_heads"],
        values["layout"],
        values["convention"],
    )
    return {**raw, "weights": table}


def _output_shape(values: Mapping[str, Any]) -> tuple[int, int]:
    weights, transposed = values["weights"], values["convention"] == "xWT"
    if "w_o" in weights:
        cols = weights["w_o"][0].rows if transposed else weights["w_o"][0].cols
    elif values["v"] is not None:
        cols = sum(m.cols for m in values["v"])
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


def _translations(value: Any) -> dict[str, dict[str, str]]:
    """``{lang: {"title": ..., "description": ...}}``: what a solution in ``lang`` prints."""
    if not isinstance(value, Mapping):
        raise SpecError(f"translations must be a table of languages, got {one_line(repr(value))}")
    out = {}
    for lang, table in value.items():
        if not isinstance(table, Mapping):
            raise SpecError(f"translations.{lang} must be a table (title, description)")
        for key in table:
            if key not in ("title", "description"):
                raise SpecError(
                    f"unknown key 'translations.{lang}.{key}'"
                    f"{_closest(str(key), ('title', 'description'))}"
                )
        out[str(lang)] = {k: _text(v, f"translations.{lang}.{k}") for k, v in table.items()}
    return out


def _heads(given: Any) -> int:
    value = bounds.integer(given)  # a NumPy integer is an integer
    if value is None or value < 1:
        raise SpecError(f"heads must be a positive integer, got {one_line(repr(given))}")
    if value > bounds.MAX_HEADS:
        raise SpecError(f"heads = {value} is more than the {bounds.MAX_HEADS} a spec may have")
    return value


def _choice(value: Any, name: str, options: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in options:
        hint = _closest(value, options) if isinstance(value, str) else ""
        raise SpecError(f"unknown {name} {value!r}{hint}; choose one of {', '.join(options)}")
    return value


def _claims(value: Any, field_name: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise SpecError(f"{field_name} must be a table of step keys, got {value!r}")
    for key in value:
        if not isinstance(key, str):
            raise SpecError(f"{field_name}: keys must be text, got {key!r}")
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
