"""What the finders return: a printed matrix with where it stands, the document's joined text,
and the reading of one printed number."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mha_symbolic.extract.emphasis import unstyled
from mha_symbolic.extract.formats import Document

_NUMBER = re.compile(r"[+\-−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+\-]?\d+)?")
_FRACTION = re.compile(r"[+\-−]?\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\}|[+\-−]?\d+/\d+")
_INFINITY = re.compile(r"-\\infty|-inf|−∞|-∞")
_NAME_BEFORE = re.compile(r"([^\W\d][\w^{}'.]*)\s*(?:=|:)\s*(?:[\w.]+\(?\s*)?$")
# A transpose marker right before the printed value: "Kᵀ = ", "W^{T} =", "K^\top:", "K.T ="
# and a print of one ("print(K.T)", "K.transpose(0, 1)" on the line above a notebook's output).
_TRANSPOSED = re.compile(
    r"(?:ᵀ|\^\s*\{?\s*(?:T|\\top|\\intercal|t)\s*\}?|\.T\b|\.t\(\)|\.transpose\([^()]*\))"
    r"\s*\)?\s*(?:=|:|≈|\\approx)?\s*(?:[\w.]+\(\s*)?$"
)
_PRINTED_T = re.compile(r"^\s*(?:print\()?.*(?:\.T|\.t\(\)|\.transpose\([^()]*\))\s*\)?\s*$")
_SPACING = re.compile(r"\\[,;:! ]|\\q?quad|\\left|\\right|\\phantom\{[^{}]*\}|~")


Rows = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Item:
    """One matrix or vector as printed: entries as text (their digits are the precision).

    A batch (a 3-d or 4-d print, ``[[[...]]]``, ``tensor([[[...]]])``) is one Item too: its
    ``batch_shape`` is the leading axes ((B,) or (B, H)) and its ``rows`` are the rows of every
    matrix one after another (``matrices`` splits them). A leading axis of length one is
    dropped when read, so a batch of one is its one matrix with ``batch_shape`` ()."""

    rows: Rows
    start: int  # offset in the document's joined text
    end: int
    line: int  # index of the line it starts on
    # "latex", "list", "tuple", "entry", "table" (Markdown, HTML), "julia", "frame" (pandas),
    # "shape" (a list that gives a shape: torch.Size([2, 3]), shape=[2, 2], strides=[2, 1])
    kind: str
    statement: str  # the text from the statement's start up to the item
    after: str  # the rest of its line
    batch_shape: tuple[int, ...] = ()  # (B,) or (B, H) for a batch of matrices; () otherwise
    columns: tuple[str, ...] = ()  # a table's header cells over its columns (names, tokens)
    labels: tuple[str, ...] = ()  # a table's first column of row labels (tokens), left out
    transposed: bool = False  # printed as a transpose ("Kᵀ =", "W^T =", "print(K.T)")
    # A summarised print ("[[0.1, 0.2, ..., 0.8, 0.9]]"): the columns its rows hold, 0-based
    # from the left and negative from the right; () when every column is printed.
    columns_at: tuple[int, ...] = ()

    @property
    def shape(self) -> tuple[int, int]:
        """The shape of one matrix (of each matrix of a batch)."""
        count = 1
        for size in self.batch_shape:
            count *= size
        return (len(self.rows) // count, len(self.rows[0]))

    @property
    def full_shape(self) -> tuple[int, ...]:
        """The printed array's shape, batch axes first: (3, 3), (2, 3, 3), (2, 4, 1, 5)."""
        return (*self.batch_shape, *self.shape)

    @property
    def matrices(self) -> tuple[Rows, ...]:
        """Each matrix of a batch in order (a matrix alone is a batch of one)."""
        height = self.shape[0]
        return tuple(self.rows[i : i + height] for i in range(0, len(self.rows), height))


