"""The text of an HTML page, read in one pass: block elements end lines, headings start with
'#', table cells are separated by '|', scripts and styles are left out.

Python's ``html.parser`` rescans its buffer at every unfinished ``</`` or ``<a`` (a page of
``'</' * 1_000_000`` took minutes); here each ``<`` is looked at once and each comment, script
or style is closed by one forward search, so the time is linear in the page."""

from __future__ import annotations

import html
import re

BLOCKS = frozenset(
    ("p", "div", "br", "li", "tr", "pre", "table", "section", "article", "blockquote", "ul")
) | {"ol", "hr", *(f"h{n}" for n in range(1, 7))}
SKIPPED = frozenset(("script", "style", "noscript", "svg", "head"))
# A tag ends at the first ">" outside quotes; no part of it holds a "<", so a scan from one "<"
# stops at the next and no character is read twice.
_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)((?:[^<>\"']|\"[^\"<>]*\"|'[^'<>]*')*)>")
_SPACES = re.compile(r"[ \t\r\n]+")


def page_text(page: str) -> str:
    """The page's visible text with its block structure as line breaks."""
    parts: list[str] = []
    pre = 0
    position = 0
    while position < len(page):
        opening = page.find("<", position)
        if opening < 0:
            parts.append(_data(page[position:], pre))
            break
        parts.append(_data(page[position:opening], pre))
        if page.startswith("<!--", opening):
            close = page.find("-->", opening + 4)
            position = len(page) if close < 0 else close + 3
            continue
        if page.startswith(("<!", "<?"), opening):
            close = page.find(">", opening)
            position = len(page) if close < 0 else close + 1
            continue
        tag = _TAG.match(page, opening)
        if tag is None:
            parts.append(_data("<", pre))  # a bare "<" in the text ("a < b")
            position = opening + 1
            continue
        closing, name = bool(tag.group(1)), tag.group(2).lower()
        position = tag.end()
        if not closing and name in SKIPPED and not tag.group(3).rstrip().endswith("/"):
            position = _skip(page, position, name)
            continue
        pre = max(0, pre + _structure(parts, name, closing))
    return "".join(parts)


def _data(text: str, pre: int) -> str:
    text = html.unescape(text)
    return text if pre else _SPACES.sub(" ", text)


def _skip(page: str, position: int, name: str) -> int:
    """Past the end tag of a script, style or head (the rest of the page if it has none)."""
    found = re.compile(rf"</{name}\s*>", re.IGNORECASE).search(page, position)
    return len(page) if found is None else found.end()


def _structure(parts: list[str], name: str, closing: bool) -> int:
    """Line breaks and markers for a tag; +1 / -1 when a <pre> opens or closes."""
    if name in BLOCKS and not (closing and name == "tr"):  # a table's rows on lines in a row
        parts.append("\n")
        if not closing and name[0] == "h" and name[1:].isdigit():
            parts.append("#" * int(name[1:]) + " ")
    elif name in ("td", "th") and not closing:
        parts.append(" | ")
    if name == "pre":
        return -1 if closing else 1
    return 0
