"""The solutions' LaTeX (the subset :mod:`mha_symbolic.solution.latex` writes) as plain Unicode
text for a terminal: ``\\frac{a}{3 a + 1}`` reads ``a/(3a + 1)``, ``e^{\\frac{\\sqrt{3}}{3}}``
reads ``e^(√3/3)``, and a matrix is drawn over several lines between tall brackets."""

from __future__ import annotations

import re
from functools import lru_cache

_SYMBOLS = {
    "times": "×", "cdot": "·", "approx": "≈", "to": "→", "top": "ᵀ", "tau": "τ",
    "Delta": "Δ", "theta": "θ", "alpha": "α", "beta": "β", "sum": "Σ", "dots": "…",
    "cdots": "⋯", "ldots": "…", "vdots": "⋮", "ddots": "⋱", "infty": "∞", "circ": "∘",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "neq": "≠", "in": "∈", "pm": "±",
    "quad": "  ", "qquad": "    ", ",": " ", ";": " ", ":": " ", "!": "", " ": " ",
    "%": "%", "&": "&", "_": "_", "#": "#", "{": "{", "}": "}", "lvert": "|", "rvert": "|",
    "mid": "|", "langle": "⟨", "rangle": "⟩", "sim": "~", "simeq": "≃", "equiv": "≡",
    "rightarrow": "→", "Rightarrow": "⇒", "mapsto": "↦", "prime": "′", "ell": "ℓ",
}  # fmt: skip
_IGNORED = {"left", "right", "middle", "displaystyle", "big", "Big", "bigl", "bigr"}
_FONTS = {"mathrm", "text", "operatorname", "mathbf", "mathit", "textbf", "boldsymbol"}
_ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304", "overline": "\u0305"}
_FRACTIONS = {"frac", "dfrac", "tfrac"}
_SUB = str.maketrans("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUP = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_&]|\s+|[^\\{}^_&\s]")


class Box:
    """Lines of text, all as wide; ``base`` is the line that sits on the text line. Never
    changed once made (a plain class: the layout makes one for every token it reads)."""

    __slots__ = ("base", "lines", "width")

    def __init__(self, lines: tuple[str, ...], base: int = 0) -> None:
        self.lines = lines
        self.base = base
        self.width = len(lines[0]) if len(lines) == 1 else max(map(len, lines), default=0)


def _text(text: str) -> Box:
    return Box((text,))


def hconcat(boxes: list[Box]) -> Box:
    """Boxes side by side, baselines aligned."""
    if not boxes:
        return _text("")
    if all(len(b.lines) == 1 for b in boxes):  # most boxes: text on one line, no padding
        return _text("".join(b.lines[0] for b in boxes))
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


