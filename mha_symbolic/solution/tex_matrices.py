"""A matrix as TeX sets it in a solution: its fractions at full size, its rows spaced by what
they hold (fractions apart, plain numbers close)."""

from __future__ import annotations

import re

_MATRIX = re.compile(r"\\begin\{bmatrix\}.*?\\end\{bmatrix\}", re.DOTALL)


def full_size_fractions(tex: str) -> str:
    r"""A matrix's fractions at full size (``\dfrac``, as the HTML draws them), its rows apart
    so that they do not touch: LaTeX sets a matrix's entries in text style, where a/(2a + 1)
    is script-sized. A tall matrix of plain numbers, its rows close."""

    def spaced(match: re.Match[str]) -> str:
        body = match.group(0)
        if r"\\" not in body:
            # One row has no rows to part: its brackets hug it (one-token's [34], [4  11] stood
            # in brackets twice their height).
            return r"{\def\arraystretch{0.8}" + _outer_fractions_full_size(body) + "}"
        if r"\frac" not in body:
            # A tall matrix of numbers at the rows' own height, as amsmath sets it: eight rows
            # 1.3 apart took a fifth of a page each, and pages went a quarter empty before them.
            tall = body.count(r"\\") >= _TALL_ROWS - 1
            return r"{\def\arraystretch{1}" + body + "}" if tall else body
        # A row's strut grows with \arraystretch (a "\\[1ex]" would not part rows this tall).
        # Exponentials in a fraction (1/(1 + e^{1/16}) over (1 + e^{9/8})/(...)) reach past a
        # row 2.1 apart: one row's denominator touched the next row's numerator. A little
        # space goes between the rows themselves there.
        if "e^{" in body:
            body = body.replace(" \\\\ ", " \\\\ \\noalign{\\vskip 0.8ex} ")
        return r"{\def\arraystretch{2.1}" + _outer_fractions_full_size(_close_plain(body)) + "}"

    return _MATRIX.sub(spaced, tex)


_TALL_ROWS = 6  # a matrix of numbers with this many rows or more is set close


def _close_plain(body: str) -> str:
    r"""A row without a fraction, below the first, closer to the row above it: rows of 0 under
    fractions stood 2.1 apart, as tall as the fractions (pytorch-style's gradient of W_V, half
    zeros, did not fit the third of a page left before it and went whole to the next page)."""
    rows = body.split(" \\\\ ")
    return rows[0] + "".join(
        (" \\\\ " if r"\frac" in row else " \\\\ \\noalign{\\vskip -1.8ex} ") + row
        for row in rows[1:]
    )


_TOKEN = re.compile(r"\\frac|\\left\b|\\right\b|[{}]")


def _outer_fractions_full_size(body: str) -> str:
    r"""Each entry's own fractions as ``\dfrac``; a fraction inside another, or inside a
    function's argument (sin(1/50) / 2), keeps the smaller size."""
    out, depth, last = [], 0, 0
    for match in _TOKEN.finditer(body):
        token = match.group(0)
        if token == r"\frac" and depth == 0:
            out.append(body[last : match.start()] + r"\dfrac")
            last = match.end()
        elif token in ("{", r"\left"):
            depth += 1
        elif token in ("}", r"\right"):
            depth -= 1
    return "".join(out) + body[last:]
