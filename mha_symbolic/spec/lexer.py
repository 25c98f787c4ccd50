"""The tokens of one written value (linear time), with the checks local to each number."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from unicodedata import category as _category

import sympy as sp

from mha_symbolic.spec import bounds


class Refusal(Exception):
    """Why a value is refused. ``kind``: "why" (a reason and hint), "name" (an unknown name;
    ``reason`` is the hint in parentheses), "zero" (a division by zero), "infinite" (infinite
    or undefined), "complex" (not real)."""

    def __init__(self, reason: str, kind: str = "why") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


@dataclass(frozen=True)
class Token:
    kind: str  # num, word, cmd, op, end
    text: str
    gap: str  # the spacing written before it ("", " ", "\\,", "~")


_HEX = re.compile(r"(?<![\w.])0[xX]([0-9A-Fa-f]+)")
# Not inside a subscript such as W_{Q1,12} or W_{O,10,1}: the digits follow no letter or comma.
_SEPARATED = re.compile(r"(?<![\w{,])(\d{1,30})([_,'])(\d{1,30})")
_TOKEN = re.compile(
    r"(?P<space>(?:\s|~|\\[,;:! ]|\\q?quad(?![A-Za-z]))+)"
    r"|(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<word>[A-Za-z]+(?:_(?:\{[^{}]*\}|[A-Za-z0-9]))?)"
    r"|(?P<cmd>\\[A-Za-z]+)"
    r"|(?P<op>\\.|.)",
    re.DOTALL,
)
_SUBSCRIPT = re.compile(r"[A-Za-z0-9,]+")


def tokens(text: str) -> list[Token]:
    """The tokens of ``text`` (linear time), with the local checks on each number."""
    # Unicode category C: controls, format characters, unassigned; spaces (Z*) are read below.
    control = next((ch for ch in text if _category(ch)[0] == "C" and ch not in "\t\n\r"), None)
    if control is not None:  # an escape sequence or a stray byte, never part of a number
        raise Refusal(f"a control character ({control.encode('unicode_escape').decode()})")
    _separators(text)
    out: list[Token] = []
    gap = ""
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "op"
        if kind == "space":
            gap = match.group()
            continue
        out.append(Token(kind, match.group(), gap))
        gap = ""
    out.append(Token("end", "", gap))
    for before, after in itertools.pairwise(out):
        if before.kind == "num":
            _check_number(before, after)
    return out


def _check_number(number: Token, after: Token) -> None:
    digits = re.split(r"[eE]", number.text)
    mantissa = digits[0].replace(".", "")
    if len(mantissa) > bounds.MAX_DIGITS:
        raise Refusal(
            f"a number of {len(mantissa):,} digits; at most {bounds.MAX_DIGITS:,} are read"
        )
    if len(digits) > 1:
        exponent = digits[1].lstrip("+-")
        if len(exponent) > 6 or int(exponent) > bounds.MAX_EXPONENT:
            shown = exponent if len(exponent) <= 12 else exponent[:12] + "…"
            raise Refusal(f"the exponent {shown} is beyond the limit of ±{bounds.MAX_EXPONENT:,}")
    if after.gap:
        return
    _check_glued(number.text, after)


def _check_glued(number: str, after: Token) -> None:
    """What is written right after a number, with no space."""
    if (after.kind == "num" and after.text.startswith(".")) or after.text == ".":
        raise Refusal(f"two decimal points in one number ({number}{after.text})")
    if after.kind == "word":
        glued = number + after.text
        if after.text[:1] in "eE":
            raise Refusal(
                f"a letter right after a number ({glued}); write {number} \\cdot "
                f"{after.text}, or {number}{after.text[0]}3 for scientific notation"
            )
        raise Refusal(
            f"a letter right after a number ({glued}); write {number} \\cdot {after.text}"
        )
    return None


def _separators(text: str) -> None:
    """Hexadecimal and digit separators, refused before anything reads the digits."""
    hexadecimal = _HEX.search(text)
    if hexadecimal:
        digits = hexadecimal.group(1)
        hint = f"; write {int(digits, 16)}" if len(digits) <= 16 else ""
        raise Refusal(f"a hexadecimal number ({hexadecimal.group()[:20]}) is not read{hint}")
    separated = _SEPARATED.search(text)
    if not separated:
        return
    left, mark, right = separated.groups()
    written = f"{left}{mark}{right}"[:30]
    name = {"_": "an underscore", ",": "a comma", "'": "an apostrophe"}[mark]
    if mark == "," and len(right) != 3:
        raise Refusal(f"a decimal comma ({written}); write {left}.{right}"[:200])
    raise Refusal(f"{name} inside a number ({written}); write {left}{right}"[:200])


def gap_name(gap: str) -> str:
    """How a user would call the spacing ``gap`` in a message."""
    for mark, name in (
        ("\\,", "a thin space (\\,)"),
        ("~", "a non-breaking space (~)"),
        ("\\!", "a negative space (\\!)"),
        ("\\qquad", "a space (\\qquad)"),
        ("\\quad", "a space (\\quad)"),
        ("\\;", "a space (\\;)"),
        ("\\:", "a space (\\:)"),
        ("\\ ", "a space (\\ )"),
    ):
        if mark in gap:
            return name
    unusual = [ch for ch in gap if ch != " "]
    return f"a space (U+{ord(unusual[0]):04X})" if unusual else "a space"


def number_value(text: str) -> sp.Rational:
    """A number token as the exact rational it writes (``0.1`` -> 1/10)."""
    return sp.Rational(Fraction(Decimal(text)))
