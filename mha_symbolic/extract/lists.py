"""Bracketed lists of numbers: ``[1, 0]``, ``[[0.1 0.2]\\n [0.3 0.4]]``, ``(0.5, 0.5)``, numpy and
torch prints of any depth up to four (``[[[...]]]`` is a batch of matrices), and lists whose
entries are sums (``[0.0779 + 0.2156, 0.1 + 0.2]``, the working of the list printed after).

The list is read piece by piece with one regular expression (a run of entry characters is one
piece), so a page of ``(((...`` or ``[[[...`` costs one short look per bracket."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from mha_symbolic.extract.elided import is_elision, summarised
from mha_symbolic.extract.items import entry

MAX_SPAN = 200_000  # characters of one bracketed list
MAX_NESTING = 4  # [[[[...]]]]: a batch of heads of matrices at most
LONGEST_TOKEN = 64  # characters of one entry ("\\frac{12}{345}", "-1.0000e+09"); longer is text
_PIECE = re.compile(r"\\[;,]|[\[\]()]|[,;]|\s+|#|(?:[^\[\]()\s,;#\\]|\\(?![;,]))+")
_CLOSER = {"[": "]", "(": ")"}
_WRAPPERS = frozenset(("array", "np.array", "tensor", "torch.tensor"))
_PRODUCT = re.compile(r"[*×·]")  # "0.7311*1": a term of a sum may be a product
_BRACKET = re.compile(r"[\[\]()]")
_OPERATORS = frozenset(("+", "-", "−", "*", "×", "·", "\\cdot", "\\times"))


@dataclass(frozen=True)
class Parsed:
    """A list as nested lists of entry texts; ``sums`` when some entry is a printed sum."""

    value: list
    end: int
    sums: bool
    columns_at: tuple[int, ...] = ()  # a summarised print's visible columns (elided.py)


@dataclass(frozen=True)
class Unreadable:
    """A list that failed at an entry that looks meant as a number ("–1.0", "⁻1.0", "50%",
    "NaN", "…"), or at any text inside a row of a matrix: the whole list is left unread."""

    token: str
    row: int  # 1-based row of the matrix the entry stands in; 0 for a vector's entry
    end: int  # where the whole list ends (its brackets balanced), to skip past it


# An entry meant as a number: digits and signs without letters ("⁻1.0", "50%", "1,5e"), or a
# placeholder ("NaN", "…"); "dtype=torch.float64" is an argument, not an entry.
_NUMBER_LIKE = re.compile(r"^[^\sA-Za-z]*\d[^\sA-Za-z]*$|^(?:nan|NaN|NAN|…|\.\.\.|\?|Inf|∞)$")


def number_like(token: str) -> bool:
    """Whether text that is no number was meant as one ("⁻1.0", "50%", "NaN", "…")."""
    return bool(_NUMBER_LIKE.search(token.strip()))


class _State:
    def __init__(self) -> None:
        self.stack: list[list] = []
        self.closers: list[str] = []
        self.token: list[str] = []  # the pieces of the entry being read ("0.1", "+", "0.2")
        self.sums = False
        self.elided = ""  # the "..." (or "…") of a summarised print among the entries
        self.spaced = False  # whitespace since the last piece of the entry
        self.failed = ""  # the entry that could not be read
        self.wrapped: list[bool] = []  # per open list: an array( ... ) inside a list
        self.ends: list[list[int]] = []  # per open list: where a ";" ended a row of entries

    def take(self) -> bool:
        """Add the finished entry to the open list; False if it is text, not a number."""
        pieces, self.token, self.spaced = self.token, [], False
        if not pieces:
            return True
        if len(pieces) == 1:
            value = entry(pieces[0])
            if value is None and is_elision(pieces[0]):
                self.elided = pieces[0]
                value = pieces[0]
            if value is None:
                self.failed = pieces[0]
                return False
            self.stack[-1].append(value)
            return True
        return self._sum(pieces)

    def _sum(self, pieces: list[str]) -> bool:
        """ "0.0779 + 0.2156 + 0.1057" (terms may be products, "0.73*1"): numbers joined by
        operators, kept as one entry text."""
        numbers, operators = pieces[0::2], pieces[1::2]
        if len(pieces) % 2 == 0 or not all(op in _OPERATORS for op in operators):
            return False
        if any(entry(part) is None for n in numbers for part in _PRODUCT.split(n)):
            self.failed = " ".join(pieces)
            return False
        self.sums = True
        self.stack[-1].append(" ".join(pieces))
        return True


def parse(body: str, start: int) -> Parsed | Unreadable | None:
    """The bracketed list that opens at ``start``; None at the first piece of text, or
    Unreadable when that piece is an entry meant as a number or stands in a matrix's row."""
    state = _State()
    found = _read(body, start, state)
    if found is not None and state.elided:
        return _summarised(found, state.elided)
    if found is not None or not state.failed or not state.stack:
        return found
    if not _meant_as_numbers(state, body[start]):
        return None
    end = _balanced_end(body, start)
    if end is None:
        return None
    row = len(state.stack[-2]) + 1 if len(state.stack) >= 2 else 0
    return Unreadable(state.failed, row, end)


