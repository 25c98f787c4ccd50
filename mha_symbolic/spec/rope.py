"""The spec's ``rope`` key: rotary position embeddings of the queries and keys."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import bounds
from mha_symbolic.text import did_you_mean

PAIRS = ("halves", "interleaved")
KEYS = ("base", "pairs")
DEFAULT_BASE = 10000


@dataclass(frozen=True)
class RopeSpec:
    """Rotate each head's q and k: pair j of position p by p * base^(-2j/d_k)."""

    base: int = DEFAULT_BASE
    pairs: str = "halves"


def read_rope(value: Any) -> RopeSpec | None:
    """``rope = true`` (base 10000, halves), ``false``, or a table {base, pairs}."""
    if value is None or value is False:
        return None
    if value is True:
        return RopeSpec()
    if not isinstance(value, Mapping):
        raise SpecError(
            f'rope must be true, false or a table {{base = 10000, pairs = "halves"}}, got {value!r}'
        )
    for key in value:
        if key not in KEYS:
            raise SpecError(f"unknown key 'rope.{key}'{did_you_mean(str(key), KEYS)}")
    given = value.get("base", DEFAULT_BASE)
    base = bounds.integer(given)  # a NumPy integer is an integer
    if base is None or base < 2:
        raise SpecError(f"rope.base must be an integer of at least 2, got {given!r}")
    pairs = value.get("pairs", "halves")
    if pairs not in PAIRS:
        hint = did_you_mean(pairs, PAIRS) if isinstance(pairs, str) else ""
        raise SpecError(f"unknown rope.pairs {pairs!r}{hint}; choose halves or interleaved")
    return RopeSpec(base, pairs)


def check_widths(rope: RopeSpec | None, widths: list[int]) -> None:
    """Rotation turns features in pairs: every head's query/key width must be even."""
    if rope is None:
        return
    for head, width in enumerate(widths, start=1):
        if width % 2:
            raise SpecError(
                f"rope rotates features in pairs, but head {head}'s queries and keys have "
                f"odd width {width}"
            )
