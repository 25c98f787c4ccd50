"""Template folders and locale files (templates/locales/*.toml): every word an output prints."""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from mha_symbolic.errors import SpecError

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
            raise SpecError("--templates: no such directory", source=str(path))
        return path
    # Installed from a wheel, templates/ sits inside the package; in a source checkout (and an
    # editable install) it is the top-level folder beside the package.
    package = Path(__file__).resolve().parent.parent
    packaged = package / "templates"
    return packaged if packaged.is_dir() else package.parent / "templates"


@lru_cache(maxsize=16)
def load(lang: str = "en", templates: str | None = None) -> dict[str, Any]:
    """The locale table for ``lang``; a template folder without locales/ uses the shipped one."""
    if lang not in LANGUAGES:
        raise SpecError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    path = template_dir(templates) / "locales" / f"{lang}.toml"
    if templates is not None and not path.is_file():
        path = template_dir() / "locales" / f"{lang}.toml"
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(f"cannot read locale: {exc.strerror}", source=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"bad locale TOML: {exc}", source=str(path)) from None


def step_title(key: str, head: int | None, lang: str = "en", templates: str | None = None) -> str:
    """The title of step ``key`` (``head1.q`` -> "Queries, head 1")."""
    titles = load(lang, templates)["titles"]
    if head is None:
        return str(titles[key])
    title = titles[generic_key(key)]
    return str(titles["with_head"]).format(title=title, head=head)


def generic_key(key: str) -> str:
    """The key without its head number, as the locale tables hold it (``grad.head2.q`` ->
    ``grad.head.q``)."""
    return _HEAD_NUMBER.sub("head.", key, count=1)
