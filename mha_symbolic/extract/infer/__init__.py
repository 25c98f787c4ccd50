"""Inferring the computation from the printed numbers: each array an interval matrix
(arrays), the relations of attention among them (relations), a bounded search (search), the
examples, roles and heads it implies (graph), and the lines that say so (mapping)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.infer.float32_slack import with_float32_slack
from mha_symbolic.extract.infer.graph import Inference, infer
from mha_symbolic.extract.infer.intervals import Printed, printed_arrays
from mha_symbolic.extract.infer.search import search
from mha_symbolic.extract.infer.shared_names import distinct_names
from mha_symbolic.extract.infer.state import MAX_ARRAYS
from mha_symbolic.extract.infer.written_products import written_products
from mha_symbolic.extract.items import Item
from mha_symbolic.language.extract_phrases import Phrase, phrase

__all__ = ["Inference", "inferred", "where_of"]


def inferred(
    items: Sequence[Item],
    names: Mapping[int, str],
    float32: bool = False,
    roots: frozenset[int] = frozenset(),
    body: str = "",
) -> Inference:
    """What the numbers of a document's printed arrays say; ``names`` maps an item's index to
    the role its name suggests, used only to break ties (``float32``: the page computes in
    float32, its printed digits carry that rounding; ``roots``: what its text takes square
    roots of; ``body``: its joined text, where a product written out is read)."""
    arrays = printed_arrays(list(items), MAX_ARRAYS)
    found = search(with_float32_slack(arrays) if float32 else arrays, names, roots)
    if body and (factors := written_products(found, body)):
        names = {index: role for index, role in names.items() if index not in factors}
    return infer(found, distinct_names(found, names))


def where_of(document: Document, items: Sequence[Item]) -> Callable[[Printed], Phrase]:
    """Where an array stands ("line 37"; "line 37, array 2" when a line prints several)."""
    on_line: dict[int, list[int]] = {}
    for index, item in enumerate(items):
        on_line.setdefault(item.line, []).append(index)

    def where(p: Printed) -> Phrase:
        said = document.lines[p.line].where
        others = on_line.get(p.line, [p.index])
        if len(others) == 1:
            return phrase("infer.at", where=said)
        return phrase("infer.nth", where=said, nth=others.index(p.index) + 1)

    return where
