"""The words of one language, formatted with numbers only (user text never passes through)."""

from __future__ import annotations

from typing import Any

from mha_symbolic.locale import fill, load


class Words:
    """Locale strings by section and key: ``words("captions", "head.q", head=1)``."""

    def __init__(self, lang: str, templates: str | None) -> None:
        self.table = load(lang, templates)

    def __call__(self, section: str, key: str, **numbers: Any) -> str:
        return fill(self.table[section][key], self.table.where(section, key), **numbers)

    def get(self, section: str, key: str, **numbers: Any) -> str | None:
        text = self.table.get(section, {}).get(key)
        return None if text is None else fill(text, self.table.where(section, key), **numbers)
