"""What the page asks for, done where it cannot stall the server: in a worker process (see
:mod:`mha_symbolic.web.pool`). Plain data in, plain data out; no web framework here, so the
benchmark times exactly this.

Every answer is a dict with ``ok``; a bad spec or document is ``ok: False`` with ``error``,
the very line ``mha-symbolic derive spec.toml`` prints for the same text, and where it is
(``field``, ``line``) so the page can mark it.
"""

from __future__ import annotations

import functools
import re
import shutil
from typing import Any

from mha_symbolic.arguments import as_flags
from mha_symbolic.command_parser import MESSAGE_LIMIT
from mha_symbolic.errors import SpecError
from mha_symbolic.operations.projection import WEIGHT_KEYS
from mha_symbolic.spec.attention import TOP_KEYS
from mha_symbolic.text import one_line

SOURCE = "spec.toml"  # the editor's text is named as the file it downloads as
PROGRAM = "mha-symbolic"

# A message names its field first ("x: row 2 has ...", "w_q has shape ...") or quotes an
# unknown key: the page marks that field, and the TOML line that sets it.
FIELDS = frozenset((*TOP_KEYS, *WEIGHT_KEYS))
_FIELD = re.compile(r"^(?:unknown key ')?([A-Za-z_]\w*)\b")
_TOML_LINE = re.compile(r"at line (\d+)")


def message(error: SpecError) -> str:
    """The line the command line prints for ``error``."""
    return f"{PROGRAM}: {one_line(as_flags(str(error)), MESSAGE_LIMIT)}"


class AtField(SpecError):
    """An error of one of the page's own fields (``field``), not of the spec's text."""

    def __init__(self, error: SpecError, field: str) -> None:
        super().__init__(error.detail, source=error.source)
        self.field = field


def located(error: SpecError, text: str) -> dict[str, Any]:
    """``error`` as the page shows it: the CLI's line, the field it names, the TOML line."""
    if isinstance(error, AtField):
        return {"ok": False, "error": message(error), "field": error.field, "line": None}
    detail = error.detail
    field, line = None, None
    found = _FIELD.match(detail)
    if found and (found.group(1) in FIELDS or detail.startswith("unknown key")):
        field = found.group(1)
        setting = re.search(rf'^\s*"?{field}"?\s*=', text, re.MULTILINE)
        if setting:
            line = text.count("\n", 0, setting.start()) + 1
    at = _TOML_LINE.search(detail) if detail.startswith("invalid TOML") else None
    if at:
        line = int(at.group(1))
    return {"ok": False, "error": message(error), "field": field, "line": line}


def options(request: dict[str, Any]) -> Any:
    """The solution's options from the page's controls (each checked by Options itself)."""
    from mha_symbolic.solution.view import Options

    decimals = request.get("decimals")  # None: the spec's own (its ``decimals``), else 2
    return Options(
        decimals=Options.decimals if decimals is None else decimals,
        detail=str(request.get("detail", "matrix")),
        lang=str(request.get("lang", "en")),
    )


def derivation(
    text: str, want: Any, limit: str = "", marks: bool = True, own_decimals: bool = False
) -> tuple[Any, Any]:
    """The spec text derived as ``mha-symbolic derive spec.toml [--limit NAME=POINT]`` does
    it (its bounds and the refusal of a derivation estimated to take minutes), and the
    options with the spec's claims marked in place (``marks``; never in a limit: they are
    about the values). ``own_decimals``: the page's control is empty, so the spec's
    ``decimals`` (if it has one) is used, as ``derive`` without ``--decimals`` does."""
    from dataclasses import replace

    from mha_symbolic.check.batch import is_batched
    from mha_symbolic.check.judge import check
    from mha_symbolic.exact.evaluate import derive
    from mha_symbolic.spec.attention import AttentionSpec
    from mha_symbolic.spec.input_files import parse_toml
    from mha_symbolic.spec.step_decimals import with_spec_decimals

    raw = parse_toml(text, SOURCE)
    if is_batched(raw):
        raise SpecError("a batch of inputs is derived on the command line, one element at a time")
    spec = AttentionSpec.from_dict(raw, source=SOURCE)
    d = derive(spec)
    if own_decimals:
        want = with_spec_decimals(want, spec)
    if limit.strip():
        from mha_symbolic.exact.limits import parse_limit

        try:
            return d.limit(*parse_limit(limit)), want
        except SpecError as error:
            raise AtField(error, "limit") from None
    if spec.claims and marks:
        want = replace(want, marks=check(d).marks())
    return d, want


