"""One number a line, printed by a loop (``for word, w in zip(words, weights): print(f"{word}
-> {w:.4f}")``): two or more lines in a row that each end in one number after the same
separator, with a label before it that changes from line to line, are one vector whose
entries those labels name::

    Attention weights (after softmax):
      Item 0: 0.3220  ████████████
      Item 1: 0.1915  ███████

Lines of several numbers alike (``Ali | Ham: 0.5800 -> Softmax: 0.1503 (15.0%)``) give one
vector a column, named by the word before it (a percent is left out); a line that works a
division or a power out (``1.78 / 4.56 = 0.39``) gives its result. Runs of the same labels
under a line that names each (``Token foco: 'O'`` over its keys' weights, then ``Token foco:
'gato'``, ...) are the rows of one matrix. A line with a bracket holds a printed list of its own
(read elsewhere), a sum worked out in steps is prose arithmetic (read as such), and a run whose
numbers are printed to different decimals is not one print: none of them is read here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mha_symbolic.extract.items import Item, Text, entry
from mha_symbolic.extract.spans import Taken

_RUN_MIN = 2
_LONGEST_LABEL = 40
_MAX_RUN = 64
_LABEL = re.compile(r"^\s*(?P<label>[^\s\[\](){}=:|#][^\[\](){}=:|→]*?)\s*(?P<sep>->|→|=>|[:=|])")
_NUMBER = re.compile(r"(?<![\w.])[-+−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")
# After the numbers, only spaces, bars drawn of blocks and closing signs: "0.3220  ██████"
_TAIL = re.compile(r"[^\w\[\]({}.,;:=]*")
# Numbers worked into another on the line: an operator between two, or a power, then "="
_CHAIN = re.compile(r"(?:#[-+*/×·÷]#|\^#|\bexp\(#).*[=≈]")
_QUOTES = "'\"`‘’“” "
_ROUNDED = re.compile(r"=\s*[^=≈]*≈\s*[-+−]?[\d.]+\s*(?P<percent>\(\s*[\d.]+\s*%\s*\))?\s*$")
# An indexed name: "s₂₁", "w_{21}", "z_1", "- a13" (the stem and its index)
_INDEXED = re.compile(r"^(?:[-*•]\s*)?(?P<stem>[A-Za-zα-ωΑ-Ω]+)_?\{?(?P<index>[0-9₀-₉]{1,3})\}?$")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


@dataclass(frozen=True)
class _Line:
    number: int
    label: str
    key: str  # the line with its label and numbers left out: lines alike print alike
    values: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]  # each value's offsets in the joined text
    words: tuple[str, ...]  # the words before each value ("Softmax: ")
    percent: tuple[bool, ...]  # a value followed by "%": a share in percent


def value_lines(
    text: Text, lines: Sequence[str], taken: list[tuple[int, int]], blocks: Sequence[object]
) -> list[Item]:
    """Every run of lines alike outside the spans already read: a vector for each number
    the lines print (a column of them), or (runs of the same labels, each under its own
    header line) a matrix. ``blocks``: each line's cell and output (a run stays in one)."""
    read = Taken(taken)
    found = [_read(text, number, line, read) for number, line in enumerate(lines)]
    block_of = list(blocks)
    runs = _runs(found, block_of)
    heads = _Headers(lines, found, block_of)
    items: list[Item] = []
    index = 0
    while index < len(runs):
        block = [runs[index]]
        while index + 1 < len(runs) and _next_block(heads, block[-1], runs[index + 1]):
            block.append(runs[index + 1])
            index += 1
        items.extend(_items(text, heads, block))
        index += 1
    return items


def _read(text: Text, number: int, line: str, read: Taken) -> _Line | None:
    if "[" in line or len(line) > 200:
        return None
    head = _LABEL.match(line)
    if head is None or len(head.group("label")) > _LONGEST_LABEL:
        return None
    rest = line[head.end() :]
    found = list(_NUMBER.finditer(rest))
    if not found or _TAIL.fullmatch(rest[found[-1].end() :]) is None:
        return None
    values, spans, words, key = [], [], [], [head.group("sep")]
    percent = [rest[m.end() :].lstrip().startswith("%") for m in found]
    previous = 0
    for match in found:
        value = entry(match.group())
        start = text.starts[number] + head.end() + match.start()
        if value is None or read.meets(start, start + 1):
            return None
        values.append(value)
        spans.append((start, start + len(match.group())))
        words.append(rest[previous : match.start()])
        key.append(" ".join(rest[previous : match.start()].split()))
        previous = match.end()
    key.append(re.sub(r"[^%)]", "", rest[previous:]))  # a bar drawn after it is any length
    label = head.group("label").strip()
    if _CHAIN.search("#".join(key)):  # "1.78 / 4.56 = 0.39", "e^1.20 = 3.3201": the result
        rounded = _ROUNDED.search(rest)
        if (
            rounded
            and bool(rounded.group("percent")) == percent[-1]
            and len(values) > 2 + percent[-1]
        ):
            # "1.284/5.053 = 0.254 ≈ 0.2 (20%)": the result (the rounding after it is prose's)
            at = len(values) - (3 if percent[-1] else 2)
            alike = "#".join(key[: at + 1]) + "#≈"
            return _Line(number, label, alike, (values[at],), (spans[at],), ("= ",), (False,))
        if len(re.findall(r"[=≈]", rest)) > 1:
            return None  # a sum worked out in steps ("= 0.01 + 0.04 = 0.05"): prose arithmetic
        found_last = -2 if percent[-1] and len(values) > 1 else -1
        values, spans, words = values[found_last:][:1], spans[found_last:][:1], ["= "]
        percent = [False]
    return _Line(
        number, label, "#".join(key), tuple(values), tuple(spans), tuple(words), tuple(percent)
    )


