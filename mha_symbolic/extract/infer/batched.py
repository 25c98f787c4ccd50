"""A batch read from its numbers: an input printed as (B, L, E) is B sequences, one attention
each. The printed square-or-wide matrices are tried as W_Q, W_K and W_V (both conventions,
every head count their width allows, scaled by √d_head or not), each batch element computed on
its own in float64, and every later print (a whole batch, one element's matrix, one row) is
compared with the steps at its printed precision. The fit that explains the most printed
entries wins; a fit that explains no attention result is no example at all."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mha_symbolic.extract.infer.intervals import Printed, printed_array
from mha_symbolic.extract.items import Item, Rows

MAX_WEIGHTS = 5  # printed matrices tried as W_Q, W_K, W_V, named ones first
MAX_TRIPLES = 24  # ordered choices of them tried (named ones come first)
MAX_PRINTS = 120  # prints after X compared with the steps (a page of hundreds: its first ones)
MOSTLY = 0.75  # a print is a step when this share of its entries holds (the rest: slips)
_PER_BATCH = ("q", "k", "v", "concat")
_PER_HEAD = ("scores", "scaled", "weights", "output")
_RESULTS = {"scores", "scaled", "weights", "output", "concat"}  # attention, not projections


@dataclass(frozen=True)
class Step:
    """One printed array (or one of its rows) the fit explains."""

    item: int  # index of the item in the list searched
    key: str  # the step key, batch element first: "b1.head2.scores", "b2.q[3]"
    rows: Rows  # the printed entries claimed
    held: int  # entries within their printed precision
    whole: bool  # the whole print (of a batch: one claim per row) rather than one slice
    slips: tuple[tuple[int, int], ...] = ()  # (row, column), 1-based in the print, that fail


@dataclass(frozen=True)
class Fit:
    """A batched example the numbers explain."""

    x: int  # the item of X (B, L, E)
    weights: tuple[int, int, int]  # the items of W_Q, W_K, W_V
    convention: str  # "xW" or "xWT"
    heads: int
    scaled: bool  # divided by √d_head (else not scaled)
    steps: tuple[Step, ...]

    @property
    def held(self) -> int:
        return sum(step.held for step in self.steps)


def batched_fit(items: Sequence[Item], names: Sequence[str] = ()) -> Fit | None:
    """The best fit of the first (B, L, E) print with B > 1 as X, or None when no fit explains
    a printed attention result. ``names``: the role each item's name says (ties only)."""
    x = next((i for i, it in enumerate(items) if sequences(it)), None)
    if x is None:
        return None
    arrays = {i: printed_array(i, item) for i, item in enumerate(items[: x + MAX_PRINTS])}
    best: Fit | None = None
    triples = itertools.permutations(_weights(items, arrays, x, names), 3)
    for triple in itertools.islice(triples, MAX_TRIPLES):
        for fit in _fits(items, arrays, x, triple):
            if best is None or _better(fit, best, names):
                best = fit
    if best is None or not any(_step_of(s.key) in _RESULTS for s in best.steps):
        return None
    return best


def _weights(
    items: Sequence[Item], arrays: dict[int, Printed | None], x: int, names: Sequence[str]
) -> list[int]:
    """Matrices that can project X (one side as wide as E), named weights first."""
    width = items[x].shape[1]
    found = [
        i
        for i, array in arrays.items()
        if i != x and array is not None and not items[i].batch_shape
        and width in array.shape and min(array.shape) > 1 and bool(np.isfinite(array.mid).all())
    ]  # fmt: skip
    named = [i for i in found if i < len(names) and names[i] in ("w_q", "w_k", "w_v")]
    return (named + [i for i in found if i not in named])[:MAX_WEIGHTS]


def sequences(item: Item) -> bool:
    """A print of B > 1 sequences of L > 1 tokens with finite entries."""
    if len(item.batch_shape) != 1 or item.batch_shape[0] < 2 or item.shape[0] < 2:
        return False
    array = printed_array(0, item)
    return array is not None and bool(np.isfinite(array.mid).all())


