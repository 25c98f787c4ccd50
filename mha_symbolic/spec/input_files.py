"""Reading spec files: regular files only, within a size cap, TOML within a nesting bound."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.spec import bounds

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


MAX_STDIN = 16 * 1024 * 1024  # bytes of a spec read from standard input


def read_stdin() -> str:
    """The UTF-8 text of standard input, of at most :data:`MAX_STDIN` bytes."""
    if sys.stdin is None:  # started with standard input closed (<&-)
        raise SpecError("standard input is closed; give a spec file", source="<stdin>")
    data = sys.stdin.buffer.read(MAX_STDIN + 1)
    if len(data) > MAX_STDIN:
        raise SpecError(
            f"more than {MAX_STDIN} bytes; this is not a spec or claims", source="<stdin>"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise SpecError(reason, source="<stdin>") from None


def read_text(path: str | Path, where: str, limit: int = bounds.MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes.

    The kind is checked with ``os.stat`` before opening: opening a FIFO blocks until a writer
    comes, and ``/dev/zero`` never ends.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SpecError("no such file", source=where) from None
    except OSError as exc:
        raise SpecError(f"cannot read: {exc.strerror or exc}", source=where) from None
    if stat.S_ISDIR(info.st_mode):
        raise SpecError("is a directory, not a spec file", source=where)
    if not stat.S_ISREG(info.st_mode):
        raise SpecError("is not a regular file (a pipe or a device?)", source=where)
    if info.st_size > limit:
        raise SpecError(f"is {info.st_size:,} bytes; at most {limit:,} are read", source=where)
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise SpecError(f"cannot read: {exc.strerror or exc}", source=where) from None
    if len(data) > limit:  # it grew after the stat
        raise SpecError(f"is over {limit:,} bytes; at most {limit:,} are read", source=where)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(
            f"cannot read: not UTF-8 text ({exc.reason} at byte {exc.start})", source=where
        ) from None


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML with floats as the Decimal they were written as, nested at most MAX_TOML_DEPTH."""
    try:
        # Decimal keeps every float exactly as written (0.1 -> 1/10, 0.730 keeps its digits).
        table = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"invalid TOML: {exc}", source=where) from None
    except RecursionError:  # tomllib recurses once per nested array: [[[[...]]]]
        raise SpecError(_too_deep(), source=where) from None
    except ValueError:  # Python's limit on integer text (4,300 digits), met inside tomllib
        raise SpecError(
            f"an integer of more than 4,300 digits; at most {bounds.MAX_DIGITS:,} digits are read",
            source=where,
        ) from None
    check_depth(table, where)
    return table


def check_depth(value: Any, where: str) -> None:
    """A parsed table nested at most MAX_TOML_DEPTH (iteratively: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > bounds.MAX_TOML_DEPTH:
            raise SpecError(_too_deep(), source=where)
        if isinstance(item, Mapping):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)


def _too_deep() -> str:
    return f"invalid TOML: nested more than {bounds.MAX_TOML_DEPTH} levels deep"
