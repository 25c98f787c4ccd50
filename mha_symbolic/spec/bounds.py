"""The limits on what a spec may ask for (one table), and the cost estimate of a derivation."""

from __future__ import annotations

import math
import operator
from typing import Any

# Reading: every value a user writes is read within these bounds, so that no input makes the
# reader (or what follows it) run for minutes or exhaust memory. Each refusal names the limit.
MAX_DIGITS = 1_000  # digits in one written number ("1.5e3" has 2)
MAX_EXPONENT = 1_000  # |n| in 1e{n}, 10^{n}, e^{n}, x^{n}, \sqrt[n]{x}
MAX_VALUE_DIGITS = 10_000  # digits of an exact rational computed while reading (2^{1000}: 302)
MAX_ROOT_DIGITS = 300  # digits of a rational under a root (SymPy factors it: 1,000 digits take 1 s)
MAX_DEPTH = 50  # nesting of braces, parentheses and \frac/\sqrt arguments in one value
MAX_TEXT = 10_000  # characters in one value (one matrix entry, one scalar)
MAX_MATRIX_TEXT = 1_000_000  # characters in one LaTeX matrix given as a string
MAX_CLAIM_TEXT = 1_000_000  # characters in one claimed value
MAX_HEADS = 64  # heads and kv_heads
MAX_SIDE = 4_096  # rows or columns of one matrix in a spec
MAX_ENTRIES = 262_144  # entries of one matrix in a spec (512 x 512)
# ... given as an array (NumPy, torch): no text to read, and model layers are this big
# (GPT-2 small's W_O is 768 x 768, a LLaMA-7B layer's W_Q and W_O 4096 x 4096).
MAX_ARRAY_ENTRIES = 16_777_216  # 4096 x 4096
MAX_TOML_DEPTH = 16  # nesting of arrays and tables in a spec file
MAX_FILE_BYTES = 5_000_000  # size of a spec or claims file
# Writing: the same bounds for the Python API as for the command line's flags.
MAX_DECIMALS = 50  # decimal places (--decimals, to_markdown(decimals=...))
MAX_SHOWN = 50  # rows or columns of a matrix shown before eliding (--max-size, max_size=...)
MAX_ENCLOSE_DIGITS = 10_000  # digits of an arb enclosure (--enclose, enclose(digits=...))
# Writing: a derivation estimated to take longer than this asks for --large first.
LARGE_SECONDS = 30.0

# derivation_cost: seconds ~ _COST * L^a * E^b * h^c, fitted to measured runs of
# `mha-symbolic derive` (rational weights, per_head, W_O): (16, 16, 4) took 0.5 s and
# (64, 64, 8) took 95 s; symbolic weights multiply by _SYMBOLIC (a symbol per weight entry).
_COST = 0.5 / (16.0**2 * 16.0**1.5 * 4.0**0.5)
_L_POWER, _E_POWER, _H_POWER = 2.0, 1.5, 0.5
_SYMBOLIC = 20.0
_PROJECTED = frozenset({"w_q", "w_k", "w_v"})
_SECONDS_PER_SYMBOL = 1e-3  # a bound, not a fit: (1, 384, 1) ran past 145 s


def integer(value: Any) -> int | None:
    """``value`` as an int if it is an integer of any kind (Python, NumPy: anything with
    ``__index__``) but a bool; else None."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return None
    try:
        return operator.index(value)
    except TypeError:  # an array of more than one element
        return None


def whole_number(value: Any, name: str, low: int, high: int) -> int:
    """``value`` as an int from ``low`` to ``high`` (a NumPy integer too: anything with
    ``__index__`` but a bool), else a one-line SpecError naming the parameter and the bound."""
    from mha_symbolic.errors import SpecError

    number = integer(value)
    if number is None or not low <= number <= high:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:39] + "…"
        raise SpecError(f"{name} must be a whole number from {low} to {high}, got {shown}")
    return number


def derivation_cost(spec: Any) -> float:
    """Rough seconds of the exact derivation of ``spec`` (an AttentionSpec), from L, E and h."""
    length = max(spec.query.rows, spec.key.rows)
    given = [m for name in ("q", "k", "v") for m in getattr(spec, name, None) or ()]
    width = max(spec.query.cols, spec.key.cols, spec.value.cols, *(m.cols for m in given))
    seconds = _COST * length**_L_POWER * width**_E_POWER * spec.heads**_H_POWER
    if not spec.symbolic:
        return seconds
    # Symbolic weights cost by their number of symbols too, whatever L is: one token of width
    # 384 against three 384 x 384 matrices of symbols (442,368 of them) took minutes and
    # gigabytes, where (L, E, h) = (24, 16, 2) with some 1,500 takes seconds.
    symbols = width**2 * spec.heads * len(set(spec.symbolic) & _PROJECTED)
    return max(seconds * _SYMBOLIC, symbols * _SECONDS_PER_SYMBOL)


def too_large(spec: Any, what: str = "an exact derivation") -> str | None:
    """The one-line refusal for a derivation that would take minutes, or None (``what``:
    the work refused, "SymPy values" when the exact structure is already made)."""
    seconds = derivation_cost(spec)
    if seconds <= LARGE_SECONDS:
        return None
    minutes = max(1, math.ceil(seconds / 60))
    shape = (max(spec.query.rows, spec.key.rows), spec.query.cols, spec.heads)
    unit = "minute" if minutes == 1 else "minutes"
    return (
        f"{spec.source}: {what} of (L, E, h) = {shape} would take about "
        f"{minutes} {unit}; pass large=True to go ahead"
    )
