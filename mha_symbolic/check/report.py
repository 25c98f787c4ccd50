"""The report of a check: verdicts per claim, as text, Markdown, JSON and marks."""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.printing.str import StrPrinter

from mha_symbolic.check.assumed import Assumed
from mha_symbolic.check.verdicts import SYMBOLIC, VERDICTS, ClaimVerdict, grid

_TEXT_WIDTH = 80  # characters of an exact value shown in the text table
_COLUMNS = 100  # the width of the readable report (str(report))


class _Plain(StrPrinter):
    """Compact one-line values for the text table: ``e/(1 + e)``."""

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_exp(self, expr: Any) -> str:
        return f"e^({self._print(expr.args[0])})"


def _plain(value: sp.Expr) -> str:
    return _Plain().doprint(value)


_MAX_NODES = 200  # an exact value larger than this is too long to print in a report
TOO_LONG = "(too long to print; --format json has it)"


def _small(value: sp.Basic) -> bool:
    """Short enough to print (counted up to the limit only: a model-sized layer's output
    entry has thousands of terms, and printing it, or even counting them all, takes long)."""
    return all(count <= _MAX_NODES for count, _ in enumerate(sp.preorder_traversal(value)))


def _exact(matrix: sp.MatrixBase) -> str | None:
    """The exact value as one line, or None when an entry is too long to print."""
    return grid(matrix, _plain) if all(_small(v) for v in matrix) else None


def _shown(exact: str | None, decimal: str | None) -> str:
    """``exact = decimal`` (either alone when the other says nothing more)."""
    if exact is None:
        return f"{decimal} {TOO_LONG}" if decimal else TOO_LONG
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
        """True when every claim holds (exact or rounded)."""
        return all(claim.holds for claim in self.claims)

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

    def summary(self) -> str:
        if not self.claims:
            return f"{self.source}: no claims to check"
        counts = {v: sum(c.verdict == v for c in self.claims) for v in VERDICTS}
        held = counts["exact"] + counts["rounded"] + counts["within"]
        noun = "claim" if len(self.claims) == 1 else "claims"
        within = f", {counts['within']} within the printed precision" if counts["within"] else ""
        verb = "holds" if held == 1 else "hold"
        parts = [f"{held} {verb} ({counts['exact']} exact, {counts['rounded']} rounded{within})"]
        parts += [f"{counts[v]} {v}" for v in VERDICTS[3:] if counts[v]]
        return f"{self.source}: {len(self.claims)} {noun}: " + ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "claims": [claim.to_dict() for claim in self.claims],
            "assumed": [item.to_dict() for item in self.assumptions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def to_text(self) -> str:
        if not self.claims:
            return self.summary() + "\n"
        header = ("key", "claimed", "exact", "decimal", "verdict", "diagnosis")
        rows = [header] + [
            (
                c.key,
                c.claim.display,
                _clip(_exact(c.exact) or "…"),
                c.decimal or SYMBOLIC,
                c.verdict,
                c.diagnosis or "",
            )
            for c in self.claims
        ]
        widths = [max(len(row[k]) for row in rows) for k in range(len(header) - 1)]
        lines = [
            "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[-1]]).rstrip()
            for row in rows
        ]
        for claim in self.claims:
            lines += _entry_lines(claim)
        return "\n".join([*lines, self.summary()]) + "\n"

    def __str__(self) -> str:
        """A readable report: one block per assumed number and per claim, within 100 columns."""
        lines: list[str] = []
        for item in self.assumptions:
            lines += _assumed_block(item)
        for claim in self.claims:
            lines += _block(claim)
        return "\n".join([*lines, self.summary()]) + "\n"  # one line, to grep; a long path

    def __repr__(self) -> str:
        """At a prompt: the readable report, not the dataclass's fields."""
        return str(self).rstrip("\n")

    def _repr_markdown_(self) -> str:
        """The Markdown table (maths rendered), why each failing claim fails, and what the
        document assumes."""
        reasons = [f"- `{a.key}` (assumed, {a.status}): {a.note}" for a in self.assumptions]
        reasons += [f"- `{c.key}`: {c.explanation}" for c in self.claims if c.explanation]
        if not reasons:
            return self.to_markdown()
        return self.to_markdown() + "\n" + "\n".join(reasons) + "\n"

    def to_markdown(self) -> str:
        lines = [
            "| key | claimed | exact | decimal | verdict | diagnosis |",
            "|---|---|---|---|---|---|",
        ]
        for c in self.claims:
            cells = (
                f"`{c.key}`",
                f"`{' '.join(c.claim.text.split())}`",
                f"${c.exact_latex}$" if all(_small(v) for v in c.exact) else TOO_LONG,
                c.decimal or SYMBOLIC,
                f"**{c.verdict}**" if not c.holds else c.verdict,
                c.diagnosis or "",
            )
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
        return "\n".join([*lines, "", self.summary()]) + "\n"


def _entry_lines(claim: ClaimVerdict) -> list[str]:
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
            lines.append(
                f"  {claim.key} [{i},{j}]: claimed {entry.claimed.text}, exact {shown}: "
                f"{entry.verdict}"
            )
    return lines


def _wrap(text: str, indent: str, first: str = "") -> list[str]:
    return textwrap.wrap(
        text,
        _COLUMNS,
        initial_indent=first or indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
    ) or [first.rstrip()]


def _block(claim: ClaimVerdict) -> list[str]:
    """One claim: its verdict, what was claimed, the exact value, the entries that fail (by
    their place within the claim) and why."""
    lines = [f"{claim.key}: {claim.verdict}"]
    lines += _wrap(claim.claim.display, " " * 11, "  claimed  ")
    lines += _wrap(_shown(_exact(claim.exact), claim.decimal), " " * 11, "  exact    ")
    if not claim.holds:
        for entry in claim.entries:
            if not entry.holds:
                where = _within(claim, entry.index)
                exact = entry.decimal or (_plain(entry.exact) if _small(entry.exact) else TOO_LONG)
                text = f"claimed {entry.claimed.text}, exact {exact}"
                lines += _wrap(f"{text}: {entry.verdict}", " " * 11, f"  {where:<9}")
        if claim.explanation:
            lines += _wrap(claim.explanation, " " * 11, "  why      ")
    return lines


def _assumed_block(item: Assumed) -> list[str]:
    """An assumed number: what the document assumes, what the inputs give, and the note."""
    verdict = item.verdict
    lines = [f"{item.key}: assumed ({item.status})"]
    lines += _wrap(verdict.claim.display, " " * 11, "  assumed  ")
    shown = _shown(_exact(verdict.exact), verdict.decimal)
    label = "  setup    " if item.status == "undetermined" else "  given    "
    lines += _wrap(shown, " " * 11, label)
    lines += _wrap(item.note, " " * 11, "  note     ")
    return lines


def _within(claim: ClaimVerdict, index: tuple[int, int]) -> str:
    """An entry's place within the claim: [j] in a claimed row, (i, j) in a whole step."""
    row, col = claim.claim.row, claim.claim.col
    if row is not None and col is not None:
        return "entry"
    if row is not None:
        return f"[{index[1]}]"
    return f"({index[0]}, {index[1]})"
