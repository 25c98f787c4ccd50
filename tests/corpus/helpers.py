"""Small numpy helpers for the corpus's truth functions (independent of mha_symbolic)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from tests.corpus.model import Arrays, Printed

_TOKEN = re.compile(r"[-+−]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+−]?inf")


def rows(text: str) -> tuple[tuple[str, ...], ...]:
    """Printed entries, a row per non-empty line (brackets, commas and labels ignored)."""
    out = []
    for line in text.strip().splitlines():
        found = tuple(_TOKEN.findall(line))
        if found:
            out.append(found)
    return tuple(out)


def row(text: str) -> tuple[tuple[str, ...], ...]:
    """One printed vector (all its entries in a single row)."""
    return (tuple(_TOKEN.findall(text)),)


def grid(text: str, width: int) -> tuple[tuple[str, ...], ...]:
    """Printed entries in rows of ``width`` (numpy wraps a long row over several lines)."""
    found = _TOKEN.findall(text)
    return tuple(tuple(found[i : i + width]) for i in range(0, len(found), width))


def array(text: str) -> np.ndarray:
    """The numbers of ``text`` as a float64 matrix, a row per line."""
    return np.array([[float(t.replace("−", "-")) for t in r] for r in rows(text)])


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis`` (by rows by default); -inf entries get weight 0."""
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def causal(scores: np.ndarray, fill: float = -np.inf) -> np.ndarray:
    """Scores with the entries above the diagonal replaced by ``fill``."""
    scores = np.array(scores, dtype=np.float64)
    scores[np.triu_indices(scores.shape[-1], k=1)] = fill
    return scores


def entries(text: str) -> tuple[tuple[str, ...], ...]:
    """Printed entries written row by row, rows separated by '/' (for rows that carry labels or
    trailing comments whose numbers are not entries)."""
    return tuple(tuple(part.split()) for part in text.split("/"))


def follows_row(text: str, truth: Callable[[Arrays], np.ndarray], label: str) -> Printed:
    """A printed vector computed from the document's own earlier (rounded or wrong) numbers."""
    return Printed(row(text), truth, label, follows=True)


def given(text: str, label: str = "", attention: bool = True) -> Printed:
    """An array the document gives (an input): never judged."""
    return Printed(rows(text), None, label, attention=attention)
