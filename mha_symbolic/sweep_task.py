"""One configuration of a verify sweep, run where a Dask worker runs it: the inputs made from
the seed, the kernel verified, its worst errors returned as a row. Pure: a configuration gives
the same row on any worker, so a task retried after its worker died gives what it would have
given the first time."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from mha_symbolic.sweep_grid import Config


@dataclass(frozen=True)
class Row:
    """The errors of one configuration (see :class:`mha_symbolic.verify.Verification`)."""

    config: Config
    kernel: str
    entries: int
    max_ulps: float  # the largest error in ulps of the entry itself
    median_ulps: float
    scale_ulps: float  # the largest error in ulps at the output's largest magnitude
    max_error: float
    float64_max_ulps: float | None
    float64_scale_ulps: float | None

    def as_dict(self) -> dict[str, Any]:
        fields = asdict(self)
        return {**fields.pop("config"), **fields}


def is_module_kernel(kernel: Any) -> bool:
    """Whether ``kernel`` is the class torch.nn.MultiheadAttention (or a subclass): a module
    built for each configuration, rather than a function called on (heads, L, E / heads)."""
    if not isinstance(kernel, type):
        return False
    import torch

    return issubclass(kernel, torch.nn.MultiheadAttention)


def run(kernel: Any, config: Config, float64: bool = True) -> Row:
    """``verify`` of ``kernel`` on the inputs ``config`` makes (see :func:`inputs`)."""
    from mha_symbolic.verify import verify

    args, masks = inputs(kernel, config)
    found = verify(*args, **masks, float64=float64)
    return Row(
        config=config,
        kernel=found.kernel,
        entries=found.entries,
        max_ulps=found.max_ulps,
        median_ulps=found.median_ulps,
        scale_ulps=found.scale_ulps,
        max_error=found.max_error,
        float64_max_ulps=found.float64_max_ulps,
        float64_scale_ulps=found.float64_scale_ulps,
    )


def inputs(kernel: Any, config: Config) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments of ``verify`` for one configuration, made from its seed alone.

    A function kernel gets query, key and value of shape (heads, L, E / heads), drawn in that
    order by ``torch.randn`` in float64 from a ``torch.Generator`` seeded with the seed, then
    rounded to the dtype. The MultiheadAttention class is built as ``(E, heads,
    batch_first=True)`` right after ``torch.manual_seed(seed)`` (the global generator is put
    back after), cast to the dtype; its input x of shape (1, L, E) is drawn as above.
    """
    import torch

    dtype = getattr(torch, config.dtype)
    generator = torch.Generator().manual_seed(config.seed)

    def draw(*shape: int) -> Any:
        return torch.randn(*shape, generator=generator, dtype=torch.float64).to(dtype)

    if not is_module_kernel(kernel):
        width = config.E // config.heads
        return (kernel, *(draw(config.heads, config.L, width) for _ in range(3))), {}
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(config.seed)
        module = kernel(config.E, config.heads, batch_first=True)
    module = module.to(dtype).eval()
    return (module, draw(1, config.L, config.E)), _masks(config)


def _masks(config: Config) -> dict[str, Any]:
    import torch

    if config.mask == "causal":  # True: may not attend (torch's boolean attn_mask)
        return {"attn_mask": torch.ones(config.L, config.L, dtype=torch.bool).triu(1)}
    if config.mask == "padding":  # True: this key is padding
        padding = torch.zeros(1, config.L, dtype=torch.bool)
        padding[0, -1] = True
        return {"key_padding_mask": padding}
    return {}