@functools.cache
def _html_environment() -> Any:
    """The HTML renderer's templates, compiled once in a worker (``render`` compiles them
    at each call, a third of an edit's time), and its filters of display maths remembered by
    their LaTeX: an edit leaves most of the solution's maths as it was, whose width would be
    measured again (the MathML is remembered by the renderer itself)."""
    from mha_symbolic.solution.render import environment

    env = environment("html")
    for name in ("display", "narrow"):
        env.filters[name] = functools.lru_cache(maxsize=4096)(env.filters[name])
    return env


def html(d: Any, want: Any, chosen: frozenset[int] = frozenset()) -> str:
    """``render(d, "html", want, images={})`` (the page draws its own heatmaps, and sets
    neither plots nor a templates folder) with the templates compiled once. ``chosen``: the
    heads whose symbolic weights the page draws at the chosen numbers, captioned as such."""
    from mha_symbolic.solution.blocks import build
    from mha_symbolic.solution.render import variables

    names = variables(build(d, want, dict.fromkeys(chosen, "")), None)
    return str(_html_environment().get_template("derivation.html.j2").render(names))


def solve(request: dict[str, Any]) -> dict[str, Any]:
    """The worked solution (the body of ``--format html``) and the heatmaps' data. With
    ``marks: False`` the spec's claims are not checked: the solution comes sooner, and
    ``marks_later`` says the page should ask again for it with the claims' marks."""
    from mha_symbolic.web.grids import grids
    from mha_symbolic.web.heatmaps import heatmaps

    text = str(request.get("toml", ""))
    try:
        want = options(request)
        limit, marks = str(request.get("limit", "")), request.get("marks", True) is not False
        own = request.get("decimals") is None
        d, want = derivation(text, want, limit, marks, own)
        maps = heatmaps(d, want.places, want.lang)
        page = html(d, want, frozenset(m["head"] for m in maps if m.get("chosen")))
        later = not marks and not limit.strip() and bool(d.spec.claims)
        answer = {"ok": True, "html": body(page), "heatmaps": maps}
        answer["marks_later"] = later
    except SpecError as error:
        answer = located(error, text)
    return {**answer, "grids": grids(text)}


def body(page: str) -> str:
    """What is between ``<body>`` and ``</body>`` of a rendered page."""
    return page.partition("<body>")[2].rpartition("</body>")[0]


DOWNLOADS = {
    "md": ("text/markdown; charset=utf-8", "solution.md"),
    "tex": ("application/x-tex; charset=utf-8", "solution.tex"),
    "json": ("application/json", "solution.json"),
    "pdf": ("application/pdf", "solution.pdf"),
}


def pdf_available() -> bool:
    return shutil.which("pdflatex") is not None


def download(request: dict[str, Any]) -> dict[str, Any]:
    """The solution as a file: Markdown, LaTeX, JSON, or PDF where pdflatex is installed."""
    from mha_symbolic.solution.render import pdf_bytes, render

    fmt = str(request.get("format", ""))
    text = str(request.get("toml", ""))
    if fmt not in DOWNLOADS:
        return {"ok": False, "error": f"{PROGRAM}: unknown format {one_line(fmt)!r}"}
    try:
        own = request.get("decimals") is None
        d, want = derivation(text, options(request), str(request.get("limit", "")), True, own)
        data = pdf_bytes(d, want) if fmt == "pdf" else render(d, fmt, want).encode("utf-8")
    except SpecError as error:
        return located(error, text)
    media, name = DOWNLOADS[fmt]
    return {"ok": True, "data": data, "media": media, "name": name}


def check_document(request: dict[str, Any]) -> dict[str, Any]:
    """A pasted document's worked examples: the mapping, and each printed number's verdict."""
    from mha_symbolic.web.documents import checked

    try:
        return checked(
            str(request.get("text", "")), request.get("kind"), str(request.get("lang", "en"))
        )
    except SpecError as error:
        return {"ok": False, "error": message(error), "field": "document", "line": None}


JOBS = {"solve": solve, "download": download, "check": check_document}


def run(name: str, request: dict[str, Any]) -> dict[str, Any]:
    """Job ``name`` on ``request``; anything but a SpecError is a one-line internal error
    (the page never shows a traceback)."""
    try:
        return JOBS[name](request)
    except SpecError as error:
        return {"ok": False, "error": message(error), "field": None, "line": None}
    except Exception as error:
        line = one_line(f"{type(error).__name__}: {error}", MESSAGE_LIMIT)
        return {"ok": False, "error": f"{PROGRAM}: internal error: {line}", "field": None}
