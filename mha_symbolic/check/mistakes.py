"""The likely mistakes behind a wrong number: rewrites of the model's program, re-evaluated.

Each entry of :data:`MISTAKES` says when a mistake applies, what it is called, and which
rewrite of the program (``model.rewrite``) makes it; its values come from walking the
rewritten program exactly, once, and only when a wrong claim asks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic.check.claims import Claim
from mha_symbolic.check.verdicts import holds_for
from mha_symbolic.exact.derivation import KINDS, Derivation
from mha_symbolic.exact.evaluate import Evaluator
from mha_symbolic.language.check_phrases import Phrase, code, phrase
from mha_symbolic.model import rewrite
from mha_symbolic.model.program import Program, build

_HEAD_KEY = re.compile(r"head(\d+)\.(.+)")
Variant = Callable[[], Mapping[str, Matrix]]


def _program(d: Derivation) -> Program:
    return d.program if d.program is not None else build(d.spec)


def _variant(d: Derivation, change: rewrite.Rewrite) -> Variant:
    """The values of ``d``'s program under ``change``, evaluated when asked."""
    return lambda: walk(change(_program(d)))


def walk(program: Program) -> Mapping[str, Matrix]:
    """The program's exact values, each step made when first asked for (see _Walked)."""
    return _Walked(program)


