"""The corpus's shape: a document's printed arrays and the truth they are judged against."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

Arrays = Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Printed:
    """One array (or vector, or scalar) as the document prints it."""

    rows: tuple[tuple[str, ...], ...]  # the entries exactly as printed, row by row
    # what they should be, computed independently with numpy float64 from `inputs`; None: an
    # input or a number that is not an attention result (never to be claimed wrong)
    truth: Callable[[Arrays], np.ndarray] | None
    label: str = ""  # what the document calls it ("Attention weights", "Z", "")
    # computed from an earlier WRONG number of the document and consistent with it: "follows"
    # and "wrong" both count as right
    follows: bool = False
    # False: a number of the page that is not attention (GRU state, loss, learning rate): any
    # claim on it is a false alarm
    attention: bool = True


@dataclass(frozen=True)
class Doc:
    file: str  # relative to tests/data/corpus/, e.g. "dev/jp-lecture-attention.md"
    url: str  # the source URL
    kind: str  # course-notes | book-notebook | blog | qa | latex-lecture | html-mathjax | ...
    language: str  # en, ja, pt, zh, ...
    inputs: Arrays  # the arrays the truth functions read (as exact as printed)
    printed: tuple[Printed, ...]  # every array the document prints, in order
    notes: str = ""  # the document's mistakes in words, what is special