def _summarised(found: Parsed, elision: str) -> Parsed | Unreadable:
    """A list with "..." among its entries: its visible columns when it is a summarised
    print, else left unread at the ellipsis (as any entry meant as a number)."""
    read = summarised(found.value)
    if read is None:
        rows = found.value if any(isinstance(row, list) for row in found.value) else []
        row = next((i for i, r in enumerate(rows, 1) if _elision_in(r)), 0)
        return Unreadable(elision, row, found.end)
    return Parsed(read[0], found.end, found.sums, read[1])


def _elision_in(value: object) -> bool:
    if isinstance(value, list):
        return any(map(_elision_in, value))
    return isinstance(value, str) and is_elision(value)


def _meant_as_numbers(state: _State, opener: str) -> bool:
    """Whether a list that failed at ``state.failed`` was meant as numbers: a row of a matrix
    whose rows before it were read (any text then), or an entry meant as a number in a matrix's
    row or after read entries of a vector. A tuple in prose ("(1/0.5 = 2)") never is."""
    if opener == "(" and len(state.stack) == 1:
        return False
    parent = state.stack[-2] if len(state.stack) >= 2 else []
    rows_before = bool(parent) and all(isinstance(v, list) for v in parent)
    if rows_before:
        return True
    if not number_like(state.failed):
        return False
    return len(state.stack) >= 2 or bool(state.stack[-1])


def _balanced_end(body: str, start: int) -> int | None:
    """Where the brackets opened at ``start`` close again, whatever stands between them."""
    depth = 0
    for bracket in _BRACKET.finditer(body, start, min(len(body), start + MAX_SPAN)):
        depth += 1 if bracket.group() in "[(" else -1
        if depth == 0:
            return bracket.end()
    return None


def _read(body: str, start: int, state: _State) -> Parsed | None:
    limit = min(len(body), start + MAX_SPAN)
    position = start
    while position < limit:
        piece = _PIECE.match(body, position, limit)
        if piece is None:
            return None
        text = piece.group()
        position = piece.end()
        if text in ("[", "(", "#") and state.spaced and state.token and not state.take():
            return None
        if text in ("[", "("):
            if not _open(state, text):
                return None
        elif text == "#":
            skipped = _comment(body, piece.start(), state, limit)
            if skipped is None:
                return None
            position = skipped
        elif text in ("]", ")"):
            if not state.stack or not state.take() or text != state.closers[-1]:
                return None
            done = _rows_of(state.stack.pop(), state.ends.pop())
            state.closers.pop()
            if state.wrapped.pop():  # array(...) in a list: the array it holds
                if len(done) != 1 or not isinstance(done[0], list):
                    return None
                done = done[0]
            if not state.stack:
                return Parsed(done, position, state.sums)
            state.stack[-1].append(done)
        elif text.isspace():
            state.spaced = True  # ends the entry unless an operator of a sum is next to it
        elif text in (",", ";", "\\;", "\\,"):
            if not state.stack or not state.take():
                return None
            if text == ";":
                state.ends[-1].append(len(state.stack[-1]))
        elif not _entry_piece(state, text):
            return None
    return None


