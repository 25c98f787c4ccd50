"""A draft as TOML, written by tomlkit: every value with a comment saying where it came from,
every guess with what else was possible, and the placeholders for what the document does not
give."""

from __future__ import annotations

import re
from typing import Any

import tomlkit
from tomlkit.items import Float, Integer, Item, Trivia

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


def literal(value: Any) -> Item:
    """A TOML value: numbers as written (0.50 stays 0.50), other text as a string."""
    if isinstance(value, (bool, int)):
        return tomlkit.item(value)
    if isinstance(value, list):
        array = tomlkit.array()
        array.extend(literal(v) for v in value)
        return array
    if isinstance(value, dict):  # an inline table: { w_q = [4, 2] }
        inline = tomlkit.inline_table()
        for key, inner in value.items():
            inline.append(key, literal(inner))
        return inline
    text = str(value)
    if _INTEGER.fullmatch(text) and len(text) < 19:
        return Integer(int(text), Trivia(), text)
    decimal = _DECIMAL.fullmatch(text)
    if decimal:
        sign, whole, fraction, bare, _ = decimal.groups()
        raw = f"{sign}{whole or '0'}.{fraction}" if bare is None else f"{bare}.0"
        return Float(float(raw), Trivia(), raw)
    if _SCIENTIFIC.fullmatch(text):
        return Float(float(text), Trivia(), text)
    return tomlkit.item(text)


def _noted(item: Item, note: str) -> Item:
    """``item`` with ``note`` as its comment, two spaces after the value."""
    if note:
        item.comment(note)
        item.trivia.comment_ws = "  "
    return item


def _value(value: Value) -> Item:
    note = comment(value.source)
    if value.guess:
        note += f"; guess: {comment(value.guess)}"
    return _noted(literal(value.value), note)


def _matrix(value: Value) -> Item:
    """A matrix one row a line, or a list of per-head matrices one head a line (each with
    where it came from)."""
    rows = value.value
    if not isinstance(rows, list) or (len(rows) < 2 and not isinstance(rows[0][0], list)):
        return _value(value)
    sources = value.source.split("; ")
    array = tomlkit.array()
    array.add_line(comment=comment(value.source), indent="  ", newline=False)  # x = [  # ...
    for index, row in enumerate(rows):
        per_head = isinstance(row[0], list) and len(sources) == len(rows)
        note = f"head {index + 1}: {comment(sources[index])}" if per_head else None
        array.add_line(literal(row), comment=note)
    array.add_line(indent="")  # the closing bracket on a line of its own
    return array


def to_toml(draft: Draft) -> str:
    document = tomlkit.document()
    for line in _header(draft):
        document.add(tomlkit.comment(line) if line else tomlkit.nl())
    document.add("title", _noted(literal(draft.title), "the document's first heading, or its name"))
    for key in TOP[1:]:
        value = next((v for v in draft.values if v.key == key), None)
        if value is not None:
            document.add(key, _matrix(value) if key in MATRICES else _value(value))
    for value in draft.values:  # any other spec key (q, k, v, scores, mask, mask_fill, ...)
        if value.key not in TOP and not value.key.startswith("weights."):
            matrix = isinstance(value.value, list)
            document.add(value.key, _matrix(value) if matrix else _value(value))
    weights = tomlkit.table()
    for name in WEIGHTS:
        value = next((v for v in draft.values if v.key == f"weights.{name}"), None)
        if value is not None:
            weights.add(name, _matrix(value) if isinstance(value.value, list) else _value(value))
    for line in draft.placeholders:  # commented-out TOML: what the document does not give
        weights.add(tomlkit.comment(line.removeprefix("# ")))
    document.add(tomlkit.nl())
    document.add("weights", weights)
    for name, values in (("claims", draft.claims), ("assumed", draft.assumed)):
        if values:
            table = tomlkit.table()
            for v in values:
                table.add(v.key, _value(v))
            document.add(name, table)
    return tomlkit.dumps(document)


def _header(draft: Draft) -> list[str]:
    """The comment lines at the top ("" for a blank line)."""
    out = [
        f"Draft spec extracted from {comment(draft.document)} by `mha-symbolic extract`.",
        "Each value says where it came from; 'guess:' says what else was possible;",
        "PLACEHOLDER marks what the document does not give. [claims] are numbers it",
        "computes, [assumed] numbers it says it assumes.",
    ]
    if draft.all_notes:
        out.append("Notes:")
        out.extend(f"  - {comment(n)}" for n in draft.all_notes)
    if draft.shapes:
        out.append("Shapes the document states:")
        out.extend(f"  - {comment(s)}" for s in draft.shapes)
    return [*out, ""]
