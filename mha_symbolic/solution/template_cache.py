"""The shipped templates compiled once per user, not at every command: Jinja2's bytecode of
them kept in the user's cache folder (compiling them took a tenth of ``derive -o x.md``).

Never stale: Jinja2 keeps each template's bytecode with a checksum of its source and compiles
it again when the source differs; the folder is named by everything else the bytecode depends
on (Jinja2's and Python's versions, the environment's syntax and escaping), so a Markdown
environment never reads an HTML one's. A cache that cannot be read or written is no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from mha_symbolic.user_cache import cache_folder

# What the compiled code of a template depends on besides its source.
_SETTINGS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "autoescape",
    "optimized",
    "sandboxed",
    "intercepted_binops",
    "intercepted_unops",
)


class _Cache(jinja2.FileSystemBytecodeCache):
    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # unreadable or damaged: compiled again, and written anew
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def template_cache(env: jinja2.Environment) -> jinja2.BytecodeCache | None:
    """A bytecode cache for ``env``'s templates; None when no cache folder can be made."""
    settings: list[Any] = [jinja2.__version__, sys.version, type(env).__qualname__]
    for name in _SETTINGS:
        value = getattr(env, name, None)
        if callable(value):  # (an autoescape function: by its name, not its address)
            value = f"{value.__module__}.{value.__qualname__}"
        settings.append(sorted(value) if isinstance(value, frozenset) else value)
    digest = hashlib.sha256(repr(settings).encode("utf-8")).hexdigest()[:16]
    folder = cache_folder() / f"templates-{digest}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return _Cache(str(folder))
