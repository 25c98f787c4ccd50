"""The scales tried on scores: those the document's shapes and printed constants give, and
the usual head widths as a printed scaling only."""

from __future__ import annotations

import math
import re

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Node

# d_k tried whatever the arrays' shapes, as a printed scaling only (scores printed without
# their Q and K say no d_k); never under a softmax, which a large one makes uniform by itself.
_USUAL_WIDTHS = (2, 3, 4, 8, 16, 32, 64)


def scales(
    arrays: list[Printed], constants: list[Printed], roots: frozenset[int] = frozenset()
) -> list[tuple[float, str]]:
    """1; 1/√d and 1/d for every width the document's arrays have or its printed shapes state
    (torch.Size([24]): Q and K need not be printed) and every width of a head that divides
    one; and 1/c for every positive constant the document prints (√d_k, τ); and 1/√d for
    every root its text takes (``√64 = 8``: a module built for wider heads than its toy
    inputs)."""
    widths = {n for p in arrays for n in p.shape if 1 < n <= 1024}
    widths |= {n for p in [*arrays, *constants] for n in _stated(p) if 1 < n <= 1024}
    widths |= {k for n in widths for k in range(2, min(n, 65)) if n % k == 0}
    out = [(1.0, "")]
    for d in sorted(widths):
        out += [(1 / math.sqrt(d), f"√{d}"), (1 / d, f"{d}")]
    out += [(1 / math.sqrt(d), f"√{d}") for d in sorted(roots) if 1 < d <= 1024 and d not in widths]
    for c in constants:
        value = float(c.mid[0, 0])
        if value > 0 and np.isfinite(value) and value != 1:
            out.append((1 / value, c.item.rows[0][0]))
    distinct: dict[float, tuple[float, str]] = {}
    for factor, said in out:
        distinct.setdefault(round(factor, 12), (factor, said))
    return list(distinct.values())


_ROOT = re.compile(r"(?:√|\\sqrt\s*\{?|\bsqrt\s*\(\s*)\s*(\d{1,4})(?![\d.])")


def stated_roots(text: str) -> frozenset[int]:
    """The whole numbers a document takes the square root of (``√64``, ``\\sqrt{8}``,
    ``np.sqrt(64)``), at most 8 of them: widths a scale may be stated by."""
    found = dict.fromkeys(int(m.group(1)) for m in _ROOT.finditer(text))
    return frozenset([n for n in found if n > 1][:8])


def _stated(p: Printed) -> list[int]:
    """The sizes a printed shape states (``torch.Size([6, 24])``, ``shape=[2, 4]``)."""
    if p.item.kind != "shape" or not np.isfinite(p.mid).all():
        return []
    return [int(v) for v in p.mid.ravel() if v == int(v)]


def usual_scales(scores: Node, known: list[tuple[float, str]]) -> list[Node]:
    """The scores divided by each usual √d_k and d_k that ``known`` does not hold."""
    seen = {round(factor, 12) for factor, _ in known}
    out = []
    for d in _USUAL_WIDTHS:
        for factor, said in ((1 / math.sqrt(d), f"√{d}"), (1 / d, f"{d}")):
            if round(factor, 12) not in seen:
                seen.add(round(factor, 12))
                out.append(rel.scale(scores, factor, said))
    return out
