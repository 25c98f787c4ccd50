"""Reads a ``torch.nn.MultiheadAttention`` and its inputs into the fields of an exact fused
``xWT`` spec (``AttentionSpec.from_torch`` builds the spec from them)."""

from __future__ import annotations

import sys
from typing import Any

from mha_symbolic.errors import SpecError


def _numpy(tensor: Any) -> Any:
    """A float64 NumPy copy: every float32 or float64 value is exactly representable."""
    return tensor.detach().cpu().double().numpy()


def array(value: Any, name: str) -> Any:
    """A NumPy copy of ``value``: a torch tensor, a NumPy array, or a nested list (or tuple)
    of numbers; anything else is a TypeError saying what is taken. Floats become float64,
    which holds every float16, float32 and float64 value exactly."""
    import numpy

    if _is_tensor(value):
        tensor = value.detach().cpu()
        if tensor.is_complex():
            raise TypeError(f"{name} is a complex tensor ({tensor.dtype}); attention here is real")
        return (tensor.double() if tensor.is_floating_point() else tensor).numpy()
    if isinstance(value, numpy.ndarray):
        given = value
    elif isinstance(value, (list, tuple)):
        try:
            given = numpy.array(value)
        except ValueError:  # rows of different lengths
            raise SpecError(f"{name}: the rows of the nested list have different lengths") from None
    else:
        raise TypeError(
            f"{name} must be a torch.Tensor, a NumPy array or a nested list of numbers, "
            f"got {type(value).__name__}"
        )
    if given.dtype.kind == "c":
        raise TypeError(f"{name} has complex dtype {given.dtype}; attention here is real")
    if given.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers, got dtype {given.dtype}")
    return given.astype(numpy.float64) if given.dtype.kind == "f" else given


def _is_tensor(value: Any) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def _sequence(given: Any, name: str, batch_first: bool) -> Any:
    """One sequence (L, E) as float64 from an unbatched (L, E) or a batch-of-one input."""
    import numpy

    values = array(given, name).astype(numpy.float64)
    if values.ndim == 2:
        return values
    if values.ndim == 3:
        batch_axis = 0 if batch_first else 1
        if values.shape[batch_axis] != 1:
            raise SpecError(
                f"{name} has shape {tuple(values.shape)}: a spec is one sequence, so give an "
                f"unbatched (L, E) input or a batch of one (batch_first={batch_first})"
            )
        return values.take(0, axis=batch_axis)
    raise SpecError(f"{name} has shape {tuple(values.shape)}; expected (L, E) or a batch of one")


def _projections(module: Any) -> dict[str, Any]:
    """w_q, w_k, w_v (out x in, torch's layout) and the biases b_q, b_k, b_v, if any."""
    e = module.embed_dim
    if module.in_proj_weight is not None:
        w = _numpy(module.in_proj_weight)
        weights = {"w_q": w[:e], "w_k": w[e : 2 * e], "w_v": w[2 * e :]}
    else:
        weights = {
            "w_q": _numpy(module.q_proj_weight),
            "w_k": _numpy(module.k_proj_weight),
            "w_v": _numpy(module.v_proj_weight),
        }
    if module.in_proj_bias is not None:
        b = _numpy(module.in_proj_bias)
        weights.update({"b_q": b[:e], "b_k": b[e : 2 * e], "b_v": b[2 * e :]})
    return weights


def _extra_keys(module: Any, letter: str) -> list[Any]:
    """The rows torch appends to the projected keys (values): bias_k (bias_v), then zeros."""
    import numpy

    rows = []
    extra = getattr(module, f"bias_{letter}")
    if extra is not None:
        rows.append(_numpy(extra).reshape(-1))
    if module.add_zero_attn:
        rows.append(numpy.zeros(module.embed_dim))
    return rows


def _append_keys(x: Any, w: Any, b: Any, rows: list[Any]) -> tuple[Any, Any]:
    """Input and weight with one extra token per appended row: its projection is that row.

    Token n is the unit vector on a new input feature n, and the weight's new column n is
    ``row - b``, so ``x W^T + b`` gives exactly ``row`` there and is unchanged elsewhere.
    """
    import numpy

    n = len(rows)
    length, width = x.shape
    grown = numpy.zeros((length + n, width + n))
    grown[:length, :width] = x
    grown[length:, width:] = numpy.eye(n)
    columns = numpy.stack([row - b for row in rows], axis=1)
    return grown, numpy.concatenate([w, columns], axis=1)


