"""The words of a check report: each sentence a Phrase, English by default, said in any language.

A :class:`Phrase` is its English text (it is a ``str``: compared, joined and printed as the
checker's sentences always were) together with the ``[check]`` locale key it was filled from
and its numbers, so that a report can be rendered again in another language at the last
moment (:meth:`Voice.say`). Numbers are data put in as they are (decimals, printed claims,
shapes), or phrases themselves, said in the same language as the sentence around them. A step
key or a symbol the user typed goes in through :func:`code`, which a locale may mark as code.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from mha_symbolic.words import Words

SECTION = "check"  # the locale files' section of the check's words


class Phrase(str):
    """English text that remembers how it was said: ``key`` (within ``[check]``, a sub-table's
    key dotted: ``mistakes.mask_ignored``), its ``numbers``; or, for a list, its ``items``
    and the key of their separator."""

    key: str
    numbers: dict[str, Any]
    items: tuple[Any, ...] | None
    capital: bool


def _make(
    key: str, numbers: dict[str, Any], items: tuple[Any, ...] | None = None, capital: bool = False
) -> Phrase:
    made = Phrase(voice("en").render(key, numbers, items, capital))
    made.key, made.numbers, made.items, made.capital = key, numbers, items, capital
    return made


def phrase(key: str, /, **numbers: Any) -> Phrase:
    """The sentence ``[check] key`` with ``numbers`` filled in."""
    return _make(key, numbers)


def joined(separator: str, items: Iterable[Any]) -> Phrase:
    """``items`` one after another, apart by ``[check] separator`` (``list``: ", ")."""
    return _make(separator, {}, tuple(items))


def code(text: object) -> Phrase:
    """A step key or a name the user typed, as the locale writes code (``[check] code``)."""
    return _make("code", {"text": str(text)})


def sentence(parts: Iterable[Any]) -> Phrase:
    """The parts (``; ``-separated) as one sentence: capitalised, with a full stop."""
    return _make("sentence", {"text": joined("parts", parts)}, capital=True)


def columns(text: str) -> int:
    """The columns ``text`` takes in a terminal: combining marks (a Bengali vowel sign below
    or above its letter) and format characters take none."""
    return sum(unicodedata.category(ch) not in ("Mn", "Me", "Cf") for ch in text)


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces to ``width`` columns (``str.ljust`` by columns)."""
    return text + " " * max(0, width - columns(text))


class Voice:
    """The check's words in one language: ``voice("verdicts.wrong")``, ``voice.say(phrase)``."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.words = Words(lang, None)

    def __call__(self, key: str, /, **numbers: Any) -> str:
        section, _, name = f"{SECTION}.{key}".rpartition(".")
        return self.words(section, name, **numbers)

    def say(self, text: Any) -> str:
        """A phrase in this language; data (a number, a decimal, a key) as it is."""
        if not isinstance(text, Phrase):
            return str(text)
        return self.render(text.key, text.numbers, text.items, text.capital)

    def render(
        self, key: str, numbers: dict[str, Any], items: tuple[Any, ...] | None, capital: bool
    ) -> str:
        """The words of ``[check] key``: its items apart by it, or it with numbers filled in."""
        if items is not None:
            return self(key).join(self.say(item) for item in items)
        said = self(key, **{name: self.say(value) for name, value in numbers.items()})
        return said[:1].upper() + said[1:] if capital else said

    def sentence(self, text: str | None) -> str | None:
        """A report's sentence (a diagnosis, a note) in this language; None stays None. Text
        that is not a Phrase has no words to say it in another language: refused."""
        if text is None:
            return None
        if not isinstance(text, Phrase):
            raise TypeError(f"check report text is not a Phrase: {text!r}")
        return self.say(text)

    def verdict(self, verdict: str) -> str:
        return self(f"verdicts.{verdict}")

    def code(self, text: object) -> str:
        return self("code", text=text)


@lru_cache(maxsize=8)
def voice(lang: str = "en") -> Voice:
    """The words of ``lang`` (``en``, ``bn``); an unknown language is a one-line SpecError."""
    return Voice(lang)
