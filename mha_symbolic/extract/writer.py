"""A draft as TOML: every value with a comment saying where it came from, every guess with what
else was possible, and the placeholders for what the document does not give."""

from __future__ import annotations

import json
import re
from typing import Any

from mha_symbolic.extract.draft import Draft, Value

_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"([+-]?)(\d*)\.(\d+)|([+-]?\d+)\.()")
_SCIENTIFIC = re.compile(r"[+-]?\d+(?:\.\d+)?[eE][+-]?\d+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
TOP = (
    "title",
    "tokens",
    "heads",
    "layout",
    "convention",
    "scale",
    "printed_transposed",
    "printed_shapes",
    "x",
    "query",
    "key",
    "value",
)
# Matrices written one row (or one head) a line; an example may start at Q/K/V, scores or weights.
MATRICES = ("x", "query", "key", "value", "q", "k", "v", "scores", "attention_weights", "mask")
WEIGHTS = ("w_q", "w_k", "w_v", "w_o")


def comment(text: str) -> str:
    """User text safe inside a one-line TOML comment."""
    return _CONTROL.sub(" ", text).strip()


def literal(value: Any) -> str:
    """A TOML literal: numbers as written (0.50 stays 0.50), other text as a string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):  # an inline table: { w_q = [4, 2] }
        return "{ " + ", ".join(f"{k} = {literal(v)}" for k, v in value.items()) + " }"
    text = str(value)
    if _INTEGER.fullmatch(text) and len(text) < 19:
        return text
    decimal = _DECIMAL.fullmatch(text)
    if decimal:
        sign, whole, fraction, bare, _ = decimal.groups()
        return f"{sign}{whole or '0'}.{fraction}" if bare is None else f"{bare}.0"
    if _SCIENTIFIC.fullmatch(text):
        return text
    return json.dumps(text, ensure_ascii=False)


def _line(key: str, value: Value) -> str:
    note = comment(value.source)
    if value.guess:
        note += f"; guess: {comment(value.guess)}"
    return (
        f"{key} = {literal(value.value)}  # {note}" if note else f"{key} = {literal(value.value)}"
    )


def _matrix(key: str, value: Value) -> list[str]:
    """A matrix one row a line, or a list of per-head matrices one head a line."""
    rows = value.value
    if not isinstance(rows, list) or (len(rows) < 2 and not isinstance(rows[0][0], list)):
        return [_line(key, value)]
    sources = value.source.split("; ")
    out = [f"{key} = [  # {comment(value.source)}"]
    for index, row in enumerate(rows):
        tail = ""
        if isinstance(row[0], list) and len(sources) == len(rows):
            tail = f"  # head {index + 1}: {comment(sources[index])}"
        out.append(f"    {literal(row)},{tail}")
    out.append("]")
    return out


def to_toml(draft: Draft) -> str:
    out = _header(draft)
    out.append(f"title = {literal(draft.title)}  # the document's first heading, or its name")
    for key in TOP[1:]:
        value = next((v for v in draft.values if v.key == key), None)
        if value is not None:
            out.extend(_matrix(key, value) if key in MATRICES else [_line(key, value)])
    for value in draft.values:  # any other spec key (q, k, v, scores, mask, mask_fill, ...)
        if value.key not in TOP and not value.key.startswith("weights."):
            key = value.key
            out.extend(_matrix(key, value) if key in MATRICES else [_line(key, value)])
    out += ["", "[weights]"]
    for name in WEIGHTS:
        value = next((v for v in draft.values if v.key == f"weights.{name}"), None)
        if value is not None:
            out.extend(
                _matrix(name, value) if isinstance(value.value, list) else [_line(name, value)]
            )
    out.extend(draft.placeholders)
    for table, values in (("claims", draft.claims), ("assumed", draft.assumed)):
        if values:
            out += ["", f"[{table}]"]
            out.extend(_line(json.dumps(v.key), v) for v in values)
    return "\n".join(out) + "\n"


def _header(draft: Draft) -> list[str]:
    out = [
        f"# Draft spec extracted from {comment(draft.document)} by `mha-symbolic extract`.",
        "# Each value says where it came from; 'guess:' says what else was possible;",
        "# PLACEHOLDER marks what the document does not give. [claims] are numbers it",
        "# computes, [assumed] numbers it says it assumes.",
    ]
    if draft.all_notes:
        out.append("# Notes:")
        out.extend(f"#   - {comment(n)}" for n in draft.all_notes)
    if draft.shapes:
        out.append("# Shapes the document states:")
        out.extend(f"#   - {comment(s)}" for s in draft.shapes)
    return [*out, ""]
