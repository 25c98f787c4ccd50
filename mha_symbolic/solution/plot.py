"""Step entries plotted against a declared parameter (matplotlib, Agg; imported only to draw)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.exact.limits import parameter
from mha_symbolic.language.words import Words
from mha_symbolic.solution.heatmap import fonts, pyplot, to_png
from mha_symbolic.spec import exact_numbers as exact

_SELECTOR = re.compile(r"(?P<key>[^\[\]]+)(\[(?P<row>\d+)(,\s*(?P<col>\d+))?\])?")


@dataclass(frozen=True)
class Sweep:
    """Values of chosen entries at sample points of one parameter."""

    name: str
    start: float
    stop: float
    log: bool  # sample points (and the x axis) geometric: stop/start >= 10
    xs: tuple[float, ...]
    series: tuple[tuple[str, tuple[float, ...]], ...]  # label "head1.weights[1,2]" -> values


@dataclass(frozen=True)
class Plot:
    """A drawn sweep as a document includes it: ``src`` is a file name or a data URI."""

    src: str
    png: bytes
    name: str
    start: float
    stop: float


def parse_range(text: str) -> tuple[str, float, float]:
    """``"tau=0.1:10"`` -> ("tau", 0.1, 10.0) (the CLI's --plot)."""
    name, sep, bounds = text.partition("=")
    start_text, colon, stop_text = bounds.partition(":")
    if not sep or not colon or not name.strip():
        raise SpecError(f"plot: expected NAME=START:STOP such as tau=0.1:10, got {text!r}")
    start, stop = (_bound(t, text) for t in (start_text, stop_text))
    if not start < stop:
        raise SpecError(f"plot: {text!r} needs START < STOP")
    return name.strip(), start, stop


def _bound(text: str, whole: str) -> float:
    value = exact.from_text(text, f"plot {whole!r}")
    if not value.is_comparable:
        raise SpecError(f"plot: {text!r} in {whole!r} is not a number")
    return float(value)


def _selected(d: Derivation, selectors: Sequence[str] | None) -> list[tuple[str, int, int]]:
    """(step key, row, column) of every entry the selectors name (0-based positions)."""
    if not selectors:
        selectors = [step.key for step in d.steps if d.facts.is_a(step.kind, "weights")]
    out = []
    for selector in selectors:
        match = _SELECTOR.fullmatch(selector.strip())
        if match is None:
            raise SpecError(f"plot_keys: cannot read {selector!r}; write head1.weights[1,2]")
        key = match.group("key")
        try:
            rows, cols = d.step(key).shape
        except KeyError as exc:  # an unknown step key: its message names the nearest keys
            raise SpecError(f"plot_keys: {exc.args[0]}") from None
        row_range = range(rows) if match.group("row") is None else [int(match.group("row")) - 1]
        col_range = range(cols) if match.group("col") is None else [int(match.group("col")) - 1]
        for i in row_range:
            for j in col_range:
                if not (0 <= i < rows and 0 <= j < cols):
                    shape = (rows, cols)
                    raise SpecError(
                        f"plot_keys: {selector!r} is outside {key}, which has shape {shape}"
                    )
                out.append((key, i, j))
    return out


def sweep(
    d: Derivation,
    name: str,
    start: float,
    stop: float,
    keys: Sequence[str] | None = None,
    points: int = 200,
) -> Sweep:
    """The chosen entries (default: every head's weights) at ``points`` values of ``name``.

    Evaluated by ``Derivation.lambdify``'s stable function (the row max is subtracted before
    exp), so a temperature near 0 gives one-hot rows rather than overflow.
    """
    import numpy

    symbol = parameter(d, name)
    others = sorted(str(s) for s in d.free_symbols - {symbol})
    if others:
        raise SpecError(
            f"plot: the values depend on {others[0]} as well as {name}; "
            "give every other symbol a number"
        )
    log = start > 0 and stop / start >= 10
    grid = numpy.geomspace(start, stop, points) if log else numpy.linspace(start, stop, points)
    functions: dict[str, Any] = {}
    series = []
    for key, i, j in _selected(d, keys):
        if key not in functions:
            functions[key] = d.lambdify(key)(**{name: grid})
        values = numpy.broadcast_to(functions[key][..., i, j], grid.shape)
        series.append((f"{key}[{i + 1},{j + 1}]", tuple(float(v) for v in values)))
    return Sweep(name, start, stop, log, tuple(float(x) for x in grid), tuple(series))


_LINES = ("-", "--", ":", "-.")
_MARKERS = ("", "o", "s", "^", "D", "v")


def style(index: int) -> dict[str, Any]:
    """Curve ``index``'s line style and marker: curves that lie on each other stay apart."""
    marker = _MARKERS[(index // len(_LINES)) % len(_MARKERS)]
    return {"linestyle": _LINES[index % len(_LINES)], "marker": marker, "markevery": 25}


def legend(d: Derivation, label: str) -> str:
    """A series' legend in the solution's notation: ``head1.weights[1,2]`` ->
    ``$A_{1}[1,2]$ (I → love)``, the tokens when the step is a matrix over them."""
    key, _, where = label.partition("[")
    i, j = (int(n) - 1 for n in where.rstrip("]").split(","))
    step = d.step(key)
    name = f"${step.symbol.name}[{i + 1},{j + 1}]$"
    spec = d.spec
    if d.facts.is_a(step.kind, "query_by_key"):
        return f"{name} ({spec.tokens[i]} → {spec.key_tokens[j]})"
    return name


def png(result: Sweep, *, title: str, ylabel: str, legends: Sequence[str] | None = None) -> bytes:
    """One line per entry, the parameter on the x axis (logarithmic for wide ranges)."""
    plt = pyplot()
    labels = legends or [label for label, _ in result.series]
    families = fonts(title, ylabel)
    if families is None:  # Bengali words, no Bengali font: the caption beside says them
        title, ylabel, families = "", "", ["DejaVu Sans"]
    with plt.rc_context({"font.family": families}):
        return _draw(result, title, ylabel, labels)


def _draw(result: Sweep, title: str, ylabel: str, labels: Sequence[str]) -> bytes:
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=110)
    try:
        for index, ((_, values), label) in enumerate(zip(result.series, labels)):
            axes.plot(result.xs, values, label=label, **style(index))
        if result.log:
            axes.set_xscale("log")
        axes.set_xlabel(f"${sp.latex(sp.Symbol(result.name))}$")
        axes.set_ylabel(ylabel)
        axes.set_title(title)
        if len(result.series) <= 12:
            axes.legend(fontsize=7, loc="best")
        axes.grid(True, alpha=0.3)
        return to_png(figure)
    finally:
        plt.close(figure)


def figure(
    d: Derivation,
    text: str,
    src: str,
    keys: Sequence[str] | None = None,
    lang: str = "en",
) -> Plot:
    """``--plot tau=0.1:10``: the sweep drawn as a PNG that a document shows as ``src``."""
    name, start, stop = parse_range(text)
    result = sweep(d, name, start, stop, keys)
    words = Words(lang, None)
    # Unicode (τ), not maths: a title with $...$ is set wholly in the maths font.
    title = words("plot", "title", name=sp.pretty(d.facts.parameters[name], use_unicode=True))
    legends = [legend(d, label) for label, _ in result.series]
    data = png(result, title=title, ylabel=words("plot", "ylabel"), legends=legends)
    return Plot(src, data, name, start, stop)