def _runs(found: list[_Line | None], block_of: list[object]) -> list[list[_Line]]:
    runs: list[list[_Line]] = []
    run: list[_Line] = []
    for line in [*found, None]:
        if (
            line is not None
            and run
            and _continues(run, line)
            and block_of[line.number] == block_of[run[0].number]
        ):
            run.append(line)
            continue
        if _is_run(run):
            runs.append(run)
        run = [line] if line is not None else []
    return runs


def _continues(run: list[_Line], line: _Line) -> bool:
    last = run[-1]
    digits = [_decimals(v) for v in line.values] == [_decimals(v) for v in last.values]
    alike = line.key == last.key and digits
    return (
        line.number == last.number + 1
        and (alike or _next_index(last, line))
        and len(run) < _MAX_RUN
    )


def _next_index(last: _Line, line: _Line) -> bool:
    """``s₂₁ = bank · money = 0.25`` then ``s₂₂ = bank · bank = 1.0``: one name's next index,
    its words (what it is worked from) differing, its numbers laid out alike (to any digits:
    the name, not the print, makes them one vector)."""
    a, b = _INDEXED.match(last.label), _INDEXED.match(line.label)
    if a is None or b is None or a.group("stem") != b.group("stem"):
        return False
    first, then = (int(m.group("index").translate(_SUBSCRIPTS)) for m in (a, b))
    return then == first + 1 and _WORDS.sub("w", last.key) == _WORDS.sub("w", line.key)


_WORDS = re.compile(r"[^\W\d_]+(?:\s+[^\W\d_]+)*")


def _is_run(run: list[_Line]) -> bool:
    """Two or more lines whose labels all differ, with a decimal point in their numbers."""
    labels = [line.label for line in run]
    return (
        len(run) >= _RUN_MIN
        and len(set(labels)) == len(labels)
        and any("." in value for line in run for value in line.values)
    )


def _decimals(value: str) -> int:
    mantissa = value.lower().partition("e")[0]
    return len(mantissa.partition(".")[2])


def _names(labels: list[str]) -> tuple[str, ...]:
    """The labels without what they all share: ``Atenção em 'O'`` -> ``O``."""
    prefix = _common(labels)
    suffix = _common([label[::-1] for label in labels])
    cut = [label[len(prefix) : len(label) - len(suffix)] for label in labels]
    return tuple(label.strip(_QUOTES) for label in cut)


def _common(texts: list[str]) -> str:
    """What the texts all start with (character by character, as a label is compared)."""
    first = min(texts, key=len)
    size = 0
    while size < len(first) and all(t[size] == first[size] for t in texts):
        size += 1
    return first[:size]


def _next_block(heads: _Headers, run: list[_Line], after: list[_Line]) -> bool:
    """Whether ``after`` repeats ``run``'s labels under a header line of its own."""
    if after[0].key != run[0].key or [x.label for x in after] != [x.label for x in run]:
        return False
    if len(run[0].values) != 1 or heads.block_of[run[0].number] != heads.block_of[after[0].number]:
        return False
    between = [n for n in range(run[-1].number + 1, after[0].number) if heads.lines[n].strip()]
    if len(between) != 1 or heads.line_above(after[0].number) != between[0]:
        return False
    above = heads.above(run[0].number)
    return above is not None and _common([above, heads.lines[between[0]]]).strip() != ""


class _Headers:
    """The line that heads a run: right above it (one blank line between allowed), in the
    same cell's output or block, and not itself a line of numbers."""

    def __init__(self, lines: Sequence[str], found: list[_Line | None], block_of: list[object]):
        self.lines, self.found, self.block_of = lines, found, block_of

    def line_above(self, number: int) -> int | None:
        for back in (number - 1, number - 2):
            if back < 0 or self.block_of[back] != self.block_of[number]:
                return None
            if self.lines[back].strip():
                return None if self.found[back] is not None else back
        return None

    def above(self, number: int) -> str | None:
        at = self.line_above(number)
        return self.lines[at] if at is not None else None


def _items(text: Text, heads: _Headers, block: list[list[_Line]]) -> list[Item]:
    first, last = block[0][0], block[-1][-1]
    columns = _names([line.label for line in block[0]])
    if len(block) > 1:  # each run under its header: the header names the row
        rows = tuple(tuple(line.values[0] for line in run) for run in block)
        labels = _names([heads.above(run[0].number) or "" for run in block])
        line = heads.line_above(first.number)
        assert line is not None  # a block's runs each have their header
        top = heads.above(line)
        statement = top.rstrip() + "\n" if top else ""
        end = last.spans[0][1]
        return [
            Item(rows, text.starts[line], end, line, "lines", statement, "", (), columns, labels)
        ]
    header = heads.above(first.number)
    out = []
    for k in range(len(first.values)):
        if first.percent[k]:
            continue
        rows = (tuple(line.values[k] for line in block[0]),)
        word = first.words[k].strip()
        said = (header.rstrip() + "\n" if header else "") + (word + " " if word else "")
        start, end = first.spans[k][0], last.spans[k][1]
        out.append(Item(rows, start, end, first.number, "lines", said, "", columns=columns))
    return out
