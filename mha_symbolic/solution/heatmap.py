"""Heatmap PNGs of attention weights for LaTeX and the PDF, which cannot include an SVG
(matplotlib, Agg backend; imported only when drawn)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sympy as sp

from mha_symbolic.solution import latex
from mha_symbolic.solution.pdf import bengali_fonts
from mha_symbolic.solution.svg_heatmap import MOST_WRITTEN, short, ticks, tilted


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display), imported on first use."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    return plt


_BENGALI = re.compile("[\u0980-\u09ff]")


@lru_cache(maxsize=1)
def _bengali_family() -> str | None:
    """A Bengali font registered with matplotlib (its cache may predate the font), or None."""
    files = bengali_fonts("file")
    if not files:
        return None
    from matplotlib import font_manager

    font_manager.fontManager.addfont(files[0])
    return str(font_manager.FontProperties(fname=files[0]).get_name())


def fonts(*texts: str) -> list[str] | None:
    """The font families that draw ``texts`` (matplotlib falls back along the list, and
    shapes Bengali itself), or None when they hold Bengali and no Bengali font is installed."""
    if not any(_BENGALI.search(text) for text in texts):
        return ["DejaVu Sans"]
    family = _bengali_family()
    return None if family is None else ["DejaVu Sans", family]


def to_png(figure: Any) -> bytes:
    """The laid-out figure as PNG bytes, with no software stamp (equal figures, equal files)."""
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def _label(text: str) -> str:
    # matplotlib reads $...$ as maths; a token label is plain text.
    return short(text).replace("$", r"\$")


def png(
    weights: sp.MatrixBase,
    queries: Sequence[str],
    keys: Sequence[str],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    decimals: int,
) -> bytes:
    """One head's weights: tokens on both axes, each cell's rounded value written in it.

    Without a font for the words (Bengali, none installed) the figure has no title or axis
    names; the document's caption beside it says the same in its own font."""
    families = fonts(title, xlabel, ylabel, *queries, *keys)
    if families is None:
        title = xlabel = ylabel = ""
        families = ["DejaVu Sans"]
    plt = pyplot()
    with plt.rc_context({"font.family": families}):
        return _draw(weights, queries, keys, (title, xlabel, ylabel), decimals)


def _draw(
    weights: sp.MatrixBase,
    queries: Sequence[str],
    keys: Sequence[str],
    words: tuple[str, str, str],
    decimals: int,
) -> bytes:
    plt = pyplot()
    rows, cols = weights.shape
    values = [[float(weights[i, j]) for j in range(cols)] for i in range(rows)]
    size = min(max(2.6, 0.55 * max(rows, cols) + 1.4), 9.0)  # a model-sized head fits a page
    figure, axes = plt.subplots(figsize=(size, size * 0.9), dpi=110)
    try:
        image = axes.imshow(values, cmap="Blues", vmin=0.0, vmax=1.0)
        xs, ys = ticks(cols), ticks(rows)
        labels = [_label(keys[j]) for j in xs]
        tilt = tilted(labels)
        axes.set_xticks(xs, labels, rotation=45 if tilt else 0, ha="right" if tilt else "center")
        axes.set_yticks(ys, [_label(queries[i]) for i in ys])
        title, xlabel, ylabel = words
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
        axes.set_title(title)
        if max(rows, cols) <= MOST_WRITTEN:
            for i in range(rows):
                for j in range(cols):
                    text = str(latex.decimal(weights[i, j], decimals))
                    colour = "white" if values[i][j] > 0.6 else "black"
                    axes.text(j, i, text, ha="center", va="center", color=colour, fontsize=8)
        figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
        return to_png(figure)
    finally:
        plt.close(figure)
