"""Printed float32 results searched with float32's rounding: a value a float32 program prints
to 8 digits (``0.33333334``) is off the exact one by a few units of its 24-bit significand,
far more than half a unit of the 8th digit. Each entry's radius is widened to cover that, so
that the relations still hold; the spec then says ``dtype = "float32"`` and the check judges
the claims with float32's rounding, not the search's slack."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from mha_symbolic.extract.infer.intervals import Printed

# A few float32 roundings of a short dot product or a softmax: 2**-20 of the magnitude (at
# least of 1, for values near 0 that come out of sums of larger terms). Prints of 6 digits
# or fewer already allow more than this; only the 7th and 8th digits are loosened.
SLACK = 2.0**-20


def with_float32_slack(arrays: list[Printed]) -> list[Printed]:
    """The arrays with every rounded entry's radius at least float32's slack."""
    return [replace(p, rad=_widened(p)) for p in arrays]


def _widened(p: Printed) -> np.ndarray:
    rounded = np.isfinite(p.mid) & (p.rad > 0)  # float32 holds a typed integer exactly
    slack = SLACK * np.maximum(np.abs(np.where(rounded, p.mid, 0.0)), 1.0)
    return np.where(rounded, np.maximum(p.rad, slack), p.rad)
