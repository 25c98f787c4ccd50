"""Sentences said in any language: a :class:`Phrase` is its English text and how it was said.

A Phrase is a ``str`` (compared, joined and printed as English text always was) that also
remembers the locale section and key it was filled from and its numbers, so that it can be
rendered again in another language at the last moment (:meth:`Voice.say`). Numbers are data
put in as they are (decimals, shapes, a document's names), or phrases themselves, said in the
same language as the sentence around them. The check's report (``[check]``) and the notes of a
document's extraction (``[extract]``) are said this way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from mha_symbolic.language.words import Words


class Phrase(str):
    """English text that remembers how it was said: the locale ``section`` and the ``key``
    within it (a sub-table's key dotted: ``mistakes.mask_ignored``), its ``numbers``; or, for
    a list, its ``items`` and the key of their separator."""

    section: str
    key: str
    numbers: dict[str, Any]
    items: tuple[Any, ...] | None
    capital: bool


def make(
    section: str,
    key: str,
    numbers: dict[str, Any],
    items: tuple[Any, ...] | None = None,
    capital: bool = False,
) -> Phrase:
    """The phrase ``[section] key`` with ``numbers`` (or ``items`` apart by it), in English."""
    made = Phrase(voice(section).render(key, numbers, items, capital))
    made.section, made.key, made.numbers = section, key, numbers
    made.items, made.capital = items, capital
    return made


class Voice:
    """One section's words in one language: ``voice("verdicts.wrong")``, ``voice.say(phrase)``."""

    def __init__(self, section: str, lang: str = "en") -> None:
        self.section, self.lang = section, lang
        self.words = Words(lang, None)

    def __call__(self, key: str, /, **numbers: Any) -> str:
        section, _, name = f"{self.section}.{key}".rpartition(".")
        return self.words(section, name, **numbers)

    def say(self, text: Any) -> str:
        """A phrase in this language; data (a number, a decimal, a key) as it is. A phrase of
        another section is said by that section's voice."""
        if not isinstance(text, Phrase):
            return str(text)
        if text.section != self.section:
            return voice(text.section, self.lang).say(text)
        return self.render(text.key, text.numbers, text.items, text.capital)

    def render(
        self, key: str, numbers: dict[str, Any], items: tuple[Any, ...] | None, capital: bool
    ) -> str:
        """The words of ``key``: its items apart by it, or it with numbers filled in."""
        if items is not None:
            return self(key).join(self.say(item) for item in items)
        said = self(key, **{name: self.say(value) for name, value in numbers.items()})
        return said[:1].upper() + said[1:] if capital else said


@lru_cache(maxsize=16)
def voice(section: str, lang: str = "en") -> Voice:
    """The words of ``section`` in ``lang`` (``en``, ``bn``); an unknown language is a one-line
    SpecError."""
    return Voice(section, lang)
