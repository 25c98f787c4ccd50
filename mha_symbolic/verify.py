"""verify(): an attention kernel's output against the exact value, certified, in ulps."""

from __future__ import annotations

import copy
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DIGITS = 50  # the enclosures' accuracy: far below any float format's rounding


@dataclass(frozen=True)
class Entry:
    """One output entry: where, what the kernel gave, the exact value, and the error."""

    index: tuple[int, ...]
    kernel: float
    exact: str  # the certified value to 20 significant digits
    error: float  # |kernel - exact|
    ulps: float  # error in units in the last place of the kernel's dtype at the exact value


@dataclass(frozen=True)
class Verification:
    """The errors of one kernel run against certified exact values (see :func:`verify`)."""

    kernel: str
    dtype: str
    entries: int
    max_ulps: float
    median_ulps: float
    max_error: float
    # The largest error in ulps at the largest |output| (normwise): an entry near 0 that
    # cancels can be many ulps of itself off while the kernel is as accurate as its format.
    scale_ulps: float
    worst: tuple[Entry, ...]
    float64_max_ulps: float | None  # the same kernel in float64, in float64 ulps of each entry
    float64_scale_ulps: float | None  # ... and in float64 ulps at the largest |output|

    @property
    def float64_within_one_ulp(self) -> bool | None:
        """Whether the float64 run is within 1 ulp at the output's scale (normwise)."""
        return None if self.float64_scale_ulps is None else self.float64_scale_ulps <= 1.0

    def __str__(self) -> str:
        lines = [
            f"{self.kernel} in {self.dtype}: {self.entries:,} output entries against exact "
            f"values certified to {DIGITS} digits",
            f"  max error     {self.max_ulps:.3g} ulp of the entry, {self.scale_ulps:.3g} ulp "
            f"at the output's scale ({self.max_error:.3g} absolute)",
            f"  median error  {self.median_ulps:.3g} ulp of the entry",
        ]
        if self.float64_max_ulps is not None and self.float64_scale_ulps is not None:
            verdict = "within 1 ulp" if self.float64_within_one_ulp else "NOT within 1 ulp"
            lines.append(
                f"  float64 run   {self.float64_scale_ulps:.3g} float64 ulp at the output's "
                f"scale: {verdict} (max {self.float64_max_ulps:.3g} ulp of the entry)"
            )
        lines.append("  worst entries:")
        for entry in self.worst:
            where = ", ".join(str(i + 1) for i in entry.index)
            lines.append(
                f"    [{where}]  kernel {entry.kernel!r}  exact {entry.exact}  {entry.ulps:.3g} ulp"
            )
        return "\n".join(lines) + "\n"


def verify(
    kernel: Any,
    query: Any,
    key: Any = None,
    value: Any = None,
    *,
    attn_mask: Any = None,
    key_padding_mask: Any = None,
    worst: int = 5,
    float64: bool = True,
    rope: Any = None,
    is_causal: bool = False,
) -> Verification:
    """Run ``kernel`` in its own dtype and compare every output entry with the exact value.

    ``kernel`` is a ``torch.nn.MultiheadAttention`` (called as ``kernel(query, key, value,
    need_weights=False, ...)``; its exact twin is ``AttentionSpec.from_torch(...,
    floats="binary")``), or any callable with the signature of
    ``torch.nn.functional.scaled_dot_product_attention`` (``kernel(query, key, value)``, inputs
    ``(..., L, d)``; the exact reference is softmax(q k^T / sqrt(d)) v for each leading index).
    Inputs are taken as the floats the kernel receives, exactly. ``float64=True`` also runs the
    kernel in float64 and reports its largest error in float64 ulps.

    A callable kernel may do more than SDPA, and the reference follows it: ``rope`` (``True``
    or ``{"base": 10000, "pairs": "halves"}``, as a spec's ``rope``) when it turns q and k by
    rotary position embeddings first, ``is_causal`` when each query sees only keys up to its
    own position; key and value with fewer heads than the query (``(..., H_kv, L, d)``, H_kv
    dividing H) are grouped-query attention, query head i reading key/value head
    ``i // (H // H_kv)`` (as ``enable_gqa`` and ``repeat_interleave`` do).
    """
    import torch

    if not callable(kernel):
        raise TypeError(f"verify takes an nn.MultiheadAttention or a callable, got {kernel!r}")
    shared = (key is None or key is query) and (value is None or value is query)
    key = query if key is None else key
    value = key if value is None else value
    tensors = [_tensor(t, name) for t, name in ((query, "query"), (key, "key"), (value, "value"))]
    masks = {"attn_mask": attn_mask, "key_padding_mask": key_padding_mask}
    module = isinstance(kernel, torch.nn.MultiheadAttention)
    _check_options(module, masks, rope, is_causal)
    group = 1 if module else _group(*(tuple(t.shape) for t in tensors))  # before the kernel runs
    run = _module_run(kernel, masks) if module else _function_run(kernel)
    with torch.no_grad():
        output = run(*tensors)
    settings = {"rope": rope, "mask": "causal" if is_causal else None}
    exact = (
        _exact_module(kernel, tensors, masks, shared)
        if module
        else _exact_function(tensors, group, settings)
    )
    wide = _float64_errors(kernel, tensors, masks, module, exact) if float64 else None
    return _verification(_name(kernel), output, exact, wide, worst)


