"""The solutions' LaTeX (the subset :mod:`mha_symbolic.solution.latex` writes) as plain Unicode
text for a terminal: ``\\frac{a}{3 a + 1}`` reads ``a/(3a + 1)``, ``e^{\\frac{\\sqrt{3}}{3}}``
reads ``e^(√3/3)``, and a matrix is drawn over several lines between tall brackets."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from mha_symbolic.solution.boxes import (
    COLUMNS,
    Box,
    Columns,
    aligned,
    below_groups,
    cut,
    hconcat,
    matrix,
    pad,
    text_box,
)

_SYMBOLS = {
    "times": "×", "cdot": "·", "approx": "≈", "to": "→", "top": "ᵀ", "tau": "τ",
    "Delta": "Δ", "theta": "θ", "alpha": "α", "beta": "β", "sum": "Σ", "dots": "…",
    "cdots": "⋯", "ldots": "…", "vdots": "⋮", "ddots": "⋱", "infty": "∞", "circ": "∘",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "neq": "≠", "in": "∈", "pm": "±",
    "quad": "  ", "qquad": "    ", ",": " ", ";": " ", ":": " ", "!": "", " ": " ",
    "%": "%", "&": "&", "_": "_", "#": "#", "{": "{", "}": "}", "lvert": "|", "rvert": "|",
    "mid": "|", "langle": "⟨", "rangle": "⟩", "sim": "~", "simeq": "≃", "equiv": "≡",
    "rightarrow": "→", "Rightarrow": "⇒", "mapsto": "↦", "prime": "′", "ell": "ℓ",
    "varphi": "φ", "phi": "ϕ", "pi": "π", "gamma": "γ", "delta": "δ", "epsilon": "ϵ",
    "varepsilon": "ε", "lambda": "λ", "mu": "μ", "sigma": "σ", "omega": "ω", "eta": "η",
}  # fmt: skip
_IGNORED = {"left", "right", "middle", "displaystyle", "big", "Big", "bigl", "bigr"}
_FONTS = {"mathrm", "text", "operatorname", "mathbf", "mathit", "textbf", "boldsymbol"}
_ACCENTS = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304", "overline": "\u0305"}
_FRACTIONS = {"frac", "dfrac", "tfrac"}
_SUB = str.maketrans("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUP = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_&]|\s+|[^\\{}^_&\s]")


class _Parser:
    def __init__(
        self,
        tex: str,
        width: int | None = None,
        stacked: bool = False,
        columns: Columns = COLUMNS,
        named: Columns | None = None,
        operands: Mapping[str, Columns] | None = None,
    ) -> None:
        self.tokens = _TOKEN.findall(tex)
        self.at = 0
        self.width = width  # the columns a matrix may take (None: no limit)
        self.columns = columns  # the label of a group of columns of a too-wide matrix
        # The label naming the step's matrix, for a matrix alone on a line of its chain (not
        # an operand: softmax(S') is not A); the next matrix drawn takes ``alone``'s labels.
        self.named = named
        self.alone = False
        # The labels naming an operand's matrix (``columns 1–2 of A_1:``), by its tokens
        # without spaces: a matrix written into the next step's working, too wide for the page.
        self.operands = {_key(_TOKEN.findall(k)): v for k, v in (operands or {}).items()}
        self.operand: Columns | None = None
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
        return self.atom() if self.peek() is not None else text_box("")

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
                base = parts.pop() if parts else text_box("")
                parts.append(_script(base, self.flat_group(), token))
                continue
            parts.append(self.atom())
        return _tidy(hconcat(below_groups(parts)))

    def atom(self) -> Box:
        token = self.take()
        if token.isspace():
            return text_box(" ")
        if token == "{":
            box = self.sequence(stop="}")
            if self.peek() == "}":
                self.take()
            return box
        if not token.startswith("\\"):
            return text_box(token)
        name = token[1:]
        if name in _FRACTIONS:
            top, bottom = self.group(), self.group()
            if self.stacked and not self.flat:
                return _stack(top, bottom)
            return text_box(f"{_wrap(top)}/{_wrap(bottom, denominator=True)}")
        if name == "sqrt":
            inner = self.flat_group()
            return text_box("√" + _wrap(inner))
        if name in _FONTS:
            text = self.raw_group()
            return text_box(_Parser(text).sequence().lines[0] if name != "text" else text)
        if name in _ACCENTS:
            accented = self.group().lines[0]
            return text_box(accented[:1] + _ACCENTS[name] + accented[1:])
        if name == "begin":
            return self.begun()
        if name == "left":
            return self.delimited()
        if name in _IGNORED:
            return text_box("") if self.peek() != "." else _skip(self)
        return text_box(_SYMBOLS.get(name, name))

    def begun(self) -> Box:
        """An environment after its ``\\begin``, drawn once for each text it has: a matrix
        is drawn at its step, in the next step's working and in each line measured."""
        end = _environment_end(self.tokens, self.at)
        if end is None:
            return self.environment(self.raw_group())
        self.alone = self.named is not None and _alone(self.tokens, self.at - 1, end)
        self.operand = self.operands.get(_key(self.tokens[self.at - 1 : end]))
        state = (
            self.width,
            self.stacked,
            self.flat > 0,
            self.columns,
            self.alone and self.named,
            self.operand,
        )
        key = (tuple(self.tokens[self.at : end]), *state)
        if key in _DRAWN:
            box, matrices = _DRAWN[key]
            self.at, self.matrices = end, self.matrices + matrices
            return box
        before = self.matrices
        box = self.environment(self.raw_group())
        if self.at == end:  # read to its own end, and no further
            if len(_DRAWN) >= _DRAWN_KEPT:
                _DRAWN.clear()
            _DRAWN[key] = (box, self.matrices - before)
        return box

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
        columns = self.named if self.alone and self.named else self.operand or self.columns
        self.alone, self.operand = False, None
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
            return matrix(kept, self.width, columns)
        counts.append(self.matrices)
        kept = [
            row
            for row, before, after in zip(rows, counts, counts[1:])
            if any(box.width for box in row)
            # too wide to read: a line that only puts known matrices side by side is left out
            and not (self.width is not None and after - before > 1 and _wide(row, self.width))
        ]
        return aligned(kept)


