"""Findings: what a document states about shapes and conventions that its own arithmetic, or
its own other statements, contradict. Seed 002 states W_Q as (4, 2) and multiplies a head's
(8, 2) slice by it as (2, 2); seed 004 writes ``Merged × Woᵀ`` in one place and
``Concat(...) × Wo`` in another. Neither is a number on a step, yet each is a mistake of the
document: ``check DOC`` reports them (exit 1) and ``extract`` notes them.

Shapes come from the spec (``printed_shapes``: stated, against the weights the products use);
transposes from the document's text: a weight multiplied (after ×, ·, @, *, \\cdot, \\times)
both plainly and transposed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mha_symbolic.check.arithmetic import shown, wrong_chains
from mha_symbolic.language.phrases import Phrase, make
from mha_symbolic.model.program import build
from mha_symbolic.model.program_facts import Facts
from mha_symbolic.spec.attention import AttentionSpec

SECTION = "findings"  # the locale files' section of these words
_LETTERS = {"w_q": "Q", "w_k": "K", "w_v": "V", "w_o": "O"}
_PRODUCT = r"(?:×|·|⋅|@|\*|\\cdot|\\times)"
_NAME = r"W(?:[_^]\{?)?(?P<letter>[QKVOqkvo])\}?(?![A-Za-z0-9])"
_TRANSPOSED = r"(?P<t>ᵀ|\^\{?T\}?(?![A-Za-z])|\^\{?\\top\}?|\^⊤|\.T(?![A-Za-z]))?"
_APPLIED = re.compile(_PRODUCT + r"\s*\$?\s*(?P<name>" + _NAME + r")" + _TRANSPOSED)
_MAX_LINES = 20_000  # a document's lines scanned (a notebook's outputs are not formulas)


@dataclass(frozen=True)
class Finding:
    """One contradiction: the weight it is about and the line that says it."""

    weight: str  # w_q, w_k, w_v or w_o; "" for the document's own arithmetic
    phrase: Phrase


def _phrase(key: str, **numbers: object) -> Phrase:
    return make(SECTION, key, numbers)


def _code(text: str) -> Phrase:
    """A name as the document prints it, marked as code by the locale (as extract marks it)."""
    return make("extract", "code", {"text": text})


def _where(lines: Sequence[int]) -> Phrase:
    """``line 42`` or ``lines 46, 57`` (the first three, then ...)."""
    if len(lines) == 1:
        return _phrase("line", line=lines[0])
    listed = ", ".join(str(n) for n in lines[:3]) + (", ..." if len(lines) > 3 else "")
    return _phrase("lines", lines=listed)


def shape_findings(spec: AttentionSpec, lines: Sequence[str]) -> list[Finding]:
    """A weight stated in one shape and multiplied in another (``printed_shapes``)."""
    out = []
    facts = Facts(build(spec))
    for name, stated in spec.printed_shapes.items():
        if not facts.weights(name):  # not multiplied (W_Q beside given scores): no product
            continue
        used = tuple(facts.weights(name)[0].shape)
        line = _stated_line(lines, _LETTERS[name], stated)
        numbers = {"name": f"W_{_LETTERS[name]}", "stated": stated, "used": used}
        if line is None:
            out.append(Finding(name, _phrase("shape", **numbers)))
        else:
            out.append(Finding(name, _phrase("shape_line", line=line, **numbers)))
    return out


def _stated_line(lines: Sequence[str], letter: str, shape: tuple[int, int]) -> int | None:
    """The line (1-based) stating ``shape``, at or just after a line naming the weight."""
    named = re.compile(r"W(?:[_^]\{?)?" + letter + r"(?![A-Za-z0-9])", re.IGNORECASE)
    rows, cols = shape
    stated = re.compile(rf"[(\[]\s*{rows}\s*[,×x]\s*{cols}\s*[)\]]|\b{rows}\s*[×x]\s*{cols}\b")
    for i, text in enumerate(lines[:_MAX_LINES]):
        if named.search(text):
            for j in range(i, min(i + 4, len(lines))):
                if stated.search(lines[j]):
                    return j + 1
    return None


def transpose_findings(lines: Sequence[str]) -> list[Finding]:
    """A weight multiplied as it is in one formula and transposed in another."""
    seen: dict[str, dict[bool, list[tuple[int, str]]]] = {}
    for number, text in enumerate(lines[:_MAX_LINES], start=1):
        for match in _APPLIED.finditer(text):
            weight = "w_" + match.group("letter").lower()
            written = match.group("name") + (match.group("t") or "")
            uses = seen.setdefault(weight, {False: [], True: []})
            uses[bool(match.group("t"))].append((number, written))
    out = []
    for weight, uses in seen.items():
        if uses[False] and uses[True]:
            plain, flipped = uses[False], uses[True]
            out.append(
                Finding(
                    weight,
                    _phrase(
                        "transposed",
                        plain=_code(plain[0][1]),
                        plain_lines=_where([n for n, _ in plain]),
                        transposed=_code(flipped[0][1]),
                        transposed_lines=_where([n for n, _ in flipped]),
                    ),
                )
            )
    return out


def findings(specs: Iterable[AttentionSpec], text: str) -> tuple[Finding, ...]:
    """Every finding of a document (its text) and of the specs read from it, each said once."""
    lines = text.splitlines()
    out: list[Finding] = []
    for spec in specs:
        out += [f for f in shape_findings(spec, lines) if f not in out]
    return (*out, *transpose_findings(lines), *arithmetic_findings(lines))


def arithmetic_findings(lines: Sequence[str]) -> list[Finding]:
    """A chain of plain arithmetic whose printed value its working cannot give (arithmetic.py)."""
    out = []
    for line, working, claimed, exact in wrong_chains(lines):
        decimals = len(claimed.partition(".")[2])
        numbers = {"line": line, "working": _code(working), "claimed": claimed}
        out.append(Finding("", _phrase("arithmetic", exact=shown(exact, decimals), **numbers)))
    return out


def findings_json(document: str, found: Sequence[Finding], say: Any) -> str:
    """The findings of a document that has no example to check, as the one JSON document
    ``check --format json`` prints: each said in the chosen language, with its line and, for
    the document's own arithmetic, the value it prints and the one its working gives."""
    items = []
    for finding in found:
        numbers = finding.phrase.numbers
        item: dict[str, Any] = {"text": say.say(finding.phrase), "weight": finding.weight}
        item |= {k: numbers[k] for k in ("line", "claimed", "exact") if k in numbers}
        items.append(item)
    out = {"document": document, "claims": [], "findings": items}
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"
