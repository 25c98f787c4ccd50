"""Template folders and locale files (templates/locales/*.toml): every word an output prints."""

from __future__ import annotations

import os
import re
import string
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.output_files import inside
from mha_symbolic.text import one_line
from mha_symbolic.user_cache import parsed

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

LANGUAGES = ("en", "bn")
_HEAD_NUMBER = re.compile(r"\bhead\d+\.")


def template_dir(override: str | Path | None = None) -> Path:
    """The user's template folder, or the one shipped with the package."""
    if override is not None:
        path = Path(override)
        if not path.is_dir():
            raise SpecError("templates: no such directory", source=str(path))
        if not os.access(path, os.R_OK | os.X_OK):
            raise SpecError("templates: cannot read this directory", source=str(path))
        return path
    # Installed from a wheel, templates/ sits inside the package; in a source checkout (and an
    # editable install) it is the top-level folder beside the package.
    package = Path(__file__).resolve().parent.parent
    packaged = package / "templates"
    return packaged if packaged.is_dir() else package.parent / "templates"


class Locale(dict[str, Any]):
    """A locale table (or one of its sections) that knows its file: a missing key is a
    one-line error naming the file and the key, not a KeyError."""

    def __init__(self, entries: dict[str, Any], path: str, prefix: str = "") -> None:
        super().__init__(
            (k, Locale(v, path, f"{prefix}{k}.") if isinstance(v, dict) else v)
            for k, v in entries.items()
        )
        self.path, self.prefix = path, prefix

    def __missing__(self, key: str) -> Any:
        missing = f"key {self.name(key)}" if self.prefix else f"section [{key}]"
        raise SpecError(f"no {missing}", source=self.path)

    def name(self, *keys: str) -> str:
        """``[section] key`` of an entry, as its file names it (``[check.verdicts] wrong``)."""
        if self.prefix:
            return f"[{self.prefix[:-1]}] {'.'.join(keys)}"
        section, _, key = ".".join(keys).partition(".")
        return f"[{section}] {key}" if key else section

    def where(self, *keys: str) -> str:
        """``FILE: [section] key`` of an entry, for messages."""
        return f"{self.path}: {self.name(*keys)}"


@lru_cache(maxsize=16)
def load(lang: str = "en", templates: str | None = None) -> Locale:
    """The locale table for ``lang``; a template folder without locales/ uses the shipped one.
    Every entry is checked to be text whose placeholders are plain names (``{head}``)."""
    if lang not in LANGUAGES:
        raise SpecError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    path = template_dir(templates) / "locales" / f"{lang}.toml"
    if templates is not None and not os.path.lexists(path):
        path = template_dir() / "locales" / f"{lang}.toml"
    elif templates is not None and not (inside(templates, path) and os.path.isfile(path)):
        raise SpecError(
            "a locale must be a file inside the templates folder (not a link out of it)",
            source=str(path),
        )
    try:
        text = path.read_text(encoding="utf-8")
        if path.parent == template_dir() / "locales":  # shipped: parsed once per user
            table = Locale(parsed(text, tomllib.loads, "locales", str(path)), str(path))
        else:  # a user's own, perhaps in the making: parsed each time, never kept
            table = Locale(tomllib.loads(text), str(path))
    except OSError as exc:
        raise SpecError(f"cannot read locale: {exc.strerror}", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise SpecError(f"cannot read locale: not UTF-8 ({exc.reason})", source=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"bad locale TOML: {exc}", source=str(path)) from None
    _check(table)
    return table


def _check(table: Locale) -> None:
    """Every leaf of ``table`` is text with plain ``{name}`` placeholders."""
    for key, value in table.items():
        if isinstance(value, Locale):
            _check(value)
        elif not isinstance(value, str):
            raise SpecError(
                f"{table.name(key)}: expected text, got {type(value).__name__}", source=table.path
            )
        else:
            _fields(value, table.name(key), table.path)


def _fields(text: str, where: str, path: str | None = None) -> list[tuple[str, str | None]]:
    """(literal, name) pairs of ``text``; a placeholder other than a plain ``{name}`` (an
    attribute ``{a.b}``, an index ``{a[0]}``, a conversion or a format) is refused."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise SpecError(f"{where}: {exc} in {one_line(text)!r}", source=path) from None
    out = []
    for literal, name, spec, conversion in parts:
        if name is not None and (not name.isidentifier() or spec or conversion):
            field = name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            raise SpecError(
                f"{where}: placeholder {{{one_line(field)}}} is not a plain name; "
                "locale text may only use {name}",
                source=path,
            )
        out.append((literal, name))
    return out


def fill(text: object, where: str = "", /, **numbers: object) -> str:
    """``text`` with each ``{name}`` replaced by ``numbers[name]`` (``{{`` and ``}}`` are
    braces) and nothing else: no attribute or index access, as ``str.format`` would allow.
    ``where`` (file and key) names the entry in errors."""
    if not isinstance(text, str):
        raise SpecError(f"{where or 'locale entry'}: expected text, got {type(text).__name__}")
    out = []
    for literal, name in _fields(text, where or "locale text"):
        out.append(literal)
        if name is not None:
            if name not in numbers:
                known = ", ".join(f"{{{n}}}" for n in numbers) or "no placeholders"
                raise SpecError(
                    f"{where or 'locale text'}: unknown placeholder {{{name}}}; it may use {known}"
                )
            out.append(str(numbers[name]))
    return "".join(out)


def step_title(key: str, head: int | None, lang: str = "en", templates: str | None = None) -> str:
    """The title of step ``key`` (``head1.q`` -> "Queries, head 1")."""
    titles = load(lang, templates)["titles"]
    if head is None:
        return str(titles[key])
    title = titles[generic_key(key)]
    return fill(titles["with_head"], titles.where("with_head"), title=title, head=head)


def generic_key(key: str) -> str:
    """The key without its head number, as the locale tables hold it (``grad.head2.q`` ->
    ``grad.head.q``)."""
    return _HEAD_NUMBER.sub("head.", key, count=1)