def _better(fit: Fit, best: Fit, names: Sequence[str]) -> bool:
    if fit.held != best.held:
        return fit.held > best.held
    return _named(fit, names) > _named(best, names)


def _named(fit: Fit, names: Sequence[str]) -> int:
    said = [names[i] if i < len(names) else "" for i in fit.weights]
    return sum(s == w for s, w in zip(said, ("w_q", "w_k", "w_v")))


def _fits(
    items: Sequence[Item], arrays: dict[int, Printed | None], x: int, triple: tuple[int, ...]
) -> list[Fit]:
    """Every convention, head count and scale of one choice of W_Q, W_K, W_V."""
    xs = _batch(arrays[x], items[x])
    out = []
    for convention in ("xW", "xWT"):
        ws = [_as_used(arrays[i], convention) for i in triple]
        if any(w.shape[0] != xs.shape[2] for w in ws) or ws[0].shape[1] != ws[1].shape[1]:
            continue
        if convention == "xWT" and all(w.shape[0] == w.shape[1] for w in ws):
            same = all((w == w.T).all() for w in ws)
            if same:
                continue  # symmetric weights: xWᵀ is xW, said once
        for heads in _head_counts(ws[0].shape[1], ws[2].shape[1]):
            for scaled in (True, False):
                values = _forward(xs, ws, heads, scaled)
                steps = explained(items, arrays, x, values)
                if steps:
                    chosen = (triple[0], triple[1], triple[2])
                    out.append(Fit(x, chosen, convention, heads, scaled, steps))
    return out


def _as_used(array: Printed | None, convention: str) -> np.ndarray:
    assert array is not None
    return array.mid if convention == "xW" else array.mid.T


def _batch(array: Printed | None, item: Item) -> np.ndarray:
    assert array is not None
    return array.mid.reshape(item.full_shape)


def _head_counts(width: int, values: int) -> list[int]:
    return [h for h in range(1, min(width, 8) + 1) if width % h == 0 and values % h == 0]


