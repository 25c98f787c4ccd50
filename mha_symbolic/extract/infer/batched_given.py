"""A batch weighed by printed weights: an input printed as (B, L, E) and a printed (L, L)
matrix of weights (rows of probabilities: a softmax the page printed, causal or not) whose
product with each batch element is printed later (``wei @ x``, averaging the past). The
weights are given; each element is one weighted sum of its own values. The error the rounded
weights and values carry (|ΔA| |X| + |A| |ΔX|) is allowed beside the print's own digits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.batched import MAX_PRINTS, Step, explained
from mha_symbolic.extract.infer.intervals import Printed, printed_array
from mha_symbolic.extract.items import Item

MAX_GIVEN = 8  # printed weights tried, the last ones before the weighted sums first


@dataclass(frozen=True)
class Weighed:
    """A batch of values weighed by printed weights, and the prints that explains."""

    v: int  # the item of the values (B, L, E)
    weights: int  # the item of the printed weights (L, L)
    steps: tuple[Step, ...]

    @property
    def held(self) -> int:
        return sum(step.held for step in self.steps)


def weighed_batch(items: Sequence[Item], x: int) -> Weighed | None:
    """The printed weights that explain most later prints as weights @ x[b], or None when none
    explains a print of more than one entry."""
    values = printed_array(x, items[x])
    if values is None:
        return None
    batch = values.mid.reshape(items[x].full_shape)
    spread = values.rad.reshape(batch.shape)
    arrays = {i: printed_array(i, item) for i, item in enumerate(items[: x + MAX_PRINTS])}
    best: Weighed | None = None
    for index in _weights(items, arrays, batch.shape[1]):
        a = arrays[index]
        assert a is not None
        out = np.einsum("ij,bjk->bik", a.mid, batch)[:, None]
        slack = np.einsum("ij,bjk->bik", a.rad, np.abs(batch)) + np.einsum(
            "ij,bjk->bik", np.abs(a.mid), spread
        )
        after = max(x, index)
        steps = explained(items, arrays, after, {"output": out}, {"output": slack[:, None]})
        found = Weighed(x, index, steps)
        if steps and (best is None or found.held > best.held):
            best = found
    return best


def _weights(items: Sequence[Item], arrays: dict[int, Printed | None], length: int) -> list[int]:
    """Printed (L, L) matrices of probabilities by rows, the last printed first."""
    found = [
        i
        for i, array in arrays.items()
        if array is not None and not items[i].batch_shape and array.shape == (length, length)
        and bool(np.isfinite(array.mid).all()) and rel.is_distribution(array)
    ]  # fmt: skip
    return found[::-1][:MAX_GIVEN]
