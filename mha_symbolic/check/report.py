"""The report of a check: verdicts per claim, as text, Markdown, JSON and marks.

A Report is data; its words are put in as it is rendered, in the language asked for
(``lang="en"``, the default, or ``"bn"``: every word from templates/locales, [check]).
Step keys, printed claims, exact values and decimals are data and stay as they are."""

from __future__ import annotations

import functools
import json
import re
import textwrap
from dataclasses import dataclass
from html import escape
from typing import Any

import sympy as sp
from sympy.printing.str import StrPrinter

from mha_symbolic.check.assumed import Assumed
from mha_symbolic.check.verdicts import VERDICTS, ClaimVerdict, grid
from mha_symbolic.language.check_phrases import Voice, columns, pad, voice
from mha_symbolic.spec.catalogue import example_names

_TEXT_WIDTH = 80  # characters of an exact value shown in the text table
_COLUMNS = 100  # the width of the readable report (str(report))
_LABEL = 9  # the least width of the readable report's labels ("claimed  ")
_EXAMPLE = re.compile(r"example (\S+)")  # AttentionSpec.example's source


class _Plain(StrPrinter):
    """Compact one-line values for the text table: ``e/(1 + e)``."""

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_exp(self, expr: Any) -> str:
        return f"e^({self._print(expr.args[0])})"

    def _print_Infinity(self, expr: Any) -> str:
        return "∞"  # a masked score, as a reader writes it (SymPy prints oo)

    def _print_NegativeInfinity(self, expr: Any) -> str:
        return "-∞"


@functools.lru_cache(maxsize=4096)
def _plain(value: sp.Expr) -> str:
    """The value in one line, kept: the claims on one step show the same entries again."""
    return str(_Plain().doprint(value))


_MAX_NODES = 200  # an exact value larger than this is too long to print in a report


def _small(value: sp.Basic) -> bool:
    """Short enough to print (counted up to the limit only: a model-sized layer's output
    entry has thousands of terms, and printing it, or even counting them all, takes long)."""
    return all(count <= _MAX_NODES for count, _ in enumerate(sp.preorder_traversal(value)))


_MAX_EXACT = 3000  # characters of exact entries a text report prints for one claim


def _exact(matrix: sp.MatrixBase, budget: int | None = None) -> str | None:
    """The exact value as one line, or None when an entry is too long to print, or (with a
    ``budget``) when all of them together are: a 20 x 20 softmax of exponentials would fill
    thousands of lines of a terminal, and take seconds to print."""
    if not all(_small(v) for v in matrix):
        return None
    if budget is not None:
        used = 0
        for value in matrix:
            used += len(_plain(value)) + 2
            if used > budget:
                return None
    return grid(matrix, _plain)


def _shown(exact: str | None, decimal: str | None, words: Voice) -> str:
    """``exact = decimal`` (either alone when the other says nothing more)."""
    if exact is None:
        return f"{decimal} {words('too_long')}" if decimal else words("too_long")
    return exact if decimal in (None, exact) else f"{exact} = {decimal}"


def _clip(text: str) -> str:
    """Long symbolic values cut short in the text table (JSON and Markdown keep them whole)."""
    return text if len(text) <= _TEXT_WIDTH else text[: _TEXT_WIDTH - 1] + "…"


