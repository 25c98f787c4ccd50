"""A number the document prints that does not hold, or holds only given what it assumed, as a
note at its step: what was printed (as maths), the exact value, and why."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from mha_symbolic.exact.derivation import Step
from mha_symbolic.solution import notes
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.view import Mark

_LIST = re.compile(r"\s*\[\s*(\[[^\[\]]*\]\s*,?\s*)+\]\s*|\s*\[[^\[\]]*\]\s*")
_NUMBER = re.compile(r"[-\u2212]?\d+(\.\d+)?")


def marks(context: Context, step: Step) -> tuple[Mark, ...]:
    """The step's marks, in the order checked; the concat rows that hold only given the
    assumed head outputs said in one sentence together (split-scaled's two rows were two boxes
    of the same words)."""
    raw = context.options.marks.get(step.key, ())
    made = [_mark(context, step, m) for m in raw]
    rows = [notes.assumed_rows(context, step, m) for m in raw]
    together = [i for i, found in enumerate(rows) if found is not None]
    if len(together) < 2:
        return tuple(made)
    words = context.words
    and_ = words("text", "and")
    printed = and_.join(_printed(made[i]) for i in together)
    computed = and_.join(found[0] for found in rows if found is not None)
    many = any(found[1] for found in rows if found is not None)
    key = "concat_follows_rows_many" if many else "concat_follows_rows_one"
    sentence = words("notes", key, printed=printed, computed=computed)
    first = replace(made[together[0]], sentence=sentence)
    return tuple(
        first if i == together[0] else mark
        for i, mark in enumerate(made)
        if i == together[0] or i not in together
    )


def _printed(mark: Mark) -> str:
    return f"${mark.claimed_math}$" if mark.claimed_math else str(mark.claimed)


def _mark(context: Context, step: Step, mark: Mapping[str, Any]) -> Mark:
    """A printed number that does not hold: what was printed, and the exact value."""
    shown = context.show_value(mark["exact"], step.symbol.name, step.key)
    words = context.words
    verdict = str(mark["verdict"])
    follows = verdict == "follows"  # what the document's own assumed numbers give
    claimed_math = _printed_numbers(str(mark["claimed"]))
    printed = f"${claimed_math}$" if claimed_math else str(mark["claimed"])
    return Mark(
        key=mark["key"],
        kind="follows" if follows else "wrong",
        title=words("text", "follows" if follows else "wrong"),
        claimed=mark["claimed"],
        verdict=words.get("verdicts", verdict) or verdict,
        exact_is=words("text", "computed_is" if follows else "exact_is"),
        exact=shown.exact,
        approx=shown.approx,
        diagnosis=notes.reason(context, step, mark),
        claimed_math=claimed_math,
        sentence=notes.as_assumed(context, step, mark, printed),
    )


def _printed_numbers(text: str) -> str | None:
    """``[0.5, 1.2, -0.4, 2.3]`` as maths, each number as printed (0.60 stays 0.60) with a
    true minus sign, not a typewriter hyphen; None for anything but a list (or rows) of numbers."""
    if len(text) > 2000 or not _LIST.fullmatch(text):
        return None
    rows = [
        [cell.strip().replace("\u2212", "-") for cell in row.split(",")]
        for row in re.findall(r"\[([^\[\]]*)\]", text)
    ]
    if not rows or len({len(r) for r in rows}) != 1:
        return None
    if not all(_NUMBER.fullmatch(cell) for row in rows for cell in row):
        return None
    if len(rows) == 1:
        return r"\left[" + r",\; ".join(rows[0]) + r"\right]"
    return r"\begin{bmatrix} " + r" \\ ".join(" & ".join(r) for r in rows) + r" \end{bmatrix}"
