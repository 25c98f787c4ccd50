"""A verify sweep's grid: every combination of shapes, dtypes, masks and seeds is one
configuration, read from a TOML file or a dict, each field checked with one line naming the
file and the field."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from itertools import product
from typing import Any

from mha_symbolic.errors import SpecError

DTYPES = ("float16", "bfloat16", "float32", "float64")
# none; causal: no query sees a later key; padding: the last key is padding (key_padding_mask)
MASKS = ("none", "causal", "padding")
FIELDS = ("kernel", "shapes", "dtypes", "masks", "seeds", "float64")
SHAPE = ("L", "E", "heads")
MAX_SIZE = 65_536  # of L and E: far past any layer verify certifies in minutes
MAX_CONFIGS = 100_000
MAX_SEED = 2**63 - 1
KERNELS = '"scaled_dot_product_attention", "MultiheadAttention" or "package.module:function"'


@dataclass(frozen=True)
class Config:
    """One configuration of a sweep: its shape, dtype, mask and seed (one task)."""

    L: int
    E: int
    heads: int
    dtype: str = "float32"
    mask: str = "none"
    seed: int = 0

    def __str__(self) -> str:
        return (
            f"L {self.L}, E {self.E}, heads {self.heads}, {self.dtype}, mask {self.mask}, "
            f"seed {self.seed}"
        )


@dataclass(frozen=True)
class Grid:
    """A sweep as a file gives it: the kernel's name (None when not given) and the
    configurations, in the file's order (shapes, then dtypes, masks and seeds)."""

    kernel: str | None
    configs: tuple[Config, ...]
    float64: bool = True


def read_grid(path: str) -> Grid:
    """The sweep file at ``path`` (TOML), or a SpecError naming the file and the field."""
    from mha_symbolic.spec.input_files import parse_toml, read_text

    return grid(parse_toml(read_text(path, path), path), path)


def grid(table: Mapping[str, Any], source: str = "configs") -> Grid:
    """The configurations of a grid table (the sweep file's fields)."""
    try:
        return _grid(table)
    except SpecError as error:
        raise error.located(source) from None


def listed(configs: Iterable[Any]) -> Grid:
    """Configurations given one by one, checked as a file's would be."""
    found = tuple(configs)
    for n, config in enumerate(found):
        where = f"configs[{n}]"
        if not isinstance(config, Config):
            raise SpecError(f"{where}: expected a Config, got {config!r}")
        shape = {"L": config.L, "E": config.E, "heads": config.heads}
        _shape(shape, where)
        for field, allowed in (("dtype", DTYPES), ("mask", MASKS)):
            if getattr(config, field) not in allowed:
                raise SpecError(f"{where}.{field}: expected one of {', '.join(allowed)}, got "
                                f"{getattr(config, field)!r}")  # fmt: skip
        _whole(config.seed, f"{where}.seed", 0, MAX_SEED)
    _distinct(found, "configs")
    return Grid(None, found)


def _grid(table: Mapping[str, Any]) -> Grid:
    unknown = [str(name) for name in table if name not in FIELDS]
    if unknown:
        raise SpecError(f"{unknown[0]}: not a sweep field (the fields: {', '.join(FIELDS)})")
    kernel = table.get("kernel")
    if kernel is not None and (not isinstance(kernel, str) or not kernel.strip()):
        raise SpecError(f"kernel: expected the name of a kernel ({KERNELS}), got {kernel!r}")
    if "shapes" not in table:
        raise SpecError("shapes: missing; give a list such as [{ L = 4, E = 8, heads = 2 }]")
    shapes = [_shape(item, f"shapes[{n}]") for n, item in enumerate(_list(table, "shapes"))]
    dtypes = _choices(table, "dtypes", DTYPES, "float32")
    masks = _choices(table, "masks", MASKS, "none")
    seeds = [_whole(seed, f"seeds[{n}]", 0, MAX_SEED) for n, seed in enumerate(_seeds(table))]
    _distinct(seeds, "seeds")
    _distinct(shapes, "shapes")
    float64 = table.get("float64", True)
    if not isinstance(float64, bool):
        raise SpecError(f"float64: expected true or false, got {float64!r}")
    count = len(shapes) * len(dtypes) * len(masks) * len(seeds)
    if count > MAX_CONFIGS:
        raise SpecError(
            f"shapes x dtypes x masks x seeds make {count:,} configurations; at most "
            f"{MAX_CONFIGS:,} run in one sweep"
        )
    if "padding" in masks:
        for n, (length, _, _) in enumerate(shapes):
            if length < 2:
                raise SpecError(
                    f"masks: padding blocks the last key, and shapes[{n}] has L {length}: "
                    "no key would be left"
                )
    configs = tuple(
        Config(length, width, heads, dtype, mask, seed)
        for (length, width, heads), dtype, mask, seed in product(shapes, dtypes, masks, seeds)
    )
    return Grid(kernel.strip() if kernel else None, configs, float64)


def _list(table: Mapping[str, Any], field: str) -> list[Any]:
    value = table[field]
    if not isinstance(value, list) or not value:
        raise SpecError(f"{field}: expected a non-empty list, got {value!r}")
    return value


def _seeds(table: Mapping[str, Any]) -> list[Any]:
    return _list(table, "seeds") if "seeds" in table else [0]


def _shape(item: Any, where: str) -> tuple[int, int, int]:
    if not isinstance(item, Mapping) or sorted(item) != sorted(SHAPE):
        raise SpecError(f"{where}: expected {{ L = ..., E = ..., heads = ... }}, got {item!r}")
    length = _whole(item["L"], f"{where}.L", 1, MAX_SIZE)
    width = _whole(item["E"], f"{where}.E", 1, MAX_SIZE)
    heads = _whole(item["heads"], f"{where}.heads", 1, MAX_SIZE)
    if width % heads:
        raise SpecError(f"{where}: E {width} is not a multiple of heads {heads}")
    return length, width, heads


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = value if isinstance(value, Decimal) else repr(value)  # as the file wrote it
        raise SpecError(f"{where}: expected a whole number from {low} to {high:,}, got {shown}")
    return value


def _choices(
    table: Mapping[str, Any], field: str, allowed: tuple[str, ...], default: str
) -> list[str]:
    values = _list(table, field) if field in table else [default]
    for n, value in enumerate(values):
        if value not in allowed:
            raise SpecError(f"{field}[{n}]: expected one of {', '.join(allowed)}, got {value!r}")
    _distinct(values, field)
    return values


def _distinct(values: Iterable[Any], field: str) -> None:
    """A value given twice would be one configuration run and reported twice."""
    seen: list[Any] = []
    for n, value in enumerate(values):
        if value in seen:
            raise SpecError(f"{field}[{n}]: the same as {field}[{seen.index(value)}]")
        seen.append(value)
