"""The projections X W (+ 1 b): each head's queries, keys and values (step ``head{n}.q``, ...),
or every head's at once in the fused layout (step ``q``, then each head's columns); kind
``project``. The weight is W or W^T by the spec's convention, and the builder makes them
(:mod:`mha_symbolic.model.program`; the output's W_O is the ``output`` operation's).

Their spec key is the [weights] table (:class:`Weights`, read as its ``fields``): projections,
output projection and biases read against the inputs' shapes, identities filled in for
omitted projections, symbolic matrices named. Their values are numbers the backward ring is
built from; in code a projection is one product over the stream's input
(:func:`mha_symbolic.model.affine.affine_parts` finds its parts). The likely mistakes a reader
makes here: a stream projected as another (K in place of V), and square weights read the
other way round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.model.affine import affine_parts
from mha_symbolic.operations.operation import SOURCE, STREAMS, Operation, each
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.text import did_you_mean

# --------------------------------------------------------------------------- spec
PROJECTIONS = ("w_q", "w_k", "w_v")
WEIGHT_KEYS = ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
_LETTER = {"w_q": "Q", "w_k": "K", "w_v": "V", "w_o": "O"}
_INPUT_OF = {"w_q": "query", "w_k": "key", "w_v": "value"}


def _shape(matrix: sp.MatrixBase) -> tuple[int, int]:
    return (matrix.rows, matrix.cols)


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


class Weights:
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
                raise SpecError(f"unknown key 'weights.{key}'{did_you_mean(str(key), WEIGHT_KEYS)}")
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


def query_widths(values: Mapping[str, Any]) -> list[int]:
    """Each head's query width d_k, from the spec's values read so far."""
    if values["q"] is not None:
        return [m.cols for m in values["q"]]
    if "w_q" not in values["weights"]:  # scores or attention weights given: no Q
        return []
    transposed = values["convention"] == "xWT"
    widths = [m.rows if transposed else m.cols for m in values["weights"]["w_q"]]
    if values["layout"] == "fused":
        return [widths[0] // values["heads"]] * values["heads"]
    return widths


# --------------------------------------------------------------------------- model
_Part = tuple[str, sp.Basic]  # (kind, expr) of a head's q, k or v before it is a node


def given_as(spec: Any, name: str) -> str | None:
    """How the spec gave weight ``name``: ``identity`` (left out), ``symbolic`` or None (its
    leaf's kind)."""
    if name in spec.omitted:
        return "identity"
    return "symbolic" if name in spec.symbolic else None


def _weight(builder: Any, name: str, head: int, per_head: bool) -> sp.Basic:
    """The factor that multiplies from the right: W, or W^T in the xWT convention."""
    label = f"W_{{{_LETTER[name]}}}" + (f"^{{{head + 1}}}" if per_head else "")
    value = builder.spec.weights[name][head]
    kind = given_as(builder.spec, name)
    symbol = builder.leaf(label, name, value, head if per_head else None, kind)
    return symbol.T if builder.spec.convention == "xWT" else symbol


def _bias(builder: Any, name: str, head: int, per_head: bool, rows: int) -> sp.Basic | None:
    if name not in builder.spec.weights:
        return None
    label = f"b_{{{name[-1].upper()}}}" + (f"^{{{head + 1}}}" if per_head else "")
    value = builder.spec.weights[name][head]
    kind = given_as(builder.spec, name)
    symbol = builder.leaf(label, name, value, head if per_head else None, kind)
    return sp.OneMatrix(rows, 1) * symbol


def affine(builder: Any, x: sp.MatrixSymbol, name: str, head: int, per_head: bool) -> sp.Basic:
    """X W (+ 1 b): the projection by weight ``name`` (w_q, ..., w_o) of head ``head``
    (0-based), its weight and bias leaves added to the program."""
    product = sp.MatMul(x, _weight(builder, name, head, per_head))
    bias = _bias(builder, "b" + name[1:], head, per_head, x.shape[0])
    return product if bias is None else sp.MatAdd(product, bias)


def _needed(spec: Any) -> tuple[str, ...]:
    """The streams projected: only the values when the scores are given."""
    return ("v",) if spec.scores is not None else STREAMS


def streams(builder: Any, inputs: dict[str, sp.MatrixSymbol]) -> list[dict[str, _Part]]:
    """Per head (0-based): its q, k and v projected from the inputs, by layout: each head
    projects x (per_head) or its slice of x (split), or one projection is cut (fused)."""
    layout = builder.spec.layout
    if layout == "fused":
        return _fused(builder, inputs)
    slices = _split(builder, inputs) if layout == "split" else None
    return [
        {
            stream: (
                "project",
                affine(
                    builder,
                    inputs[stream] if slices is None else slices[i][stream],
                    f"w_{stream}",
                    i,
                    True,
                ),
            )
            for stream in _needed(builder.spec)
        }
        for i in range(builder.spec.heads)
    ]


def _split(builder: Any, inputs: dict[str, sp.MatrixSymbol]) -> list[dict[str, sp.MatrixSymbol]]:
    """The split layout's column slices of the inputs, one per head."""
    spec = builder.spec
    h = spec.heads
    slices: list[dict[str, sp.MatrixSymbol]] = [{} for _ in range(h)]
    for stream in ("q",) if spec.self_attention else STREAMS:
        x = inputs[stream]
        width = x.shape[1] // h
        source = SOURCE[stream]
        for i in range(h):
            key = f"head{i + 1}.x" if spec.self_attention else f"head{i + 1}.{source}"
            name = f"X_{{{i + 1}}}" if spec.self_attention else f"X_{{{source[0]},{i + 1}}}"
            part = x[:, i * width : (i + 1) * width]
            slices[i][stream] = builder.add(key, "slice", name, part, i + 1, None, stream)
    if spec.self_attention:
        for entry in slices:
            entry["k"] = entry["v"] = entry["q"]
    return slices


def _fused(builder: Any, inputs: dict[str, sp.MatrixSymbol]) -> list[dict[str, _Part]]:
    """One projection per stream, then each head's columns of it."""
    h = builder.spec.heads
    heads: list[dict[str, _Part]] = [{} for _ in range(h)]
    for stream in _needed(builder.spec):
        expr = affine(builder, inputs[stream], f"w_{stream}", 0, False)
        full = builder.add(stream, "project", stream.upper(), expr, None, None, stream)
        width = full.shape[1] // h
        for i in range(h):
            heads[i][stream] = ("slice", full[:, i * width : (i + 1) * width])
    return heads


def stream_for(target: str, source: str) -> Any:
    """Stream ``target``'s projection (q, k or v) computed as ``source``'s (K in place of V)."""

    def run(program: Any) -> Any:
        def change(node: Any) -> Any:
            if node.stream != target:
                return node
            twin = node.key.replace(f".{target}", f".{source}") if node.head else source
            return replace(node, expr=program.node(twin).expr)

        return each(program, "project", change)

    return run


def transposed_square_weights(program: Any) -> Any:
    """Square projection weights read the other way round (the others fit one way only)."""

    def change(leaf: Any) -> Any:
        value = leaf.value
        square = leaf.role.startswith("w_") and value.rows == value.cols
        return replace(leaf, value=Matrix(value.T)) if square else leaf

    return program.replace(leaves=tuple(change(leaf) for leaf in program.leaves))


def layout(program: Any) -> str:
    """The fact ``layout``: how the heads are made from x: ``fused`` (one projection per
    stream, then cut), ``split`` (x cut into slices, one per head) or ``per_head`` (each head
    projects x)."""
    if any(n.kind == "project" and n.head is None for n in program):
        return "fused"
    inputs = {"x", *SOURCE.values()}
    slices = (n for n in program if n.kind == "slice" and n.head is not None)
    return "split" if any(n.key.split(".", 1)[1] in inputs for n in slices) else "per_head"


def convention(program: Any) -> str:
    """The fact ``convention``: ``xW`` (W is in x out, Q = X W) or ``xWT`` (PyTorch's,
    Q = X W^T): how the projections multiply their weights (``xW`` where nothing is
    projected)."""
    for node in program:
        parts = affine_parts(node.expr) if node.kind in ("project", "output") else None
        if parts is not None:
            return "xWT" if isinstance(parts[1], sp.Transpose) else "xW"
    return "xW"


def _weights(raw: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The projections' fields; none when the example gives each head's Q, K and V."""
    return {} if values["v"] is not None else Weights(values).normalize(raw["weights"])


OPERATION = Operation(
    kind="project",
    roles=frozenset({"projection"}),
    streams=streams,
    ring_values=True,
    fields=_weights,
    read_at="weights",
    rewrites={"stream_for": stream_for, "transposed_square_weights": transposed_square_weights},
    # K's projection made from the value input (cross-attention): the reader took another input
    first_changed={"stream_for": "input"},
    facts={"layout": layout, "fused": lambda p: layout(p) == "fused", "convention": convention},
)
