"""Examples that start past the inputs: Q, K and V given (``q``, ``k``, ``v``), the scores with
the values (``scores`` and ``v``), or each head's softmax weights with the values
(``attention_weights`` and ``v``). Also ``mask_fill``, the value masked scores take.

Documents often start at one of these stages: a lesson that sets Q, K and V by hand (with any
d_v), a notebook that prints the scores, a figure of the attention weights. The program then
reads the given stage as an input step (``head{i}.q``, ``head{i}.scores``, ``head{i}.weights``)
and computes what follows; no identity weights stand in for projections nobody gave. With no
``x`` the spec's ``query``/``key``/``value`` are zero-width matrices that only carry the
lengths L_q and L_k.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.text import one_line

STAGE_KEYS = ("q", "k", "v", "attention_weights")
INPUT_KEYS = ("x", "query", "key", "value")
# What each given stage replaces, so cannot go with it: (key, what it computes).
_REPLACED = {
    "q": ("w_q", "b_q", "w_k", "b_k", "w_v", "b_v"),
    "scores": ("w_q", "b_q", "w_k", "b_k"),
    "weights": ("w_q", "b_q", "w_k", "b_k", "w_v", "b_v"),
}
_ONLY_HERE = ("w_o", "b_o")  # the weights a spec without x may still have


def stage_of(raw: Mapping[str, Any]) -> str:
    """Where the example starts: ``inputs`` (x or query/key/value), ``qkv``, ``scores`` or
    ``weights`` (the softmax weights given)."""
    if "attention_weights" in raw:
        return "weights"
    if "scores" in raw:
        return "scores"
    if "q" in raw or "k" in raw:
        return "qkv"
    return "inputs"


def has_q(raw: Mapping[str, Any]) -> bool:
    """True when the queries are known (computed or given), so d_k is: the default scale is
    1/sqrt(d_k); past the scores it is none (the scores are the logits)."""
    return "scores" not in raw and "attention_weights" not in raw


def has_inputs(raw: Mapping[str, Any]) -> bool:
    return any(name in raw for name in INPUT_KEYS)


def check_combination(raw: Mapping[str, Any]) -> None:
    """One line for a key that cannot go with the others."""
    stage = stage_of(raw)
    inputs = [name for name in INPUT_KEYS if name in raw]
    given = [name for name in ("q", "k", "attention_weights") if name in raw]
    if stage == "inputs" and "v" in raw:
        raise SpecError("v is given without q and k, scores or attention_weights; add one")
    if stage == "weights" and ("q" in raw or "k" in raw or "scores" in raw):
        other = next(n for n in ("q", "k", "scores") if n in raw)
        raise SpecError(f"attention_weights and {other} cannot both be given")
    if stage == "scores" and ("q" in raw or "k" in raw):
        raise SpecError(f"scores and {'q' if 'q' in raw else 'k'} cannot both be given")
    for name in [*given, "v"]:
        if name in raw and inputs:
            raise SpecError(f"{name} and {inputs[0]} cannot both be given")
    if stage == "qkv":
        for needed in ("q", "k", "v"):
            if needed not in raw:
                present = "q" if "q" in raw else "k"
                raise SpecError(f"{present} is given, so {needed} is needed too (Q, K and V)")
    if stage == "weights" and "v" not in raw:
        raise SpecError("attention_weights are given, so v is needed (the values they weigh)")
    if stage == "scores" and not inputs and "v" not in raw:
        raise SpecError("scores are given without x, so v is needed (the values they weigh)")
    if stage != "inputs" and not inputs:
        _check_extras(raw, stage)


def _check_extras(raw: Mapping[str, Any], stage: str) -> None:
    weights = raw.get("weights", {})
    replaced = _REPLACED["q" if stage == "qkv" else stage]
    if "v" in raw and stage == "scores":
        replaced = _REPLACED["weights"]
    if isinstance(weights, Mapping):
        for name in replaced:
            if name in weights:
                given = {"qkv": "q", "scores": "scores", "weights": "attention_weights"}[stage]
                also = "v" if name[-1] == "v" and stage == "scores" else given
                raise SpecError(f"{also} and weights.{name} cannot both be given")
    if "kv_heads" in raw:
        raise SpecError(f"kv_heads repeats weights, but {_what(stage)} given; remove kv_heads")
    layout = raw.get("layout", "per_head")
    if layout != "per_head":
        raise SpecError(
            f"layout {layout} says how x is projected, but {_what(stage)} given; remove layout"
        )
    if stage == "weights":
        for name in ("scale", "mask", "mask_fill", "rope"):
            if name in raw:
                raise SpecError(
                    f"attention_weights are given (after the softmax), so {name} does not apply"
                )


def _what(stage: str) -> str:
    return {"qkv": "q, k and v are", "scores": "scores are", "weights": "attention_weights are"}[
        stage
    ]


def _depth(value: Any) -> int:
    if hasattr(value, "ndim"):
        return int(value.ndim)
    if isinstance(value, sp.MatrixBase):
        return 2
    if isinstance(value, str):
        return 2 if "\\begin" in value else 0
    return 1 + _depth(value[0]) if isinstance(value, (list, tuple)) and value else 0


def heads_given(raw: Mapping[str, Any]) -> int:
    """The default of ``heads``: how many matrices a given stage lists (1 for one matrix)."""
    for name in ("q", "scores", "attention_weights"):
        if name in raw and _depth(raw[name]) == 3:
            return len(raw[name])
    return 1


def per_head(raw: Mapping[str, Any], name: str, heads: int) -> tuple[Matrix, ...]:
    """``name``'s matrices, one per head: a list of ``heads`` matrices, or one matrix when
    there is one head."""
    given = raw[name]
    depth = _depth(given)
    if depth == 2 and heads == 1:
        given = [given]
    elif depth != 3:
        what = "a list of matrices" if heads > 1 else "a matrix (or a list of one)"
        raise SpecError(f"{name} must be {what}, one per head, got {one_line(repr(given))}")
    if len(given) != heads:
        noun = "matrix" if len(given) == 1 else "matrices"
        raise SpecError(f"{name} has {len(given)} {noun} but heads = {heads}; give one per head")
    if heads == 1:
        return (exact.to_matrix(given[0], name),)
    return tuple(exact.to_matrix(m, f"{name}[{n}]") for n, m in enumerate(given, start=1))


def _label(name: str, head: int, heads: int) -> str:
    return name if heads == 1 else f"{name}[{head + 1}]"


def read(raw: Mapping[str, Any], heads: int) -> dict[str, Any]:
    """The given stages of a spec without x (``q``, ``k``, ``v``, ``scores``,
    ``attention_weights``) checked against each other, and the lengths they fix as zero-width
    inputs."""
    stage = stage_of(raw)
    first = {"qkv": "q", "scores": "scores", "weights": "attention_weights"}[stage]
    out: dict[str, Any] = {name: None for name in STAGE_KEYS}
    out["scores"] = None
    main = per_head(raw, first, heads)
    _same_rows(first, main, heads)
    out["scores" if stage == "scores" else first] = main
    n_query = main[0].rows
    if stage == "qkv":
        keys = out["k"] = per_head(raw, "k", heads)
        _same_rows("k", keys, heads)
        for head, (q, k) in enumerate(zip(main, keys)):
            if k.cols != q.cols:
                raise SpecError(
                    f"{_label('k', head, heads)} has {k.cols} columns but "
                    f"{_label('q', head, heads)} has {q.cols}; scores need equal widths"
                )
        n_key, against = keys[0].rows, "k"
    else:
        n_key, against = main[0].cols, first
        for head, matrix in enumerate(main):
            if matrix.cols != n_key:
                raise SpecError(
                    f"{_label(first, head, heads)} has {matrix.cols} columns but "
                    f"{_label(first, 0, heads)} has {n_key}; every head has the same keys"
                )
    out["v"] = _values(raw, heads, n_key, against)
    empty = {"query": Matrix.zeros(n_query, 0), "key": Matrix.zeros(n_key, 0)}
    self_attention = n_query == n_key and "key_tokens" not in raw
    return {**out, **empty, "value": empty["key"], "self_attention": self_attention}


def _same_rows(name: str, matrices: tuple[Matrix, ...], heads: int) -> None:
    for head, matrix in enumerate(matrices):
        if matrix.rows != matrices[0].rows:
            raise SpecError(
                f"{_label(name, head, heads)} has {matrix.rows} rows but "
                f"{_label(name, 0, heads)} has {matrices[0].rows}; every head has the same tokens"
            )


def _values(raw: Mapping[str, Any], heads: int, n_key: int, against: str) -> tuple[Matrix, ...]:
    values = per_head(raw, "v", heads)
    for head, v in enumerate(values):
        if v.rows != n_key:
            where = (
                f"{_label(against, head, heads)} has {n_key}"
                if against == "k"
                else f"{_label(against, head, heads)} has {n_key} columns (one value row per key)"
            )
            raise SpecError(f"{_label('v', head, heads)} has {v.rows} rows but {where}")
    return values


def read_output_weights(table: Any, values: Mapping[str, Any]) -> dict[str, Any]:
    """The [weights] table of a spec without x: only w_o (and b_o), read against the width
    of the concatenated heads (the given values' widths added up)."""
    if not isinstance(table, Mapping):
        raise SpecError(f"weights must be a table of w_o and b_o, got {one_line(repr(table))}")
    for name in table:
        if name not in _ONLY_HERE:
            raise SpecError(f"weights.{name} projects x, but x is not given; remove it")
    width = sum(v.cols for v in values["v"])
    transposed = values["convention"] == "xWT"
    out: dict[str, tuple[Matrix, ...]] = {}
    symbolic = set()
    if "w_o" in table:
        if table["w_o"] == "symbolic":
            symbolic.add("w_o")
            out["w_o"] = (exact.symbolic_matrix("W", "O", width, width),)
        else:
            out["w_o"] = (_output(exact.to_matrix(table["w_o"], "w_o"), width, transposed),)
    if "b_o" in table:
        if "w_o" not in out:
            raise SpecError("b_o is given but w_o is not; b_o belongs to the output projection")
        w_o = out["w_o"][0]
        cols = w_o.rows if transposed else w_o.cols
        bias = exact.to_vector(table["b_o"], "b_o")
        if bias.cols != cols:
            raise SpecError(f"b_o has {bias.cols} entries but w_o projects to {cols} columns")
        out["b_o"] = (bias,)
    return {"weights": out, "omitted": frozenset(), "symbolic": frozenset(symbolic)}


def _output(matrix: Matrix, width: int, transposed: bool) -> Matrix:
    rows = matrix.cols if transposed else matrix.rows
    if rows != width:
        shape = (matrix.rows, matrix.cols)
        convention = " (convention xWT multiplies by its transpose)" if transposed else ""
        fits = (matrix.rows if transposed else matrix.cols) == width
        hint = f"; its transpose {(shape[1], shape[0])} would fit" if fits else ""
        raise SpecError(f"w_o has shape {shape} but concat has {width} columns{convention}{hint}")
    return matrix
