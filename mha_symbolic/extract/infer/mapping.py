"""What the numbers say, one line per array of an example: ``line 114 "Attention weights" (3x3)
= softmax(line 98 / √3, by rows): holds to 4 digits``, the alternatives when another relation
holds as well, the slips where a relation holds on all but a few entries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from mha_symbolic.extract.infer.graph import Inference
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.state import MAX_ARRAYS, MAX_EVALUATIONS, Match
from mha_symbolic.language.extract_phrases import Phrase, code, joined, phrase

Where = Callable[[Printed], str]


def said_lines(
    inference: Inference, members: list[int], names: Mapping[int, str], where: Where
) -> list[Phrase]:
    """One line per array of a component, in the order the document prints them."""
    arrays = {p.index: p for p in inference.search.arrays}
    out = []
    for index in members:
        printed = arrays[index]
        head = _head(printed, names.get(index, ""), where)
        match = inference.chosen.get(index)
        if index in inference.printed_later:
            again = arrays[inference.printed_later[index]]
            out.append(phrase("infer.first", array=head, again=where(again)))
            continue
        if match is None:
            out.append(phrase("infer.input", array=head))
            continue
        expression = _expression(match.node, where, top=True)
        verdict = _verdict(match, printed)
        others = inference.others.get(index, [])
        said = [_expression(m.node, where, top=True) for m in others]
        said = [e for n, e in enumerate(said) if e not in said[:n] and e != expression]
        if said:
            alternatives = joined("infer.or", tuple(said))
            verdict = phrase("infer.alternatives", verdict=verdict, others=alternatives)
        out.append(phrase("infer.line", array=head, expression=expression, verdict=verdict))
    return out


def spec_scale(said: str) -> str | None:
    """A scale as the search said it, as a spec writes it: none ("") as ``none``, √d as
    ``\\frac{1}{\\sqrt{d}}``, a width or a printed constant c as the fraction 1/c; None when
    c is no plain decimal."""
    said = said.replace("−", "-").rstrip(".")
    if not said:
        return "none"
    if said.startswith("√"):
        return f"\\frac{{1}}{{\\sqrt{{{said[1:]}}}}}"
    try:
        value = Fraction(Decimal(said))
    except (InvalidOperation, ValueError):
        return None
    return str(1 / value) if value > 0 else None


def capped(inference: Inference) -> Phrase | None:
    search = inference.search
    if not (search.capped or search.shortened):
        return None
    return phrase("infer.capped", arrays=MAX_ARRAYS, evaluations=MAX_EVALUATIONS)


def _head(printed: Printed, name: str, where: Where) -> Phrase:
    rows, width = printed.shape
    at = printed.item.columns_at
    cols = phrase("infer.columns", cols=width, head=width // 2) if at else width
    if name:
        return phrase("infer.named", where=where(printed), name=code(name), rows=rows, cols=cols)
    return phrase("infer.unnamed", where=where(printed), rows=rows, cols=cols)


def _verdict(match: Match, printed: Printed) -> Phrase:
    fit = match.fit
    if fit.written:
        verdict = phrase("infer.written", wrong=len(fit.slips), count=printed.mid.size)
    elif fit.slips:
        entries = joined("infer.entries", tuple(f"[{i + 1},{j + 1}]" for i, j in fit.slips))
        verdict = phrase("infer.slips", entries=entries)
    elif printed.decimals == 0 and not printed.rad.any():
        verdict = phrase("infer.exactly")
    else:
        verdict = phrase("infer.holds", digits=printed.decimals)
    return phrase("infer.transposed", verdict=verdict) if fit.transposed else verdict


def _expression(node: Node, where: Where, top: bool = False) -> Phrase | str:
    """The relation in the document's own terms: printed arrays by where they stand."""
    if node.printed is not None:
        return where(node.printed)
    ops = [_expression(o, where) for o in node.operands]
    kind = node.kind
    if kind in ("product", "product_t"):
        said = phrase(f"infer.{kind}", a=ops[0], b=ops[1])
        return said if top else phrase("infer.group", text=said)
    if kind == "scale":
        return phrase("infer.scale", a=ops[0], by=node.detail)
    if kind == "mask":
        how = phrase(f"infer.{node.detail}") if len(ops) < 2 else ops[1]
        return phrase("infer.mask", a=ops[0], how=how)
    if kind in ("softmax_rows", "softmax_cols"):
        return phrase(f"infer.{kind}", a=ops[0])
    if kind == "concat":
        return phrase("infer.concat", parts=joined("infer.parts", tuple(ops)))
    if kind == "slice":
        first = int(node.factor) + 1
        return phrase("infer.slice", a=ops[0], first=first, last=first + node.shape[1] - 1)
    if kind in ("exp", "exp_sums"):
        return phrase(f"infer.{kind}", a=ops[0])
    if kind == "row":
        return phrase("infer.row", a=ops[0], row=int(node.factor) + 1)
    if kind == "sums":
        return phrase("infer.sums", a=ops[0])
    if kind == "zeros":
        return phrase("infer.zeros", n=node.shape[0])
    if kind == "kept":
        how = phrase("infer.causal") if len(ops) < 2 else ops[1]
        return phrase("infer.kept", a=ops[0], how=how)
    if kind == "renormalised":
        return phrase("infer.renormalised", a=ops[0])
    if kind == "dropout":
        return phrase("infer.dropout", a=ops[0], p=node.detail)
    return phrase("infer.same", a=ops[0])
