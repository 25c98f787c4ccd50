"""A table's last column of row totals (``| 0.25 | 0.75 | 1.0000 |`` under "sum" or "รวม"):
when every row's last number is the sum of the others at their printed digits, the totals are
an array of their own (a check the author printed), not a column of the matrix."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal, InvalidOperation

from mha_symbolic.extract.items import Item


def without_totals(item: Item) -> list[Item]:
    """The matrix and its column of totals (read as one row) as two items, or the item alone."""
    rows = item.rows
    if len(rows) < 2 or len(rows[0]) < 3 or item.batch_shape:
        return [item]
    if not all(_total(row) for row in rows) or not any("." in row[-1] for row in rows):
        return [item]  # whole numbers that add up (one-hot rows and their count) may be inputs
    matrix = tuple(row[:-1] for row in rows)
    totals = (tuple(row[-1] for row in rows),)  # a row, as the weights' row sums are tested
    columns = item.columns[:-1] if item.columns else ()
    header = item.columns[-1:] if item.columns else ()
    return [
        replace(item, rows=matrix, columns=columns),
        replace(item, rows=totals, columns=header, start=item.start + 1, statement="sums:"),
    ]


def _total(row: tuple[str, ...]) -> bool:
    """Whether the last entry is the sum of the others to within their printed digits."""
    numbers = [_decimal(text) for text in row]
    if any(n is None for n in numbers):
        return False
    values = [n for n in numbers if n is not None]
    slack = sum((_half_unit(v) for v in values), Decimal(0))
    return values[-1] != 0 and abs(sum(values[:-1]) - values[-1]) <= slack


def _decimal(text: str) -> Decimal | None:
    try:
        value = Decimal(text.replace("−", "-"))
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _half_unit(value: Decimal) -> Decimal:
    exponent = value.as_tuple().exponent
    return Decimal(5).scaleb(int(exponent) - 1) if isinstance(exponent, int) else Decimal(0)
