"""The words of one language, formatted with numbers only (user text never passes through)."""

from __future__ import annotations

from typing import Any

from mha_symbolic.language.locales import Locale, fill, load


class Words:
    """Locale strings by section and key: ``words("captions", "head.q", head=1)``; a section
    may name a sub-table (``words("check.verdicts", "wrong")`` reads ``[check.verdicts]``)."""

    def __init__(self, lang: str, templates: str | None) -> None:
        self.table = load(lang, templates)

    def __call__(self, section: str, key: str, /, **numbers: Any) -> str:
        table = self._section(section)
        return fill(table[key], table.where(key), **numbers)

    def get(self, section: str, key: str, /, **numbers: Any) -> str | None:
        table: Any = self.table
        for part in section.split("."):
            table = table.get(part, {}) if isinstance(table, Locale) else {}
        text = table.get(key) if isinstance(table, Locale) else None
        return None if text is None else fill(text, table.where(key), **numbers)

    def _section(self, section: str) -> Locale:
        table: Locale = self.table
        for part in section.split("."):
            table = table[part]
        return table
