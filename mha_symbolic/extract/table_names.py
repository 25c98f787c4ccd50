"""Names of printed tables: a column of lists named by its header's symbol, and a pandas print
named by the array the cell above made it of."""

from __future__ import annotations

import re

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.items import Item

_DATAFRAME = re.compile(r"DataFrame\(\s*([A-Za-z_]\w*)\s*[,)]")


def column_name(item: Item) -> list[tuple[str, int | None, str]] | None:
    """A table column of lists is named by its header when the header is a symbol ("Q") or
    gives one in parentheses ("クエリ (\\( Q \\))"); a header of words ("Raw weights") may
    describe the column loosely, and the numbers say what it is."""
    if item.kind != "table" or len(item.columns) != 1:
        return None
    header = item.columns[0].strip()
    inner = re.findall(r"\(([^()]{1,20})\)", header)
    symbol = inner[-1] if inner else header if len(header.split()) == 1 else ""
    role = resolve(symbol) if symbol else None
    return [(role.role, role.head, role.name)] if role else None


def frame_name(document: Document, item: Item) -> list[tuple[str, int | None, str]] | None:
    """A pandas print is named by the array the cell above made it of ("pd.DataFrame(
    C_concat, ...)": concat), the name whole or its last part."""
    if item.kind != "frame":
        return None
    for back in range(item.line - 1, max(-1, item.line - 5), -1):
        found = _DATAFRAME.search(document.lines[back].text)
        if found:
            name = found.group(1)
            role = resolve(name) or resolve(name.rsplit("_", 1)[-1])
            return [(role.role, role.head, name)] if role else None
    return None