def _key(tokens: list[str]) -> str:
    """An environment's tokens as one string, spaces left out."""
    return "".join(t for t in tokens if not t.isspace())


def _alone(tokens: list[str], begin: int, end: int) -> bool:
    """Whether the environment from ``tokens[begin]`` (its ``\\begin``) to ``end`` is all of
    its line of an aligned chain, after nothing but ``=`` or ``\\approx``."""
    i = begin - 1
    while i >= 0 and tokens[i] not in ("&", r"\\"):
        if not (tokens[i].isspace() or tokens[i] in ("=", r"\approx")):
            return False
        i -= 1
    after = next((t for t in tokens[end:] if not t.isspace()), None)
    return i >= 0 and after in (None, "&", r"\\", r"\end")


# Environments drawn: (their tokens, the parser's width, stacked, flat) -> (box, matrices
# in it). Boxes are never changed once made, so one may stand in many lines.
_DRAWN: dict[tuple[object, ...], tuple[Box, int]] = {}
_DRAWN_KEPT = 4096


def _environment_end(tokens: list[str], start: int) -> int | None:
    """Where the environment begun just before ``start`` ends: after the ``{name}`` of its
    ``\\end`` (None when it does not end so; then it is not kept)."""
    depth = 1
    for i in range(start, len(tokens)):
        depth += (tokens[i] == r"\begin") - (tokens[i] == r"\end")
        if depth == 0:
            if i + 1 >= len(tokens) or tokens[i + 1] != "{":
                return None
            try:
                return tokens.index("}", i + 2) + 1
            except ValueError:
                return None
    return None


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
        return hconcat([text_box(opening), inner, text_box(closing)])
    return hconcat([_tall_delimiter(opening, inner), inner, _tall_delimiter(closing, inner)])


