"""Reading a document (Markdown, plain text, LaTeX, a Jupyter notebook, HTML) as numbered lines."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.extract.macros import Expansion, definitions
from mha_symbolic.extract.markup import page_text
from mha_symbolic.extract.rich_outputs import table_text
from mha_symbolic.language.extract_phrases import phrase
from mha_symbolic.spec import input_files

MAX_DOCUMENT_BYTES = 5_000_000  # a tutorial page is a few hundred kB; a book chapter ~1 MB
MAX_LINES = 250_000
FORMATS = ("md", "txt", "tex", "ipynb", "html")
_SUFFIX = {
    ".md": "md",
    ".markdown": "md",
    ".txt": "txt",
    ".text": "txt",
    ".tex": "tex",
    ".ipynb": "ipynb",
    ".html": "html",
    ".htm": "html",
}
# Markdown escapes a bracket or an underscore ("\[1, 0]", "W\_Q1"); LaTeX's "\[" opens display
# math, so only a backslash before a bracket that holds a number is dropped.
_MD_ESCAPE = re.compile(r"\\([_*])|\\\[(?=[\s\\\[]*[-−+.\d])|(?<=[\d\s\]])\\\]")
_MOJIBAKE = re.compile("[‡√Ô][¶ß§•ª∫ºÆ]|ü[îòëé]|‚Ä")
_DEFINES = re.compile(r"newcommand|\\def\b|macros\s*:")
# A notebook's prompt in its HTML export ("[7]:", "In [7]:", "Out[7]:" on a line of its own,
# as nbsphinx and nbconvert print them): an execution count, never a printed array.
_PROMPT = re.compile(r"^[ \t]*(?:In|Out)?[ \t]*\[\d*\]:[ \t]*$", re.MULTILINE)
_TEX_HEADING = re.compile(r"^\s*\\(?:sub)*section\*?\{([^{}]*)\}")


@dataclass(frozen=True)
class Line:
    """A line of the document's text and where a reader finds it ("line 12", "cell 3, line 2")."""

    text: str
    number: int  # 1-based, within its cell in a notebook
    cell: int = 0  # notebook cell (1-based), 0 elsewhere
    output: bool = False  # a notebook cell's printed output
    code: bool = False  # a notebook code cell's source line

    @cached_property
    def where(self) -> str:
        """Where it is ("line 12", "cell 3, line 2", "cell 3, output line 1"), as a phrase."""
        if not self.cell:
            return phrase("where.line", line=self.number)
        kind = "where.output" if self.output else "where.cell"
        return phrase(kind, cell=self.cell, line=self.number)


@dataclass(frozen=True)
class Document:
    name: str
    kind: str
    lines: tuple[Line, ...]


def read_document(source: str | Path, kind: str | None = None) -> Document:
    """A document from a path, or from its text when ``source`` is text with a newline."""
    if isinstance(source, str) and ("\n" in source or not Path(source).suffix):
        text, name = source, "<text>"
    else:
        name = str(source)
        text = input_files.read_text(source, name, limit=MAX_DOCUMENT_BYTES)
        kind = kind or _SUFFIX.get(Path(name).suffix.lower())
        if kind is None:
            raise SpecError(
                f"unknown document kind {Path(name).suffix!r}; read are "
                + ", ".join(sorted(_SUFFIX)),
                source=name,
            )
    if len(text) > MAX_DOCUMENT_BYTES:
        raise SpecError(
            f"{len(text):,} characters; at most {MAX_DOCUMENT_BYTES:,} are read", source=name
        )
    kind = kind or _sniff(text)
    lines = _expanded(READERS[kind](text, name), text)
    if len(lines) > MAX_LINES:
        raise SpecError(f"{len(lines):,} lines; at most {MAX_LINES:,} are read", source=name)
    return Document(name, kind, tuple(lines))


def _expanded(lines: list[Line], text: str) -> list[Line]:
    """The lines with the page's own argument-free LaTeX macros expanded (``\\bpmat``)."""
    if not _DEFINES.search(text):
        return lines
    macros = definitions(text) | definitions("\n".join(line.text for line in lines))
    expand = Expansion(macros)
    return [replace(line, text=expand(line.text)) for line in lines]


def _sniff(text: str) -> str:
    head = text.lstrip()[:200].lower()
    if head.startswith("{") and '"cells"' in text[:5000]:
        return "ipynb"
    if head.startswith(("<!doctype html", "<html")) or "<body" in head:
        return "html"
    return "md"


def repaired(line: str) -> str:
    """A line of UTF-8 once decoded as Mac Roman ("‡¶ß‡¶∞‡¶ø" for "ধরি") decoded right; other
    lines as they are (genuine text seldom survives the round trip)."""
    if not _MOJIBAKE.search(line):
        return line
    try:
        return line.encode("mac_roman").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return line


def _numbered(text: str, markdown: bool) -> list[Line]:
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        raw = repaired(line)
        line = _MD_ESCAPE.sub(lambda m: m.group(1) or ("[" if "[" in m.group(0) else "]"), raw)
        out.append(Line(line if markdown else raw, number))
    return out


def _markdown(text: str, name: str) -> list[Line]:
    return _numbered(text, markdown=True)


def _tex(text: str, name: str) -> list[Line]:
    out = []
    for line in _numbered(text, markdown=False):
        heading = _TEX_HEADING.match(line.text)
        kept = (
            f"# {heading.group(1)}"
            if heading
            else line.text.split("%")[0]
            if _comment(line.text)
            else line.text
        )
        out.append(Line(kept, line.number))
    return out


def _comment(text: str) -> bool:
    """A TeX comment starts at an unescaped %."""
    return bool(re.search(r"(?<!\\)%", text))


def _notebook(text: str, name: str) -> list[Line]:
    try:
        data = json.loads(text)
    except RecursionError:
        raise SpecError("the notebook's JSON is nested too deep to read", source=name) from None
    except ValueError as exc:
        raise SpecError(f"not a notebook: invalid JSON ({exc})", source=name) from None
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise SpecError("not a notebook: no list of cells", source=name)
    out: list[Line] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            continue
        kind = cell.get("cell_type")
        body = _joined(cell.get("source"))
        if kind == "markdown":
            body = "\n".join(line.text for line in _numbered(body, markdown=True))
        out.extend(_cell_lines(body, number, output=False, code=kind == "code"))
        if kind == "code":
            for output in cell.get("outputs") or []:
                out.extend(_cell_lines(_output_text(output), number, output=True))
    return out


def _cell_lines(body: str, cell: int, output: bool, code: bool = False) -> list[Line]:
    lines = enumerate(body.splitlines(), start=1)
    return [Line(text, i, cell, output, code) for i, text in lines]


def _joined(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(part for part in value if isinstance(part, str))
    return ""


def _output_text(output: Any) -> str:
    if not isinstance(output, dict):
        return ""
    if "text" in output:
        return _joined(output["text"])
    data = output.get("data")
    if not isinstance(data, dict):
        return ""
    plain = _joined(data.get("text/plain"))
    return table_text(data, plain) or plain


def _html(text: str, name: str) -> list[Line]:
    body = re.sub(r"\n(?:[ \t]*\n)+", "\n\n", page_text(text))
    return _numbered(_PROMPT.sub("", body), markdown=True)


READERS = {"md": _markdown, "txt": _markdown, "tex": _tex, "ipynb": _notebook, "html": _html}
