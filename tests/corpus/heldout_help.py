"""Helpers for the held-out truth (tests/corpus/truth_heldout.py): parsing printed rows, softmax,
masks, and the rounding allowance.

A document prints its inputs rounded (a torch tensor to 4 decimals, say), so an exact
recomputation from the printed inputs can miss a correctly printed result by a hair. Where that
can happen the truth is `_settled`: the recomputed value, moved toward the printed one by at most
what the rounding of the inputs can account for (first order, each input entry within half a
unit of its last printed digit). A slip larger than that stays a slip.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import numpy as np

from tests.corpus.model import Arrays, Printed

Rows = tuple[tuple[str, ...], ...]
Truth = Callable[[Arrays], np.ndarray]

_ROW_BREAK = re.compile(r"\]\s*,\s*\[")  # rows printed on one line: [[1,2],[3,4]]
_NOISE = re.compile(r"tensor\(|array\(|grad_fn=<\w+>|[\[\](),]")


def block(text: str) -> Rows:
    """The entries of a printed block, one row per non-empty line, brackets and commas dropped."""
    lines = _ROW_BREAK.sub("]\n[", text.strip()).splitlines()
    rows = (tuple(_NOISE.sub(" ", line).split()) for line in lines)
    return tuple(row for row in rows if row)


def one(*entries: str) -> Rows:
    """A single printed row (a vector, or a scalar when given one entry)."""
    return (tuple(entries),)


def column(*entries: str) -> Rows:
    """Entries printed one per line."""
    return tuple((entry,) for entry in entries)


def values(rows: Rows) -> np.ndarray:
    return np.array([[float(entry) for entry in row] for row in rows])


def a(rows: list[list[float]] | list[float]) -> np.ndarray:
    return np.array(rows, dtype=float)


def settled(compute: Truth, halves: Mapping[str, float], printed: Rows) -> Truth:
    """`compute`, moved toward the printed value by at most the effect of the inputs' rounding."""
    target = values(printed)

    def truth(inputs: Arrays) -> np.ndarray:
        base = compute(inputs)
        reach = np.zeros_like(base)
        for name, half in halves.items():
            for index in np.ndindex(inputs[name].shape):
                bumped = inputs[name].copy()
                bumped[index] += half
                reach += np.abs(compute({**inputs, name: bumped}) - base)
        finite = np.isfinite(base) & np.isfinite(target)
        return np.where(finite, base + np.clip(target - base, -reach, reach), base)

    return truth


def given(rows: Rows, label: str = "") -> Printed:
    """A number the document sets or takes as given: never to be claimed."""
    return Printed(rows, None, label)


def other(rows: Rows, label: str = "") -> Printed:
    """A number of the page that is not attention (a loss, a GRU state, a variance)."""
    return Printed(rows, None, label, attention=False)


def single_precision(compute: Truth, printed: Rows, relative: float = 2e-6) -> Truth:
    """`compute`, moved toward the printed value by at most the error a float32 computation makes
    (a few units in the last place of a 24-bit mantissa, relative to the entry)."""
    target = values(printed)

    def truth(inputs: Arrays) -> np.ndarray:
        base = np.asarray(compute(inputs), dtype=np.float64)
        reach = relative * np.abs(base) + 1e-12
        return base + np.clip(target.reshape(base.shape) - base, -reach, reach)

    return truth


def tex(text: str) -> Rows:
    """The entries of a LaTeX matrix body: rows split at a double backslash, entries at &, comments
    dropped."""
    text = re.sub(r"%[^\n]*", "", text)
    rows = (tuple(e.strip() for e in row.split("&")) for row in text.split("\\\\"))
    return tuple(row for row in rows if any(row))