class _Parser:
    def __init__(
        self,
        tex: str,
        width: int | None = None,
        stacked: bool = False,
        columns: Columns = COLUMNS,
    ) -> None:
        self.tokens = _TOKEN.findall(tex)
        self.at = 0
        self.width = width  # the columns a matrix may take (None: no limit)
        self.columns = columns  # the label of a group of columns of a too-wide matrix
        self.matrices = 0  # matrices read so far
        # Fractions drawn numerator over a bar over denominator (display maths), except in
        # exponents, indices and roots, which stay on their line: e^(√3/3).
        self.stacked = stacked
        self.flat = 0  # depth of scripts and roots being read

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def group(self) -> Box:
        """One argument: ``{...}`` or a single token."""
        tokens = self.tokens
        while self.at < len(tokens) and tokens[self.at].isspace():
            self.at += 1
        if self.peek() == "{":
            self.take()
            box = self.sequence(stop="}")
            if self.peek() == "}":
                self.take()
            return box
        return self.atom() if self.peek() is not None else _text("")

    def flat_group(self) -> Box:
        """A group on one line (an exponent, an index, a root's argument)."""
        self.flat += 1
        try:
            return self.group()
        finally:
            self.flat -= 1

    def raw_group(self) -> str:
        """A ``{name}`` argument as its text (environment names, \\text{...})."""
        if self.peek() != "{":
            return ""
        self.take()
        depth, out = 1, []
        while self.peek() is not None:
            token = self.take()
            depth += (token == "{") - (token == "}")
            if depth == 0:
                break
            out.append(token)
        return "".join(out)

    def sequence(self, stop: str | None = None, cell: bool = False) -> Box:
        parts: list[Box] = []
        tokens = self.tokens  # the innermost loop of every layout: each token looked at once
        while self.at < len(tokens):
            token = tokens[self.at]
            if token == stop or token == r"\end" or (cell and token in ("&", r"\\")):
                break
            if token in ("^", "_"):
                self.take()
                base = parts.pop() if parts else _text("")
                parts.append(_script(base, self.flat_group(), token))
                continue
            parts.append(self.atom())
        return _tidy(hconcat(parts))

    def atom(self) -> Box:
        token = self.take()
        if token.isspace():
            return _text(" ")
        if token == "{":
            box = self.sequence(stop="}")
            if self.peek() == "}":
                self.take()
            return box
        if not token.startswith("\\"):
            return _text(token)
        name = token[1:]
        if name in _FRACTIONS:
            top, bottom = self.group(), self.group()
            if self.stacked and not self.flat:
                return _stack(top, bottom)
            return _text(f"{_wrap(top)}/{_wrap(bottom, denominator=True)}")
        if name == "sqrt":
            inner = self.flat_group()
            return _text("√" + _wrap(inner))
        if name in _FONTS:
            text = self.raw_group()
            return _text(_Parser(text).sequence().lines[0] if name != "text" else text)
        if name in _ACCENTS:
            accented = self.group().lines[0]
            return _text(accented[:1] + _ACCENTS[name] + accented[1:])
        if name == "begin":
            return self.environment(self.raw_group())
        if name == "left":
            return self.delimited()
        if name in _IGNORED:
            return _text("") if self.peek() != "." else _skip(self)
        return _text(_SYMBOLS.get(name, name))

    def delimited(self) -> Box:
        r"""``\left( ... \right)``: brackets as tall as what they hold."""
        opening = self.take() if self.peek() is not None else "."
        inner = self.sequence(stop=r"\right")
        closing = "."
        if self.peek() == r"\right":
            self.take()
            closing = self.take() if self.peek() is not None else "."
        return _delimit(_DELIMITER.get(opening, opening), inner, _DELIMITER.get(closing, closing))

    def environment(self, kind: str) -> Box:
        rows: list[list[Box]] = [[]]
        counts = [self.matrices]  # matrices read before each row
        while self.peek() is not None:
            if self.peek() == r"\end":
                self.take()
                self.raw_group()
                break
            if self.peek() == "&":
                self.take()
                continue
            if self.peek() == r"\\":
                self.take()
                rows.append([])
                counts.append(self.matrices)
                continue
            rows[-1].append(self.sequence(cell=True))
        if kind.endswith("matrix"):
            self.matrices += 1
            kept = [row for row in rows if any(box.width for box in row)]
            return matrix(kept, self.width, self.columns)
        counts.append(self.matrices)
        kept = [
            row
            for row, before, after in zip(rows, counts, counts[1:])
            if any(box.width for box in row)
            # too wide to read: a line that only puts known matrices side by side is left out
            and not (self.width is not None and after - before > 1 and _wide(row, self.width))
        ]
        return aligned(kept)


_DELIMITER = {
    ".": "",
    r"\langle": "⟨",
    r"\rangle": "⟩",
    r"\lvert": "|",
    r"\rvert": "|",
    r"\{": "{",
    r"\}": "}",
    r"\lbrace": "{",
    r"\rbrace": "}",
    "|": "|",
}
_TALL = {"(": "⎛⎜⎝", ")": "⎞⎟⎠", "[": "⎡⎢⎣", "]": "⎤⎥⎦", "|": "│││", "{": "⎧⎨⎩", "}": "⎫⎬⎭"}


def _delimit(opening: str, inner: Box, closing: str) -> Box:
    """``inner`` between its brackets: characters on one line, drawn as tall as it is."""
    if len(inner.lines) == 1:
        return hconcat([_text(opening), inner, _text(closing)])
    return hconcat([_tall_delimiter(opening, inner), inner, _tall_delimiter(closing, inner)])


def _tall_delimiter(mark: str, inner: Box) -> Box:
    if not mark:
        return _text("")
    tall = _TALL.get(mark)
    top, middle, bottom = (tall[0], tall[1], tall[2]) if tall else (mark, mark, mark)
    height = len(inner.lines)
    lines = [top] + [middle] * (height - 2) + [bottom]
    return Box(tuple(lines), inner.base)


