"""The words of an extraction: where a number was read, the notes on what was read or guessed,
and the mapping of the document's names onto the spec, each a Phrase of ``[extract]``.

They are English ``str`` as they always were; ``voice(lang).say(note)`` says them again in
another language. A name the document prints (``WQ1``, a heading) and a spec key
(``weights.w_q``, ``head1.scores``) go in through :func:`code`, which a locale may mark as code.
"""

from __future__ import annotations

from typing import Any

from mha_symbolic.language import phrases
from mha_symbolic.language.phrases import Phrase, Voice

__all__ = ["Phrase", "Voice", "code", "named", "phrase", "voice"]

SECTION = "extract"  # the locale files' section of the extraction's words


def phrase(key: str, /, **numbers: Any) -> Phrase:
    """The words ``[extract] key`` with ``numbers`` filled in."""
    return phrases.make(SECTION, key, numbers)


def code(text: object) -> Phrase:
    """A spec key or a name the document prints, as the locale writes code."""
    return phrases.make(SECTION, "code", {"text": str(text)})


def named(name: str) -> Phrase:
    """The name a value goes by: our own words for it (``token rows``) as they are, the
    document's name as code."""
    return name if isinstance(name, Phrase) else code(name)


def voice(lang: str = "en") -> Voice:
    """The extraction's words in ``lang``; an unknown language is a one-line SpecError."""
    return phrases.voice(SECTION, lang)


def joined(key: str, items: tuple[object, ...]) -> Phrase:
    """``items`` said one after another, apart by the words ``[extract] key``."""
    return phrases.make(SECTION, key, {}, items=items)