def _verification(
    name: str, output: Any, exact: list[Any], wide: list[Entry] | None, worst: int
) -> Verification:
    """The report of a run's ``output`` against ``exact`` (``wide``: the float64 run's)."""
    import torch

    info = torch.finfo(output.dtype)
    found = _errors(output, exact, info)
    ulps = [entry.ulps for entry in found]
    found.sort(key=lambda entry: -entry.ulps)
    return Verification(
        kernel=name,
        dtype=str(output.dtype).removeprefix("torch."),
        entries=len(found),
        max_ulps=max(ulps),
        median_ulps=statistics.median(ulps),
        max_error=max(entry.error for entry in found),
        scale_ulps=_scale_ulps(found, exact, info),
        worst=tuple(found[:worst]),
        float64_max_ulps=None if wide is None else max(entry.ulps for entry in wide),
        float64_scale_ulps=None if wide is None else _scale_ulps(wide, exact, _finfo64()),
    )


def _check_options(module: bool, masks: dict[str, Any], rope: Any, is_causal: bool) -> None:
    if not module and any(m is not None for m in masks.values()):
        raise ValueError("masks go with an nn.MultiheadAttention kernel; pass them to it")
    if module and (rope is not None or is_causal):
        raise ValueError(
            "rope and is_causal describe a function kernel; give an nn.MultiheadAttention "
            "its attn_mask"
        )


def _tensor(value: Any, name: str) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        if not value.is_floating_point():
            raise TypeError(f"{name} must be a floating-point tensor, got {value.dtype}")
        return value.detach()
    raise TypeError(f"{name} must be a torch.Tensor (the kernel's own input), got "
                    f"{type(value).__name__}")  # fmt: skip


def _name(kernel: Any) -> str:
    return getattr(kernel, "__qualname__", None) or type(kernel).__name__


def _module_run(module: Any, masks: dict[str, Any]) -> Callable[..., Any]:
    def run(query: Any, key: Any, value: Any) -> Any:
        output, _ = module(query, key, value, need_weights=False, **masks)
        return output

    return run


def _function_run(function: Callable[..., Any]) -> Callable[..., Any]:
    def run(query: Any, key: Any, value: Any) -> Any:
        result = function(query, key, value)
        return result[0] if isinstance(result, tuple) else result

    return run


def _exact_module(
    module: Any, tensors: list[Any], masks: dict[str, Any], shared: bool
) -> list[Any]:
    """The certified output of the module's exact twin, as one list of balls (row-major)."""
    from mha_symbolic.exact.evaluate import derive
    from mha_symbolic.spec.attention import AttentionSpec

    query, key, value = tensors
    spec = AttentionSpec.from_torch(
        module, query, None if shared else key, None if shared else value,
        floats="binary", **masks,
    )  # fmt: skip
    d = derive(spec, large=True)
    return [ball for row in d.enclose("output", DIGITS) for ball in row]