def _stack(top: Box, bottom: Box) -> Box:
    """A fraction as a reader writes it on paper: the numerator over a bar over the
    denominator, the bar on the text line."""
    width = max(top.width, bottom.width)
    lines = [line.center(width) for line in _pad(top).lines]
    lines.append("─" * width)
    lines.extend(line.center(width) for line in _pad(bottom).lines)
    return Box(tuple(lines), len(top.lines))


def _pad(box: Box) -> Box:
    """Every line as wide as the box; a one-line box's text without its outer spaces."""
    if len(box.lines) == 1:
        return _text(box.lines[0].strip())
    return Box(tuple(line.ljust(box.width) for line in box.lines), box.base)


def _wide(row: list[Box], width: int) -> bool:
    return hconcat(row).width > width


def _skip(parser: _Parser) -> Box:
    parser.take()  # the "." of \left. or \right.
    return _text("")


def _script(base: Box, script: Box, mark: str) -> Box:
    text = script.lines[0].strip() if len(script.lines) == 1 else ""
    if mark == "^" and text == "ᵀ":
        return hconcat([base, _text("ᵀ")])
    table = _SUP if mark == "^" else _SUB
    if text and all(c.translate(table) != c or c == "," for c in text):
        return hconcat([base, _text(text.translate(table))])
    if mark == "_":
        return hconcat([base, _text("_" + _wrap(script))])
    return hconcat([base, _text("^" + _wrap(script))])


def _wrap(box: Box, denominator: bool = False) -> str:
    """A one-line box's text, in parentheses when it is more than one term (a denominator:
    more than one factor too, as 1/2(a + 1) would be misread)."""
    text = box.lines[0].strip() if len(box.lines) == 1 else " ".join(box.lines).strip()
    if _compound(text) or (denominator and not _single(text)):
        return f"({text})"
    return text


_SCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵀ′\u0302\u0303\u0304\u0305"
_SINGLE = re.compile(
    rf"-?\d+(?:\.\d+)?|-?√\d+|-?√?[A-Za-zα-ωΑ-Ω](?:_\w+)?[{_SCRIPTS}]*(?:\^\(.*\)|\^\w)?"
    rf"|-?\(.*\)[{_SCRIPTS}]*"
)


def _single(text: str) -> bool:
    """One number, one symbol (with its scripts), one power or one parenthesised group."""
    if not _SINGLE.fullmatch(text):
        return False
    if text.lstrip("-").startswith("("):  # "(a)(b)" is two groups
        depth = 0
        for i, char in enumerate(text.lstrip("-")):
            depth += (char == "(") - (char == ")")
            if depth == 0:
                return text.lstrip("-")[i + 1 :].strip(_SCRIPTS) == ""
    return True


def _compound(text: str) -> bool:
    """Whether ``text`` has a space or an operator outside its parentheses and brackets."""
    depth = 0
    for i, char in enumerate(text):
        depth += (char in "([") - (char in ")]")
        if (depth == 0 and char in " +/·×=") or (depth == 0 and char == "-" and i > 0):
            return True
    return False


# "3 a" -> "3a" for a number standing alone, not the end of a name's index (W_K1,11 W_Q1,12)
_NUMBER_SPACE = re.compile(r"(?<![\w,_.])(\d+) (?!cos|sin|ln|log|exp|softmax)(?=[A-Za-zα-ω(√])")
_MINUS_SPACE = re.compile(r"(^|(?<=[(\[]))- (?=\S)")
_BEFORE_PARENTHESIS = re.compile(r"(?<=[0-9A-Za-z]) (?=\()")  # 2a (a + 1) -> 2a(a + 1)
_SPACES = re.compile(r" {2,}")
_INSIDE_PARENTHESES = re.compile(r"\( | \)")


def _tidy(box: Box) -> Box:
    """Spaces as a reader writes them: ``3 a`` -> ``3a``, runs of spaces collapsed."""
    if len(box.lines) != 1:
        return box
    text = box.lines[0]
    if " " not in text:  # every rule below removes a space: nothing to do
        return box
    text = _NUMBER_SPACE.sub(r"\1", text)
    text = _MINUS_SPACE.sub("-", text)
    text = _BEFORE_PARENTHESIS.sub("", text)
    text = _SPACES.sub(" ", text)
    text = _INSIDE_PARENTHESES.sub(lambda m: m.group().strip(), text)
    return _text(text)


