"""The filters of the plain-text (terminal) solution: maths as Unicode, prose wrapped to the
page width, headings underlined, the summary as an aligned table."""

from __future__ import annotations

import textwrap
import unicodedata
from typing import Any

from mha_symbolic.solution import plain

WIDTH = 100  # columns


def prose(text: str) -> str:
    """Words with their inline maths (between $...$) written as Unicode text."""
    parts = str(text).split("$")
    return "".join(plain.inline(p) if i % 2 else p for i, p in enumerate(parts))


def math(tex: str) -> str:
    return plain.inline(str(tex))


def display(tex: str, columns: plain.Columns = plain.COLUMNS) -> str:
    """Display maths, indented four spaces, within the page width; ``columns`` labels a group
    of columns of a matrix too wide for it (the locale's words)."""
    shown = plain.display(str(tex), WIDTH - 4, columns)
    return "\n".join(("    " + line).rstrip() for line in shown.splitlines())


def wrap(text: str, indent: int = 0) -> str:
    """Prose filled to the page width; lines after the first indented ``indent`` spaces."""
    return textwrap.fill(
        " ".join(str(text).split()),
        width=WIDTH,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def indented(text: str, indent: int = 2) -> str:
    """Prose filled to the page width, every line indented (an aside: insight, picture)."""
    pad = " " * indent
    return textwrap.fill(
        " ".join(str(text).split()),
        width=WIDTH,
        initial_indent=pad,
        subsequent_indent=pad,
        break_long_words=False,
        break_on_hyphens=False,
    )


def width(text: str) -> int:
    """Columns on a terminal: combining marks take none."""
    return sum(0 if unicodedata.combining(c) else 1 for c in text)


def underline(text: str, char: str = "-") -> str:
    shown = prose(str(text))
    return f"{shown}\n{char * max(width(shown), 3)}"


def summary_table(summary: Any) -> str:
    """The summary's columns and rows, aligned, cells as plain text."""
    rows = [list(summary.columns)] + [
        [str(r.step), prose(str(r.operation)), math(r.shapes), math(r.here)] for r in summary.rows
    ]
    widths = [max(width(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = ["  ".join(c + " " * (w - width(c)) for c, w in zip(row, widths)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


FILTERS = {
    "prose": prose,
    "math": math,
    "display": display,
    "wrap": wrap,
    "indented": indented,
    "underline": underline,
    "summary_table": summary_table,
    "text": str,
}