@dataclass(frozen=True)
class Report:
    """Verdicts on every claim, in the order given."""

    source: str
    claims: tuple[ClaimVerdict, ...]
    # The spec's [assumed] numbers, judged but never counted as claims (see check/assumed).
    assumptions: tuple[Assumed, ...] = ()

    @property
    def ok(self) -> bool:
        """True when every claim holds (exact or rounded), or follows from the numbers the
        document assumes."""
        return all(claim.holds or claim.verdict == "follows" for claim in self.claims)

    def by_step(self) -> dict[str, tuple[ClaimVerdict, ...]]:
        """Step key -> the claims about that step (whole, a row or an entry), for renderers."""
        out: dict[str, tuple[ClaimVerdict, ...]] = {}
        for claim in self.claims:
            out[claim.step] = (*out.get(claim.step, ()), claim)
        return out

    def marks(self) -> dict[str, tuple[dict[str, Any], ...]]:
        """Step key -> the claims about it that do not hold, as plain data for a renderer.

        Each mark: ``key`` (the claim's key), ``claimed`` (the printed numbers, plain text),
        ``verdict``, ``exact`` (the exact value of what was claimed, a SymPy matrix) and
        ``diagnosis`` (text or None). Renderers take these without importing the checker.
        """
        out: dict[str, tuple[dict[str, Any], ...]] = {}
        for claim in self.claims:
            if claim.holds:
                continue
            mark = {
                "key": claim.key,
                "claimed": claim.claim.display,
                "verdict": claim.verdict,
                "exact": claim.exact,
                "diagnosis": claim.diagnosis,
            }
            out[claim.step] = (*out.get(claim.step, ()), mark)
        return out

    def summary(self, lang: str = "en") -> str:
        """One line: how many claims hold, exactly or rounded, and how many do not."""
        words = voice(lang)
        source = _source(self.source, words)
        if not self.claims:
            return words("no_claims", source=source)
        counts = {v: sum(c.verdict == v for c in self.claims) for v in VERDICTS}
        held = counts["exact"] + counts["rounded"] + counts["within"]
        key = ("held_one" if held == 1 else "held_many") + ("_within" if counts["within"] else "")
        numbers = {v: counts[v] for v in ("exact", "rounded", "within")}
        parts = [words(key, held=held, **numbers)]
        parts += [words(f"counts.{v}", count=counts[v]) for v in VERDICTS[3:] if counts[v]]
        count = len(self.claims)
        claims = words("claims_one" if count == 1 else "claims_many", count=count)
        return words("summary", source=source, claims=claims, results=words("list").join(parts))

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """Plain data: keys, verdicts and statuses as they are (an API); sentences in ``lang``."""
        words = voice(lang)
        return {
            "ok": self.ok,
            "claims": [claim.to_dict(words) for claim in self.claims],
            "assumed": [item.to_dict(words) for item in self.assumptions],
        }

    def to_json(self, lang: str = "en") -> str:
        return json.dumps(self.to_dict(lang), indent=2, ensure_ascii=False)

    def to_text(self, lang: str = "en") -> str:
        """A table: a row per claim (wide), then the entries that fail, then the summary."""
        if not self.claims:
            return self.summary(lang) + "\n"
        words = voice(lang)
        header = tuple(words(f"columns.{c}") for c in _HEADER)
        rows = [header] + [
            (
                words.code(c.key),
                c.claim.display,
                _clip(_exact(c.exact) or "…"),
                c.decimal or words("symbolic"),
                words.verdict(c.verdict),
                words.sentence(c.diagnosis) or "",
            )
            for c in self.claims
        ]
        widths = [max(columns(row[k]) for row in rows) for k in range(len(header) - 1)]
        lines = [
            "  ".join([*(pad(cell, w) for cell, w in zip(row, widths)), row[-1]]).rstrip()
            for row in rows
        ]
        for claim in self.claims:
            lines += _entry_lines(claim, words)
        return "\n".join([*lines, self.summary(lang)]) + "\n"

    def readable(self, lang: str = "en", page_width: int = _COLUMNS) -> str:
        """A readable report: one block per assumed number and per claim, within ``page_width``
        (the summary, a line to grep, may be wider)."""
        words = voice(lang)
        width = max(_LABEL, *(columns(words(f"labels.{k}")) + 2 for k in _LABELS))
        lines: list[str] = []
        for item in self.assumptions:
            lines += _assumed_block(item, words, (width, page_width))
        for claim in self.claims:
            lines += _block(claim, words, (width, page_width))
        return "\n".join([*lines, self.summary(lang)]) + "\n"  # one line, to grep; a long path

    def __str__(self) -> str:
        """The readable report, in English."""
        return self.readable()

    def __repr__(self) -> str:
        """One line at a prompt: the summary, and how to see more."""
        return f"<Report {self.summary()}; print(report) or report.claims>"

    def _repr_html_(self) -> str:
        """Jupyter's view: the table (exact values as MathML), then why each failing claim
        fails; in English."""
        return self.to_html()

    def to_html(self, lang: str = "en") -> str:
        """The table, the summary and the reasons as one ``<div class="mha-report">``."""
        words = voice(lang)
        head = "".join(f"<th>{escape(words(f'columns.{c}'))}</th>" for c in _HEADER)
        rows = "".join(_html_row(claim, words) for claim in self.claims)
        reasons = "".join(f"<li>{_html_code(r[2:])}</li>" for r in _reasons(self, words))
        return (
            f'<div class="mha-report">\n<style>{_HTML_STYLE}</style>\n'
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>\n"
            f"<p>{escape(self.summary(lang))}</p>\n"
            + (f"<ul>{reasons}</ul>\n" if reasons else "")
            + "</div>\n"
        )

    def _repr_markdown_(self) -> str:
        """The Markdown table (maths rendered), why each failing claim fails, and what the
        document assumes; in English."""
        return self.to_markdown(why=True)

    def to_markdown(self, lang: str = "en", why: bool = False) -> str:
        """The Markdown table and the summary; ``why``: then why each failing claim fails
        and what the document assumes, a line each."""
        words = voice(lang)
        header = [words(f"columns.{c}") for c in _HEADER]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for c in self.claims:
            cells = (
                f"`{c.key}`",
                f"`{' '.join(c.claim.text.split())}`",
                f"${c.exact_latex}$" if all(_small(v) for v in c.exact) else words("too_long"),
                c.decimal or words("symbolic"),
                f"**{words.verdict(c.verdict)}**" if not c.holds else words.verdict(c.verdict),
                words.sentence(c.diagnosis) or "",
            )
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
        table = "\n".join([*lines, "", self.summary(lang)]) + "\n"
        reasons = _reasons(self, words) if why else []
        return table + "\n" + "\n".join(reasons) + "\n" if reasons else table


