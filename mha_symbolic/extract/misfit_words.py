"""Why a page's arrays could not be checked, said in the page's terms: the arrays found (their
names as printed, their shapes and lines) and which of them do not fit which, never the
message of a spec field the reader never wrote."""

from __future__ import annotations

from collections.abc import Sequence

from mha_symbolic.extract.reading import Seen

_ROLES = ("x", "q", "k", "v", "w_q", "w_k", "w_v", "w_o")
_SHOWN = {
    "x": "X",
    "q": "Q",
    "k": "K",
    "v": "V",
    "w_q": "W_Q",
    "w_k": "W_K",
    "w_v": "W_V",
    "w_o": "W_O",
}


def misfit(seen: Sequence[Seen], heads: int) -> str:
    """One line: "found Q (1×3, line 3) and K (3×2, line 7) but ..." with the first pair of
    arrays whose shapes exclude each other, else the head count, else that they do not make
    one attention computation."""
    arrays = [s for s in seen if s.role in _ROLES and s.row is None and s.col is None]
    arrays = [s for s in arrays if s.item.rows and s.item.rows[0]]
    if not arrays:
        return "the arrays found do not make one attention computation"
    found = _listed([f"{_name(s)} ({_size(s)}, {s.where})" for s in arrays])
    return f"found {found} but {_why(arrays, heads)}"


def _why(arrays: Sequence[Seen], heads: int) -> str:
    first: dict[str, Seen] = {}
    for s in arrays:
        first.setdefault(s.role, s)
    q, k, v, x, w_q = (first.get(r) for r in ("q", "k", "v", "x", "w_q"))
    if q is not None and k is not None and _cols(q) != _cols(k):
        return (
            f"a row of {_name(q)} has {_cols(q)} numbers and a row of {_name(k)} {_cols(k)}: "
            "no scores can be formed from them"
        )
    if k is not None and v is not None and _rows(k) != _rows(v):
        return f"{_name(k)} has {_rows(k)} rows and {_name(v)} {_rows(v)}: not one value per key"
    if x is not None and w_q is not None and _cols(x) != _rows(w_q):
        return (
            f"a row of {_name(x)} has {_cols(x)} numbers and {_name(w_q)} {_rows(w_q)} rows: "
            "no product of them"
        )
    if heads > 1:
        return f"no layout of {heads} heads that fits them"
    return "no way to make one attention computation of them"


def _name(s: Seen) -> str:
    return s.name or _SHOWN.get(s.role, s.role)


def _size(s: Seen) -> str:
    return f"{_rows(s)}×{_cols(s)}"


def _rows(s: Seen) -> int:
    return len(s.item.rows)


def _cols(s: Seen) -> int:
    return len(s.item.rows[0])


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
