"""Weights a program prints rounded (random weights shown to 4 decimals): a product of them with
X misses most entries of the printed X W by a few units of the last digit, and is still found
as X W with the weights taken as the intervals their digits allow. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer.intervals import printed_arrays
from mha_symbolic.extract.infer.search import search

X = np.array([[3.25, -1.5], [0.75, 2.5], [-4.5, 3.75]])
# Weights as a random initialisation draws them; the page prints them to 4 decimals only.
W = np.array([[-0.2797672011, 0.5229748236], [-0.6926285736, 0.4497197857]])


def _text(a: np.ndarray, decimals: int) -> str:
    rows = ",\n        ".join("[" + ", ".join(f"{x:.{decimals}f}" for x in r) + "]" for r in a)
    return f"tensor([{rows}])"


PAGE = f"""# Keys from rounded weights

```python
x
```
```
{_text(X, 2)}
```
```python
W_k.weight.T
```
```
{_text(W, 4)}
```
```python
k = x @ W_k.weight.T
k
```
```
{_text(X @ W, 4)}
```
"""


def test_the_printed_weights_miss_most_entries_as_exact_numbers() -> None:
    """The case itself: the 4-decimal weights, taken as exact, give another 4-digit K."""
    printed_w = np.round(W, 4)
    misses = np.abs(X @ printed_w - np.round(X @ W, 4)) > 5e-5
    assert misses.sum() == 5


def test_a_product_of_rounded_weights_is_found_although_most_entries_miss() -> None:
    _, items = find_items(read_document(PAGE))
    found = search(printed_arrays(items, 10))
    x, w, k = (p.index for p in found.arrays)
    explained = [m for m in found.matches[k] if m.node.kind == "product"]
    assert [[leaf.index for leaf in m.node.leaves] for m in explained] == [[x, w]]
    assert explained[0].rounded and not explained[0].fit.slips
