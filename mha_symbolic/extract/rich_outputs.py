"""A notebook output's HTML table (a pandas DataFrame or Styler, ``display(df)``) read as the
page reader reads an HTML table: its cells separated by '|', one row per line, so that the
table reader takes its header row and its index column as labels and the numbers as a matrix.

A Styler's plain text is only ``<pandas.io.formats.style.Styler>``: without its HTML, the
numbers the notebook shows are not in the output at all."""

from __future__ import annotations

import re
from typing import Any

from mha_symbolic.extract.markup import page_text

_TABLE = re.compile(r"<table\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d")


def table_text(data: dict[str, Any], plain: str) -> str | None:
    """The text of the output's HTML table, when it shows one and the plain text holds no
    number of it (a Styler's repr); None otherwise (the plain text is read as before)."""
    markup = data.get("text/html")
    if isinstance(markup, list):
        markup = "".join(part for part in markup if isinstance(part, str))
    if not isinstance(markup, str) or not _TABLE.search(markup) or _NUMBER.search(plain):
        return None
    lines = (line.strip() for line in page_text(markup).splitlines())
    return "\n".join(line for line in lines if line)
