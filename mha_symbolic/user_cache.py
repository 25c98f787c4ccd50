"""The user's cache folder, and what is read once into it: a locale's parsed TOML (parsing
the English one took 5 to 10 ms of every command that prints words; loading it back, 0.3 ms).

Never stale: a table is kept, one file for each file it was read from and each Python, with
a digest of its text, and is read back only for that same text. A cache that cannot be read
or written is no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def cache_folder() -> Path:
    """``$XDG_CACHE_HOME/mha-symbolic`` (``~/.cache/mha-symbolic`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mha-symbolic"


def parsed(
    text: str, parse: Callable[[str], dict[str, Any]], kind: str, name: str
) -> dict[str, Any]:
    """``parse(text)``, the text of file ``name``, kept in the cache folder (under ``kind``) as
    marshal: a table of text, numbers, lists and tables only (anything else is parsed every
    time). One file a name: a changed text replaces it."""
    where = f"{sys.version}\0{marshal.version}\0{kind}\0{name}"
    path = cache_folder() / kind / f"{_digest(where)}.marshal"
    digest = _digest(text)
    try:
        stored = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        stored = None
    if isinstance(stored, tuple) and stored[:1] == (digest,) and isinstance(stored[-1], dict):
        return stored[-1]  # (what was stored: this text's digest and its table)
    table = parse(text)
    with contextlib.suppress(ValueError):  # (something marshal cannot write: not kept)
        _store(path, marshal.dumps((digest, table)))
    return table


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _store(path: Path, data: bytes) -> None:
    """``data`` at ``path`` all at once (a reader at the same time sees the old file or the
    new one, never a part); nothing when the folder cannot be made or written."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
