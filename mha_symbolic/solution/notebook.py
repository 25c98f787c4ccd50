"""What Jupyter shows of a derivation: the HTML solution as a fragment (its styles scoped to
it, heatmaps inline), and the whole solution as LaTeX maths for nbconvert's PDF export."""

from __future__ import annotations

import re

from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.language.locales import step_title
from mha_symbolic.solution import latex
from mha_symbolic.solution.render import render
from mha_symbolic.solution.view import Options

SCOPE = "mha-solution"
_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)
_BODY = re.compile(r"<body>(.*)</body>", re.DOTALL)
_RULE = re.compile(r"^([^{}\n]+)\{", re.MULTILINE)


def html(d: Derivation, options: Options | None = None) -> str:
    """The HTML solution as one ``<div>``: a notebook page keeps its own fonts and margins."""
    page = render(d, "html", options or Options())
    style, body = _STYLE.search(page), _BODY.search(page)
    assert style is not None and body is not None, "the HTML template has a <style> and a <body>"
    scoped = _RULE.sub(lambda m: _scope(m.group(1)) + "{", style.group(1))
    return f'<div class="{SCOPE}">\n<style>{scoped}</style>\n{body.group(1).strip()}\n</div>\n'


def _scope(selectors: str) -> str:
    parts = [s.strip() for s in selectors.split(",")]
    return ", ".join(f".{SCOPE}" if s == "body" else f".{SCOPE} {s}" for s in parts) + " "


def latex_maths(d: Derivation, options: Options | None = None) -> str:
    """Every step as display maths, ``title`` then ``symbol = formula = value ≈ decimals``:
    MathJax shows it in the notebook, and nbconvert puts it into the PDF as it is."""
    options = options or Options()
    settings = options.settings
    blocks = []
    for step in d.steps:
        title = step_title(step.key, step.head, options.lang, options.templates)
        shown = latex.show(step.entries, step.symbol.name, settings)
        rows = [rf"&\text{{{_text(title)}}}"]
        if step.kind == "input":
            rows.append(rf"{step.symbol.name} &= {shown.exact}")
        else:
            rows.append(rf"{step.symbol.name} &= {latex.formula(step.formula)}")
            rows.append(rf"&= {shown.exact}")
        if shown.approx:
            rows.append(rf"&\approx {shown.approx}")
        lines = [row + r" \\" for row in rows[:-1]] + rows[-1:]
        blocks.append("$$\n\\begin{aligned}\n" + "\n".join(lines) + "\n\\end{aligned}\n$$")
    return "\n\n".join(blocks) + "\n"


def _text(title: str) -> str:
    return re.sub(r"([\\{}$&#%_^~])", r"\\\1", title)
