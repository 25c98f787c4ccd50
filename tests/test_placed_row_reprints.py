"""A row of the weights printed on its own after the whole matrix was printed twice (so each
of its rows is claimed already), ``wei[1]`` with no token said: its numbers name the row, so it
is judged again as that row's print (in the "printed again" copy of the example); a float32
page's 16-digit print of a float32 value is that row too (float32's rounding, not a slip).
Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

T = 5
MASKED = np.where(np.tril(np.ones((T, T))) > 0, 0.0, -np.inf)
WEIGHTS = np.tril(np.ones((T, T))) / np.arange(1, T + 1)[:, None]


def _matrix(a: np.ndarray, digits: int = 4) -> str:
    rows = ", ".join(
        "[" + ", ".join("-inf" if np.isinf(x) else f"{x:.{digits}f}" for x in row) + "]"
        for row in a
    )
    return f"tensor([{rows}])"


def _row(values: np.ndarray | list[float], digits: str) -> str:
    return "[" + ", ".join(format(float(x), digits) for x in values) + "]"


def page(row_two: str, row_three: str, float32: bool = False) -> str:
    cast = "wei = wei.float()  # float32\n" if float32 else ""
    return f"""# Averaging the past with a masked softmax

```python
{cast}wei = wei.masked_fill(tril == 0, float('-inf'))
print(wei)
```

```
{_matrix(MASKED)}
```

```python
wei = F.softmax(wei, dim=-1)
print(wei)
```

```
{_matrix(WEIGHTS)}
```

Rounded for reading:

```
{_matrix(WEIGHTS, 2)}
```

Position 1 mixes tokens 0 and 1, position 2 the first three:

```
wei[1] = {row_two}
```

```
wei[2] = {row_three}
```
"""


def _reprints(found: list) -> dict[str, str]:
    """The verdict of each row claim judged in a "printed again" copy."""
    out = {}
    for one in found:
        if "printed again" not in one.spec.title:
            continue
        for claim in check(one.spec).claims:
            out[claim.key] = claim.verdict
    return out


def test_a_row_printed_after_its_matrix_is_judged_as_that_row() -> None:
    text = page(_row(WEIGHTS[1], ".1f"), _row(WEIGHTS[2], ".2f"))
    found = extract_all(text, "md", reprints=True)
    verdicts = _reprints(found)
    assert verdicts == {"head1.weights[2]": "exact", "head1.weights[3]": "rounded"}


def test_a_slipped_row_printed_after_its_matrix_is_judged_wrong() -> None:
    slipped = [0.34, 0.33, 0.33, 0.0, 0.0]  # one entry one unit off: a slip in row 3
    found = extract_all(page(_row(WEIGHTS[1], ".1f"), _row(slipped, ".2f")), "md", reprints=True)
    assert _reprints(found) == {"head1.weights[2]": "exact", "head1.weights[3]": "wrong"}
    other = [0.25, 0.25, 0.5, 0.0, 0.0]  # no row of these weights: another computation
    found = extract_all(page(_row(WEIGHTS[1], ".1f"), _row(other, ".2f")), "md", reprints=True)
    assert "head1.weights[3]" not in _reprints(found)


def test_a_float32_row_printed_to_sixteen_digits_is_that_row() -> None:
    third = float(np.float32(1 / 3))  # 0.3333333432674408
    text = page(_row(WEIGHTS[1], ".1f"), _row([third] * 3 + [0.0, 0.0], ""), float32=True)
    found = extract_all(text, "md", reprints=True)
    assert _reprints(found) == {"head1.weights[2]": "exact", "head1.weights[3]": "within"}
    float64 = page(_row(WEIGHTS[1], ".1f"), _row([third] * 3 + [0.0, 0.0], ""))
    assert "head1.weights[3]" not in _reprints(extract_all(float64, "md", reprints=True))
