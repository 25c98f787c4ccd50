"""The words of a check report: each sentence a Phrase, English by default, said in any language.

A :class:`Phrase` (``mha_symbolic.language.phrases``) is its English text (it is a ``str``:
compared, joined and printed as the checker's sentences always were) together with the ``[check]``
locale key it was filled from and its numbers, so that a report can be rendered again in another
language at the last moment (:meth:`Voice.say`). Numbers are data put in as they are (decimals,
printed claims, shapes), or phrases themselves, said in the same language as the sentence
around them. A step key or a symbol the user typed goes in through :func:`code`, which a locale
may mark as code.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from mha_symbolic.language import phrases
from mha_symbolic.language.phrases import Phrase

__all__ = ["Phrase", "Voice", "code", "columns", "joined", "pad", "phrase", "sentence", "voice"]

SECTION = "check"  # the locale files' section of the check's words


def _make(
    key: str, numbers: dict[str, Any], items: tuple[Any, ...] | None = None, capital: bool = False
) -> Phrase:
    return phrases.make(SECTION, key, numbers, items, capital)


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


class Voice(phrases.Voice):
    """The check's words in one language: ``voice("verdicts.wrong")``, ``voice.say(phrase)``."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(SECTION, lang)

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
