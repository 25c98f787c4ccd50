"""The scales tried on scores: those the document's shapes and printed constants give, and
the usual head widths as a printed scaling only."""

from __future__ import annotations

import math
import re

import numpy as np

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Node

_RATIO_ENTRIES = 4  # entries a ratio must hold at before it names a scale
_NICE = 1e-3  # relative: how near 1/c or 1/c² must be to a whole number

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


def ratio_scales(
    by_shape: dict[tuple[int, int], list[Printed]], candidates: list[Node], known: set[float]
) -> list[tuple[float, str]]:
    """The scales the numbers show: a print after scores that is the scores times one factor
    1/√n or 1/n at every entry (``res / np.sqrt(K.shape[0] + K.shape[1])``: √6, which no
    width of the page gives). Each found once; ``known``: the factors already tried."""
    out: list[tuple[float, str]] = []
    for scores in candidates:
        for p in by_shape.get(scores.shape, []):
            if p.index <= scores.last:
                continue
            named = _nice(_ratio(scores, p))
            if named is not None and round(named[0], 12) not in known:
                known.add(round(named[0], 12))
                out.append(named)
    return out


def _ratio(scores: Node, p: Printed) -> float | None:
    """The one factor that takes the scores to the print at its digits, if there is one."""
    both = np.isfinite(scores.mid) & np.isfinite(p.mid) & (np.abs(scores.mid) > 1e-9)
    if int(both.sum()) < _RATIO_ENTRIES:
        return None
    ratios = p.mid[both] / scores.mid[both]
    factor = float(np.median(ratios))
    if not 0 < factor < 1 or math.isclose(factor, 1.0):
        return None
    gap = np.abs(p.mid[both] - factor * scores.mid[both])
    slack = p.rad[both] + factor * scores.rad[both] + 1e-12
    off = int((gap > 2 * slack).sum())
    return factor if off <= ratios.size // 5 else None  # a slip or two: the page's to judge


def _nice(factor: float | None) -> tuple[float, str] | None:
    """1/√n or 1/n, as a spec writes it, when the factor is one (n whole, 2 to 4096)."""
    if factor is None:
        return None
    c = 1 / factor
    n = round(c * c)
    if 2 <= n <= 4096 and abs(math.sqrt(n) - c) <= _NICE * c:
        whole = round(c)
        if whole * whole == n:
            return (1 / whole, f"{whole}")
        return (1 / math.sqrt(n), f"√{n}")
    whole = round(c)
    if 2 <= whole <= 4096 and abs(whole - c) <= _NICE * c:
        return (1 / whole, f"{whole}")
    return None