def _forward(
    xs: np.ndarray, ws: list[np.ndarray], heads: int, scaled: bool
) -> dict[str, np.ndarray]:
    """Every step of each batch element: (B, L, n) projections and concat, (B, H, L, n) per
    head (the fused layout: Q, K and V cut into heads column-wise)."""
    q, k, v = (xs @ w for w in ws)
    batch, length = xs.shape[:2]

    def split(t: np.ndarray) -> np.ndarray:
        return t.reshape(batch, length, heads, -1).transpose(0, 2, 1, 3)

    scores = split(q) @ split(k).transpose(0, 1, 3, 2)
    factor = 1 / math.sqrt(q.shape[2] // heads) if scaled else 1.0
    logits = scores * factor
    exp = np.exp(logits - logits.max(axis=-1, keepdims=True))
    weights = exp / exp.sum(axis=-1, keepdims=True)
    output = weights @ split(v)
    concat = output.transpose(0, 2, 1, 3).reshape(batch, length, -1)
    values = {"q": q, "k": k, "v": v, "concat": concat, "scores": scores}
    if scaled:
        values["scaled"] = logits
    values.update(weights=weights, output=output)
    return values


def explained(
    items: Sequence[Item],
    arrays: Mapping[int, Printed | None],
    x: int,
    values: dict[str, np.ndarray],
    slacks: Mapping[str, np.ndarray] | None = None,
) -> tuple[Step, ...]:
    """The prints after X that are steps: whole batches first, then slices and rows.
    ``slacks``: how far a value may be from the print beyond its digits (the error its
    rounded printed operands carry), per step; none when the operands are exact."""
    out: list[Step] = []
    slacks = slacks or {}
    for index in range(x + 1, min(len(items), x + MAX_PRINTS)):
        array = arrays.get(index)
        if array is None or not np.isfinite(array.mid).all() or not array.mid.any():
            continue
        if len(items[index].rows) == 1 and not array.decimals:
            continue  # a row of integers: a shape, an index or an axis order, not a result
        out += _whole(index, items[index], array, values, slacks) or _slice(
            index, items[index], array, values, slacks
        )
    return tuple(out)


def _whole(
    index: int,
    item: Item,
    array: Printed,
    values: dict[str, np.ndarray],
    slacks: Mapping[str, np.ndarray],
) -> list[Step]:
    """A print of the whole batch: one claim per row, keyed by its batch element (and head)."""
    if not item.batch_shape:
        return []
    for name, value in values.items():
        one_head = value.ndim == 4 and value.shape[1] == 1  # its head axis is not printed
        if (value[:, 0] if one_head else value).shape != item.full_shape:
            continue
        computed = value.reshape(-1, value.shape[-1])
        extra = slacks[name].reshape(computed.shape) if name in slacks else 0.0
        close = _close(array, computed, extra)
        if close.sum() < MOSTLY * array.mid.size:
            continue
        return [
            Step(
                index,
                f"b{n + 1}.{_key(name, h)}[{r + 1}]",
                (row,),
                int(close[at].sum()),
                True,
                tuple((at + 1, int(c) + 1) for c in np.flatnonzero(~close[at])),
            )
            for at, ((n, h, r), row) in enumerate(zip(_positions(value.shape), item.rows))
        ]
    return []


def _positions(shape: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(batch element, head, row) of each printed row, in print order."""
    if len(shape) == 3:
        return [(n, 0, r) for n in range(shape[0]) for r in range(shape[1])]
    return [(n, h, r) for n in range(shape[0]) for h in range(shape[1]) for r in range(shape[2])]


def _slice(
    index: int,
    item: Item,
    array: Printed,
    values: dict[str, np.ndarray],
    slacks: Mapping[str, np.ndarray],
) -> list[Step]:
    """One batch element's (and head's) matrix, or one row of one: the first step it holds as."""
    rows, cols = array.shape
    heads = next(iter(v.shape[1] for k, v in values.items() if k in _PER_HEAD))
    for name, value in values.items():
        if value.shape[-1] != cols or (rows > 1 and value.shape[-2] != rows):
            continue
        matrices = value.reshape(-1, *value.shape[-2:])
        extras = slacks[name].reshape(matrices.shape) if name in slacks else np.zeros_like(matrices)
        for m, (matrix, extra) in enumerate(zip(matrices, extras)):
            n, h = divmod(m, heads) if value.ndim == 4 else (m, 0)
            key = f"b{n + 1}.{_key(name, h)}"
            candidates = (
                [(matrix, extra, key)]
                if rows > 1
                else [
                    (matrix[r : r + 1], extra[r : r + 1], f"{key}[{r + 1}]")
                    for r in range(matrix.shape[0])
                ]
            )
            for candidate, slack, said in candidates:
                close = _close(array, candidate, slack)
                held = int(close.sum())
                if held >= MOSTLY * array.mid.size and held > 1:
                    failed = np.argwhere(~close) + 1
                    slips = tuple((int(i), int(j)) for i, j in failed)
                    return [Step(index, said, item.rows, held, False, slips)]
    return []


def _key(name: str, head: int) -> str:
    if name in _PER_HEAD:
        return f"head{head + 1}.{name}"
    return name


def _step_of(key: str) -> str:
    return key.split("[")[0].rsplit(".", 1)[-1]


def _close(array: Printed, value: np.ndarray, extra: np.ndarray | float = 0.0) -> np.ndarray:
    """Which entries of the print are within half a unit of their last digit of the value
    (and ``extra``, the error the value's own rounded operands allow)."""
    if value.shape != array.mid.shape:
        return np.zeros(array.mid.shape, dtype=bool)
    slack = array.rad + extra + 1e-9 * (1 + np.abs(value))
    return np.asarray(np.abs(array.mid - value) <= slack)