def matrix(rows: list[list[Box]], width: int | None = None, columns: Columns = COLUMNS) -> Box:
    """A matrix between tall brackets, columns right-aligned, two spaces apart. Wider than
    ``width``: its columns in groups one below the other, or, when one column alone is too
    wide, its entries one by one."""
    if not rows:
        return _text("[]")
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
        return _text(f"[{body[0]}]")
    left = ["⎡"] + ["⎢"] * (len(body) - 2) + ["⎣"]
    right = ["⎤"] + ["⎥"] * (len(body) - 2) + ["⎦"]
    lines = tuple(f"{a} {line} {b}" for a, line, b in zip(left, body, right))
    return Box(lines, (len(lines) - 1) // 2)


def _tall(rows: list[list[Box]], cols: int) -> Box:
    """A matrix of entries over several lines: each row on its entries' common baseline, a
    blank line between rows, each column centred."""
    filled = [[row[j] if j < len(row) else _text("") for j in range(cols)] for row in rows]
    widths = [max(r[j].width for r in filled) for j in range(cols)]
    body: list[str] = []
    for k, row in enumerate(filled):
        parts: list[Box] = []
        for j, (box, w) in enumerate(zip(row, widths)):
            centred = Box(tuple(line.center(w) for line in _pad(box).lines), box.base)
            parts += ([_text("  ")] if j else []) + [centred]
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
    if max(widths) + 4 > width:  # one entry per line, long entries cut at + and -
        lines = []
        for i, row in enumerate(cells, start=1):
            for j, entry in enumerate(row, start=1):
                lines.extend(_cut(f"({i}, {j})  {entry}", width, 8))
        return Box(tuple(lines))
    lines = []
    for group in column_groups(widths, width):
        first, last = str(group[0] + 1), str(group[-1] + 1)
        label = columns[0] if first != last else columns[1]
        lines.append(label.replace("{first}", first).replace("{last}", last))
        part = _bracketed([[row[j] for j in group] for row in cells], [widths[j] for j in group])
        lines.extend(part.lines)
    return Box(tuple(lines))


def _cut(text: str, width: int, indent: int) -> list[str]:
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
    lefts = [row[0] if len(row) > 1 else _text("") for row in rows]
    rights = [hconcat(row[1:]) if len(row) > 1 else row[0] for row in rows]
    width = max((box.width for box in lefts), default=0)
    lines: list[str] = []
    for left, right in zip(lefts, rights):
        pad = Box(tuple(line.rjust(width) for line in left.lines), left.base)
        lines.extend(hconcat([pad, right]).lines)
        lines.append("")
    return Box(tuple(lines[:-1]))


def inline(tex: str) -> str:
    """Inline maths on one line (a matrix as ``[[a, b], [c, d]]``)."""
    box = _Parser(tex).sequence()
    if len(box.lines) == 1:
        return box.lines[0].strip()
    return _flat(tex)


def _flat(tex: str) -> str:
    flat = re.sub(
        r"\\begin\{[bp]?matrix\}(.*?)\\end\{[bp]?matrix\}",
        lambda m: (
            "["
            + ", ".join(
                "[" + ", ".join(inline(c).strip() for c in row.split("&")) + "]"
                for row in m.group(1).split(r"\\")
                if row.strip()
            )
            + "]"
        ),
        tex,
        flags=re.DOTALL,
    )
    return _Parser(flat).sequence().lines[0].strip()


@lru_cache(maxsize=4096)  # a line is measured by the chain, the page and the column groups
def drawn_width(tex: str) -> int:
    """How many characters wide ``tex`` is drawn in two dimensions (fractions stacked)."""
    return max((len(line) for line in _Parser(tex, stacked=True).sequence().lines), default=0)


def display(tex: str, width: int = 100, columns: Columns = COLUMNS) -> str:
    """Display maths over as many lines as it needs; past ``width`` columns, matrices are
    written on one line each row (``[a, b]``) instead of drawn."""
    box = _Parser(tex, stacked=True).sequence()
    lines = [line.rstrip() for line in box.lines]
    if max((len(line) for line in lines), default=0) <= width:
        return "\n".join(lines)
    box = _Parser(tex, width - 12, columns=columns).sequence()  # matrices fit beside "X = "
    lines = [line.rstrip() for line in box.lines]
    return "\n".join(piece for line in lines for piece in _cut(line, width, 8))
