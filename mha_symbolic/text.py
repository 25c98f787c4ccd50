"""Small text helpers every layer shares: "did you mean", and user text made safe for one line."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

_SHOWN = 60  # characters of user text quoted in a message


def closest(word: str, options: Iterable[str], n: int = 1, cutoff: float = 0.5) -> list[str]:
    """The options nearest to ``word`` (at most ``n``), best first."""
    return difflib.get_close_matches(word, list(options), n=n, cutoff=cutoff)


def did_you_mean(word: str, options: Iterable[str], cutoff: float = 0.5) -> str:
    """`` (did you mean 'x'?)`` for the nearest option, or an empty string."""
    match = closest(word, options, cutoff=cutoff)
    return f" (did you mean '{match[0]}'?)" if match else ""


def one_line(text: str, limit: int = _SHOWN) -> str:
    """User text as it may appear inside a message: control characters escaped (no ANSI
    escape or newline reaches the terminal) and cut to ``limit`` characters."""
    escaped = "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )
    return escaped if len(escaped) <= limit else escaped[: limit - 1] + "…"