_HEADER = ("key", "claimed", "exact", "decimal", "verdict", "diagnosis")
_LABELS = ("claimed", "exact", "why", "assumed", "setup", "given", "note", "entry")


def _source(source: str, words: Voice) -> str:
    """Where the claims come from: a built-in example by its name, else as given."""
    match = _EXAMPLE.fullmatch(source)
    if match and match.group(1) in example_names():
        return words("source_example", name=match.group(1))
    return words.code(source)


_HTML_STYLE = (
    ".mha-report table { border-collapse: collapse; } "
    ".mha-report th, .mha-report td { padding: 0.2em 0.6em; text-align: left; "
    "vertical-align: middle; border-bottom: 1px solid #ddd; } "
    ".mha-report .wrong { color: #b00020; font-weight: bold; }"
)
_CODE = re.compile(r"`([^`]*)`")


def _html_code(text: str) -> str:
    """Text with its `code` spans as ``<code>``, everything else escaped."""
    parts = _CODE.split(text)
    return "".join(f"<code>{escape(p)}</code>" if i % 2 else escape(p) for i, p in enumerate(parts))


def _html_row(claim: ClaimVerdict, words: Voice) -> str:
    """One claim as a table row; the exact value as MathML when it is short enough."""
    from latex2mathml.converter import convert

    exact = convert(claim.exact_latex) if all(_small(v) for v in claim.exact) else None
    verdict = escape(words.verdict(claim.verdict))
    cells = (
        f"<code>{escape(claim.key)}</code>",
        f"<code>{escape(' '.join(claim.claim.text.split()))}</code>",
        exact or escape(words("too_long")),
        escape(claim.decimal or words("symbolic")),
        verdict
        if claim.holds or claim.verdict == "follows"
        else f'<span class="wrong">{verdict}</span>',
        escape(words.sentence(claim.diagnosis) or ""),
    )
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"


