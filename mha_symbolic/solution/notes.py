"""What a solution says at a step about the document's own numbers: its assumptions, and why a
number it prints does not hold, in plain words."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import sympy as sp

from mha_symbolic.exact.derivation import Step
from mha_symbolic.language.phrases import Phrase
from mha_symbolic.solution import latex
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.view import Assumption

_KEY = re.compile(r"^(?P<step>[A-Za-z0-9_.]+?)(?:\[(?P<row>\d+)(?:,\s*(?P<col>\d+))?\])?$")
_NUMBER = re.compile(r"[-−]?\d+(?:\.\d+)?")
_SHAPE = re.compile(
    r"^claimed shape (?P<claimed>\(\d+, \d+\)) but \S+ has shape (?P<real>\(\d+, \d+\))"
    r"(?P<fits>; its transpose fits)?$"
)
_PROJECTIONS = frozenset({"w_q", "w_k", "w_v"})
# The checker's diagnoses (plain English data) -> the locale key saying them in the reader's
# language; one the table does not know is left out rather than printed in English.
_DIAGNOSES = {
    "inconsistent with the given inputs and weights": "inconsistent",
    "softmax over columns instead of rows": "column_softmax",
    "K used in place of V": "k_for_v",
    "Q used in place of K": "q_for_k",
    "mask ignored": "mask_ignored",
}


def target(key: str) -> tuple[str, int | None, int | None]:
    """``head1.output[1]`` -> ("head1.output", 0, None): the step and 0-based row and column."""
    match = _KEY.match(key.replace(" ", ""))
    if match is None:
        return key, None, None
    row, col = match.group("row"), match.group("col")
    return (
        match.group("step"),
        None if row is None else int(row) - 1,
        None if col is None else int(col) - 1,
    )


def printed(text: str) -> list[str] | None:
    """The numbers a document prints, as printed (after its last ``=`` or ``\\approx``); None
    when they are not plain decimals (a fraction, an exponential)."""
    text = str(text).split(r"\approx")[-1].split("=")[-1]
    if any(mark in text for mark in (r"\frac", "e^", "/", "sqrt")):
        return None
    return [n.replace("−", "-") for n in _NUMBER.findall(text)]


def part(value: sp.MatrixBase, row: int | None, col: int | None) -> sp.MatrixBase:
    """The part of a step's value a claim names: an entry, a row or all of it."""
    if row is None:
        return value
    if col is None:
        return value[row, :]
    return sp.Matrix([[value[row, col]]])


def _agrees(numbers: list[str], value: sp.MatrixBase) -> bool:
    """Each printed number is the exact one rounded to the places it is printed with."""
    for text, exact in zip(numbers, value):
        places = len(text.split(".")[1]) if "." in text else 0
        if abs(sp.Rational(text) - sp.N(exact, 30)) > sp.Rational(1, 2 * 10**places):
            return False
    return True


def assumptions(context: Context, step: Step) -> tuple[Assumption, ...]:
    """The document's assumed numbers at ``step``: what it assumes and what the inputs give."""
    out = []
    for key, text in context.spec.assumed.items():
        name, row, col = target(key)
        if name == step.key:
            out.append(_assumption(context, step, key, str(text), (row, col)))
    return tuple(out)


def _assumption(
    context: Context, step: Step, key: str, text: str, where: tuple[int | None, int | None]
) -> Assumption:
    words = context.words
    if context.facts.is_a(step.kind, "final") and not context.facts.output_projection:
        return _unknown_projection(context, step, key, text)
    value = part(step.entries, *where)
    numbers = printed(text)
    fits = numbers is not None and len(numbers) == len(value)
    assumed = (
        latex.bmatrix(value, lambda i, j: numbers[i * value.cols + j])
        if fits and numbers is not None
        else rf"\text{{{text}}}"
    )
    shown = context.show_value(value, step.symbol.name, step.key)
    approx = "" if shown.approx is None else rf" \approx {shown.approx}"
    numbers_ = {"symbol": _named(step.symbol.name, where), "exact": shown.exact + approx}
    head = step.head
    lines = []
    facts = context.facts
    if head is not None and facts.identity >= _PROJECTIONS and len(facts.heads) > 1:
        lines.append(words("notes", "not_given", head=head, **numbers_))
        if fits and numbers is not None:
            lines += _what_it_takes(context, step, numbers, where)
    else:
        agree = fits and numbers is not None and _agrees(numbers, value)
        lines.append(words("notes", "given_agrees" if agree else "given_gives", **numbers_))
        reason = _one_token(context, step)
        if reason is not None and not agree:
            lines.append(reason)
    return Assumption(key=key, symbol=numbers_["symbol"], assumed=assumed, lines=tuple(lines))


