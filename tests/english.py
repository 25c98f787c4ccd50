"""English words left in a --lang bn output, once maths, code, anchors and labels are removed."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from typing import Any

# Words the Bengali text may keep in Latin letters, and why:
# - names of software and file formats, which Bengali writes in Latin letters too;
# - none of the ordinary technical words (token, head, matrix, ...): bn.toml writes them in
#   Bengali script, so each of them found here is a string still to translate.
ALLOWED = frozenset({"PyTorch", "NumPy", "JSON", "RoPE", "ALiBi"})

_MATH = [
    re.compile(r"\$\$.*?\$\$", re.S),  # display maths (md)
    re.compile(r"(?<!\\)\$.*?(?<!\\)\$", re.S),  # inline maths (md, tex)
    re.compile(r"\\\(.*?\\\)", re.S),
    re.compile(r"\\\[.*?\\\]", re.S),
    re.compile(r"<math\b.*?</math>", re.S),  # MathML (html)
    re.compile(r"<style\b.*?</style>", re.S),
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"`[^`]*`"),  # code spans
    re.compile(r"<code>.*?</code>", re.S),
    re.compile(r"!\[[^\]]*\]\([^)]*\)"),  # the alt text is repeated as the caption
    re.compile(r"\]\([^)]*\)"),  # link targets (file names)
    re.compile(r"<[^>]+>"),  # tags, with their attributes (ids are step keys)
    re.compile(r"\\begin\{[a-z*]+\}|\\end\{[a-z*]+\}"),
    re.compile(r"\\[A-Za-z]+\*?(\[[^\]]*\])?"),  # LaTeX commands and their options
    re.compile(r"\bdata:image/[a-z]+;base64,[A-Za-z0-9+/=]+"),
]
_COMMENT_LINE = re.compile(r"^[ \t]*%.*$", re.M)  # TeX comments (an answer key's check lines)
_WORD = re.compile(r"[A-Za-z]{2,}")


# LaTeX commands and which of their braced arguments are maths or names, never prose: our
# display-maths macros, a claim box's formula, cross references, pictures, a tabular's columns.
_TEX_ARGUMENTS = {
    "chain": {0, 1},
    "stepchain": {0, 1, 2},
    "fitmath": {0},
    "chainline": {0},
    "wrongclaim": {2},
    "texttt": {0},
    "label": {0},
    "ref": {0},
    "hypertarget": {0},
    "includegraphics": {0},
    "begin{tabular}": {0},
}
_TEX_COMMAND = re.compile(
    r"\\(" + "|".join(re.escape(c) for c in _TEX_ARGUMENTS) + r")(?![A-Za-z])"
)


def _group_end(text: str, at: int) -> int:
    """The index after the balanced ``{...}`` or ``[...]`` group that opens at ``at``."""
    opening = text[at]
    close, depth = {"[": "]", "{": "}"}[opening], 0
    for end in range(at, len(text)):
        if text[end - 1 : end] != "\\":
            depth += (text[end] == opening) - (text[end] == close)
        if depth == 0:
            return end + 1
    return len(text)


def _without_tex_arguments(text: str) -> str:
    """``text`` with the maths arguments (_TEX_ARGUMENTS) of each command removed."""
    out, at = [], 0
    for found in _TEX_COMMAND.finditer(text):
        if found.start() < at:
            continue
        out.append(text[at : found.start()])
        at, index = found.end(), 0
        while at < len(text) and text[at] == "[":
            at = _group_end(text, at)
        while at < len(text) and text[at] == "{" and index <= max(_TEX_ARGUMENTS[found[1]]):
            end = _group_end(text, at)
            if index not in _TEX_ARGUMENTS[found[1]]:
                out.append(text[at:end])
            at, index = end, index + 1
    return "".join(out) + text[at:]


def english_words(text: str, labels: Iterable[str] = ()) -> list[str]:
    """Each run of two or more Latin letters outside maths, code and markup, in order, that is
    neither one of ``labels`` (token labels are the user's own text) nor in ``ALLOWED``.
    A LaTeX document is read from ``\\begin{document}`` on (the preamble is code)."""
    if "\\begin{document}" in text:
        text = text[text.index("\\begin{document}") :]
    text = _without_tex_arguments(_COMMENT_LINE.sub(" ", text))
    for pattern in _MATH:
        text = pattern.sub(" ", text)
    text = html.unescape(text)
    own = set(labels)
    return [w for w in _WORD.findall(text) if w not in ALLOWED and w not in own]


def locale_keys(table: Any, prefix: str = "") -> set[str]:
    """Every key of a locale table, a sub-table's dotted: ``mistakes.unscaled``."""
    out = set()
    for key, value in table.items():
        out |= locale_keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {prefix + key}
    return out


def every_entry_said_in_bengali(
    section: str, said: set[str], plain: Callable[[str], str] = lambda text: text
) -> None:
    """Each entry of bn.toml's ``[section]`` was said (``said``: the keys rendered), has no
    English word (its ``{numbers}`` and ``plain`` maths aside), and en.toml has the same keys."""
    from mha_symbolic.language.locales import load

    table = load("bn")[section]
    assert locale_keys(table) - said == set()
    for key in locale_keys(table):
        entry: Any = table
        for part in key.split("."):
            entry = entry[part]
        assert english_words(plain(re.sub(r"\{\w+\}", " ", entry))) == [], key
    assert locale_keys(load("en")[section]) == locale_keys(table)