def _reasons(report: Report, words: Voice) -> list[str]:
    """A Markdown line per assumed number and per failing claim: what it is, and why."""
    reasons = [
        f"- `{a.key}` {words('assumed_reason', status=words(f'statuses.{a.status}'))}: "
        f"{words.sentence(a.note)}"
        for a in report.assumptions
    ]
    reasons += [
        f"- `{c.key}`: {words.sentence(c.explanation)}" for c in report.claims if c.explanation
    ]
    return reasons


def _entry_lines(claim: ClaimVerdict, words: Voice) -> list[str]:
    """The entries of a failing claim that do not hold, one line each."""
    if claim.holds:
        return []
    lines = []
    for entry in claim.entries:
        if not entry.holds:
            (i, j) = entry.index
            exact = _clip(_plain(entry.exact)) if _small(entry.exact) else "…"
            decimal = entry.decimal
            shown = exact if decimal in (None, exact) else f"{exact} = {decimal}"
            said = words(
                "entry",
                claimed=entry.claimed.text,
                exact=shown,
                verdict=words.verdict(_entry_verdict(claim, entry.verdict)),
            )
            lines.append(f"  {words.code(claim.key)} [{i},{j}]: {said}")
    return lines


def _entry_verdict(claim: ClaimVerdict, verdict: str) -> str:
    """An entry of a claim that follows the document's own assumption is as assumed, not
    wrong: the claim's verdict said so a line above."""
    return "follows" if claim.verdict == "follows" else verdict


def _wrap(text: str, page: tuple[int, int], label: str = "") -> list[str]:
    """``text`` after ``label`` (indented 2, as wide as the page's labels), within the page's
    columns."""
    width, page_width = page
    indent = " " * (2 + width)
    first = "  " + pad(label, width) if label else indent
    return textwrap.wrap(
        text,
        page_width,
        initial_indent=first,
        subsequent_indent=indent,
        break_on_hyphens=False,
    ) or [first.rstrip()]


def _block(claim: ClaimVerdict, words: Voice, width: tuple[int, int]) -> list[str]:
    """One claim: its verdict, what was claimed, the exact value, the entries that fail (by
    their place within the claim) and why."""
    lines = [f"{words.code(claim.key)}: {words.verdict(claim.verdict)}"]
    lines += _wrap(claim.claim.display, width, words("labels.claimed"))
    shown = _shown(_exact(claim.exact, _MAX_EXACT), claim.decimal, words)
    lines += _wrap(shown, width, words("labels.exact"))
    if not claim.holds:
        for entry in claim.entries:
            if not entry.holds:
                where = _within(claim, entry.index, words)
                exact = entry.decimal or (
                    _plain(entry.exact) if _small(entry.exact) else words("too_long")
                )
                verdict = words.verdict(_entry_verdict(claim, entry.verdict))
                said = words("entry", claimed=entry.claimed.text, exact=exact, verdict=verdict)
                lines += _wrap(said, width, where)
        if claim.explanation:
            lines += _wrap(str(words.sentence(claim.explanation)), width, words("labels.why"))
    return lines


def _assumed_block(item: Assumed, words: Voice, width: tuple[int, int]) -> list[str]:
    """An assumed number: what the document assumes, what the inputs give, and the note."""
    verdict = item.verdict
    lines = [f"{words.code(item.key)}: {words('assumed', status=words(f'statuses.{item.status}'))}"]
    lines += _wrap(verdict.claim.display, width, words("labels.assumed"))
    shown = _shown(_exact(verdict.exact), verdict.decimal, words)
    label = words("labels.setup" if item.status == "undetermined" else "labels.given")
    lines += _wrap(shown, width, label)
    lines += _wrap(str(words.sentence(item.note)), width, words("labels.note"))
    return lines


def _within(claim: ClaimVerdict, index: tuple[int, int], words: Voice) -> str:
    """An entry's place within the claim: [j] in a claimed row, (i, j) in a whole step."""
    row, col = claim.claim.row, claim.claim.col
    if row is not None and col is not None:
        return words("labels.entry")
    if row is not None:
        return f"[{index[1]}]"
    return f"({index[0]}, {index[1]})"