def _unknown_projection(context: Context, step: Step, key: str, text: str) -> Assumption:
    """A document's output projection named without numbers: O = C W_O with W_O unknown,
    written entry by entry from the concatenation's first row."""
    concat = context.d.step("concat")
    width = concat.entries.cols
    terms = " + ".join(
        rf"{_factor(context, concat.entries[0, k])} \, (W_O)_{{{k + 1}j}}" for k in range(width)
    )
    line = context.words(
        "notes",
        "unknown_projection",
        rows=width,
        entry=rf"O_{{ij}} = \sum_{{k=1}}^{{{width}}} C_{{ik}} \, (W_O)_{{kj}}",
        first=rf"O_{{1j}} = {terms}",
    )
    joined = latex.formula(concat.formula)  # Concat(Z_1, Z_2) under the document's names
    symbol = step.symbol.name
    return Assumption(key=key, symbol=symbol, assumed=rf"{joined} W_O", lines=(line,), defined=True)


def _factor(context: Context, value: sp.Basic) -> str:
    text = context.exact(value)
    return rf"\left({text}\right)" if isinstance(value, sp.Add) else text


def _named(symbol: str, where: tuple[int | None, int | None]) -> str:
    row, col = where
    if row is None:
        return symbol
    if col is None:
        return rf"{symbol}[{row + 1}]"
    return rf"{symbol}[{row + 1}, {col + 1}]"


def _what_it_takes(
    context: Context, step: Step, numbers: list[str], where: tuple[int | None, int | None]
) -> list[str]:
    """For an assumed head output: the score gaps its weights would need (two keys only)."""
    if (
        not context.facts.is_a(step.kind, "weighted_values")
        or where != (None, None)
        or step.head is None
    ):
        return []
    values = context.d.step(f"head{step.head}.v").entries
    claimed = sp.Matrix(step.entries.rows, step.entries.cols, [sp.Rational(n) for n in numbers])
    if values.rows != 2 or values.cols != 2:
        return []
    values = sp.Matrix(values.rows, values.cols, list(values))
    if values.det() == 0:
        return []
    weights = claimed * values.inv()
    ratios = set()
    for i in range(weights.rows):
        row = list(weights[i, :])
        if any(a <= 0 for a in row) or sum(row) != 1:
            return []
        ratios.add(sp.Rational(max(row) / min(row)))
    if len(ratios) != 1:
        return []
    ratio = ratios.pop()
    text = str(ratio) if ratio.q == 1 else rf"\tfrac{{{ratio.p}}}{{{ratio.q}}}"
    return [
        context.words(
            "notes",
            "would_take",
            head=step.head,
            gap=rf"\ln {text}" if ratio.q == 1 else rf"\ln\left({text}\right)",
            approx=latex.decimal(sp.log(ratio), 3) or "",
        )
    ]


def _one_token(context: Context, step: Step) -> str | None:
    """With one key token its only weight is 1: the head output is its value row."""
    facts = context.facts
    if not facts.is_a(step.kind, "weighted_values") or step.head is None:
        return None
    if facts.shape("key")[0] != 1:
        return None
    values = context.d.step(f"head{step.head}.v")
    return context.words(
        "notes",
        "one_token",
        head=step.head,
        symbol=values.symbol.name,
        value=context.row(values.entries, 0),
    )


def reason(context: Context, step: Step, mark: Mapping[str, Any]) -> str | None:
    """Why a printed number does not hold, in plain words; None when nothing is known."""
    one = _one_token(context, step)
    if one is not None:
        return one
    if context.facts.is_a(step.kind, "joined_heads"):
        heads = _concat_heads(context, step, mark)
        if heads:
            return _concat_reason(context, heads)
    return diagnosis(context, mark.get("diagnosis"))


def _concat_heads(context: Context, step: Step, mark: Mapping[str, Any]) -> list[int]:
    """The heads whose columns of a printed concat row do not hold."""
    _, row, col = target(str(mark["key"]))
    numbers = printed(str(mark["claimed"]))
    if row is None or col is not None or numbers is None or len(numbers) != step.entries.cols:
        return []
    heads = context.facts.heads
    width = step.entries.cols // len(heads)
    out = []
    for head in heads:
        cols = slice((head - 1) * width, head * width)
        if not _agrees(numbers[cols], step.entries[row, cols]):
            out.append(head)
    return out


def _concat_reason(context: Context, heads: list[int]) -> str | None:
    if _all_assumed(context, heads):  # said in one sentence instead: see as_assumed
        return None
    numbers = context.words("text", "and").join(str(h) for h in heads)
    listed = context.words("notes", "heads_one" if len(heads) == 1 else "heads_many", heads=numbers)
    return context.words("notes", "concat_wrong", heads=listed)


