"""check(d, claims): exact verdicts on printed numbers, and the likely mistake behind wrong ones."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sympy import ImmutableMatrix as Matrix

from mha_symbolic.check import assumed, follow, precision
from mha_symbolic.check.claims import Claim, Side, read_claims
from mha_symbolic.check.mistakes import MISTAKES, Mistakes
from mha_symbolic.check.report import Report
from mha_symbolic.check.step_values import Values
from mha_symbolic.check.verdicts import (
    INCONSISTENT,
    SYMBOLIC_NOTE,
    ClaimVerdict,
    decimal_text,
    judge,
    judge_side,
    worst,
)
from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation, unknown_key_message
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.language.check_phrases import Phrase, code, joined, phrase, sentence
from mha_symbolic.spec.attention import AttentionSpec, as_spec
from mha_symbolic.spec.exact_numbers import declared

__all__ = ["INCONSISTENT", "MISTAKES", "Report", "check", "decimal_text", "judge"]
_INTERMEDIATE_KIND = "intermediate"  # head1.exp, head1.sums, head1.weighted[i]
_SYMBOLS_LISTED = 6  # symbols named when a claim uses one the derivation does not have


def _judge_claim(claim: Claim, d: Derivation, values: Values, mistakes: Mistakes) -> ClaimVerdict:
    target = claim.target(values[claim.step])
    balls = values.enclosure(claim.step)
    judged = [(side, judge_side(claim, side, target, balls)) for side in claim.sides]
    entries = tuple(e for _, side_entries in judged if side_entries for e in side_entries)
    misfits = [side for side, side_entries in judged if side_entries is None]
    verdict = "shape" if misfits else worst(e.verdict for e in entries)
    if verdict not in ("wrong", "shape"):
        return ClaimVerdict(claim, target, verdict, entries, None, ())
    strangers = _unknown_symbols(claim, d)
    if strangers:
        return ClaimVerdict(claim, target, verdict, entries, strangers, ())
    found = mistakes.matching(claim)
    notes: list[Phrase] = [_shape_note(claim, misfits[0], target)] if misfits else []
    if found:
        notes.append(_likely(found))
    elif not misfits:
        notes.append(INCONSISTENT)
        if target.free_symbols and not any(e.claimed.value.free_symbols for e in entries):
            notes.append(SYMBOLIC_NOTE)
    return ClaimVerdict(claim, target, verdict, entries, joined("parts", notes), found)


def _unknown_symbols(claim: Claim, d: Derivation) -> Phrase | None:
    """A note naming claimed symbols that the derivation does not have, if any."""
    claimed = {
        symbol
        for side in claim.sides
        for row in side.rows
        for printed in row
        for symbol in printed.value.free_symbols
    }
    if not claimed:
        return None
    known = d.free_symbols
    strangers = sorted(map(str, claimed - known))
    if not strangers:
        return None
    names = sorted(map(str, known))
    listed = [
        *map(code, names[:_SYMBOLS_LISTED]),
        *(["..."] if len(names) > _SYMBOLS_LISTED else []),
    ]
    where = phrase("symbols_are", symbols=joined("list", listed)) if names else phrase("no_symbols")
    key = "unknown_symbol" if len(strangers) == 1 else "unknown_symbols"
    return phrase(key, names=joined("list", map(code, strangers)), where=where)


def _shape_note(claim: Claim, side: Side, target: Matrix) -> Phrase:
    fits = side.shape == (target.cols, target.rows)
    key = "shape_transpose" if fits else "shape"
    return phrase(key, claimed=side.shape, key=code(claim.key), real=target.shape)


def _likely(mistakes: tuple[str, ...]) -> Phrase:
    if len(mistakes) == 1:
        return phrase("likely_one", mistake=mistakes[0])
    return phrase("likely_many", mistakes=joined("parts", mistakes))


def check(
    d: Derivation | AttentionSpec,
    claims: Mapping[str, Any] | None = None,
    large: bool = False,
    inputs: str | None = None,
    dtype: str | None = None,
) -> Report:
    """Judge ``claims`` (step key -> printed value), or the spec's own ``[claims]`` table.

    ``inputs="printed"``: the inputs stand for the intervals their printed digits do;
    ``dtype="float32"``: the computation carries float32 rounding (default: the spec's own
    ``inputs`` and ``dtype``, else exact); see check/precision.
    """
    if not isinstance(d, Derivation):
        d = derive(
            as_spec(d, "check takes a Derivation, an AttentionSpec or a dict of its keys"),
            large=large,
        )
    inputs, dtype = inputs or d.spec.inputs, dtype or d.spec.dtype
    precision.options(inputs, dtype)
    values = Values(d)
    shapes = values.shapes
    table = d.spec.claims if claims is None else claims
    if not isinstance(table, Mapping):
        raise SpecError(f"claims must be a table of step keys, got {table!r}")
    try:
        with declared(d.facts.parameters):  # "\\tau" in a claim is the spec's tau, positive
            own = [step.key for step in d.steps]  # suggested for a misspelt key
            parsed = read_claims(table, shapes, lambda k: unknown_key_message(k, own))
    except SpecError as error:
        raise error.located(d.spec.source) if claims is None else error from None
    mistakes = Mistakes(d)
    bounds = None if (inputs, dtype) == ("exact", "exact") else precision.Bounds(d, inputs, dtype)
    judged = [_judge_claim(claim, d, values, mistakes) for claim in parsed]
    if bounds is not None:
        judged = [_allowing(verdict, bounds) for verdict in judged]
    supposed = _assumed(d, shapes)
    notes = follow.follow(d, judged, supposed)
    judged = [_follows(v, note) for v, note in zip(judged, notes)]
    judged = [replace(v, explanation=_explain(v, note, d)) for v, note in zip(judged, notes)]
    return Report(d.spec.source, tuple(judged), _judge_assumed(supposed, d, values, mistakes))


def _follows(verdict: ClaimVerdict, note: Phrase | None) -> ClaimVerdict:
    """A wrong claim that is what the document's assumed numbers give: ``follows``, not wrong
    (the document is consistent with its own assumption)."""
    if verdict.verdict == "wrong" and note is not None and note.key == "follows_assumed":
        # each entry that misses the exact value is what the assumption gives, as the
        # report's lines say: the same in its data
        entries = tuple(
            replace(e, verdict="follows") if e.verdict == "wrong" else e for e in verdict.entries
        )
        return replace(verdict, verdict="follows", entries=entries)
    return verdict


def _judge_assumed(
    supposed: list[Claim], d: Derivation, values: Values, mistakes: Mistakes
) -> tuple[assumed.Assumed, ...]:
    facts = d.facts
    return tuple(
        assumed.judge(
            _judge_claim(claim, d, values, mistakes),
            d.step(claim.step).head if claim.step in d else None,
            facts.identity,
            len(facts.heads),
        )
        for claim in supposed
    )


class _UnknownAssumed(SpecError):
    """An [assumed] key that names no step: refused, as an unknown [claims] key is."""


def _assumed(d: Derivation, shapes: Mapping[str, tuple[int, int]]) -> list[Claim]:
    """The spec's [assumed] numbers read like claims: the document's own numbers for the steps
    after them. One that is not a number (a formula naming an unknown W_O) is left out; one
    under a key that names no step is refused."""
    own = [step.key for step in d.steps]

    def unknown(key: str) -> str:
        raise _UnknownAssumed(f"[assumed] {unknown_key_message(key, own)}", source=d.spec.source)

    out: list[Claim] = []
    with declared(d.facts.parameters):
        for key, value in d.spec.assumed.items():
            try:
                out += read_claims({key: value}, shapes, unknown)
            except _UnknownAssumed:
                raise
            except SpecError:
                continue
    return out


def _explain(verdict: ClaimVerdict, note: Phrase | None, d: Derivation) -> Phrase | None:
    """The diagnosis in a sentence (None for a claim that holds)."""
    if verdict.holds:
        return None
    kind = d.step(verdict.step).kind if verdict.step in d else _INTERMEDIATE_KIND
    likely = _likely(verdict.mistakes) if verdict.mistakes else None
    words = follow.in_words(verdict, kind)
    parts = [note, likely, words] if note or likely else [words or verdict.diagnosis]
    wrong = verdict.verdict == "wrong"  # "as assumed" is never said to be wrong
    if wrong and verdict.diagnosis and verdict.diagnosis.startswith(precision.WRONG_NOTE):
        parts.insert(0, precision.WRONG_NOTE)
    said = [part for part in parts if part]
    return sentence(said) if said else None


def _allowing(verdict: ClaimVerdict, bounds: precision.Bounds) -> ClaimVerdict:
    """A claim that fails exactly, judged again allowing for the printed inputs' precision."""
    if verdict.holds or verdict.verdict == "shape":
        return verdict
    entries = []
    for entry in verdict.entries:
        if not entry.holds:
            ball = bounds.enclosure(verdict.step, entry.index)
            again = precision.judge_within(ball, entry.claimed)
            entry = replace(entry, verdict=again) if again else entry
        entries.append(entry)
    result = worst(e.verdict for e in entries)
    diagnosis: str | None = verdict.diagnosis
    if result == "wrong":
        diagnosis = joined("parts", filter(None, (precision.WRONG_NOTE, verdict.diagnosis)))
    elif result == "within":
        diagnosis = precision.WITHIN_NOTE
    found = verdict.mistakes if result == "wrong" else ()
    return replace(
        verdict, verdict=result, entries=tuple(entries), diagnosis=diagnosis, mistakes=found
    )