def _exact_function(tensors: list[Any], group: int, settings: dict[str, Any]) -> list[Any]:
    """softmax(q k^T / sqrt(d)) v exactly, for every leading index of (..., L, d) inputs,
    ``group`` query heads to a key/value head (``settings``: the spec's rope and mask, when
    the kernel has them)."""
    from mha_symbolic.exact.evaluate import derive
    from mha_symbolic.spec.attention import AttentionSpec

    query = tensors[0]
    given = {name: setting for name, setting in settings.items() if setting is not None}
    balls: list[Any] = []
    for index in _indices(tuple(query.shape[:-2])):
        shared = (*index[:-1], index[-1] // group) if index else index  # its key/value head
        q, k, v = (t[at].double().numpy() for t, at in zip(tensors, (index, shared, shared)))
        spec = AttentionSpec(
            query=q, key=k, value=v, heads=1, layout="fused", floats="binary",
            weights=_identities(q.shape[1], k.shape[1], v.shape[1]), **given,
        )  # fmt: skip
        d = derive(spec, large=True)
        balls += [ball for row in d.enclose("output", DIGITS) for ball in row]
    return balls


def _group(query: tuple[int, ...], key: tuple[int, ...], value: tuple[int, ...]) -> int:
    """How many query heads share a key/value head (1 unless key and value have fewer)."""
    lead = query[:-2]
    if key[:-2] == lead and value[:-2] == lead:
        return 1
    kv = key[-3] if len(key) > 2 else 0
    if len(lead) and key[:-2] == value[:-2] == (*lead[:-1], kv) and kv and lead[-1] % kv == 0:
        return lead[-1] // kv
    raise ValueError(
        f"query {query}, key {key} and value {value} must share their leading (batch, head) "
        "dimensions, or key and value have fewer heads, dividing the query's "
        "(grouped-query attention)"
    )


def _identities(dq: int, dk: int, dv: int) -> dict[str, Any]:
    if dq != dk:
        raise ValueError(f"query width {dq} and key width {dk} must be equal")

    def eye(n: int) -> list[list[int]]:
        return [[int(i == j) for j in range(n)] for i in range(n)]

    return {"w_q": eye(dq), "w_k": eye(dk), "w_v": eye(dv)}


def _indices(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for size in shape:
        out = [(*index, i) for index in out for i in range(size)]
    return out


def _errors(output: Any, exact: list[Any], info: Any) -> list[Entry]:
    """Each entry's error against its ball, in absolute terms and in ulps of ``info``."""
    import flint

    values = output.detach().double().reshape(-1).tolist()
    if len(values) != len(exact):
        raise ValueError(
            f"the kernel returned {len(values)} output entries, the exact layer has {len(exact)}"
        )
    shape = tuple(output.shape)
    entries = []
    for flat, (got, ball) in enumerate(zip(values, exact)):
        error = float(abs(flint.arb(got) - ball).mid())  # got is exact: a float
        entries.append(
            Entry(_unravel(flat, shape), got, ball.str(20, radius=False), error,
                  error / _ulp(float(ball.mid()), info))
        )  # fmt: skip
    return entries


def _ulp(x: float, info: Any) -> float:
    """The spacing of ``info``'s floats at ``x`` (at least the smallest subnormal's)."""
    smallest = float(info.smallest_normal) * float(info.eps)
    if x == 0 or not math.isfinite(x):
        return smallest
    return max(float(info.eps) * 2.0 ** math.floor(math.log2(abs(x))), smallest)


def _unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    index = []
    for size in reversed(shape):
        flat, rest = divmod(flat, size)
        index.append(rest)
    return tuple(reversed(index))


def _finfo64() -> Any:
    import torch

    return torch.finfo(torch.float64)


def _scale_ulps(found: list[Entry], exact: list[Any], info: Any) -> float:
    scale = max(abs(float(ball.mid())) for ball in exact)
    return max(entry.error for entry in found) / _ulp(scale, info)


def _float64_errors(
    kernel: Any, tensors: list[Any], masks: dict[str, Any], module: bool, exact: list[Any]
) -> list[Entry]:
    """The errors of the same kernel run in float64."""
    import torch

    wide = [t.double() for t in tensors]
    if module:
        twin = copy.deepcopy(kernel).double()
        wide_masks = {
            name: m.double() if isinstance(m, torch.Tensor) and m.is_floating_point() else m
            for name, m in masks.items()
        }
        run = _module_run(twin, wide_masks)
    else:
        run = _function_run(kernel)
    with torch.no_grad():
        output = run(*wide)
    # Inputs and weights widen to float64 exactly, so the exact values are the same ones.
    return _errors(output, exact, torch.finfo(torch.float64))
