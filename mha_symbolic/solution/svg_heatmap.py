"""Heatmap SVGs of attention weights, written as text: a Markdown or HTML solution draws its
heatmaps without a plotting library (matplotlib's import alone took longer than the solution)."""

from __future__ import annotations

import base64
import html
import itertools
import re
import struct
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mha_symbolic.solution import latex

# matplotlib's "Blues" (ColorBrewer), the colormap of the PDF's heatmaps: nine stops evenly
# spaced from 0 to 1, interpolated linearly between them, as matplotlib does.
BLUES = (
    "#f7fbff",
    "#deebf7",
    "#c6dbef",
    "#9ecae1",
    "#6baed6",
    "#4292c6",
    "#2171b5",
    "#08519c",
    "#08306b",
)
FONTS = "DejaVu Sans, Noto Sans Bengali, Lohit Bengali, Arial, sans-serif"
SIZE = 12  # px: tick labels and axis names
TITLE = 14  # px
MOST_WRITTEN = 12  # a side of more tokens than this has no values written in its cells
MOST_DRAWN = 64  # ... and of more than this, its cells are one image (a rect each is MBs)
_LARGE = 480  # px: the side of a grid of more than MOST_WRITTEN tokens
_BAR = 14  # px: the colour bar's width
# Characters XML 1.0 cannot hold, escaped or not: a token holding one would break the file.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def colour(value: float) -> str:
    """``value`` (0 to 1, clipped) on the colormap, as ``#rrggbb``."""
    place = min(max(value, 0.0), 1.0) * (len(BLUES) - 1)
    low = min(int(place), len(BLUES) - 2)
    share = place - low
    a, b = _rgb(BLUES[low]), _rgb(BLUES[low + 1])
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b))


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    r, g, b = bytes.fromhex(hex_colour[1:])
    return r, g, b


