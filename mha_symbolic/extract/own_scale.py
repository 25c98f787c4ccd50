"""A scale the printed numbers follow that is not 1/√d_k of the example's own heads: a module
built for heads of 64 run on toy vectors of 3 (``√64 = 8``), or a text that says "divided by
√d_k" over weights computed with another factor. The numbers decide what the page computed."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from mha_symbolic.extract.by_numbers import Example
from mha_symbolic.model.program import Program

_ROOT = re.compile(r"\\frac\{1\}\{\\sqrt\{(\d+)\}\}")


def other_scale(found: Sequence[Example], program: Callable[[], Program]) -> str | None:
    """The scale the first scaled example's numbers follow when it is not 1/√d_k of the
    program's heads (their Q's width: the program's shapes, nothing evaluated), as the spec
    writes it; None when it is, or when the numbers found no scale."""
    said = next((e.scale for e in found if e.scale not in (None, "none")), None)
    value = _value(said) if said is not None else None
    if said is None or value is None:
        return None
    steps = program()
    if "head1.q" not in steps:
        return None
    own = 1 / math.sqrt(steps.node("head1.q").shape[1])
    return None if math.isclose(value, own, rel_tol=1e-12) else said


def _value(said: str) -> float | None:
    """The factor a spec's scale string gives: ``\\frac{1}{\\sqrt{64}}`` or a fraction."""
    root = _ROOT.fullmatch(said)
    if root is not None:
        return 1 / math.sqrt(int(root.group(1)))
    try:
        return float(Fraction(said))
    except (ValueError, ZeroDivisionError):
        return None