def as_assumed(context: Context, step: Step, mark: Mapping[str, Any], printed: str) -> str | None:
    """A concat row that holds only under the document's assumed head outputs, in one
    sentence with what the given weights produce instead; None for any other mark."""
    found = assumed_rows(context, step, mark)
    if found is None:
        return None
    computed, many = found
    key = "concat_follows_many" if many else "concat_follows_one"
    return context.words("notes", key, printed=printed, computed=computed)


def assumed_rows(context: Context, step: Step, mark: Mapping[str, Any]) -> tuple[str, bool] | None:
    """What the given weights produce for a concat row the document's assumed head outputs
    make (``$[a/(a+1), 1/(a+1)] \\approx [0.67, 0.33]$``), and whether more than one head
    was assumed; None for any other mark."""
    if not context.facts.is_a(step.kind, "joined_heads") or str(mark["verdict"]) != "follows":
        return None
    heads = _concat_heads(context, step, mark)
    if not heads or not _all_assumed(context, heads):
        return None
    row = target(str(mark["key"]))[1] or 0  # a row: _concat_heads found heads in it
    width = step.entries.cols // len(context.facts.heads)
    rows = [step.entries[row : row + 1, (h - 1) * width : h * width] for h in heads]
    computed = context.words("text", "and").join(
        _row_and_decimals(context, r, step.key) for r in rows
    )
    return computed, len(heads) > 1


def _row_and_decimals(context: Context, row: sp.MatrixBase, key: str) -> str:
    """``$[a/(a+1), 1/(a+1)] \\approx [0.67, 0.33]$``: exact, and decimals where it needs them."""
    approx = context.approx_row(row, 0, key)
    return f"${context.row(row, 0)}" + (rf" \approx {approx}$" if approx else "$")


def _all_assumed(context: Context, heads: list[int]) -> bool:
    assumed_steps = {target(key)[0] for key in context.spec.assumed}
    return all(f"head{h}.output" in assumed_steps for h in heads)


def diagnosis(context: Context, text: Any) -> str | None:
    """The checker's diagnosis in the reader's language (each likely mistake by name). The
    checker hands over Phrases, which say which words they are; plain text (marks made by
    hand) is read by its English words."""
    if not text:
        return None
    if isinstance(text, Phrase):
        said = _said(context, text)
        return " ".join(said) if said else None
    text = str(text)
    for prefix in ("likely mistake, one of: ", "likely mistake: "):
        if text.startswith(prefix):
            mistakes = text[len(prefix) :].split("; ")
            named = [context.words.get("diagnoses", _DIAGNOSES.get(m, "")) for m in mistakes]
            known = [n for n in named if n]
            if not known:
                return None
            return context.words("diagnoses", "likely", mistakes="; ".join(known))
    shape = _SHAPE.match(text)
    if shape is not None:
        key = "shape_transpose" if shape.group("fits") else "shape"
        return context.words(
            "diagnoses", key, claimed=shape.group("claimed"), real=shape.group("real")
        )
    name = _DIAGNOSES.get(text)
    return None if name is None else context.words.get("diagnoses", name)


def _said(context: Context, phrase: Phrase) -> list[str]:
    """The sentences of a checker's phrase that a student's solution says: the likely mistakes,
    a shape that does not fit, an inconsistency; the report's own notes (its precision) not."""
    if phrase.items is not None:  # sentences or parts, one after another
        return [
            s for item in phrase.items if isinstance(item, Phrase) for s in _said(context, item)
        ]
    key, numbers = phrase.key, phrase.numbers
    if key in ("likely_one", "likely_many"):
        found = [numbers["mistake"]] if key == "likely_one" else numbers["mistakes"].items or ()
        named = [n for n in (_mistake(context, m) for m in found) if n]
        return [context.words("diagnoses", "likely", mistakes="; ".join(named))] if named else []
    if key in ("shape", "shape_transpose"):
        shapes = {name: f"({numbers[name][0]}, {numbers[name][1]})" for name in ("claimed", "real")}
        return [context.words("diagnoses", key, **shapes)]
    if key == "inconsistent":
        return [context.words("diagnoses", "inconsistent")]
    return []


def _mistake(context: Context, mistake: Any) -> str | None:
    """A likely mistake in the solution's words (``mistakes.unscaled`` -> ``[diagnoses]
    unscaled``); None for one the locale does not name."""
    if not isinstance(mistake, Phrase) or not mistake.key.startswith("mistakes."):
        return None
    scale = context.facts.scale()
    return context.words.get(
        "diagnoses",
        mistake.key.removeprefix("mistakes."),
        head=mistake.numbers.get("head"),
        scale=latex.exact(scale.factor) if scale.given else "",
    )
