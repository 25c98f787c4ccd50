"""A value the code sets by hand over one it computed (``w = softmax(s)``, then
``w = torch.tensor([[0.0, 0.5, 0.5], ...])`` "for convenience"): from there on the page works
with the numbers it set, an assumption of its own, so what it computes from them follows from
them and is not a slip."""

from __future__ import annotations

import re

from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.items import Item

# The literal's own assignment, at the end of the text before its numbers.
_LITERAL = re.compile(
    r"(?:^|\n)\s*([A-Za-z_]\w*)\s*=\s*(?:torch\.tensor|torch\.Tensor|np\.array|numpy\.array)\(\s*$"
)
_LITERAL_START = re.compile(r"(?:torch\.tensor|torch\.Tensor|np\.array|numpy\.array)\(|\[")
_ABOVE = 200  # lines read above a literal for the name's computed value (a bound on the work)


def set_by_hand(document: Document, item: Item) -> bool:
    """Whether the array is a literal the code assigns to a name it computed in the lines
    above it."""
    own = _LITERAL.search(item.statement)
    if own is None:
        return False
    computed = re.compile(rf"^\s*{re.escape(own.group(1))}\s*=(?!=)\s*(\S.*)$")
    for line in document.lines[max(0, item.line - _ABOVE) : item.line]:
        found = computed.match(line.text)
        if found and not _LITERAL_START.match(found.group(1)):
            return True
    return False