class _Walked(Mapping[str, Matrix]):
    """A program's exact values (as :func:`~mha_symbolic.exact.evaluate.walk` makes them),
    each step made in program order when first asked for: a claim on an early step (the
    input) does not walk the whole rewritten program."""

    def __init__(self, program: Program) -> None:
        self._evaluator = Evaluator(program)
        self._pending = iter(program.nodes)
        self._keys = [node.key for node in program.nodes]
        self._made: dict[str, Matrix] = {}

    def __getitem__(self, key: str) -> Matrix:
        if key not in self._keys:
            raise KeyError(key)
        while key not in self._made:
            node = next(self._pending)
            self._made[node.key] = self._evaluator.compute(node)
        return self._made[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


class Mistakes:
    """The common mistakes of one derivation, each evaluated lazily and at most once."""

    def __init__(self, d: Derivation) -> None:
        self.d = d
        self._candidates: list[tuple[Phrase, Variant, str]] | None = None
        self._values: dict[str, Mapping[str, Matrix]] = {}

    def candidates(self) -> list[tuple[Phrase, Variant, str]]:
        """(label, lazy values, first kind of step changed) of every mistake that applies."""
        if self._candidates is None:
            self._candidates = []
            if self.d.refusal is not None:  # each variant is a whole SymPy re-walk: minutes
                return self._candidates
            for rule, name in MISTAKES:
                found = rule(self.d)
                if found is not None:
                    self._candidates.append((*found, rewrite.FIRST_CHANGED[name]))
        return self._candidates

    def values(self, label: str, variant: Variant) -> Mapping[str, Matrix]:
        if label not in self._values:
            self._values[label] = variant()
        return self._values[label]

    def matching(self, claim: Claim) -> tuple[Phrase, ...]:
        """Labels of the mistakes whose value for the claim's step matches the claim."""
        if claim.step not in self.d:  # an intermediate (head1.exp): not re-walked
            return ()
        stage = KINDS.index(self.d.step(claim.step).kind)
        found = []
        for label, variant, first in self.candidates():
            if stage < KINDS.index(first):
                continue
            values = self.values(label, variant)
            if claim.step in values and holds_for(claim, values[claim.step]):
                found.append(label)
        return (*found, *self._other_heads(claim))

    def _other_heads(self, claim: Claim) -> list[Phrase]:
        match = _HEAD_KEY.fullmatch(claim.step)
        if not match:
            return []
        head, stage = int(match.group(1)), match.group(2)
        found = []
        for other in self.d.facts.heads:
            key = f"head{other}.{stage}"
            if other != head and key in self.d and holds_for(claim, self.d.step(key).entries):
                found.append(phrase("mistakes.other_head", head=other, key=code(key)))
        return found


def _unscaled(d: Derivation) -> tuple[Phrase, Variant] | None:
    scale = d.facts.scale()
    if scale.is_identity:
        return None
    if scale.is_default:
        label = phrase("mistakes.unscaled")
    else:
        label = phrase("mistakes.unscaled_by", factor=sp.sstr(scale.factor))
    return label, _variant(d, rewrite.scaled_by(sp.Integer(1)))


def _scaled_again(d: Derivation) -> tuple[Phrase, Variant] | None:
    facts = d.facts
    if "head1.q" not in d:  # scores or weights given: d_k is not known
        return None
    widths = {d[f"head{i}.q"].cols for i in facts.heads}
    if len(widths) != 1:
        return None
    d_k, scale = widths.pop(), facts.scale()
    if scale.is_identity:
        label = phrase("mistakes.scaled_unscaled")
        return label, _variant(d, rewrite.scaled_by(1 / sp.sqrt(d_k)))
    if scale.is_default:
        label, factor = phrase("mistakes.scaled_twice"), sp.Rational(1, d_k)
    else:
        label = phrase("mistakes.scaled_as_well", scale=scale.factor)
        factor = scale.factor / sp.sqrt(d_k)
    return label, _variant(d, rewrite.scaled_by(factor))


def _transposed(d: Derivation) -> tuple[Phrase, Variant] | None:
    """Square weights read the other way round; others fit only one way, so they stay."""
    facts = d.facts
    weights = [m for name in facts.weight_names if name[0] == "w" for m in facts.weights(name)]
    if not any(m.is_square for m in weights):
        return None
    label = phrase(f"mistakes.transposed_{'xW' if facts.convention == 'xW' else 'xWT'}")
    return label, _variant(d, rewrite.transposed_square_weights)


def _column_softmax(d: Derivation) -> tuple[Phrase, Variant] | None:
    if d.facts.given == "weights":  # the weights are given, not computed
        return None
    program = _program(d)
    logits = [d[program.logits(n).key] for n in program.heads()]
    blocked = any(
        all(m[r, c] == -sp.oo for r in range(m.rows)) for m in logits for c in range(m.cols)
    )
    if blocked:  # a key no query may see: its column has nothing to normalise
        return None
    return phrase("mistakes.column_softmax"), _variant(d, rewrite.column_softmax)


def _same_shapes(d: Derivation, first: str, second: str) -> bool:
    pairs = zip(d.facts.weights(f"w_{first}"), d.facts.weights(f"w_{second}"))
    return all(a.shape == b.shape for a, b in pairs)


def _k_for_v(d: Derivation) -> tuple[Phrase, Variant] | None:
    facts = d.facts
    if facts.scores_given or not facts.has_inputs:  # no K, or no inputs to swap
        return None
    if facts.shape("key") != facts.shape("value") or not _same_shapes(d, "k", "v"):
        return None
    return phrase("mistakes.k_for_v"), _variant(d, rewrite.stream_for("v", "k"))


def _q_for_k(d: Derivation) -> tuple[Phrase, Variant] | None:
    facts = d.facts
    if facts.scores_given or not facts.has_inputs:
        return None
    if facts.shape("query") != facts.shape("key") or not _same_shapes(d, "q", "k"):
        return None
    return phrase("mistakes.q_for_k"), _variant(d, rewrite.stream_for("k", "q"))


def _no_output_projection(d: Derivation) -> tuple[Phrase, Variant] | None:
    if not d.facts.output_projection:
        return None
    label = phrase("mistakes.no_output_projection")
    return label, _variant(d, rewrite.without_output_projection)


def _mask_ignored(d: Derivation) -> tuple[Phrase, Variant] | None:
    if d.facts.mask is None:
        return None
    return phrase("mistakes.mask_ignored"), _variant(d, rewrite.unmasked)


def _dropout_unscaled(d: Derivation) -> tuple[Phrase, Variant] | None:
    rate = d.facts.dropout
    if rate is None or rate == 0:
        return None
    label = phrase("mistakes.dropout_unscaled", factor=sp.sstr(1 / (1 - rate)))
    return label, _variant(d, rewrite.dropout_unscaled)


def _not_renormalised(d: Derivation) -> tuple[Phrase, Variant] | None:
    if not d.facts.renormalised:
        return None
    return phrase("mistakes.not_renormalised"), _variant(d, rewrite.not_renormalised)


Rule = Callable[[Derivation], tuple[Phrase, Variant] | None]

# Each rule gives (label, lazy values) of one mistake, or None when it does not apply to the
# spec; beside it, the name of the rewrite it makes, whose operation says the first kind of
# step it can change (``rewrite.FIRST_CHANGED``: earlier steps skip it).
MISTAKES: tuple[tuple[Rule, str], ...] = (
    (_unscaled, "scaled_by"),
    (_scaled_again, "scaled_by"),
    (_transposed, "transposed_square_weights"),
    (_column_softmax, "column_softmax"),
    (_k_for_v, "stream_for"),  # cross-attention: the value input becomes the key input
    (_q_for_k, "stream_for"),
    (_no_output_projection, "without_output_projection"),
    (_mask_ignored, "unmasked"),
    (_not_renormalised, "not_renormalised"),
    (_dropout_unscaled, "dropout_unscaled"),
)
