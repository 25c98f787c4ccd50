"""A page's own LaTeX shorthands expanded before its matrices are read: ``\\newcommand{\\bpmat}
{\\begin{pmatrix}}``, ``\\def\\epmat{\\end{pmatrix}}`` and MathJax's configured macros
(``macros: {bpmat: "\\\\begin{pmatrix}"}``, in a script the page text leaves out).

Only macros without arguments are expanded (a shorthand for an environment or a symbol); two
passes expand a macro used in another; the text may grow by at most ``MAX_GROWTH`` characters,
so a page of nested definitions cannot blow up."""

from __future__ import annotations

import re

MAX_MACROS = 200
MAX_BODY = 500  # characters of one macro's body
MAX_GROWTH = 1_000_000  # characters the expansions may add to a page
_NEWCOMMAND = re.compile(
    r"\\(?:re)?newcommand\*?\s*\{?\s*\\([A-Za-z]+)\s*\}?\s*\{((?:[^{}]|\{[^{}]*\}){0,500})\}"
)
_DEF = re.compile(r"\\def\s*\\([A-Za-z]+)\s*\{((?:[^{}]|\{[^{}]*\}){0,500})\}")
_MATHJAX = re.compile(r"macros\s*:\s*\{")
_JS_MACRO = re.compile(
    r"""\s*["']?([A-Za-z]+)["']?\s*:\s*(?:"((?:[^"\\\n]|\\.){0,1000})"|'((?:[^'\\\n]|\\.){0,1000})')\s*,?"""
)
_JS_ESCAPE = re.compile(r"\\(.)")
_DEFINING = re.compile(r"\\(?:re)?newcommand|\\def\b|macros\s*:")


def definitions(text: str) -> dict[str, str]:
    """Each argument-free macro the page defines, by name (the first definition wins)."""
    found: dict[str, str] = {}
    for pattern in (_NEWCOMMAND, _DEF):
        for match in pattern.finditer(text):
            found.setdefault(match.group(1), match.group(2).strip())
    for config in _MATHJAX.finditer(text):
        position = config.end()
        while (item := _JS_MACRO.match(text, position)) is not None:
            body = item.group(2) if item.group(2) is not None else item.group(3)
            found.setdefault(item.group(1), _JS_ESCAPE.sub(r"\1", body))
            position = item.end()
    return {
        name: body
        for name, body in list(found.items())[:MAX_MACROS]
        if body and len(body) <= MAX_BODY and not re.search(r"#\d", body)
    }


def expander(macros: dict[str, str]) -> tuple[re.Pattern[str], dict[str, str]] | None:
    if not macros:
        return None
    names = sorted(macros, key=len, reverse=True)
    return re.compile(r"\\(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z])"), macros


class Expansion:
    """Expands the macros of one page, line by line, within the page's growth budget."""

    def __init__(self, macros: dict[str, str]) -> None:
        self.found = expander(macros)
        self.budget = MAX_GROWTH

    def __call__(self, line: str) -> str:
        if self.found is None or self.budget <= 0 or "\\" not in line or _DEFINING.search(line):
            return line  # a definition itself is left as written
        pattern = self.found[0]
        for _ in range(2):
            expanded = pattern.sub(self._one, line)
            if expanded == line:
                break
            line = expanded
        return line

    def _one(self, match: re.Match[str]) -> str:
        """One macro's body, while the page's budget lasts (then the macro as written)."""
        assert self.found is not None
        body = self.found[1][match.group(1)]
        growth = len(body) - len(match.group(0))
        if growth > self.budget:
            return match.group(0)
        self.budget -= max(0, growth)
        return body
