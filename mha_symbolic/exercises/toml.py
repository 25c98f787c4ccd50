"""A variant's spec as TOML, written by tomlkit: top-level keys, then the tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tomlkit
from tomlkit.items import Item

from mha_symbolic.errors import SpecError
from mha_symbolic.text import one_line


def _item(value: Any) -> Item:
    """A TOML value; a table inside a table written inline (``bn = {title = "..."}``)."""
    if isinstance(value, dict):
        inline = tomlkit.inline_table()
        for key, inner in value.items():
            inline.append(key, _item(inner))
        return inline
    if isinstance(value, list):
        array = tomlkit.array()
        array.extend(_item(v) for v in value)
        return array
    if isinstance(value, str):
        _no_surrogate(value)
    elif not isinstance(value, (bool, int)):
        raise TypeError(f"no TOML for {type(value).__name__}")
    return tomlkit.item(value)


def _no_surrogate(text: str) -> None:
    """A lone surrogate cannot be written as UTF-8: say which text holds one."""
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise SpecError(f"text {one_line(text)!r} holds a lone surrogate (U+{ord(ch):04X})")


def to_toml(table: Mapping[str, Any]) -> str:
    """A variant's spec table as TOML that ``mha-symbolic derive`` reads back: its tables
    ([weights], [parameters], ...) after the top-level keys."""
    document = tomlkit.document()
    tables = {k: v for k, v in table.items() if isinstance(v, dict)}
    for key, value in table.items():
        if key not in tables:
            _no_surrogate(key)
            document.add(key, _item(value))
    for name, entries in tables.items():
        part = tomlkit.table()
        for key, value in entries.items():
            _no_surrogate(key)
            part.add(key, _item(value))
        document.add(name, part)
    return tomlkit.dumps(document)
