"""Brackets, operator names and slashes for the HTML page's MathML, as TeX sets them.

``\\left( a + 1 \\right)`` around a flat expression is written ``(a + 1)``: a browser draws a
stretchy bracket from pieces with room on both sides, so ``(a + 3)(3a + 1)`` read
``( a + 3 ) ( 3a + 1 )`` in every fraction of pytorch-style's output; only brackets around
something tall (a fraction, a matrix, a sum) need to stretch. An operator's name gets the
thin space after it and a slash none around it."""

from __future__ import annotations

import re

_FENCE = re.compile(r"\\(left|right)(\(|\)|\[|\]|\\\{|\\\}|\||\.)")
_TALL = re.compile(r"\\(d?frac|begin|sum|prod|int|binom|left|middle)\b")
_PLAIN = frozenset("()[]")


def flat(tex: str) -> str:
    """``tex`` with each ``\\left( ... \\right)`` pair whose inside is flat (no fraction,
    matrix, sum or bracket that stretches) written as plain brackets."""
    fences = list(_FENCE.finditer(tex))
    pairs: list[tuple[re.Match[str], re.Match[str]]] = []
    opened: list[re.Match[str]] = []
    for fence in fences:
        if fence[1] == "left":
            opened.append(fence)
        elif opened:
            pairs.append((opened.pop(), fence))
    plain: set[int] = set()
    for left, right in pairs:
        inside = tex[left.end() : right.start()]
        if left[2] in _PLAIN and right[2] in _PLAIN and not _TALL.search(inside):
            plain.update((left.start(), right.start()))
    out, at = [], 0
    for fence in fences:
        if fence.start() in plain:
            out.append(tex[at : fence.start()] + fence[2])
            at = fence.end()
    return "".join(out) + tex[at:]


_FUNCTION = re.compile(r"\\(sin|cos|tan|exp|log|ln)(?![A-Za-z])(?=\s*[0-9A-Za-z\\])(?!\s*\\left)")


def spaced_functions(tex: str) -> str:
    """``\\cos 2`` with the thin space TeX puts after an operator's name, which MathML in a
    browser does not: rope's entries read cos1 - sin2φ."""
    return _FUNCTION.sub(r"\\\1\\,", tex)


def tight_slash(mathml: str) -> str:
    """A slash set as TeX sets it, without a relation's space on each side: 1/2 in an
    exponent read 1 / 2."""
    return mathml.replace("<mo>&#x0002F;</mo>", '<mo lspace="0" rspace="0">&#x0002F;</mo>')
