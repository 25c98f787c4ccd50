"""Text drawn in two dimensions: boxes of lines set side by side on a baseline, matrices
between tall brackets (in groups of columns when too wide), aligned rows. What
:mod:`mha_symbolic.solution.plain` draws the LaTeX of a solution with."""

from __future__ import annotations

import re


class Box:
    """Lines of text, all as wide; ``base`` is the line that sits on the text line. Never
    changed once made (a plain class: the layout makes one for every token it reads)."""

    __slots__ = ("base", "lines", "width")

    def __init__(self, lines: tuple[str, ...], base: int = 0) -> None:
        self.lines = lines
        self.base = base
        self.width = len(lines[0]) if len(lines) == 1 else max(map(len, lines), default=0)


class Grouped(Box):
    """A matrix drawn in groups of columns, one below the other (too wide for the page)."""

    __slots__ = ()


def text_box(text: str) -> Box:
    return Box((text,))


def hconcat(boxes: list[Box]) -> Box:
    """Boxes side by side, baselines aligned."""
    if not boxes:
        return text_box("")
    if all(len(b.lines) == 1 for b in boxes):  # most boxes: text on one line, no padding
        return text_box("".join(b.lines[0] for b in boxes))
    above = max(b.base for b in boxes)
    below = max(len(b.lines) - b.base for b in boxes)
    lines = [""] * (above + below)
    for box in boxes:
        top = above - box.base
        for i in range(above + below):
            inside = top <= i < top + len(box.lines)
            lines[i] += box.lines[i - top].ljust(box.width) if inside else " " * box.width
    return Box(tuple(lines), above)


# The label of a group of columns of a matrix too wide for the page, and of a group of one
# column (the locale's [text] columns and column).
Columns = tuple[str, str]
COLUMNS: Columns = ("columns {first}–{last}:", "column {first}:")


def pad(box: Box) -> Box:
    """Every line as wide as the box; a one-line box's text without its outer spaces."""
    if len(box.lines) == 1:
        return text_box(box.lines[0].strip())
    return Box(tuple(line.ljust(box.width) for line in box.lines), box.base)


def matrix(rows: list[list[Box]], width: int | None = None, columns: Columns = COLUMNS) -> Box:
    """A matrix between tall brackets, columns right-aligned, two spaces apart. Wider than
    ``width``: its columns in groups one below the other, or, when one column alone is too
    wide, its entries one by one."""
    if not rows:
        return text_box("[]")
    cols = max(len(row) for row in rows)
    if any(len(box.lines) > 1 for row in rows for box in row):  # stacked fractions
        return _tall(rows, cols)
    cells = [[_one(row[j]) if j < len(row) else "" for j in range(cols)] for row in rows]
    widths = [max(len(r[j]) for r in cells) for j in range(cols)]
    if width is not None and sum(widths) + 2 * cols + 2 > width:
        return _too_wide(cells, widths, width, columns)
    return _bracketed(cells, widths)


