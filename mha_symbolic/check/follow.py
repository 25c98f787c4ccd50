"""Following the document: each claimed step recomputed from the document's own earlier numbers.

A document that slips once (a score of 2.405 where the dot product is 1.3569) usually computes
every later step correctly from its slip; one that rounds its weights to two decimals computes
its outputs from the rounded weights. Each step is recomputed with the values the document
printed for the steps before it (where it printed them; exact values elsewhere), and a claim
that fails against the exact value but holds against this recomputation *follows* from the
document's earlier numbers. Then the diagnosis says so, in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import takewhile
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.check.claims import Claim
from mha_symbolic.check.step_values import shares_of
from mha_symbolic.check.verdicts import ClaimVerdict, holds_for
from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.exact.values import evaluate
from mha_symbolic.language.check_phrases import Phrase, code, joined, phrase
from mha_symbolic.model.program import KINDS, Program, build

# The kinds of step whose entries have a name of their own ([check.nouns]), for a diagnosis in
# words: the forward pass's; any other is a "value".
NOUNS = tuple(kind for kind in KINDS if kind not in ("loss", "grad"))


def _program(d: Derivation) -> Program:
    return d.program if d.program is not None else build(d.spec)


def printed_values(claims: Sequence[Claim], d: Derivation) -> dict[str, Matrix]:
    """Step key -> the step's exact value with the parts the document printed put in."""
    out: dict[str, Any] = {}
    for claim in claims:
        if claim.step not in d or d.step(claim.step).kind in ("loss", "grad"):
            continue
        side = claim.sides[-1]  # the number a chain ends with is the one it carries on
        if any(p.value.free_symbols for row in side.rows for p in row):
            continue
        value = out.get(claim.step, sp.Matrix(d[claim.step]))
        top, left = (claim.row or 1) - 1, (claim.col or 1) - 1
        if side.shape != claim.target(d[claim.step]).shape:
            continue
        for i, row in enumerate(side.rows):
            for j, printed in enumerate(row):
                value[top + i, left + j] = printed.value
        out[claim.step] = value
    return {key: Matrix(value) for key, value in out.items()}


def recomputed(d: Derivation, printed: dict[str, Matrix]) -> dict[str, Matrix]:
    """Each step computed from the document's printed values of the steps before it."""
    program = _program(d)
    values: dict[sp.Basic, Any] = dict(program.bindings)
    out: dict[str, Matrix] = {}
    for node in program.nodes:
        if node.kind in ("loss", "grad"):
            break
        value = Matrix(evaluate(node.expr, values))
        out[node.key] = value
        values[node.symbol] = printed.get(node.key, value)
    return out


def _forward_keys(d: Derivation) -> set[str]:
    """The keys :func:`recomputed` gives a value: the steps before the loss."""
    nodes = _program(d).nodes
    return {n.key for n in takewhile(lambda n: n.kind not in ("loss", "grad"), nodes)}


class _Again:
    """:func:`recomputed`, made when a step's value is first asked for (most wrong claims
    have no printed step before them); an input is its given value there, so none is made
    for it."""

    def __init__(self, d: Derivation, printed: dict[str, Matrix]) -> None:
        self.d, self.printed = d, printed
        self.made: dict[str, Matrix] | None = None

    def __getitem__(self, key: str) -> Matrix:
        if self.d.step(key).kind == "input":
            return self.d[key]
        if self.made is None:
            self.made = recomputed(self.d, self.printed)
        return self.made[key]


def ancestors(d: Derivation) -> dict[str, set[str]]:
    """Step key -> the keys of every step it is computed from."""
    program = _program(d)
    by_symbol = {node.symbol: node.key for node in program.nodes}
    out: dict[str, set[str]] = {}
    for node in program.nodes:
        parents = {by_symbol[s] for s in node.expr.atoms(sp.MatrixSymbol) if s in by_symbol}
        out[node.key] = set(parents).union(*(out.get(p, set()) for p in parents))
    return out


def follow(
    d: Derivation, verdicts: Sequence[ClaimVerdict], assumed: Sequence[Claim] = ()
) -> list[Phrase | None]:
    """For each verdict, a sentence on how it relates to the document's earlier numbers
    (its claims, and the numbers it ``assumed`` rather than computed)."""
    if all(v.holds for v in verdicts) or d.refusal is not None:
        # (at model scale: re-walking the document's own numbers would take minutes)
        return [None] * len(verdicts)
    # What the document assumed is what it works with from there on, whatever it printed of
    # the same step before (the exact softmax printed, then weights set by hand).
    claims = [*(v.claim for v in verdicts), *assumed]
    printed = printed_values(claims, d)
    taken = {claim.step for claim in assumed}
    again = _Again(d, printed)
    forward = _forward_keys(d)
    before = ancestors(d)
    follows: dict[str, list[str]] = {}
    wrong = {v.step for v in verdicts if v.verdict == "wrong"}
    notes: list[Phrase | None] = [None] * len(verdicts)
    shares = shares_of(_program(d), verdicts)  # a_ij v_j: from the weights and V printed
    for index, verdict in enumerate(verdicts):
        share = shares.get(verdict.step)
        if verdict.holds or verdict.verdict == "shape":
            continue
        if verdict.step not in forward and share is None:
            continue
        # The earlier steps the document printed otherwise than exactly (slips, roundings).
        upstream = before.get(verdict.step, set()) if share is None else share.upstream(before)
        sources = [key for key in printed if key in upstream and printed[key] != d[key]]
        if share is None:
            value = again[verdict.step]
        else:  # from the weights and V as printed (or recomputed where not printed)
            value = share.value({k: printed[k] if k in printed else again[k] for k in share.keys})
        if sources and holds_for(verdict.claim, value):
            slips = [key for key in sources if key in wrong]
            supposed = [key for key in sources if key in taken]
            if slips:
                notes[index] = phrase("follows_slip", keys=_keys(slips))
            elif supposed:
                notes[index] = phrase("follows_assumed", keys=_keys(supposed))
            else:
                notes[index] = phrase("follows_rounded", keys=_keys(sources))
            for source in slips:
                follows.setdefault(source, []).append(verdict.key)
    for index, verdict in enumerate(verdicts):
        later = follows.get(verdict.step)
        if notes[index] is None and not verdict.holds and later:
            notes[index] = phrase("slip", keys=_keys(dict.fromkeys(later)))
    return notes


def _keys(keys: Iterable[str]) -> Phrase:
    """Step keys as a list in words: "head1.output, head2.output"."""
    return joined("list", map(code, keys))


def in_words(verdict: ClaimVerdict, kind: str) -> Phrase | None:
    """The first wrong entry said plainly: "entry (2, 3): the dot product is 1.3569, the
    document has 2.405"."""
    for entry in verdict.entries:
        if entry.verdict in ("wrong", "follows") and entry.decimal is not None:
            noun = phrase(f"nouns.{kind if kind in NOUNS else 'intermediate'}")
            i, j = entry.index
            return phrase(
                "in_words", row=i, col=j, noun=noun, exact=entry.decimal, claimed=entry.claimed.text
            )
    return None
