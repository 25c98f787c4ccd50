"""A variant's spec as TOML (tomli-w is not a dependency: these tables are small and plain)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.text import one_line

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


_TOML_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and every control character (U+0000 to
    U+001F and U+007F, which TOML forbids raw) escaped; other characters as they are."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            raise SpecError(f"text {one_line(text)!r} holds a lone surrogate (U+{code:04X})")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {type(value).__name__}")


def to_toml(table: Mapping[str, Any]) -> str:
    """A variant's spec table as TOML that ``mha-symbolic derive`` reads back: its tables
    ([weights], [parameters], ...) after the top-level keys."""
    tables = {k: v for k, v in table.items() if isinstance(v, dict)}
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items() if k not in tables]
    for name, entries in tables.items():
        lines += ["", f"[{_toml_key(name)}]"]
        lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in entries.items()]
    return "\n".join(lines) + "\n"
