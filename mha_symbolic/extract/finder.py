"""Finding every matrix and vector a document prints: LaTeX environments, bracketed lists (code,
prose, np.array / torch.tensor, printed outputs) and tuples, with the statement around each."""

from __future__ import annotations

import bisect
import re
import threading
from dataclasses import replace

from mha_symbolic.errors import SpecError
from mha_symbolic.extract.align_rows import align_rows
from mha_symbolic.extract.boxed import boxed_blocks
from mha_symbolic.extract.cell_values import cell_values
from mha_symbolic.extract.code_arrays import code_arrays
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.inline_indexed import inline_indexed
from mha_symbolic.extract.items import Item, Rows, Text, Unread, entry, joined, transposed
from mha_symbolic.extract.layouts import side_by_side
from mha_symbolic.extract.legacy_torch import legacy_torch_blocks
from mha_symbolic.extract.lists import (
    MAX_NESTING,
    MAX_SPAN,
    Unreadable,
    as_rows,
    number_like,
    parse,
)
from mha_symbolic.extract.r_prints import r_blocks
from mha_symbolic.extract.ranges import prose_range
from mha_symbolic.extract.scalars import scalars
from mha_symbolic.extract.tables import frames, julia_blocks, tables, tabular_rows
from mha_symbolic.extract.value_lines import value_lines

MAX_ITEMS = 2_000  # matrices in one document; a tutorial prints tens
_BEGIN = re.compile(r"\\begin\{([pbBvV]?matrix|array|tabular)\}(?:\{(?:[^{}]|\{[^{}]*\})*\})?")
_END = re.compile(r"\\end\{([pbBvV]?matrix|array|tabular)\}")
_ENDS_TRIED = 50  # \end{...} of other kinds skipped looking for a \begin's own
_BOUNDARY = re.compile(r"\n[ \t]*\n|\$\$|\\\[|\\\]|```[^\n]*|\n[ \t]*(?:[*•+-]|\d+[.)])\s|\n#")
_OPEN_END = re.compile(r"(=|:|→|\\rightarrow|\\to|\\approx|≈|\\\\|,|&|@|\(|\[)\s*$")
_SHAPE_BEFORE = re.compile(r"(?:\bshape|\bstrides|\bSize)\s*[=:(]?\s*$|\bTensor\[$")
_LOCK = threading.Lock()
_LAST: list[tuple[Document, tuple[Text, list[Item]]]] = []  # the last document read, its items
# An opener that can start a list of numbers: "(" before a number or a "[" (tensor([[...),
# "[" before a number, a bracket, or an entry that is told to be unreadable ("[NaN, ...").
_OPEN = re.compile(r"\[(?=\s*(?:[-+−–.\d\\\[\]{⁻…nNi]|array\(|tensor\())|\((?=\s*[-+−–.\d\\{\[])")
# A run of more openers than a list may nest ("[[[[[", "[array([array(..."): no list starts
# before its last MAX_NESTING brackets.
_DEEP = re.compile(rf"(?:\[\s*(?:(?:array|tensor)\(\s*)?){{{MAX_NESTING + 1},}}")
# A bracket right after a name, a call or an index subscripts it ("x[0]", "f(x)[1]", "a[0][1]");
# after a LaTeX sizing command it is a delimiter ("\\left[0.2, 0.8\\right]").
_SUBSCRIPT = re.compile(r"(?<![\\\w])(?!(?:left|right|[bB]ig{1,2}[lr]?)\Z)\w*[\w)\]]\Z")
_CALL = re.compile(r"[\w!]\Z")  # a call's "(" right after its name
_CONTINUES = re.compile(r"\s*(=|≈|\\approx|→|\\rightarrow|\\end\{)")


def find_items(document: Document) -> tuple[Text, list[Item]]:
    """Every matrix and vector the document prints, in order, and its joined text (whose
    ``unread`` lists the matrices left out for an entry that cannot be read). The last
    document's answer is kept: the reader and the notes ask for the same document in turn."""
    with _LOCK:
        if _LAST and _LAST[0][0] is document:
            text, items = _LAST[0][1]
            return text, list(items)
    found = _find_items(document)
    with _LOCK:
        _LAST[:] = [(document, found)]
    return found[0], list(found[1])


def unread_notes(document: Document) -> list[str]:
    """One note per matrix left out: ``line 12: row 2 of "X" cannot be read ('⁻1.0'): ...``."""
    text, _ = find_items(document)
    return [u.note(document.lines[u.line].where) for u in text.unread]