def ticks(n: int, most: int = 24) -> list[int]:
    """Every token up to ``most``; beyond, evenly spaced ones (the last always)."""
    if n <= most:
        return list(range(n))
    step = -(-n // most)
    return sorted({*range(0, n, step), n - 1})


def short(text: str, limit: int = 12) -> str:
    """A token as an axis label: cut short to fit."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tilted(labels: Sequence[str]) -> bool:
    # Tilted only when they would collide: one short label tilted reads as a stray mark.
    return len(labels) > 2 and max(len(label) for label in labels) > 3


def width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size`` px (no font metrics here): wide East Asian
    characters a full em, combining marks nothing, the rest DejaVu Sans' average."""
    ems = 0.0
    for char in str(text):
        if not unicodedata.combining(char):
            ems += 1.0 if unicodedata.east_asian_width(char) in "WF" else 0.62
    return ems * size


def _n(x: float) -> str:
    return format(round(x, 1), "g")


def _escaped(text: str) -> str:
    """Text (a token: anything a user typed) as XML character data or an attribute's value."""
    return html.escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def start(tag: str, **attributes: object) -> str:
    """``<tag name="value" ...>``, every value escaped; ``text_anchor=`` is written
    ``text-anchor``, ``class_=`` ``class``, a float to one decimal."""
    pairs = "".join(
        f' {name.strip("_").replace("_", "-")}="{_escaped(_value(v))}"'
        for name, v in attributes.items()
    )
    return f"<{tag}{pairs}>"


def _value(value: object) -> str:
    return _n(value) if isinstance(value, float) else str(value)


def element(tag: str, text: str | None = None, /, **attributes: object) -> str:
    """``<tag .../>``, or ``<tag ...>text</tag>`` with the text escaped."""
    opened = start(tag, **attributes)
    return opened[:-1] + "/>" if text is None else f"{opened}{_escaped(text)}</{tag}>"


@dataclass(frozen=True)
class _Grid:
    """Where the cells are (top-left corner, a cell's side, the size of the values written in
    them) and how the key tokens are labelled below (tilted or not, the room they take)."""

    x: float
    y: float
    cell: float
    font: float
    rows: int
    cols: int
    tilt: bool
    below: float

    @property
    def right(self) -> float:
        return self.x + self.cols * self.cell

    @property
    def bottom(self) -> float:
        return self.y + self.rows * self.cell

    def centre(self, i: int, j: int) -> tuple[float, float]:
        """The centre of row ``i``'s cell ``j``."""
        return self.x + (j + 0.5) * self.cell, self.y + (i + 0.5) * self.cell


def svg(
    weights: Any,
    queries: Sequence[str],
    keys: Sequence[str],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    decimals: int,
) -> bytes:
    """One head's weights: tokens on both axes, each cell's rounded value written in it (up
    to MOST_WRITTEN tokens a side), a colour bar from 0 to 1."""
    rows, cols = weights.shape
    values = [[float(weights[i, j]) for j in range(cols)] for i in range(rows)]
    written = None
    if max(rows, cols) <= MOST_WRITTEN:
        written = [
            [str(latex.decimal(weights[i, j], decimals)) for j in range(cols)] for i in range(rows)
        ]
    words = (title, xlabel, ylabel)
    grid, (across, down) = _layout(written, queries, keys, words, (rows, cols))
    view = f"0 0 {_n(across)} {_n(down)}"
    parts = [
        start(
            "svg",
            xmlns="http://www.w3.org/2000/svg",
            width=across,
            height=down,
            viewBox=view,
            font_family=FONTS,
            font_size=SIZE,
        ),
        element("rect", width=across, height=down, fill="white"),
        *_cells(grid, values, written),
        *_axes(grid, queries, keys, words),
        *_colour_bar(grid),
        "</svg>",
    ]
    return ("\n".join(parts) + "\n").encode("utf-8")


def _cell_size(written: list[list[str]] | None, side: int) -> tuple[float, float]:
    """A cell's side and the size of its value: each value fits in its cell."""
    if written is None:
        return _LARGE / side, 0.0
    longest = max(width(text, 11) for row in written for text in row)
    cell = min(max(48.0, longest + 10), 96.0)
    return cell, min(11.0, 11.0 * (cell - 6) / longest) if longest else 11.0


def _layout(
    written: list[list[str]] | None,
    queries: Sequence[str],
    keys: Sequence[str],
    words: tuple[str, str, str],
    shape: tuple[int, int],
) -> tuple[_Grid, tuple[float, float]]:
    """The grid's place and the picture's width and height, from the labels' lengths."""
    rows, cols = shape
    cell, font = _cell_size(written, max(rows, cols))
    xs = ticks(cols)
    labels = [short(keys[j]) for j in xs]
    longest_key = max(width(label, SIZE) for label in labels)
    nearest = min((b - a for a, b in itertools.pairwise(xs)), default=cols) * cell
    tilt = tilted(labels) or longest_key + 4 > nearest  # ... or they would touch
    below = 7 + (longest_key * 0.71 + SIZE if tilt else SIZE * 1.2)
    longest_query = max(width(short(queries[i]), SIZE) for i in ticks(rows))
    title, xlabel, ylabel = words
    left = 10 + (SIZE * 1.5 if ylabel else 0) + longest_query + 8
    top = 10 + (TITLE * 2 if title else 0)
    grid = _Grid(left, top, cell, font, rows, cols, tilt, below)
    down = grid.bottom + below + (SIZE * 1.5 if xlabel else 0) + 10
    bar = 16 + _BAR + 7 + width("0.0", SIZE) + 10  # gap, bar, tick, label, margin
    across = max(grid.right + bar, _title_x(grid, title) + width(title, TITLE) / 2 + 10)
    return grid, (across, down)


def _title_x(grid: _Grid, title: str) -> float:
    """The title's centre: over the grid, unless that would cut it at the left edge."""
    return max((grid.x + grid.right) / 2, width(title, TITLE) / 2 + 10)


def _cells(grid: _Grid, values: list[list[float]], written: list[list[str]] | None) -> list[str]:
    """A rect per weight, filled by its value, and the value written in it; a large head's
    cells as one image, a pixel each."""
    size = {"width": grid.cols * grid.cell, "height": grid.rows * grid.cell}
    frame = element("rect", x=grid.x, y=grid.y, **size, fill="none", stroke="black")
    if max(grid.rows, grid.cols) > MOST_DRAWN:
        return [_image(grid, values, size), frame]
    out = [start("g", class_="cells", shape_rendering="crispEdges")]
    for i, row in enumerate(values):
        for j, value in enumerate(row):
            x, y = grid.x + j * grid.cell, grid.y + i * grid.cell
            out.append(
                element("rect", x=x, y=y, width=grid.cell, height=grid.cell, fill=colour(value))
            )
    out.append("</g>")
    if written is not None:
        out.append(start("g", class_="values", text_anchor="middle", font_size=grid.font))
        for i, row in enumerate(values):
            for j, value in enumerate(row):
                x, y = grid.centre(i, j)
                ink = "white" if value > 0.6 else "black"  # readable on the dark blues
                out.append(element("text", written[i][j], x=x, y=y, dy=".35em", fill=ink))
        out.append("</g>")
    return [*out, frame]


def _image(grid: _Grid, values: list[list[float]], size: dict[str, float]) -> str:
    pixels = [[_rgb(colour(value)) for value in row] for row in values]
    data = "data:image/png;base64," + base64.b64encode(png(pixels)).decode("ascii")
    return element(
        "image",
        x=grid.x,
        y=grid.y,
        **size,
        preserveAspectRatio="none",
        style="image-rendering: pixelated",
        href=data,
    )


def png(pixels: list[list[tuple[int, int, int]]]) -> bytes:
    """Rows of RGB pixels as a PNG file (8 bits a channel, no filter)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", len(pixels[0]), len(pixels), 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + bytes(c for pixel in row for c in pixel) for row in pixels)
    idat = zlib.compress(raw, 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


def _axes(
    grid: _Grid, queries: Sequence[str], keys: Sequence[str], words: tuple[str, str, str]
) -> list[str]:
    """Tick marks, the tokens as tick labels, the axis names and the title."""
    xs, ys = ticks(grid.cols), ticks(grid.rows)
    marks = [f"M{_n(grid.x - 4)} {_n(grid.centre(i, 0)[1])}h4" for i in ys]
    marks += [f"M{_n(grid.centre(0, j)[0])} {_n(grid.bottom)}v4" for j in xs]
    out = [element("path", d="".join(marks), stroke="black")]
    for i in ys:
        y = grid.centre(i, 0)[1]
        label = short(queries[i])
        out.append(element("text", label, x=grid.x - 7, y=y, dy=".35em", text_anchor="end"))
    top = grid.bottom + 7
    for j in xs:
        x, label = grid.centre(0, j)[0], short(keys[j])
        if grid.tilt:
            turn = f"rotate(-45 {_n(x)} {_n(top)})"
            out.append(
                element("text", label, x=x, y=top, dy=".7em", text_anchor="end", transform=turn)
            )
        else:
            out.append(element("text", label, x=x, y=top, dy=".8em", text_anchor="middle"))
    return out + _names(grid, words)


def _names(grid: _Grid, words: tuple[str, str, str]) -> list[str]:
    """The title above the grid, the key axis's name below it, the query axis's to its left."""
    title, xlabel, ylabel = words
    middle_x, middle_y = (grid.x + grid.right) / 2, (grid.y + grid.bottom) / 2
    out = []
    if title:
        x = _title_x(grid, title)
        out.append(
            element("text", title, x=x, y=10.0 + TITLE, font_size=TITLE, text_anchor="middle")
        )
    if xlabel:
        y = grid.bottom + grid.below + SIZE
        out.append(element("text", xlabel, x=middle_x, y=y, text_anchor="middle"))
    if ylabel:
        x, turn = 10.0 + SIZE, f"rotate(-90 {_n(10 + SIZE)} {_n(middle_y)})"
        out.append(element("text", ylabel, x=x, y=middle_y, text_anchor="middle", transform=turn))
    return out


def _colour_bar(grid: _Grid) -> list[str]:
    """The colormap from 0 (bottom) to 1 (top) beside the grid, ticked every 0.2 (0.5 when
    the grid is short)."""
    x, y, height = grid.right + 16, grid.y, grid.rows * grid.cell
    last = len(BLUES) - 1
    stops = "".join(
        element("stop", offset=f"{_n(k / last * 100)}%", stop_color=c) for k, c in enumerate(BLUES)
    )
    out = [
        f'<defs><linearGradient id="blues" x1="0" y1="1" x2="0" y2="0">{stops}</linearGradient>'
        "</defs>",
        element(
            "rect",
            x=x,
            y=y,
            width=_BAR,
            height=height,
            fill="url(#blues)",
            stroke="black",
            stroke_width=".8",
        ),
    ]
    steps = 5 if height >= 100 else 2
    for k in range(steps + 1):
        ty = y + height * (1 - k / steps)
        out.append(element("path", d=f"M{_n(x + _BAR)} {_n(ty)}h4", stroke="black"))
        out.append(element("text", f"{k / steps:.1f}", x=x + _BAR + 7, y=ty, dy=".35em"))
    return out
