"""What each printed matrix is: its name, role, head and row, read from the statement around it,
the section it sits in, the tokens the document names, and the words that mark an assumption."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from mha_symbolic.extract.aliases import normalize, resolve, row_count, row_marker, token_labels
from mha_symbolic.extract.call_names import LIBRARY_PRINT as _LIBRARY_PRINT
from mha_symbolic.extract.call_names import argument, dimension_arguments, summarised_role
from mha_symbolic.extract.call_roles import call_roles
from mha_symbolic.extract.cell_prints import print_of
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.hand_set import set_by_hand
from mha_symbolic.extract.items import Item, Text
from mha_symbolic.extract.labelled_work import label_row, labelled_work
from mha_symbolic.extract.layer_weights import as_assignment
from mha_symbolic.extract.layouts import indexed_entries
from mha_symbolic.extract.shape_mentions import stated_shapes
from mha_symbolic.extract.statement_names import (
    RELATION,
    annotation,
    cleaned,
    names,
    operand_name,
)
from mha_symbolic.extract.table_names import column_name, frame_name
from mha_symbolic.language.extract_phrases import phrase

# A product's operand ("**" around a value is Markdown bold), or matrices side by side: "[Q] [Kᵀ]"
_OPS = r"·|@|\\cdot|\\times|×|\+|\\odot|\\otimes|"
_OPERATOR_END = re.compile(rf"({_OPS}(?<!\*)\*|-|−|\d)\s*$")
_AFTER_MATRIX = re.compile(r"\\end\{[pbBvV]?matrix\}\s*$")  # its name is the first's
_OPERATOR_START = re.compile(rf"\s*({_OPS}\*(?!\*)|\^|\.T\b|ᵀ|\\begin\{{[pbBvV]?matrix\}})")
_SOFTMAX_ARGUMENT = re.compile(r"softmax\}?\s*\(?\s*$", re.IGNORECASE)
_FACTOR = re.compile(
    r"(?:\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\}|(\d+)\s*/\s*(\d+)|(\d+(?:\.\d+)?))"
    r"\s*(?:\\cdot|\*|·|\\times)?\s*(?:\\text\{|\\mathrm\{)?\s*$"
)
_HEADING = re.compile(r"^\s*(#+\s.*|\*\*[^*]+\*\*:?\s*|(?:[^\w\s]\s*)*head\s*\d+\s*:?\s*)$", re.I)
_HEAD = re.compile(r"head\s*[_-]?\s*(\d+)", re.IGNORECASE)
# Words that mark a number as assumed, not computed ("Assume:", "suppose", Bengali "ধরি").
_ASSUMED = re.compile(r"assum|suppose|ধরি|pretend|imagine", re.I)
_QUOTED = re.compile(r"[“\"']([^”\"'\n]{1,40})[”\"']")
_SECTION_ROLES = (
    ("concat", "concat"),
    ("combin", "concat"),
    ("queryvector", "q"),
    ("keyvector", "k"),
    ("valuevector", "v"),
    ("input", "x"),
    ("embedding", "x"),
    ("final", "output"),
    ("dotproduct", "scores"),
    ("qkt", "scores"),
    ("softmax", "weights"),
)
_LABEL = re.compile(r"^\s*[*•-]?\s*[\"“']?([A-Za-z][\w ]{0,24}?)[\"”']?\s*(?:→|->|:)\s*$")
_ALL_HEADS = re.compile(
    r"concat|combin|merge|final|output projection|linear projection|summary", re.I
)
_GENERIC_OUTPUT = ("output", "out", "attentionoutput", "result", "outputs")
_PRINT = re.compile(
    r"^(?:print\(\s*(?:f?[\"']([^\"']*)[\"']\s*,\s*)?([A-Za-z_]\w*)?[^()]*\)|([A-Za-z_]\w*))$"
)
# A comment after code on the item's line ("Key = X @ W_k  # [4, 2]"): what follows is a note.
_ROW_NAME = re.compile(r"(?<![\w.])[A-Za-z]_?\{?\d\}?\s*=\s*$")  # "V0 = (12, 31)": a vector
_COMMENT_END = re.compile(r"(?:^|\n)[^#\n]*\S[^#\n]*#\s*$")
# Code that names its array itself, with a name no role has: no label above names it.
_OWN_NAME = re.compile(r"(?:^|\n)[^\S\n]*[A-Za-z_]\w*[^\S\n]*=(?!=)[^=\n]*$")
_NAMED_AFTER = re.compile(
    r"^[`*\s]{0,8}(?:is|are)\s+(?:the\s+)?([A-Za-z][A-Za-z ]{0,30}?)\s*(\d+)?\b"
)
_LISTED = re.compile(r"\s*(?:,|and|&)\s*")
_ROW_WORDS = re.compile(r"(?:token|row|word)\s*\d+", re.I)


@dataclass(frozen=True)
class Seen:
    """One printed matrix read in context."""

    item: Item
    role: str  # a role of aliases, or "softmax_argument", "operand", "shape", "unnamed"
    head: int | None
    row: int | None
    name: str
    where: str
    assumed: bool = False
    factor: str | None = None  # a scalar printed before it ("\frac{1}{2} \cdot [[...]]")
    names: tuple[str, ...] = ()  # every role:head it is named as ("W_Q1 = W_K1 = W_V1 = ...")
    printed: tuple[str, ...] = ()  # those names as printed
    col: int | None = None  # the column of a single printed entry ("scores[0][2] = 1.0")
    row_from: str = ""  # where the row was read when not beside the vector ("row 2 from line 55")


@dataclass(frozen=True)
class Reading:
    document: Document
    text: Text
    seen: tuple[Seen, ...]
    tokens: tuple[str, ...]  # labels the document gives its tokens, in order


def read(document: Document) -> Reading:
    text, items = find_items(document)
    tokens = token_labels(text.body)
    headings = [i for i, line in enumerate(document.lines) if _HEADING.match(line.text)]
    seen = []
    for index, item in enumerate(items):
        previous = items[index - 1] if index else None
        s = _classify(document, item, previous, headings, tokens)
        if not summarised_role(item.columns_at, s.role):  # only ever V or A V, or no name
            s = Seen(item, "unnamed", None, None, "", s.where)
        seen.append(s)
    seen = _siblings(document, seen, tokens)
    for name, row, col, item in indexed_entries(text, [line.text for line in document.lines]):
        role = resolve(name)
        if role is not None:
            placed = _placed(document, item, headings, tokens, role.role, role.head, name, "")
            where = document.lines[item.line].where
            seen.append(
                replace(
                    placed,
                    row=row,
                    col=col,
                    where=where,
                    names=_tags([(role.role, role.head, name)]),
                )
            )
    seen = stated_shapes(call_roles(sorted(seen, key=lambda s: s.item.start), text.body))
    labels = _row_labels(seen)
    return Reading(document, text, tuple(seen), tokens or labels)


def _row_labels(seen: list[Seen]) -> tuple[str, ...]:
    """Token labels of input rows printed as "please → [1, 0]", in order."""
    rows = [s for s in seen if s.role == "x" and s.row is not None]
    labels = [_LABEL.match(s.item.statement.split("\n")[-1]) for s in rows]
    if not rows or not all(labels):
        return ()
    return tuple(m.group(1).strip() for m in labels if m)


def _siblings(document: Document, seen: list[Seen], tokens: tuple) -> list[Seen]:
    """Vectors listed together ("Keys: [1, 0] and [0, 1]") are rows 1, 2, ...; an unnamed
    bullet under a named one (the next token's line) takes its name and head."""
    out: list[Seen] = []
    for current in seen:
        named = [s for s in out if s.role not in ("operand", "shape")]
        last = named[-1] if named else None
        if last is not None and _stacked(last, current):
            # "[0.14, 0.32, 0.50]" over "[0.32, 0.77, 1.22]", nothing else on the lines: one matrix
            rows = last.item.rows + current.item.rows
            merged = replace(last.item, rows=rows, end=current.item.end)
            out[out.index(last)] = replace(last, item=merged, row=None)
            continue
        if (
            last
            and last.role not in ("operand", "shape", "unnamed")
            and len(current.item.rows) == 1
        ):
            between = document_text_between(last, current)
            if (
                current.role == last.role
                and current.head == last.head
                and _LISTED.fullmatch(between)
            ):
                first = last if last.row is None or last.row == 1 else None
                if first is not None and first.row is None:
                    out[out.index(last)] = last = replace(last, row=1, row_from="")
                current = replace(current, row=(last.row or 1) + 1, row_from="")
            elif _labeled_rows(last, current):
                last, current = _next_row(out, last, current)
            elif _numbered_rows(last, current):
                current = replace(
                    current, head=last.head, row=int(current.names[0].split(":")[1]), row_from=""
                )
            elif (
                current.role == "unnamed"
                and _bullet(document, last.item.line) == _bullet(document, current.item.line)
                and current.item.line == last.item.line + 1
            ):
                row = _token_named(current.item.statement, tokens)
                current = replace(current, role=last.role, head=last.head, row=row, name=last.name)
                if row is None and _labeled_rows(last, current):  # "cat → [..]", "sat → [..]"
                    last, current = _next_row(out, last, current)
        out.append(current)
    return out


def _next_row(out: list[Seen], last: Seen, current: Seen) -> tuple[Seen, Seen]:
    """The row after ``last`` for ``current``; ``last`` row 1 when it had none or a guessed one."""
    if last.row is None or last.row_from:
        out[out.index(last)] = last = replace(last, row=1, row_from="")
    return last, replace(current, row=(last.row or 1) + 1, row_from="")


def _stacked(last: Seen, current: Seen) -> bool:
    """Bare rows on consecutive lines, one under the other, with the same role and width."""
    return (
        current.item.line == last.item.line + len(last.item.rows)
        and (current.role, current.head, current.assumed) == (last.role, last.head, last.assumed)
        and current.role not in ("unnamed", "operand", "shape", "softmax_argument")
        and len(current.item.rows) == 1
        and len(current.item.rows[0]) == len(last.item.rows[0])
        and _bare(last.item.statement)
        and _bare(current.item.statement)
        and not current.item.after.strip()
        and not last.item.after.strip()
    )


def _bare(text: str) -> bool:
    return not text.split("\n")[-1].strip(" \t`")


def _labeled_rows(last: Seen, current: Seen) -> bool:
    """ "please → [1, 0]" then "study → [0, 2]" on the next line: the next row."""
    return (
        current.item.line == last.item.line + 1
        and (current.role, current.head) == (last.role, last.head)
        and len(last.item.rows) == 1
        and (current.row in (None, (last.row or 1) + 1) or bool(current.row_from))
        and bool(_LABEL.match(last.item.statement.split("\n")[-1]))
        and bool(_LABEL.match(current.item.statement.split("\n")[-1]))
    )


def _numbered_rows(last: Seen, current: Seen) -> bool:
    """ "K1 = [0, 1], K2 = [1, 0]" in head 2's section: K1 was read as row 1, so K2 is row 2."""
    return (
        last.item.line == current.item.line
        and last.role == current.role
        and bool(current.names)
        and current.names[0].split(":")[1].isdigit()
        and last.row is not None
        and last.names[0] == f"{last.role}:{last.row}"
    )


def document_text_between(first: Seen, second: Seen) -> str:
    return (
        second.item.statement[len(second.item.statement) - (second.item.start - first.item.end) :]
        if (0 <= second.item.start - first.item.end <= len(second.item.statement))
        else "?"
    )


def _bullet(document: Document, line: int) -> str:
    match = re.match(r"\s*[*•+-]\s", document.lines[line].text)
    return match.group(0) if match else "none"


def _section(document: Document, line: int, headings: list[int]) -> int | None:
    """The heading above a line; a comment in a notebook's code reaches the end of its cell."""
    at = document.lines
    above = [h for h in headings if h <= line and (not at[h].code or at[h].cell == at[line].cell)]
    return above[-1] if above else None


def _classify(
    document: Document, item: Item, previous: Item | None, headings: list[int], tokens: tuple
) -> Seen:
    where = document.lines[item.line].where
    statement = as_assignment(item.statement)  # W_k.weight.copy_(...): the layer's weight
    if _is_shape(item):
        named = operand_name(item) or names(item.statement)
        named = named or _heading_name(document, item.line, headings)
        first = named[0] if named else ("", None, "")
        return Seen(item, "shape", first[1], None, first[2], where, names=_tags(named or []))
    if argument(statement.split("\n")[-1]):  # attention(np.array([[...]]), ...)
        return Seen(item, "unnamed", None, None, "", where)
    if dimension_arguments(statement, item.kind, item.rows):  # q = h.permute(1, 0, 2)
        return Seen(item, "operand", None, None, "", where)
    if _SOFTMAX_ARGUMENT.search(statement):
        seen = _placed(document, item, headings, tokens, "softmax_argument", None, "softmax", where)
        return _labelled(seen, item, label_row(statement))  # "Q1: softmax([0.707, 0])": row 1
    operand = _OPERATOR_START.match(item.after)
    factor = _FACTOR.search(statement) if item.kind == "list" and not operand else None
    if factor and not RELATION.search(statement[: factor.start()].rstrip()[-12:]):
        factor = None
    if work := labelled_work(statement):  # "Q1: softmax([0.707, 0]) ≈ [0.668, 0.332]"
        seen = _placed(document, item, headings, tokens, work[0], None, work[0], where)
        return _labelled(seen, item, work[1])
    named = (
        column_name(item)
        or frame_name(document, item)
        or names(statement[: factor.start()] if factor else statement)
    )
    if named and (annotation(statement) or _AFTER_MATRIX.search(statement)):
        return Seen(item, "unnamed", None, None, "", where)
    if not factor and (operand or _OPERATOR_END.search(statement)):
        return Seen(item, "operand", None, None, "", where)
    if named is None and "softmax" in statement.lower():
        named = [("weights", None, "softmax")]
    if named is None and item.kind != "lines" and not _OWN_NAME.search(statement):
        named = _from_label_line(document, item)
    if named is None:
        after = _NAMED_AFTER.match(item.after)
        follows = resolve(after.group(1)) if after else None
        if after and follows is not None:  # "[2.0, 7.0, 1.5] is Output 1": named after it
            seen = _placed(
                document, item, headings, tokens, follows.role, None, follows.name, where
            )
            number = int(after.group(2)) if after.group(2) else seen.row
            return replace(seen, row=number, row_from="", names=_tags([(seen.role, None, "")]))
    heading = _section(document, item.line, headings)
    if named is None and heading is not None and item.kind != "lines":  # a loop's lines: their
        named = _heading_role(document.lines[heading].text)  # own words or header name them
    if named is None:
        return Seen(item, "unnamed", None, None, "", where)
    role, head, name = named[0]
    seen = _placed(document, item, headings, tokens, role, head, name, where)
    assumed = _assumed(document, item, previous, heading)
    value = _factor_text(factor) if factor else None
    printed = tuple(n for _, _, n in named)
    return replace(
        seen, name=name, assumed=assumed, factor=value, names=_tags(named), printed=printed
    )


def _labelled(seen: Seen, item: Item, row: int | None) -> Seen:
    """A one-row array as the row its line's label names (query 1's weights); a matrix keeps it."""
    if row is None or len(item.rows) != 1:
        return seen
    return replace(seen, row=row, row_from="", names=_tags([(seen.role, None, "")]))


def _tags(named: list[tuple[str, int | None, str]]) -> tuple[str, ...]:
    return tuple(f"{role}:{head or ''}" for role, head, _ in named)


def _heading_name(
    document: Document, line: int, headings: list[int]
) -> list[tuple[str, int | None, str]] | None:
    heading = _section(document, line, headings)
    if heading is None:
        return None
    first = re.split(r"\s[-–—:]\s|:", document.lines[heading].text.strip("# *"))[0]
    role = resolve(first.strip("$ "))
    return [(role.role, role.head, role.name)] if role else None


def _is_shape(item: Item) -> bool:
    """A shape: a printed (4, 2), or a code comment's ``# [4, 2]`` after a statement."""
    comment = _COMMENT_END.search(item.statement) and len(item.rows) == 1 < len(item.rows[0]) < 5
    if not comment and (item.kind != "tuple" or item.shape != (1, 2)):
        return False
    if not all(e.isdigit() and int(e) > 0 for e in item.rows[0]):
        return False
    return not _SOFTMAX_ARGUMENT.search(item.statement) and not _ROW_NAME.search(item.statement)


def _from_label_line(document: Document, item: Item) -> list[tuple[str, int | None, str]] | None:
    """A label line just above ("Output:", "Token1 output:") names what follows it."""
    if own := print_of(document, item.line):  # print(k); print(v): the print that made it
        printed = _PRINT.match(own)
        if printed is None or printed.group(1) is None:  # a label is printed: read as text
            return _print_named(printed) if printed else None
    fenced = False  # past a code fence, only the print call above (knitr's blocks) names it
    for back in range(item.line - 1, max(-1, item.line - 5), -1):
        line = document.lines[back].text.strip().strip("*$ ")
        if not line or line == "Tensor":  # tf.js prints "Tensor" above the array
            continue
        if line.startswith("```"):
            fenced = True
            continue
        printed = _PRINT.match(line) or _LIBRARY_PRINT.match(line)
        if printed and fenced and ("," in line or _PRINT.match(document.lines[back - 1].text)):
            return None  # a code block of several prints (or a print of several) over their block
        if printed:  # a printed output below print("Keys:", keys) or a cell's last name
            return _print_named(printed)
        if fenced or not line.endswith((":", "→", "=")):
            return None
        role = resolve(cleaned(line[:-1]))
        if role is None and line.endswith(":"):
            return _heading_role(line)  # "Each token has a 2-dimensional embedding:"
        return [(role.role, role.head, role.name)] if role else names(line)
    return None


def _print_named(printed: re.Match[str]) -> list[tuple[str, int | None, str]] | None:
    """The role a print's label ("Keys:") or else its printed name gives."""
    role = resolve(printed.group(1).strip(" :\\n")) if printed.group(1) else None
    role = role or resolve(next((g for g in printed.groups()[1:] if g), ""))
    return [(role.role, role.head, role.name)] if role else None


def _heading_role(heading: str) -> list[tuple[str, int | None, str]] | None:
    words = normalize(heading)
    for key, role in _SECTION_ROLES:
        if key in words:
            return [(role, None, heading.strip("# *"))]
    return None


def _placed(
    document: Document,
    item: Item,
    headings: list[int],
    tokens: tuple,
    role: str,
    head: int | None,
    name: str,
    where: str,
) -> Seen:
    """The head (from the name, else the section) and the row (a vector's token)."""
    heading = _section(document, item.line, headings)
    section_head = _heading_head(document, heading, headings)
    row = None
    if (
        head is not None
        and section_head is not None
        and head != section_head
        and len(item.rows) == 1
    ):
        row, head = head, section_head  # "K1 = [0, 1]" inside head 2's section: key of token 1
    head = head if head is not None else section_head
    if (
        role == "output"
        and section_head is not None
        and normalize(_ROW_WORDS.sub("", name)) in _GENERIC_OUTPUT
    ):
        role = "head.output"  # "Output:" inside a head's section is that head's output
    row_from = ""
    if row is None and len(item.rows) == 1:
        row, row_from = _row(document, item, heading, tokens)
    return Seen(item, role, head, row, name, where, row_from=row_from)


def _heading_head(document: Document, heading: int | None, headings: list[int]) -> int | None:
    """The head a section is about: its heading's, or that of a heading above it that no
    heading of its level or above, nor one about all heads ("Concatenate"), has closed."""
    if heading is None:
        return None
    level = 99
    for index in reversed([h for h in headings if h <= heading]):
        text = document.lines[index].text
        depth = _level(text)
        found = _HEAD.search(text)
        if found and depth <= level:
            return int(found.group(1))
        if _ALL_HEADS.search(text) or (depth < level and index != heading):
            return None
        level = min(level, depth)
    return None


def _level(heading: str) -> int:
    stripped = heading.lstrip()
    return len(stripped) - len(stripped.lstrip("#")) if stripped.startswith("#") else 7


def _row(
    document: Document, item: Item, heading: int | None, tokens: tuple
) -> tuple[int | None, str]:
    """The token a vector is about, and where that was read when not on its own line."""
    marker = row_marker(item.statement)
    if marker is None:
        marker = _token_named(item.statement, tokens)
    if marker is not None:
        return marker, ""
    stop = heading if heading is not None else -1
    for back in range(item.line - 1, stop, -1):
        line = document.lines[back].text
        if _RULE.match(line) or row_count(line) > 1:
            return None, ""  # a rule (a new section) or a formula over rows ("a×col1_row1 + ...")
        marker = row_marker(line)
        if marker is None:
            marker = _token_named(line, tokens)
        if marker is not None:
            return marker, phrase("where.row_from", row=marker, where=document.lines[back].where)
    return None, ""


_RULE = re.compile(r"^\s*(?:={3,}|-{3,}|\*{3,})\s*$")  # a setext heading's underline, a rule


def _token_named(text: str, tokens: tuple) -> int | None:
    for label in reversed(_QUOTED.findall(text)):
        if label.strip() in tokens:
            return tokens.index(label.strip()) + 1
    return None


def _assumed(document: Document, item: Item, previous: Item | None, heading: int | None) -> bool:
    start = max(previous.line + 1 if previous else 0, heading or 0, item.line - 4)
    lines = [document.lines[i].text for i in range(start, item.line)]
    return bool(_ASSUMED.search(" ".join(lines) + " " + item.statement)) or set_by_hand(
        document, item
    )


def _factor_text(match: re.Match[str]) -> str:
    numerator, denominator, top, bottom, plain = match.groups()
    if numerator:
        return f"{numerator}/{denominator}"
    return f"{top}/{bottom}" if top else plain