def _tall_delimiter(mark: str, inner: Box) -> Box:
    if not mark:
        return text_box("")
    tall = _TALL.get(mark)
    top, middle, bottom = (tall[0], tall[1], tall[2]) if tall else (mark, mark, mark)
    height = len(inner.lines)
    lines = [top] + [middle] * (height - 2) + [bottom]
    return Box(tuple(lines), inner.base)


def _stack(top: Box, bottom: Box) -> Box:
    """A fraction as a reader writes it on paper: the numerator over a bar over the
    denominator, the bar on the text line."""
    width = max(top.width, bottom.width)
    lines = [line.center(width) for line in pad(top).lines]
    lines.append("─" * width)
    lines.extend(line.center(width) for line in pad(bottom).lines)
    return Box(tuple(lines), len(top.lines))


def _wide(row: list[Box], width: int) -> bool:
    return hconcat(row).width > width


def _skip(parser: _Parser) -> Box:
    parser.take()  # the "." of \left. or \right.
    return text_box("")


def _script(base: Box, script: Box, mark: str) -> Box:
    text = script.lines[0].strip() if len(script.lines) == 1 else ""
    if mark == "^" and text == "ᵀ":
        return hconcat([base, text_box("ᵀ")])
    table = _SUP if mark == "^" else _SUB
    if text and all(c.translate(table) != c or c == "," for c in text):
        return hconcat([base, text_box(text.translate(table))])
    if mark == "_":
        return hconcat([base, text_box("_" + _wrap(script))])
    return hconcat([base, text_box("^" + _wrap(script))])


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
    return text_box(text)


def inline(tex: str) -> str:
    """Inline maths on one line (a matrix as ``[[a, b], [c, d]]``, a row as ``[a, b]``, as the
    rows of the text are written: one-token's assumed row read ``[0.5 1.2]`` beside ``[4, 11]``)."""
    box = _Parser(tex).sequence()
    if len(box.lines) == 1 and not _MATRIX.search(tex):
        return box.lines[0].strip()
    return _flat(tex)


_MATRIX = re.compile(r"\\begin\{[bp]?matrix\}(.*?)\\end\{[bp]?matrix\}", re.DOTALL)


def _rows(found: re.Match[str]) -> str:
    rows = [
        "[" + ", ".join(inline(c).strip() for c in row.split("&")) + "]"
        for row in found.group(1).split(r"\\")
        if row.strip()
    ]
    return rows[0] if len(rows) == 1 else "[" + ", ".join(rows) + "]"


def _flat(tex: str) -> str:
    flat = _MATRIX.sub(_rows, tex)
    return _Parser(flat).sequence().lines[0].strip()


@lru_cache(maxsize=4096)  # a line is measured by the chain, the page and the column groups
def drawn_width(tex: str) -> int:
    """How many characters wide ``tex`` is drawn in two dimensions (fractions stacked)."""
    return max((len(line) for line in _Parser(tex, stacked=True).sequence().lines), default=0)


@lru_cache(maxsize=1024)
def drawn_height(tex: str) -> int:
    """How many lines tall ``tex`` is drawn in two dimensions (fractions stacked)."""
    return len(_Parser(tex, stacked=True).sequence().lines)


def display(
    tex: str,
    width: int = 100,
    columns: Columns = COLUMNS,
    named: Columns | None = None,
    operands: Mapping[str, Columns] | None = None,
) -> str:
    """Display maths over as many lines as it needs; past ``width`` columns, matrices are
    written on one line each row (``[a, b]``) instead of drawn, or cut into groups of columns
    labelled ``columns`` (``named``: for a matrix alone on a line of an aligned chain;
    ``operands``: for a matrix written in a product, by its LaTeX)."""
    box = _Parser(tex, stacked=True).sequence()
    lines = [line.rstrip() for line in box.lines]
    if max((len(line) for line in lines), default=0) <= width:
        return "\n".join(lines)
    box = _Parser(tex, width - 12, columns=columns, named=named, operands=operands).sequence()
    lines = [line.rstrip() for line in box.lines]
    return "\n".join(piece for line in lines for piece in cut(line, width, 8))
