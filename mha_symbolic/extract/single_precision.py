"""Pages that compute in float32 (torch's default; ``dtype=torch.float32``, ``np.float32``,
``.float()``): their 8-digit prints (``0.33333334``) carry float32's rounding. The spec says
``dtype = "float32"`` so that the check judges them with that rounding, never calling a right
float32 print wrong; the relation search loosens those digits the same way."""

from __future__ import annotations

import functools
import re

from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.formats import Document, Line

# Said outright: a float32 dtype, a cast to it, or a float32 array's repr.
_SAID = re.compile(r"float32|\btorch\.float\b|\.float\(\)|\bnp\.single\b|\bFloatTensor\b")
# torch's tensors are float32 unless a page asks for more.
_TORCH = re.compile(r"\btorch\.(?:tensor|randn?|ones|zeros|arange|linspace|matmul|softmax)\(")
_WIDER = re.compile(r"float64|\.double\(\)|\btorch\.double\b|set_default_dtype")


def float32_line(document: Document) -> tuple[Line, str] | None:
    """The line that shows the page computes in float32, and what it says there."""
    return _float32_line(document)


@functools.lru_cache(maxsize=4)
def _float32_line(document: Document) -> tuple[Line, str] | None:
    said = _first(document, _SAID)
    if said is not None or any(_WIDER.search(line.text) for line in document.lines):
        return said
    return _first(document, _TORCH)


def _first(document: Document, pattern: re.Pattern[str]) -> tuple[Line, str] | None:
    found = ((line, pattern.search(line.text)) for line in document.lines)
    return next(((line, m.group(0)) for line, m in found if m is not None), None)


def single_precision(document: Document) -> bool:
    return float32_line(document) is not None


def mark_float32(draft: Draft, document: Document) -> None:
    """``dtype = "float32"`` in the draft of a page that computes in float32, saying where."""
    found = float32_line(document)
    if found is None or draft.get("dtype") is not None:
        return
    line, said = found
    draft.set(
        "dtype",
        "float32",
        f"{line.where}: `{said}`, the page computes in float32: claims allow its rounding",
    )