def _rows_of(done: list, ends: list[int]) -> list:
    """A Julia or MATLAB matrix literal ("[1 2 3; 2 2 2]"): ";" between entries ends a row.
    Unchanged when the entries are lists or the rows would differ in length."""
    if not ends or any(isinstance(e, list) for e in done):
        return done
    bounds = [0, *[end for end in ends if 0 < end < len(done)], len(done)]
    rows = [done[a:b] for a, b in itertools.pairwise(bounds)]
    return rows if len({len(row) for row in rows}) == 1 and len(rows) > 1 else done


def _open(state: _State, bracket: str) -> bool:
    """A "[" opens a row (or a batch); a "(" only the whole tuple, or an ``array(`` in a list
    of arrays (``[array([[1.78], [0.43]]), array(...)]``, a batch); other text before it is
    refused."""
    wrapper = bracket == "(" and len(state.token) == 1 and state.token[0] in _WRAPPERS
    if wrapper:
        state.token = []
        allowed = bool(state.stack) and len(state.stack) < MAX_NESTING
    else:
        nested_tuple = bracket == "(" and bool(state.stack)
        allowed = not state.token and len(state.stack) < MAX_NESTING and not nested_tuple
    if not allowed:
        return False
    state.stack.append([])
    state.ends.append([])
    state.closers.append(_CLOSER[bracket])
    state.wrapped.append(wrapper and len(state.stack) > 1)
    return True


def _entry_piece(state: _State, text: str) -> bool:
    """A run of entry characters: the entry itself, or an operator or number of a sum."""
    if not state.stack or len(text) > LONGEST_TOKEN or len(state.token) > 40:
        return False
    joins = text in _OPERATORS or (state.token and state.token[-1] in _OPERATORS)
    if state.spaced and state.token and not joins and not state.take():
        return False
    state.spaced = False
    state.token.append(text)
    return True


def _comment(body: str, at: int, state: _State, limit: int) -> int | None:
    """Where reading goes on after a "#" inside a printed list: a trailing comment
    ("[1, 2],  # Output 1") skips to its line's end; a print commented out line by line
    ("#  [3, 4]]") goes on after the "#"."""
    if not state.stack or state.token:
        return None
    line_start = body.rfind("\n", 0, at) + 1
    if body[line_start:at].strip():
        newline = body.find("\n", at, limit)
        return None if newline < 0 else newline
    return at + 1


def as_rows(value: list, opener: str) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]:
    """The rows of a parsed list and its batch shape: () for a matrix or a vector, (B,) or
    (B, H) for a batch of matrices, whose rows are then every matrix's rows in order.
    A leading axis of length one is dropped (``tensor([[[...]]])`` is its one matrix).
    ((), ()) when it is no array (ragged, mixed, empty, a one-entry tuple)."""
    while len(value) == 1 and isinstance(value[0], list) and value[0] and _depth(value) > 2:
        value = value[0]
    depth = _depth(value)
    if not value or depth == 0 or not _regular(value, depth):
        return (), ()
    if depth == 1:
        if opener == "(" and len(value) < 2:
            return (), ()
        return (tuple(value),), ()
    if depth == 2:
        return tuple(tuple(row) for row in value), ()
    matrices = value if depth == 3 else [m for group in value for m in group]
    batch = (len(value),) if depth == 3 else (len(value), len(value[0]))
    return tuple(tuple(row) for matrix in matrices for row in matrix), batch


def _depth(value: object) -> int:
    depth = 0
    while isinstance(value, list):
        if not value:
            return 0
        depth, value = depth + 1, value[0]
    return depth


def _regular(value: object, depth: int) -> bool:
    """Every element at each depth a list of the same length (an array, not ragged)."""
    if depth == 0:
        return isinstance(value, str)
    if not isinstance(value, list) or not value:
        return False
    lengths = {len(v) if isinstance(v, list) else -1 for v in value} if depth > 1 else {0}
    return len(lengths) == 1 and all(_regular(v, depth - 1) for v in value)