def _find_items(document: Document) -> tuple[Text, list[Item]]:
    text = joined(document)
    items, taken = side_by_side(text, [line.text for line in document.lines])
    lines = [line.text for line in document.lines]
    found, unread = tables(text, lines, lambda start: statement_before(text.body, start))
    for start, inner, end in _environments(text.body):
        inside = text.body[inner[0] : inner[1]]
        tabular = text.body.startswith("\\begin{tabular}", start)
        rows = tabular_rows(inside) if tabular else _latex_rows(inside)
        taken.append((start, end))
        if isinstance(rows, tuple):
            items.append(_item(text, rows, start, end, "latex"))
        elif rows is not None:
            unread.append(_unread(text, start, rows))
    items.extend(found)
    taken.extend((item.start, item.end) for item in found)  # a table's lists are its columns
    items.extend(julia_blocks(text, lines))
    items.extend(legacy_torch_blocks(text, lines))
    printed_r = r_blocks(text, lines)
    items.extend(printed_r)
    taken.extend((item.start, item.end) for item in printed_r)  # "[1,]" is a row's label
    boxed = boxed_blocks(text, lines, lambda start: statement_before(text.body, start))
    items.extend(boxed)
    taken.extend((item.start, item.end) for item in boxed)  # "[ CPUFloatType{2,3} ]": no list
    items.extend(f for f in frames(text, lines) if not _within(f, boxed))
    built = code_arrays(text, document.lines)  # "Wq = np.eye(d)": an array built, not printed
    items.extend(built)
    taken.extend((item.start, item.end) for item in built)  # not "(4, 4)" of "np.ones((4, 4))"
    items.extend(_bracketed(text, taken, unread))
    blocks = [(line.cell, line.output, line.code) for line in document.lines]
    spans = taken + [(item.start, item.end) for item in items]
    by_line = value_lines(text, lines, spans, blocks)
    items.extend(by_line)
    taken.extend((item.start, item.end) for item in by_line)
    by_cell = cell_values(text, document.lines)
    items.extend(by_cell)
    taken.extend((item.start, item.end) for item in by_cell)
    aligned = align_rows(text, taken + [(item.start, item.end) for item in items])
    aligned += inline_indexed(text, lines, taken + [(i.start, i.end) for i in [*items, *aligned]])
    items.extend(aligned)
    taken.extend((item.start, item.end) for item in aligned)
    if len(items) > MAX_ITEMS:
        raise SpecError(
            f"more than {MAX_ITEMS:,} matrices and vectors; at most {MAX_ITEMS:,} are read",
            source=document.name,
        )
    items.sort(key=lambda item: item.start)
    numbers = scalars(text, lines, taken + [(item.start, item.end) for item in items])
    unread.sort(key=lambda u: u.start)
    return replace(text, unread=tuple(unread), scalars=tuple(numbers)), items


def _within(item: Item, others: list[Item]) -> bool:
    return any(o.start <= item.start < o.end for o in others)


def _environments(body: str) -> list[tuple[int, tuple[int, int], int]]:
    """(start, (inner start, inner end), end) of each LaTeX matrix environment, in order and
    not overlapping; each \\begin is paired with the next \\end of its kind by bisection, so
    a page of unclosed environments takes linear time, not quadratic."""
    ends = [(m.start(), m.end(), m.group(1)) for m in _END.finditer(body)]
    positions = [e[0] for e in ends]
    out: list[tuple[int, tuple[int, int], int]] = []
    for begin in _BEGIN.finditer(body):
        if out and begin.start() < out[-1][2]:
            continue
        index = bisect.bisect_left(positions, begin.end())
        for candidate in ends[index : index + _ENDS_TRIED]:
            if candidate[0] - begin.end() > MAX_SPAN:
                break
            if candidate[2] == begin.group(1):
                out.append((begin.start(), (begin.end(), candidate[0]), candidate[1]))
                break
    return out


def _latex_rows(body: str) -> Rows | Unreadable | None:
    """The rows of a matrix environment; Unreadable at an entry meant as a number that cannot
    be read ("⁻1.0", "50\\%"); None for an environment of text."""
    lines = [line for line in re.split(r"\\\\(?:\[[^\]]*\])?", body) if line.strip()]
    rows = []
    for number, line in enumerate(lines, start=1):
        cells = re.sub(r"\\hline", "", line).split("&")
        entries = [entry(cell) for cell in cells]
        bad = next((c.strip() for c, e in zip(cells, entries) if e is None), None)
        if bad is not None:
            return Unreadable(bad, number if len(lines) > 1 else 0, 0) if number_like(bad) else None
        rows.append(tuple(e for e in entries if e is not None))
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        return None
    return tuple(rows)