def _bracketed(cells: list[list[str]], widths: list[int]) -> Box:
    body = ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in cells]
    if len(body) == 1:
        return text_box(f"[{body[0]}]")
    left = ["⎡"] + ["⎢"] * (len(body) - 2) + ["⎣"]
    right = ["⎤"] + ["⎥"] * (len(body) - 2) + ["⎦"]
    lines = tuple(f"{a} {line} {b}" for a, line, b in zip(left, body, right))
    return Box(lines, (len(lines) - 1) // 2)


def _tall(rows: list[list[Box]], cols: int) -> Box:
    """A matrix of entries over several lines: each row on its entries' common baseline, a
    blank line between rows, each column centred."""
    filled = [[row[j] if j < len(row) else text_box("") for j in range(cols)] for row in rows]
    widths = [max(r[j].width for r in filled) for j in range(cols)]
    body: list[str] = []
    for k, row in enumerate(filled):
        parts: list[Box] = []
        for j, (box, w) in enumerate(zip(row, widths)):
            centred = Box(tuple(line.center(w) for line in pad(box).lines), box.base)
            parts += ([text_box("  ")] if j else []) + [centred]
        body += ([""] if k else []) + list(hconcat(parts).lines)
    width = max(len(line) for line in body)
    left = ["⎡"] + ["⎢"] * (len(body) - 2) + ["⎣"]
    right = ["⎤"] + ["⎥"] * (len(body) - 2) + ["⎦"]
    lines = tuple(f"{a} {line.ljust(width)} {b}" for a, line, b in zip(left, body, right))
    return Box(lines, (len(lines) - 1) // 2)


def column_groups(widths: list[int], width: int) -> list[list[int]]:
    """The columns of a matrix (each as wide as ``widths`` says), in groups drawn one below the
    other, each group between its brackets at most ``width`` wide (one column alone may be
    wider)."""
    groups: list[list[int]] = [[]]
    for j, w in enumerate(widths):
        if groups[-1] and sum(widths[k] + 2 for k in groups[-1]) + w + 4 > width:
            groups.append([])
        groups[-1].append(j)
    return groups


def _too_wide(cells: list[list[str]], widths: list[int], width: int, columns: Columns) -> Box:
    lines: list[str] = []
    if max(widths) + 4 > width:  # one entry per line, long entries cut at + and -
        for i, row in enumerate(cells, start=1):
            for j, entry in enumerate(row, start=1):
                lines.extend(cut(f"({i}, {j})  {entry}", width, 8))
        return Box(tuple(lines))
    base = None
    for group in column_groups(widths, width):
        first, last = str(group[0] + 1), str(group[-1] + 1)
        label = columns[0] if first != last else columns[1]
        lines.append(label.replace("{first}", first).replace("{last}", last))
        part = _bracketed([[row[j] for j in group] for row in cells], [widths[j] for j in group])
        # What stands beside the matrix (= 1/2, a product's other factor) goes by the first
        # group's brackets, its label above it: "= 1/2 columns 1–2:" read as words.
        base = len(lines) + part.base if base is None else base
        lines.extend(part.lines)
    return Grouped(tuple(lines), base or 0)


def below_groups(parts: list[Box]) -> list[Box]:
    """``parts`` of a line, with what follows a matrix in column groups (a product's other
    factor) set below its last group after a ``×``, instead of beside its first group, where
    it read as that group's factor alone (alibi's A_1 V_1: V_1 by A_1's columns 1–2)."""
    at = next((k for k, part in enumerate(parts) if isinstance(part, Grouped)), None)
    rest = parts[at + 1 :] if at is not None else []
    if at is None or not any("".join(part.lines).strip() for part in rest):
        return parts
    while rest and not "".join(rest[0].lines).strip():
        rest = rest[1:]
    head = hconcat(parts[: at + 1])
    # A relation after the groups (= or ≈ their value) goes below them as it is: no ×.
    relation = "".join(rest[0].lines).strip()[:1] in ("=", "≈", "<", ">", "≤", "≥")
    tail = hconcat(rest if relation else [text_box("× "), *rest])
    offset = sum(part.width for part in parts[:at]) - 2  # the × before the group's brackets
    lines = [" " * max(-offset, 0) + line for line in head.lines]
    lines += [" " * max(offset, 0) + line for line in tail.lines]
    return [Box(tuple(lines), head.base)]


def cut(text: str, width: int, indent: int) -> list[str]:
    """``text`` in lines of at most ``width``, broken before + and - (continued indented)."""
    pieces = re.split(r"(?= [+-] )", text)
    lines, line = [], ""
    for piece in pieces:
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = " " * indent + piece.lstrip()
        else:
            line += piece
    lines.append(line)
    return lines


def _one(box: Box) -> str:
    return " ".join(line.strip() for line in box.lines).strip()


def aligned(rows: list[list[Box]]) -> Box:
    """``a &= b \\\\ &= c``: each row's left cells right-aligned before the right ones."""
    lefts = [row[0] if len(row) > 1 else text_box("") for row in rows]
    rights = [hconcat(row[1:]) if len(row) > 1 else row[0] for row in rows]
    width = max((box.width for box in lefts), default=0)
    lines: list[str] = []
    for left, right in zip(lefts, rights):
        pad = Box(tuple(line.rjust(width) for line in left.lines), left.base)
        lines.extend(hconcat([pad, right]).lines)
        lines.append("")
    return Box(tuple(lines[:-1]))
