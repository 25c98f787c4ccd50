"""The filters of the plain-text (terminal) solution: maths as Unicode, prose wrapped to the
page width, headings underlined, the summary as an aligned table."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import textwrap
import unicodedata
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from mha_symbolic.solution import boxes, plain

WIDTH = 100  # columns of the page when there is no terminal to fit (a file, a pipe)
NARROWEST = 40  # columns: a narrower terminal gets this width (lines then wrap on screen)


def terminal_width() -> int:
    """The terminal's columns: ``COLUMNS``, else the terminal standard output is, else the
    one standard error is (output piped into ``head`` or ``less`` is read there); or
    :data:`WIDTH` when there is none. Never below :data:`NARROWEST`."""
    columns = shutil.get_terminal_size((0, 0)).columns
    if not columns:
        with contextlib.suppress(AttributeError, ValueError, OSError):
            columns = os.get_terminal_size(sys.__stderr__.fileno()).columns  # type: ignore[union-attr]
    return max(NARROWEST, columns or WIDTH)


def prose(text: str) -> str:
    """Words with their inline maths (between $...$) written as Unicode text."""
    parts = str(text).split("$")
    return "".join(plain.inline(p) if i % 2 else p for i, p in enumerate(parts))


def math(tex: str) -> str:
    return plain.inline(str(tex))


def display(
    tex: str,
    columns: boxes.Columns = boxes.COLUMNS,
    width: int = WIDTH,
    named: boxes.Columns | None = None,
    operands: Sequence[tuple[str, str]] = (),
    of: boxes.Columns | None = None,
) -> str:
    """Display maths, indented four spaces, within the page width; ``columns`` labels a group
    of columns of a matrix too wide for it (the locale's words), ``named`` one that is a whole
    line of a chain, naming the step's matrix; ``operands`` (LaTeX of a matrix, its name) the
    matrices written in a product, each named with ``of``'s words (``columns 1–2 of A₁:``)."""
    labels = {
        value: (of[0].replace("{name}", math(name)), of[1].replace("{name}", math(name)))
        for value, name in operands
        if of is not None
    }
    shown = plain.display(str(tex), width - 4, columns, named, labels)
    return "\n".join(("    " + line).rstrip() for line in shown.splitlines())


def wrap(text: str, indent: int = 0, width: int = WIDTH) -> str:
    """Prose filled to the page width; lines after the first indented ``indent`` spaces."""
    return _filled(text, width, "", " " * indent)


def indented(text: str, indent: int = 2, width: int = WIDTH) -> str:
    """Prose filled to the page width, every line indented (an aside: insight, picture)."""
    return _filled(text, width, " " * indent, " " * indent)


def _filled(text: str, width: int, first: str, after: str) -> str:
    """Prose filled to ``width``, not broken inside a matrix's row (``[1/3, 1/3, 1/3]``) up
    to half the width long (a longer one would not fit a line)."""

    def kept(row: re.Match[str]) -> str:
        shown = row.group()
        return shown.replace(" ", _KEPT) if len(shown) <= width // 2 else shown

    joined = _ROW.sub(kept, " ".join(str(text).split()))
    filled = textwrap.fill(
        joined,
        width=width,
        initial_indent=first,
        subsequent_indent=after,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return filled.replace(_KEPT, " ")


_ROW = re.compile(r"\[[^\[\]]*\]")  # a bracket with no bracket inside: one row


def width(text: str) -> int:
    """Columns on a terminal: combining marks take none."""
    return sum(0 if unicodedata.combining(c) else 1 for c in text)


def underline(text: str, char: str = "-") -> str:
    shown = prose(str(text))
    return f"{shown}\n{char * max(width(shown), 3)}"


def summary_table(summary: Any, columns: int = WIDTH) -> str:
    """The summary's columns and rows, aligned, cells as plain text; wider than ``columns``,
    the widest cells wrapped at spaces over several lines."""
    rows = [list(summary.columns)] + [
        [str(r.step), prose(str(r.operation)), math(r.shapes), math(r.here)] for r in summary.rows
    ]
    widths = _fitted(rows, columns)
    lines: list[str] = []
    for k, row in enumerate(rows):
        cells = [_cell(c, w) for c, w in zip(row, widths)]
        for i in range(max(len(cell) for cell in cells)):
            parts = [(cell[i] if i < len(cell) else "", w) for cell, w in zip(cells, widths)]
            lines.append("  ".join(c + " " * (w - width(c)) for c, w in parts).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fitted(rows: list[list[str]], columns: int) -> list[int]:
    """Each column's width: its widest cell, narrowed one column at a time (the one whose
    narrowing adds the fewest lines, the widest of those; never below its longest word)
    until the row fits ``columns`` with two spaces between columns."""
    widths = [max(width(row[j]) for row in rows) for j in range(len(rows[0]))]
    words = [[w for row in rows for w in _words(row[j])] for j in range(len(widths))]
    least = [max((width(w) for w in column), default=1) for column in words]
    while sum(widths) + 2 * (len(widths) - 1) > columns:
        narrower = [j for j in range(len(widths)) if widths[j] > least[j]]
        if not narrower:
            break

        def cost(j: int) -> tuple[int, int]:
            trial = [w - (k == j) for k, w in enumerate(widths)]
            return (_height(rows, trial), -widths[j])

        widths[min(narrower, key=cost)] -= 1
    return widths


def _words(text: str) -> list[str]:
    """The pieces a cell may be broken between (a parenthesis is one piece)."""
    return _INSIDE.sub(lambda m: m.group().replace(" ", _KEPT), text).split(" ")


def _height(rows: list[list[str]], widths: list[int]) -> int:
    """Lines the table takes with these column widths."""
    return sum(max(len(_cell(c, w)) for c, w in zip(row, widths)) for row in rows)


def _cell(text: str, room: int) -> list[str]:
    """A cell's lines, wrapped at spaces outside parentheses within ``room`` columns."""
    if width(text) <= room:
        return [text]
    kept = _INSIDE.sub(lambda m: m.group().replace(" ", _KEPT), text)
    lines = textwrap.wrap(kept, room, break_long_words=False, break_on_hyphens=False)
    return [line.replace(_KEPT, " ") for line in lines] or [""]


_KEPT = "\xa0"  # a space textwrap does not break at
_INSIDE = re.compile(r"\([^()]*\)")


def filters(columns: int = WIDTH) -> dict[str, Callable[..., str]]:
    """The filters of a page ``columns`` wide."""
    return {
        "prose": prose,
        "math": math,
        "display": partial(display, width=columns),
        "wrap": partial(wrap, width=columns),
        "indented": partial(indented, width=columns),
        "underline": underline,
        "summary_table": partial(summary_table, columns=columns),
        "text": str,
    }
