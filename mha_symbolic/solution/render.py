"""Formats of a worked solution: Jinja2 environments (LaTeX-safe for .tex), escaping, files."""

from __future__ import annotations

import base64
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import jinja2
import sympy as sp
from markupsafe import Markup, escape

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.language.locales import template_dir
from mha_symbolic.language.words import Words
from mha_symbolic.output_files import Data, check_file_name, is_stream, write_files
from mha_symbolic.solution import fences, plain, terminal, wide
from mha_symbolic.solution.blocks import build
from mha_symbolic.solution.chosen import chosen_values
from mha_symbolic.solution.sandbox import FolderLoader, Sandbox
from mha_symbolic.solution.template_cache import template_cache
from mha_symbolic.solution.tex_matrices import full_size_fractions
from mha_symbolic.solution.view import Options, Solution

FORMATS = ("md", "text", "tex", "html", "pdf", "json")
TEXT_FORMATS = ("md", "text", "tex", "html", "json")

_TEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "%": r"\%",
    "&": r"\&",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}
# Maths characters plain text may hold (a description's "√2", "QKᵀ", "τ → 0⁺"), which
# pdflatex's UTF-8 input does not know: each as its maths command.
_GREEK = "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ"


def _greek_command(char: str) -> str:
    """``τ`` -> ``\\tau``, ``Δ`` -> ``\\Delta`` (Unicode spells lambda "LAMDA")."""
    name = unicodedata.name(char).split()[-1].lower().replace("lamda", "lambda")
    return "\\" + (name.capitalize() if char.isupper() else name)


