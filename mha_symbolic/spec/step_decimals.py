"""The spec's ``decimals``: how many decimal places its worked solution prints, as the document
prints them, for every step or step by step.

``decimals = 3`` is every step's. A document that prints its steps to different precisions
(seed 003: the scaled scores as 0.707, the weights as 0.67) gives a table::

    [decimals]
    default = 2         # every step not named below (without it: the printers' 2)
    scaled = 3          # a step's name: every head's scaled scores
    "head2.output" = 1  # a step's key: that step alone

A step's places are its key's (``head1.scaled``), else its name's (``scaled``, the key after
``headN.``), else ``default``. Whether each key names a step is checked where the steps are made
(:func:`mha_symbolic.model.program.build`); ``--decimals`` overrides them all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import bounds
from mha_symbolic.text import did_you_mean, one_line

DEFAULT = "default"
_KEY = re.compile(r"[a-z]+[0-9]*(\.[a-z_]+)?\Z")
_HEAD = re.compile(r"head[0-9]+\.")
_ALLOWED = "default, a step (head1.scaled, concat) or a step's name for every head (scaled)"


def read_decimals(value: Any) -> tuple[int | None, dict[str, int]]:
    """``decimals`` as (every step's places or None, {step key or name: places})."""
    if value is None:
        return None, {}
    if not isinstance(value, Mapping):
        return _places(value, "decimals"), {}
    table: dict[str, int] = {}
    for key, places in _flat(value):
        if not _KEY.match(key):
            raise SpecError(f"decimals.{one_line(repr(key), 40)} is not a step; give {_ALLOWED}")
        table[key] = _places(places, f"decimals.{key}")
    return table.pop(DEFAULT, None), table


def _flat(table: Mapping[Any, Any], within: str = "") -> list[tuple[str, Any]]:
    """The table's (key, value) pairs; TOML's dotted keys (head1.scaled = 3 unquoted) are
    nested tables, read back as the step key they spell."""
    out: list[tuple[str, Any]] = []
    for key, value in table.items():
        name = f"{within}{key}"
        if isinstance(value, Mapping) and not within:
            out += _flat(value, f"{name}.")
        else:
            out.append((name, value))
    return out


def places(key: str, default: int, table: Mapping[str, int]) -> int:
    """The places step ``key`` prints: its own, else its name's, else ``default``."""
    if key in table:
        return table[key]
    return table.get(_HEAD.sub("", key, count=1), default)


def with_spec_decimals(options: Any, spec: Any) -> Any:
    """The solution's Options (which say nothing of decimals) with the spec's own."""
    places = options.decimals if spec.decimals is None else spec.decimals
    return replace(options, decimals=places, step_decimals=spec.step_decimals)


def check_steps(table: Mapping[str, int], keys: Collection[str], source: str) -> None:
    """Each key of the table is a step of the attention, or the name of one (``scaled``)."""
    names = set(keys) | {_HEAD.sub("", key, count=1) for key in keys}
    for key in table:
        if key not in names:
            close = did_you_mean(key, sorted(names))
            raise SpecError(
                f"decimals.{key}: the attention has no step {key!r}{close}; give {_ALLOWED}",
                source=source,
            )


def _places(value: Any, where: str) -> int:
    """A whole number of places within the printers' bound."""
    number = bounds.integer(value)
    if number is None or not 0 <= number <= bounds.MAX_DECIMALS:
        written = f'"{value}"' if isinstance(value, str) else str(value)  # as TOML writes it
        shown = one_line(written.lower() if isinstance(value, bool) else written, 40)
        raise SpecError(
            f"{where} = {shown} is not a number of decimal places: "
            f"give a whole number from 0 to {bounds.MAX_DECIMALS}"
        )
    return number