def _item(
    text: Text, rows: Rows, start: int, end: int, kind: str, batch: tuple[int, ...] = ()
) -> Item:
    line_end = text.body.find("\n", end)
    after = text.body[end : line_end if line_end >= 0 else len(text.body)]
    statement = statement_before(text.body, start)
    line = text.line_of(start)
    above = text.body[text.starts[line - 1] : text.starts[line]] if line else ""
    item = Item(rows, start, end, line, kind, statement, after, batch)
    return replace(item, transposed=True) if transposed(statement, above) else item


def statement_before(body: str, start: int) -> str:
    """The statement an item ends: back to a blank line, a $$, a list bullet or a fence, and
    across line breaks only after an open end (``X =``, ``Output:``, ``\\\\``)."""
    window = body[max(0, start - 2_000) : start]
    cut = 0
    for match in _BOUNDARY.finditer(window):
        cut = (
            match.end()
            if not match.group(0).lstrip().startswith(("*", "•", "+", "-"))
            else (match.start() + 1)
        )
        if match.group(0).startswith("\n#"):
            cut = match.start() + 1
    lines = window[cut:].split("\n")
    kept = [lines[-1]]
    inside = 0  # lines of a LaTeX environment (a matrix of text entries) above the item
    for line in reversed(lines[:-1]):
        opened = inside > 0 or "\\end{" in line
        inside += line.count("\\end{") - line.count("\\begin{")
        joined_on = _OPEN_END.search(line) or line.strip().endswith("matrix")
        if not opened and not joined_on and not _CONTINUES.match(kept[0]):
            break
        kept.insert(0, line)
    return "\n".join(kept)


# ------------------------------------------------------------------ bracketed lists
def _bracketed(text: Text, taken: list[tuple[int, int]], unread: list[Unread]) -> list[Item]:
    body, position = text.body, 0
    items: list[Item] = []
    spans = sorted(taken)
    while True:
        index = _next_open(body, position)
        if index < 0:
            return items
        covering = bisect.bisect_right(spans, (index, len(body))) - 1
        if covering >= 0 and spans[covering][0] <= index < spans[covering][1]:
            position = spans[covering][1]
            continue
        if body[index] == "[" and (
            # a slice, so that a name longer than the window still subscripts
            _SUBSCRIPT.search(body[max(0, index - 12) : index]) or body.endswith("s!", 0, index)
        ):
            position = index + 1  # "x[0]", "scores[i, :]", "all_x_prime[1]", Rust's s![1, ..]
            continue
        if (
            body[index] == "("
            and _CALL.search(body, max(0, index - 1), index)
            and body[index + 1 : index + 40].lstrip().startswith("[")
        ):
            # "attention([[1, 0]], [[1, 1]], ...)": each argument its own; "softmax(1, 2)"
            # stays the vector of its numbers
            position = index + 1
            continue
        deep = _DEEP.match(body, index)
        if deep:  # no list opens before the last MAX_NESTING brackets of a longer run
            position = index + _last_brackets(deep.group())
            continue
        parsed = parse(body, index)
        if parsed is None:
            position = index + 1
            continue
        if isinstance(parsed, Unreadable):
            unread.append(_unread(text, index, parsed))
            position = parsed.end
            continue
        rows, batch = as_rows(parsed.value, body[index])
        if prose_range(body[max(0, index - 40) : index], rows):
            rows = ()  # "into [0, 1]": a range, no array
        if rows and not parsed.sums:  # a list of sums is the working of the list printed next
            # "([1, 2, 3])", a call's one list argument, is that list: never a tuple of counts
            bracketed = body[index] == "[" or body[index + 1 : index + 40].lstrip().startswith("[")
            kind = "list" if bracketed else "tuple"
            before = body[max(0, index - 40) : index]
            if before.endswith("Size") or (kind == "list" and _SHAPE_BEFORE.search(before)):
                kind = "shape"  # torch.Size([2, 3]), shape=[2, 2], strides=[2, 1]: no values
            item = _item(text, rows, index, parsed.end, kind, batch)
            items.append(replace(item, columns_at=parsed.columns_at))
            if len(items) > MAX_ITEMS:
                return items  # refused by the caller, which counts them
        position = parsed.end


def _unread(text: Text, start: int, failed: Unreadable) -> Unread:
    statement = statement_before(text.body, start)
    return Unread(start, text.line_of(start), failed.row, failed.token, statement)


def _last_brackets(run: str) -> int:
    """The offset in a run of brackets of the first of its last MAX_NESTING brackets."""
    offset = len(run)
    for _ in range(MAX_NESTING):
        offset = run.rfind("[", 0, offset)
    return offset


def _next_open(body: str, position: int) -> int:
    """The next "[" or "(" (one forward search: two str.find calls rescan the page to its end
    for the one that is missing, which made a 4 MB line of "[" take 45 s)."""
    found = _OPEN.search(body, position)
    return found.start() if found else -1
