"""A sweep's result: one row per configuration, in the grid's order, as a table or JSON."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from mha_symbolic.sweep_task import Row
from mha_symbolic.verify import DIGITS

# (heading, width, the row's value): numbers right-aligned, words left-aligned
_COLUMNS: tuple[tuple[str, int, Any], ...] = (
    ("L", 6, lambda row: row.config.L),
    ("E", 6, lambda row: row.config.E),
    ("heads", 5, lambda row: row.config.heads),
    ("dtype", -8, lambda row: row.config.dtype),
    ("mask", -7, lambda row: row.config.mask),
    ("seed", 4, lambda row: row.config.seed),
    ("entries", 8, lambda row: f"{row.entries:,}"),
    ("max ulp", 8, lambda row: _number(row.max_ulps)),
    ("ulp at scale", 12, lambda row: _number(row.scale_ulps)),
    ("float64 at scale", 16, lambda row: _number(row.float64_scale_ulps)),
)


@dataclass(frozen=True)
class SweepResult:
    """The worst errors of a kernel over a sweep: :class:`Row` per configuration, in the order
    the configurations were given (whatever order the workers finished them in)."""

    kernel: str
    rows: tuple[Row, ...]
    workers: int  # the cluster's workers when the sweep ended

    @property
    def worst(self) -> Row:
        """The configuration with the largest error at the output's scale."""
        return max(self.rows, key=lambda row: row.scale_ulps)

    def __str__(self) -> str:
        count = len(self.rows)
        lines = [
            f"verify sweep of {self.kernel}: {count} configuration{'s' * (count != 1)} "
            f"against exact values certified to {DIGITS} digits ({self.workers} "
            f"worker{'s' * (self.workers != 1)})",
            "  ".join(_cell(heading, width) for heading, width, _ in _COLUMNS).rstrip(),
        ]
        for row in self.rows:
            lines.append("  ".join(_cell(value(row), width) for _, width, value in _COLUMNS))
        worst = self.worst
        lines.append(
            f"worst at the output's scale: {_number(worst.scale_ulps)} ulp ({worst.config})"
        )
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        """``{"kernel", "digits", "configurations": [one object per row]}``."""
        rows = [
            {key: _finite(value) for key, value in row.as_dict().items() if key != "kernel"}
            for row in self.rows
        ]
        document = {"kernel": self.kernel, "digits": DIGITS, "configurations": rows}
        return json.dumps(document, indent=2, allow_nan=False) + "\n"


def _finite(value: Any) -> Any:
    """JSON has no inf or nan (a kernel that overflowed): those are written as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _cell(value: Any, width: int) -> str:
    return f"{value!s:<{-width}}" if width < 0 else f"{value!s:>{width}}"


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if math.isfinite(value) else str(value)
