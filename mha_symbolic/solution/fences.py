"""Brackets for the HTML page's MathML: ``\\left( a + 1 \\right)`` around a flat expression
is written ``(a + 1)``. A browser draws a stretchy bracket from pieces with room on both
sides, so ``(a + 3)(3a + 1)`` read ``( a + 3 ) ( 3a + 1 )`` in every fraction of
pytorch-style's output; only brackets around something tall (a fraction, a matrix, a sum)
need to stretch."""

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
