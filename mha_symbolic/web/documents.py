"""The "Check a document" tab's work: a pasted document read as ``mha-symbolic check DOC``
reads a file, each printed number judged, wrong ones with their exact value."""

from __future__ import annotations

from typing import Any

from latex2mathml.converter import convert

from mha_symbolic.errors import SpecError
from mha_symbolic.text import one_line

KINDS = ("md", "txt", "tex", "ipynb", "html")
MAX_EXACT_TEXT = 2_000  # characters of an exact value's LaTeX drawn; a longer one is elided


def checked(text: str, kind: Any, lang: str) -> dict[str, Any]:
    """Every worked example of ``text``: what its numbers say, the mapping of its names to
    step keys, and each claim's verdict; the document's own contradictions first."""
    from mha_symbolic.check.findings import findings
    from mha_symbolic.check.judge import check
    from mha_symbolic.extract import extract_all
    from mha_symbolic.language.check_phrases import voice as check_voice
    from mha_symbolic.language.extract_phrases import voice

    if kind is not None and kind not in KINDS:
        read = ", ".join(KINDS)
        raise SpecError(f"unknown document kind {one_line(str(kind))!r}; read are {read}")
    if not text.strip():
        raise SpecError("paste a document (Markdown, LaTeX, a notebook's JSON or HTML) first")
    # Text with a newline is read as the document itself, never as a file name.
    found = extract_all(text if "\n" in text else text + "\n", kind)
    say, words = voice(lang), check_voice(lang)
    noticed = [say.say(f.phrase) for f in findings([one.spec for one in found], text)]
    examples = []
    for one in [one for one in found if one.checkable] or found:  # readings with claims
        lines = [say.say(line) for line in (*one.inferred, *one.mapping)]
        lines += [say("note", text=say.say(note)) for note in one.notes]
        report = check(one.spec) if one.checkable else None
        examples.append(
            {
                "title": one.spec.title,
                "lines": lines,
                "claims": [_claim(c, words) for c in report.claims] if report else [],
                "summary": report.summary(lang) if report else None,
            }
        )
    return {"ok": True, "findings": noticed, "examples": examples}


def _claim(claim: Any, words: Any) -> dict[str, Any]:
    """One judged claim as the page's table row."""
    exact = claim.exact_latex
    return {
        "key": claim.key,
        "claimed": claim.claim.text,
        "verdict": claim.verdict,
        "verdict_words": words.verdict(claim.verdict),
        "holds": claim.holds or claim.verdict == "follows",
        "exact": convert(exact) if len(exact) <= MAX_EXACT_TEXT else None,
        "decimal": claim.decimal,
        "why": words.sentence(claim.explanation) or words.sentence(claim.diagnosis),
    }