_TEX_SPECIAL.update({c: f"${_greek_command(c)}$" for c in _GREEK})
_TEX_SPECIAL.update(
    {
        "−": "$-$",
        "√": r"$\surd$",
        "ᵀ": r"$^{\top}$",
        "⁺": "$^{+}$",
        "⁻": "$^{-}$",
        "→": r"$\to$",
        "←": r"$\leftarrow$",
        "∞": r"$\infty$",
        "≈": r"$\approx$",
        "≤": r"$\le$",
        "≥": r"$\ge$",
        "≠": r"$\ne$",
        "·": r"$\cdot$",
        "∑": r"$\sum$",
        **{d: f"$^{{{i}}}$" for i, d in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")},
        **{d: f"$_{{{i}}}$" for i, d in enumerate("₀₁₂₃₄₅₆₇₈₉")},
    }
)
_TEX_RE = re.compile("|".join(re.escape(c) for c in _TEX_SPECIAL))
# CommonMark lets a backslash escape any ASCII punctuation; letters, digits and spaces stay.
_MD_RE = re.compile(r"([\\`*_\[\]<>#|$&~])")


def tex_escape(text: str) -> str:
    """Plain text for LaTeX: ``\\input{x}`` prints as those characters and does nothing."""
    return _TEX_RE.sub(lambda m: _TEX_SPECIAL[m.group()], str(text))


def md_escape(text: str) -> str:
    return _MD_RE.sub(r"\\\1", str(text))


def _code_spans(text: str, plain: Callable[[str], str], code: Callable[[str], str]) -> str:
    """User text (a description) with its `code spans` set as code, the rest as plain text;
    an odd number of backticks means there are none."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0:
        return plain(str(text))
    return "".join(code(p) if i % 2 else plain(p) for i, p in enumerate(parts))


def _tex_code(text: str) -> str:
    # "--limit" stays two hyphens (typewriter fonts have no ligatures, but T1 Latin Modern does)
    return r"\texttt{" + tex_escape(text).replace("-", "-{}") + "}"


def _split_math(text: str) -> list[tuple[bool, str]]:
    """``"a $x$ b"`` -> [(False, "a "), (True, "x"), (False, " b")]."""
    return [(i % 2 == 1, part) for i, part in enumerate(str(text).split("$"))]


@lru_cache(maxsize=4096)  # a page shows the same maths again (given weights, each edit's)
def _mathml(tex: str, display: bool = False) -> str:
    from latex2mathml.converter import convert

    # latex2mathml reads "aligned" as a plain group (its & and \\ come out as text); "align*"
    # is the same alignment to it, written as a table.
    tex = tex.replace(r"\begin{aligned}", r"\begin{align*}").replace(
        r"\end{aligned}", r"\end{align*}"
    )
    # Each matrix one group: latex2mathml gives "[...]^{\top}" an msup of four children,
    # which a browser draws as the matrix set in the superscript, small.
    tex = _MATRIX_BEGIN.sub(r"{\g<0>", tex)
    tex = _MATRIX_END.sub(r"\g<0>}", tex)
    tex = fences.spaced_functions(fences.flat(tex))
    return fences.tight_slash(convert(tex, display="block" if display else "inline"))


_MATRIX_BEGIN = re.compile(r"\\begin\{[bpv]?matrix\}")
_MATRIX_END = re.compile(r"\\end\{[bpv]?matrix\}")


def _tex_prose(text: str) -> str:
    """Prose with its maths in the line, except a matrix of more than one row: that is set
    apart as display maths, with the punctuation after it (in the line it pushed the lines
    around it apart)."""
    out, display = [], False
    for is_math, part in _split_math(text):
        if is_math:
            display = bool(_TALL_MATRIX.search(part))
            out.append(rf"\[{part}" if display else f"${part}$")
            continue
        if display:
            mark = part[:1] if part[:1] in (":", ";", ",", ".", "\u0964") else ""  # । ends bn
            out.append((rf"\text{{{mark}}}" if mark else "") + r"\]")
            part = part[len(mark) :].lstrip()
        out.append(tex_escape(part))
        display = False
    return "".join(out) + (r"\]" if display else "")


# A matrix with a row break inside it (\\ between \begin and \end of one matrix).
_TALL_MATRIX = re.compile(r"\\begin\{[bpv]?matrix\}(?:(?!\\end\{).)*\\\\", re.DOTALL)


def _html_prose(text: str) -> Markup:
    """Prose with its maths in the line, except a matrix of several rows: set apart with the
    mark after it, as in the PDF (in the line, split-scaled's assumed Z_2 pushed apart the
    lines of its note and its fractions were too small to read)."""
    out, tall = [], None
    for is_math, part in _split_math(text):
        if is_math and _TALL_MATRIX.search(part):
            tall = part
            continue
        if tall is not None:
            mark = part[:1] if part[:1] in (":", ";", ",", ".", "\u0964") else ""
            out.append(_mathml(tall + (rf"\text{{{mark}}}" if mark else ""), display=True))
            part, tall = part[len(mark) :].lstrip(), None
        out.append(_mathml(part) if is_math else str(escape(part)))
    return Markup("".join(out) + (_mathml(tall, display=True) if tall is not None else ""))


# Characters of the text format's 2-D layout an HTML page's column holds at full size.
_ONE_LINE = 80


def _narrow(tex: str) -> bool:
    """Whether display maths fits an HTML page's column on one line."""
    return plain.drawn_width(tex) <= _ONE_LINE


_FULL_WIDTH = 95  # past this, display maths is set smaller (as the PDF's \fitmath scales it)
_SMALLEST = 0.6  # ... but never below this: a wider matrix scrolls in its box instead


def _fitted(mathml: str, tex: str) -> str:
    """``<math display="block">`` set smaller when it is wider than the column."""
    width = plain.drawn_width(tex)
    if width <= _FULL_WIDTH:
        return mathml
    scale = max(_SMALLEST, _FULL_WIDTH / width)
    return mathml.replace("<math ", f'<math style="font-size: {scale:.0%}" ', 1)


def environment(
    fmt: str, templates: str | None = None, columns: int = terminal.WIDTH
) -> jinja2.Environment:
    """The Jinja2 environment of one format (text: a page ``columns`` wide); .tex templates
    use ``\\VAR{}`` and ``\\BLOCK{}``.

    Sandboxed (see :mod:`mha_symbolic.solution.sandbox`): a ``--templates`` folder restyles
    the outputs but cannot reach Python, and any error in it is one line naming its file.
    """
    common: dict[str, Any] = {
        "loader": FolderLoader(template_dir(templates)),
        "bounded": templates is not None,
        "undefined": jinja2.StrictUndefined,
        "keep_trailing_newline": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }
    if fmt == "tex":
        env = Sandbox(
            block_start_string=r"\BLOCK{",
            block_end_string="}",
            variable_start_string=r"\VAR{",
            variable_end_string="}",
            comment_start_string=r"\#{",
            comment_end_string="}",
            line_comment_prefix="%#",
            autoescape=False,
            **common,
        )
        env.filters.update(text=tex_escape, prose=_tex_prose)
        env.filters["described"] = lambda t: _code_spans(t, tex_escape, _tex_code)
    elif fmt == "text":
        env = Sandbox(autoescape=False, **common)
        env.filters.update(terminal.filters(columns))
    elif fmt == "html":
        env = Sandbox(autoescape=True, **common)
        env.filters.update(prose=_html_prose, math=lambda t: Markup(_mathml(t)), alt=terminal.prose)
        env.filters["display"] = lambda t: Markup(_fitted(_mathml(t, display=True), t))
        # A chain of equals signs on one line when it fits the page, as the PDF's \chain
        env.filters["narrow"] = _narrow
        env.filters["described"] = lambda t: Markup(
            _code_spans(t, lambda p: str(escape(p)), lambda p: f"<code>{escape(p)}</code>")
        )
    else:
        env = Sandbox(autoescape=False, **common)
        # an image's alt text is read, not typeset: its maths as Unicode (τ = 1, not $\tau = 1$)
        env.filters.update(text=md_escape, prose=str, alt=lambda t: md_escape(terminal.prose(t)))
        env.filters["described"] = lambda t: _code_spans(t, md_escape, lambda p: f"`{p}`")
    if templates is None:  # the shipped templates, compiled once (see template_cache.py)
        env.bytecode_cache = template_cache(env)
    env.filters["column_groups"] = wide.column_groups
    # "columns 1–3 of S:", its words as text (LaTeX-safe in .tex), S as maths
    env.filters["group_label"] = (
        partial(wide.label, escape=tex_escape) if fmt == "tex" else wide.label
    )
    return env


def render(
    derivation: Derivation,
    fmt: str = "md",
    options: Options | None = None,
    images: dict[int, str] | None = None,
    font: str | None = None,
) -> str:
    """The worked solution as text in ``fmt`` (md, tex, html or json).

    ``images`` maps a head to its heatmap's file name or data URI; ``font`` (tex only) makes
    the document a XeLaTeX one in that font (Bengali).
    """
    options = options or Options()
    if fmt not in TEXT_FORMATS:
        raise SpecError(f"unknown text format {fmt!r}; choose one of {', '.join(TEXT_FORMATS)}")
    if fmt == "json":
        from mha_symbolic.solution import json_out  # (reads limits and balls: JSON only)

        return json_out.to_json(derivation, options)
    if fmt == "html" and images is None:
        images = {h: _data_uri(svg, "svg+xml") for h, svg in heatmaps(derivation, options).items()}
    if fmt == "html":  # one self-contained file: plots inline as well
        inline = tuple(replace(p, src=_data_uri(p.png, "png")) for p in options.plots)
        options = replace(options, plots=inline)
    names = variables(build(derivation, options, images), font)
    template = f"derivation.{_TEMPLATE.get(fmt, fmt)}.j2"
    text = environment(fmt, options.templates, options.columns).get_template(template).render(names)
    return full_size_fractions(text) if fmt == "tex" else text


_TEMPLATE = {"text": "txt"}  # the template's suffix, where it is not the format's name


def variables(solution: Solution, font: str | None) -> dict[str, Any]:
    """The names a solution template sees: each field of ``solution`` (blocks are read by
    attribute) and ``font``, the XeLaTeX font of a Bengali .tex (None otherwise)."""
    return {**{f.name: getattr(solution, f.name) for f in fields(solution)}, "font": font}


# ---------------------------------------------------------------------- heatmaps
def heatmaps(derivation: Derivation, options: Options, kind: str = "svg") -> dict[int, bytes]:
    """Heatmaps of each head's weights, as SVG files or (``kind="png"``, for LaTeX) PNG files
    drawn by matplotlib; heads with symbolic weights, or a single token's one weight, have none."""
    if kind == "png":
        from mha_symbolic.solution.heatmap import png as draw
    else:
        from mha_symbolic.solution.svg_heatmap import svg as draw

    words = Words(options.lang, options.templates)
    chosen = chosen_values(derivation)
    out = {}
    for step in derivation.steps:
        # (a single token's one weight is said in words instead)
        drawn = derivation.facts.is_a(step.kind, "weights") and step.shape != (1, 1)
        weights = _weights(derivation, step, chosen) if drawn else None
        if weights is not None and step.head is not None:
            title = words("text", "heatmap_title", head=step.head)  # (the caption says more)
            out[step.head] = draw(
                weights,
                derivation.spec.tokens,
                derivation.spec.key_tokens,
                title=title,
                xlabel=words("text", "heatmap_key"),
                ylabel=words("text", "heatmap_query"),
                decimals=options.places(step.key),
            )
    return out


def _weights(derivation: Derivation, step: Step, chosen: Mapping[sp.Symbol, sp.Expr]) -> Any:
    """What a heatmap reads: the exact weights (with symbols: at the numbers the solution
    chose for them, as its steps show; None when some were not chosen), or (for a lazy step
    too large to write out in the cells) their certified 17-digit values."""
    entries = step.entries
    if entries.free_symbols:
        if not entries.free_symbols <= chosen.keys():
            return None
        return sp.ImmutableMatrix(entries.xreplace(dict(chosen)))
    if isinstance(entries, sp.MatrixBase) or max(step.shape) <= 12:
        return entries
    balls = derivation.enclose(step.key, 17)
    return sp.Matrix([[sp.Float(float(b.mid())) for b in row] for row in balls])


def _data_uri(data: bytes, kind: str) -> str:
    return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")


# ---------------------------------------------------------------------- files
SUFFIXES = {
    ".txt": "text",
    ".md": "md",
    ".markdown": "md",
    ".tex": "tex",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".json": "json",
}


def infer_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise SpecError(
            f"cannot tell the format from the suffix {suffix or '(none)'!r}; give fmt",
            source=str(path),
        )
    return SUFFIXES[suffix]


def _images(derivation: Derivation, options: Options, stem: str, kind: str) -> dict[str, bytes]:
    """Each head's heatmap under its file name beside the document (STEM-head1.svg)."""
    drawn = heatmaps(derivation, options, kind)
    return {_beside(stem, f"-head{h}.{kind}"): data for h, data in drawn.items()}


_NAME_BYTES = 255  # the longest file name most file systems take


def _beside(stem: str, ending: str) -> str:
    """``stem + ending``, the stem cut (whole characters) so the name fits in 255 bytes."""
    room = _NAME_BYTES - len(ending.encode("utf-8"))
    return stem.encode("utf-8")[:room].decode("utf-8", "ignore") + ending


def _heads(images: dict[str, bytes]) -> dict[int, str]:
    return {int(name.rsplit("-head", 1)[1].split(".")[0]): name for name in images}


def pdf_bytes(derivation: Derivation, options: Options) -> bytes:
    """The solution as a PDF (pdflatex; xelatex with a Bengali font for ``lang="bn"``)."""
    from mha_symbolic.solution import pdf

    engine, font = "pdflatex", None
    if options.lang == "bn":
        engine = "xelatex"
        pdf.require(engine)
        font = pdf.bengali_font()
        if font is None:
            raise SpecError(pdf.FONT_INSTALL)
    else:
        pdf.require(engine)
    images = _images(derivation, options, "solution", "png")
    figures = {f"solution-plot{i}.png": p.png for i, p in enumerate(options.plots, start=1)}
    named = tuple(replace(p, src=n) for p, n in zip(options.plots, figures))
    options = replace(options, plots=named)
    tex = render(derivation, "tex", options, images=_heads(images), font=font)
    return pdf.compile_tex(tex, {**images, **figures}, engine, bounded=bool(options.templates))


def write(
    derivation: Derivation, path: str | Path, fmt: str | None = None, options: Options | None = None
) -> list[Path]:
    """Write the solution to ``path`` (format from ``fmt`` or the suffix); md and tex get their
    heatmaps beside them (SVG for md, PNG for tex). Returns every file written."""
    check_file_name(path)
    path = Path(path)
    fmt = fmt or infer_format(path)
    options = options or Options()
    if fmt not in FORMATS:
        raise SpecError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    # A plot's src is its file relative to the document (html and pdf also carry it inside).
    files: dict[Path, Data] = {path.parent / p.src: p.png for p in options.plots}
    if fmt == "pdf":
        files[path] = pdf_bytes(derivation, options)
    elif fmt in ("md", "tex") and not is_stream(path):  # images beside /dev/stdout: none
        # pdflatex includes PNG, not SVG; Markdown shows SVG, drawn without matplotlib
        images = _images(derivation, options, path.stem, "png" if fmt == "tex" else "svg")
        font = _bengali_tex_font() if fmt == "tex" and options.lang == "bn" else None
        text = render(derivation, fmt, options, images=_heads(images), font=font)
        files.update({path.with_name(name): data for name, data in images.items()})
        files[path] = text.encode("utf-8")
    elif fmt == "json":  # streamed: a model-sized step is never one string in memory
        from mha_symbolic.solution import json_out

        files[path] = json_out.chunks(derivation, options)
    else:
        files[path] = render(derivation, fmt, options).encode("utf-8")
    # Each file whole or not at all; the document checked and written first, so an error
    # names it rather than one of its images.
    write_files({path: files[path], **{k: v for k, v in files.items() if k != path}})
    return list(files)


def _bengali_tex_font() -> str:
    from mha_symbolic.solution import pdf

    return pdf.bengali_font() or pdf.DEFAULT_BENGALI_FONT