def _mask(attn_mask: Any, key_padding_mask: Any, length: int, keys: int, extra: int) -> Any:
    """The spec's 0/1 mask (1 = may attend) from torch's masks (True / -inf = blocked)."""
    import numpy

    allowed = numpy.ones((length, keys), dtype=bool)
    if attn_mask is not None:
        values = array(attn_mask, "attn_mask")
        if values.dtype.kind == "f":
            if not numpy.isin(values, (0.0, -numpy.inf)).all():
                raise SpecError(
                    "attn_mask: a float mask must hold 0 and -inf only to be read into a 0/1 spec"
                )
            given_allowed = values == 0.0
        else:
            given_allowed = ~values.astype(bool)
        if given_allowed.shape != (length, keys):
            raise SpecError(
                f"attn_mask has shape {tuple(given_allowed.shape)} but the scores have shape "
                f"({length}, {keys}) (queries x keys)"
            )
        allowed &= given_allowed
    if key_padding_mask is not None:
        padding = array(key_padding_mask, "key_padding_mask").reshape(-1)
        blocked = padding != 0
        if len(blocked) != keys:
            raise SpecError(
                f"key_padding_mask has {len(blocked)} entries but there are {keys} keys"
            )
        allowed &= ~numpy.asarray(blocked, dtype=bool)[None, :]
    if allowed.all():
        return None
    return numpy.concatenate([allowed, numpy.ones((length, extra), dtype=bool)], axis=1).astype(int)


def from_torch(
    module: Any,
    query: Any,
    key: Any = None,
    value: Any = None,
    *,
    attn_mask: Any = None,
    key_padding_mask: Any = None,
    floats: str = "decimal",
) -> dict[str, Any]:
    """The spec fields of ``module(query, key, value, attn_mask=..., key_padding_mask=...)``.

    ``module`` is an ``nn.MultiheadAttention`` (packed ``in_proj_weight`` or separate
    q/k/v weights for kdim/vdim, optional biases, ``bias_k``/``bias_v``, ``add_zero_attn``,
    ``batch_first``); inputs (torch tensors, NumPy arrays or nested lists of numbers; other
    types are a TypeError) are unbatched ``(L, E)`` or a batch of one. The masks use torch's
    convention (True or -inf = blocked). Every float becomes the shortest decimal that reads
    back as the same float, so the spec's exact derivation equals the module's float64
    output to rounding; ``floats="binary"`` reads each float as its exact binary value
    instead (a float32 0.1 is 13421773/134217728), what a kernel really computes with. torch
    appends ``bias_k``/``bias_v`` (and a zero row) to the projected keys and values; the spec
    holds them as extra key tokens, each on its own extra input feature.
    """
    if floats not in ("decimal", "binary"):
        raise SpecError(f"floats must be 'decimal' or 'binary', got {floats!r}")
    try:
        fields = _read(module, query, key, value, attn_mask, key_padding_mask)
    except SpecError as error:
        raise error.located("from_torch") from None
    fields["floats"] = floats
    return fields


def _read(
    module: Any, query: Any, key: Any, value: Any, attn_mask: Any, key_padding_mask: Any
) -> dict[str, Any]:
    import torch

    if not isinstance(module, torch.nn.MultiheadAttention):
        raise SpecError(f"from_torch reads nn.MultiheadAttention, got {type(module).__name__}")
    if module.training and module.dropout > 0:
        raise SpecError(
            f"the module has dropout {module.dropout} and is in training mode; call "
            "module.eval() first"
        )
    first = module.batch_first
    self_attention = (key is None or key is query) and (value is None or value is query)
    key = query if key is None else key
    value = key if value is None else value
    inputs = {
        "query": _sequence(query, "query", first),
        "key": _sequence(key, "key", first),
        "value": _sequence(value, "value", first),
    }
    weights = _projections(module)
    extra = 0
    for letter in "kv":
        rows = _extra_keys(module, letter)
        if rows:
            source = "key" if letter == "k" else "value"
            bias = weights.get(f"b_{letter}", 0.0 * rows[0])
            inputs[source], weights[f"w_{letter}"] = _append_keys(
                inputs[source], weights[f"w_{letter}"], bias, rows
            )
            extra = len(rows)
    weights["w_o"] = _numpy(module.out_proj.weight)
    if module.out_proj.bias is not None:
        weights["b_o"] = _numpy(module.out_proj.bias)
    length, keys = inputs["query"].shape[0], inputs["key"].shape[0] - extra
    fields: dict[str, Any] = {
        "title": "torch.nn.MultiheadAttention",
        "heads": module.num_heads,
        "layout": "fused",
        "convention": "xWT",
        "scale": "sqrt_dk",
        "weights": weights,
    }
    mask = _mask(attn_mask, key_padding_mask, length, keys, extra)
    if mask is not None:
        fields["mask"] = mask
    if self_attention and not extra:
        fields["x"] = inputs["query"]
    else:
        fields.update(inputs)
    return fields
