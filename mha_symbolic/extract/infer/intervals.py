"""Printed arrays as interval matrices: the midpoint the digits say and the radius they allow
(half a unit of the last printed digit; integers and fractions exact unless they sit in a table
of rounded decimals; ``-inf`` and ``-1e9`` are mask entries)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

import numpy as np

from mha_symbolic.extract.infer.computed_once import once
from mha_symbolic.extract.items import Item

# A printed fill of a masked entry: -inf, or a negative number of magnitude 1e4 or more.
MASK_BELOW = -1e4
_FRACTION = re.compile(r"([+\-−]?)\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\}|([+\-−]?\d+)/(\d+)")
_INFINITY = re.compile(r"-\\infty|-inf|−∞|-∞")


class Entries:
    """What the midpoints of a print or a computed value say, each read once: where a mask
    put -inf, whether any entry is masked, whether every entry is finite."""

    mid: np.ndarray

    @once
    def masked(self) -> np.ndarray:
        return self.mid == -np.inf

    @once
    def has_mask(self) -> bool:
        return bool(self.masked.any())

    @once
    def finite(self) -> bool:
        return bool(np.isfinite(self.mid).all())


@dataclass(frozen=True)
class Printed(Entries):
    """One printed array: its item, position in the list of items, and the interval matrix."""

    index: int
    item: Item
    mid: np.ndarray  # float64, masked entries -inf
    rad: np.ndarray
    decimals: int  # the most decimals an entry prints (0: integers or fractions only)
    fill: str | None  # how masked entries are printed ("-inf", "-1e9"), None when there are none

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.mid.shape[0]), int(self.mid.shape[1]))

    @once
    def integers(self) -> bool:
        """Whether every entry is a whole number (a mask's -inf counts as one)."""
        return bool((self.mid == np.round(self.mid)).all())

    @once
    def all_zero(self) -> bool:
        return not self.mid.any()

    @once
    def distribution(self) -> bool:
        """Whether its rows are probabilities (see ``probabilities``)."""
        return probabilities(self.mid, self.rad)

    @once
    def transposed(self) -> Printed:
        """The same print read down its columns (made once: the search tests it often)."""
        return Printed(self.index, self.item, self.mid.T, self.rad.T, self.decimals, self.fill)

    @property
    def line(self) -> int:
        return self.item.line


def probabilities(mid: np.ndarray, rad: np.ndarray) -> bool:
    """Rows of probabilities: entries in [0, 1] that sum to 1 at printed precision."""
    if not np.isfinite(mid).all() or mid.shape[1] < 2 or (mid == np.round(mid)).all():
        return False  # one-hot rows of integers are far likelier an input than weights
    if (mid + rad < 0).any() or (mid - rad > 1).any():
        return False
    return bool((np.abs(mid.sum(axis=1) - 1) <= rad.sum(axis=1) + 1e-9).all())


def entry_value(text: str) -> tuple[float, float, int, bool] | None:
    """(midpoint, radius, decimals, is a mask fill) of one printed entry, or None."""
    cleaned = text.replace("−", "-").replace(" ", "")
    if _INFINITY.fullmatch(cleaned):
        return (-np.inf, 0.0, 0, True)
    fraction = _FRACTION.fullmatch(cleaned)
    if fraction:
        if fraction.group(2):
            sign, top, bottom = fraction.group(1), fraction.group(2), fraction.group(3)
            value = Fraction(int(top), int(bottom)) * (-1 if sign in ("-", "−") else 1)
        else:
            value = Fraction(int(fraction.group(4)), int(fraction.group(5)))
        return (float(value), 0.0, 0, False)
    try:
        number = Decimal(cleaned.rstrip("."))
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    if number <= Decimal(str(MASK_BELOW)):
        return (-np.inf, 0.0, 0, True)
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)
    exact = "." not in cleaned.rstrip(".") and "e" not in cleaned.lower()
    if exact or (cleaned.endswith(".") and exponent >= 0):
        return (float(number), 0.0, 0, False)
    radius = float(Decimal(5) * Decimal(10) ** (exponent - 1))
    return (float(number), radius, max(0, -exponent), False)


def printed_array(index: int, item: Item) -> Printed | None:
    """The interval matrix of an item, or None when an entry is not a number."""
    values = [[entry_value(e) for e in row] for row in item.rows]
    if not values or any(v is None for row in values for v in row):
        return None
    if len({len(row) for row in values}) != 1:
        return None
    read = [[v for v in row if v is not None] for row in values]
    mid = np.array([[v[0] for v in row] for row in read], dtype=np.float64)
    rad = np.array([[v[1] for v in row] for row in read], dtype=np.float64)
    decimals = max(v[2] for row in read for v in row)
    if decimals:
        # An integer among rounded decimals ("0" beside "0.27") was rounded as well.
        rad = np.where((rad == 0) & np.isfinite(mid), 0.5 * 10.0**-decimals, rad)
    fills = [e for row, vs in zip(item.rows, read) for e, v in zip(row, vs) if v[3]]
    return Printed(index, item, mid, rad, decimals, _fill(fills[0]) if fills else None)


def _fill(text: str) -> str:
    cleaned = text.replace("−", "-").strip()
    return "-inf" if _INFINITY.fullmatch(cleaned.replace(" ", "")) else cleaned


def _shape_like(item: Item) -> bool:
    """A tuple of counts printed by itself ("(2, 6, 4)", "(0, 2, 1, 3)"): a shape or the axes
    of a transpose, never numbers of the computation."""
    row = item.rows[0] if len(item.rows) == 1 else ()
    return item.kind == "tuple" and bool(row) and all(e.strip().isdigit() for e in row)


def printed_arrays(items: list[Item], limit: int | None = None) -> list[Printed]:
    """The interval matrices of the items that are numbers; read no further than ``limit``
    arrays beyond single numbers and one more (the search's bound: one more says it was hit)."""
    out = []
    arrays = 0
    for index, item in enumerate(items):
        found = None if _shape_like(item) else printed_array(index, item)
        if found is not None:
            out.append(found)
            arrays += found.shape != (1, 1)
            if limit is not None and arrays > limit:
                break
    return out