@dataclass(frozen=True)
class Unread:
    """A printed matrix or vector left out whole because one entry cannot be read ("–1.0" with
    a superscript minus, "50%", "NaN", "…"): never read as a smaller matrix."""

    start: int  # offset in the joined text
    line: int  # index of the line it starts on
    row: int  # 1-based row of the entry; 0 for a vector
    token: str  # the entry as printed
    statement: str  # the text before it, as for an Item

    @property
    def name(self) -> str:
        """The name it is printed under ("X" of "X = [[...]]"), or "" when it has none."""
        found = _NAME_BEFORE.search(self.statement.split("\n")[-1])
        return found.group(1) if found else ""

    def note(self, where: str) -> str:
        """``line 12: row 2 of "X" cannot be read ('⁻1.0'): the matrix is left out``, a Phrase
        of ``[extract.unread]`` (said in any locale)."""
        from mha_symbolic.language.extract_phrases import code, phrase

        name = code(f'"{self.name}"') if self.name else phrase("unread.unnamed")
        token = code(repr(self.token))
        if self.row == 0:
            return phrase("unread.vector", where=where, name=name, token=token)
        return phrase("unread.row", where=where, row=self.row, name=name, token=token)


@dataclass(frozen=True)
class Text:
    """The document's lines joined, with the offset each line starts at; the finder adds the
    matrices left unread and the single numbers its prose computes (``scalars``: 1x1 Items of
    kind "scalar", the final value of a chain such as ``√2 ≈ 1.414``, outside every matrix;
    kept apart from the items so that a reader asks for them when it wants them)."""

    body: str
    starts: tuple[int, ...]
    unread: tuple[Unread, ...] = ()
    scalars: tuple[Item, ...] = ()

    def line_of(self, offset: int) -> int:
        low, high = 0, len(self.starts) - 1
        while low < high:
            mid = (low + high + 1) // 2
            if self.starts[mid] <= offset:
                low = mid
            else:
                high = mid - 1
        return low


def transposed(statement: str, above: str = "") -> bool:
    """Whether the statement before a value (or, for a bare print, the print on the line
    above it: ``print(K.T)``) says it is printed transposed."""
    lines = [line for line in statement.split("\n") if line.strip()]
    if not lines:
        return bool(_PRINTED_T.search(above.rstrip()))
    return bool(_TRANSPOSED.search(lines[-1].rstrip()))


def joined(document: Document) -> Text:
    starts, offset = [], 0
    for line in document.lines:
        starts.append(offset)
        offset += len(line.text) + 1
    return Text("\n".join(line.text for line in document.lines), tuple(starts or [0]))


_BARE_FLOAT = re.compile(r"[-−]?\d+\.")
_TYPED = re.compile(r"(?<=[\d.])_?[fiu](?:8|16|32|64|128|size)$")  # Rust's 1f32, 0.5_f64


@lru_cache(maxsize=65_536)  # a page repeats its numbers; every finder asks about each cell
def entry(text: str) -> str | None:
    """A printed number as written (−0.4 keeps its sign), or None if it is not a number.
    An en dash right before the digits ("–1.0", as word processors print a minus) is read as
    the minus sign "−": nothing else is meant by a dash glued to a number in a list."""
    cleaned = _SPACING.sub(" ", unstyled(text)).strip()
    if not _FRACTION.fullmatch(cleaned):  # "{0.5}" is 0.5; "\\frac{1}{2}" keeps its braces
        cleaned = _TYPED.sub("", cleaned.strip("{}").strip())
        if not _BARE_FLOAT.fullmatch(cleaned):  # numpy's "0." keeps its dot, as printed
            cleaned = cleaned.rstrip(".").strip()
    if cleaned.startswith("–") and cleaned[1:2].isdigit():
        cleaned = "−" + cleaned[1:]
    if not cleaned:
        return None
    if _NUMBER.fullmatch(cleaned) or _FRACTION.fullmatch(cleaned) or _INFINITY.fullmatch(cleaned):
        return cleaned
    return None
