"""Finding every matrix and vector a document prints: LaTeX environments, bracketed lists (code,
prose, np.array / torch.tensor, printed outputs) and tuples, with the statement around each."""

from __future__ import annotations

import bisect
import re

from mha_symbolic.errors import SpecError
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.items import Item, Text, entry, joined
from mha_symbolic.extract.layouts import side_by_side

MAX_ITEMS = 2_000  # matrices in one document; a tutorial prints tens
MAX_SPAN = 200_000  # characters of one bracketed list
MAX_NESTING = 4  # [[[...]]]: a batch of matrices at most
_BEGIN = re.compile(r"\\begin\{([pbBvV]?matrix|array)\}(?:\{[^{}]*\})?")
_END = re.compile(r"\\end\{([pbBvV]?matrix|array)\}")
_ENDS_TRIED = 50  # \end{...} of other kinds skipped looking for a \begin's own
_BOUNDARY = re.compile(r"\n[ \t]*\n|\$\$|\\\[|\\\]|```[^\n]*|\n[ \t]*(?:[*•+-]|\d+[.)])\s|\n#")
_OPEN_END = re.compile(r"(=|:|→|\\rightarrow|\\to|\\approx|≈|\\\\|,|&|@|\(|\[)\s*$")
_BRACKETS = {"[": "]", "(": ")"}
_CONTINUES = re.compile(r"\s*(=|≈|\\approx|→|\\rightarrow|\\end\{)")


def find_items(document: Document) -> tuple[Text, list[Item]]:
    text = joined(document)
    items, taken = side_by_side(text, [line.text for line in document.lines])
    for start, inner, end in _environments(text.body):
        rows = _latex_rows(text.body[inner[0] : inner[1]])
        taken.append((start, end))
        if rows:
            items.append(_item(text, rows, start, end, "latex"))
    items.extend(_bracketed(text, taken))
    if len(items) > MAX_ITEMS:
        raise SpecError(
            f"more than {MAX_ITEMS:,} matrices and vectors; at most {MAX_ITEMS:,} are read",
            source=document.name,
        )
    items.sort(key=lambda item: item.start)
    return text, items


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


def _latex_rows(body: str) -> tuple[tuple[str, ...], ...] | None:
    lines = [line for line in re.split(r"\\\\(?:\[[^\]]*\])?", body) if line.strip()]
    rows = []
    for line in lines:
        entries = [entry(cell) for cell in re.sub(r"\\hline", "", line).split("&")]
        if not entries or any(e is None for e in entries):
            return None
        rows.append(tuple(e for e in entries if e is not None))
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        return None
    return tuple(rows)


def _item(text: Text, rows: tuple[tuple[str, ...], ...], start: int, end: int, kind: str) -> Item:
    line_end = text.body.find("\n", end)
    after = text.body[end : line_end if line_end >= 0 else len(text.body)]
    return Item(
        rows, start, end, text.line_of(start), kind, statement_before(text.body, start), after
    )


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
def _bracketed(text: Text, taken: list[tuple[int, int]]) -> list[Item]:
    body, position = text.body, 0
    items: list[Item] = []
    spans = sorted(taken)
    while True:
        index = _next_open(body, position)
        if index < 0:
            return items
        inside = next((end for start, end in spans if start <= index < end), None)
        if inside is not None:
            position = inside
            continue
        parsed = _parse(body, index)
        if parsed is None:
            position = index + 1
            continue
        value, end = parsed
        rows = _as_rows(value, body[index])
        if rows is not None:
            items.append(_item(text, rows, index, end, "list" if body[index] == "[" else "tuple"))
            if len(items) > MAX_ITEMS:
                return items  # refused by the caller, which counts them
        position = end


def _next_open(body: str, position: int) -> int:
    found = [i for i in (body.find("[", position), body.find("(", position)) if i >= 0]
    return min(found) if found else -1


def _parse(body: str, start: int) -> tuple[list, int] | None:
    """A bracketed list of numbers at ``start`` (iterative; None at the first non-number)."""
    stack: list[list] = []
    closers: list[str] = []
    token_start = start
    limit = min(len(body), start + MAX_SPAN)
    index = start
    while index < limit:
        char = body[index]
        if char in _BRACKETS and (not closers or char == "["):
            if len(stack) >= MAX_NESTING or (char == "(" and stack):
                return None
            stack.append([])
            closers.append(_BRACKETS[char])
            token_start = index + 1
        elif char == "#" and stack and not body[token_start:index].strip():
            # A comment inside a printed list ("[1, 2],  # Output 1" / "#  [3, 4]]"): skipped.
            line_start = body.rfind("\n", 0, index) + 1
            if body[line_start:index].strip():  # a trailing comment: skip to the line's end
                newline = body.find("\n", index, limit)
                if newline < 0:
                    return None
                token_start = index = newline
                continue
            token_start = index + 1  # a printed output commented out line by line: "#  [4, 4, 0],"
        elif char in ",]) \t\n;" or body.startswith("\\;", index) or body.startswith("\\,", index):
            if not stack:
                return None
            if not _take(stack[-1], body[token_start:index]):
                return None
            if char in "])":
                if char != closers[-1]:
                    return None
                done = stack.pop()
                closers.pop()
                if not stack:
                    return done, index + 1
                stack[-1].append(done)
            if body.startswith(("\\;", "\\,"), index):
                index += 1
            token_start = index + 1
        index += 1
    return None


def _take(bucket: list, token: str) -> bool:
    """Add a finished token to the open list; False if it is text, not a number."""
    token = token.strip()
    if not token or token in ("\\", "\\;", "\\,"):
        return True
    value = entry(token)
    if value is None:
        return False
    bucket.append(value)
    return True


def _as_rows(value: list, opener: str) -> tuple[tuple[str, ...], ...] | None:
    while (
        len(value) == 1
        and isinstance(value[0], list)
        and value[0]
        and isinstance(value[0][0], list)
    ):
        value = value[0]  # tensor([[...]]) read as ( [[...]] ): the outer parentheses dropped
    if not value:
        return None
    if all(isinstance(v, str) for v in value):
        if opener == "(" and len(value) < 2:
            return None
        return (tuple(value),)
    lists = all(isinstance(v, list) and v and all(isinstance(e, str) for e in v) for v in value)
    if lists and len({len(v) for v in value}) == 1:
        return tuple(tuple(v) for v in value)
    return None
