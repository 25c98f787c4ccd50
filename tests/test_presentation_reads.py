"""The presentation reads the program, not the spec: solution/ and check/ ask the model's facts
(mha_symbolic.model.program_facts) what attention does, and read from the spec only what is
not mathematics (labels, the document's claims and what it printed)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive, operations
from mha_symbolic.model.program import Node
from mha_symbolic.model.program_facts import Facts
from mha_symbolic.solution.context import Context
from mha_symbolic.solution.step_block import caption
from mha_symbolic.solution.view import Options

PACKAGE = Path(__file__).resolve().parent.parent / "mha_symbolic"
ALLOWED = {
    "title",  # the labels of the page
    "tokens",
    "key_tokens",
    "translations",  # the title and description in other languages
    "claims",  # what the document claims, checked
    "assumed",  # what the document assumes rather than computes
    "printed_shapes",  # how the document printed a weight, not the mathematics
    "printed_transposed",
    "written",  # how it wrote its numbers (seed 000's ½), not what they are
    "source",  # the file named in messages
    "inputs",  # the precision the claims are judged at (printed inputs)
    "dtype",
}


def spec_reads(folder: Path) -> list[str]:
    """``file:line spec.field`` of each read of a field of anything named ``...spec``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if name.endswith("spec") and node.attr not in ALLOWED:
                found.append(f"{path.relative_to(folder)}:{node.lineno} spec.{node.attr}")
    return found


def test_solution_and_check_read_no_spec_field_beyond_the_labels_and_claims() -> None:
    assert spec_reads(PACKAGE / "solution") == []
    assert spec_reads(PACKAGE / "check") == []


def test_a_spec_read_would_be_found(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "x = context.spec.scale\ny = spec.heads\nz = d.spec.tokens\nw = respec.layout\n",
        encoding="utf-8",
    )
    assert spec_reads(tmp_path) == ["a.py:1 spec.scale", "a.py:2 spec.heads", "a.py:4 spec.layout"]


class Tilted(Node):
    """A node whose operation speaks for its caption (as ALiBi's bias gives its slope)."""

    def caption_numbers(self) -> dict[str, object]:
        return {"slope": r"\frac{1}{2}"}

    def caption_variant(self) -> str:
        return "_tilted"


def test_a_node_adds_numbers_and_a_variant_to_its_caption(tmp_path: Path) -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    assert d.program is not None
    nodes = tuple(
        Tilted(**{f: getattr(n, f) for f in n.__dataclass_fields__})
        if n.key == "head2.weights"
        else n
        for n in d.program.nodes
    )
    program = d.program.replace(nodes=nodes)
    assert Facts(program).caption("head2.weights") == ({"slope": r"\frac{1}{2}"}, "_tilted")
    assert Facts(program).caption("head1.weights") == ({}, "")
    shipped = (PACKAGE.parent / "templates" / "locales" / "en.toml").read_text(encoding="utf-8")
    extra = '"head.weights_tilted" = "Softmax of head {head}, tilted by ${slope}$."\n'
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "en.toml").write_text(
        shipped.replace("[captions]\n", "[captions]\n" + extra, 1), encoding="utf-8"
    )
    tilted = dataclasses.replace(d, program=program)
    context = Context.start(tilted, Options(templates=str(tmp_path)), images=None)
    assert caption(context, tilted.step("head2.weights")) == (
        r"Softmax of head 2, tilted by $\frac{1}{2}$."
    )
    assert caption(context, tilted.step("head1.weights")) == caption(
        Context.start(d, Options(), images=None), d.step("head1.weights")
    )


def test_the_facts_of_the_examples_and_the_given_stages() -> None:
    two, split, temperature = (
        derive(AttentionSpec.example(name)).facts
        for name in ("two-tokens", "split-scaled", "temperature")
    )
    assert (two.scale(2).factor, two.scale(2).is_identity, two.scale(2).given) == (1, True, False)
    assert split.scale(1).is_default and str(split.scale(1).factor) == "1/sqrt(d_k)"
    tau = temperature.parameters["tau"]
    assert (temperature.scale().factor, temperature.scale().given) == (1 / tau, True)
    assert (two.output_projection, two.layout, two.given, two.mask) == (
        True,
        "per_head",
        "inputs",
        None,
    )
    scores = derive(
        AttentionSpec(scores=[[1, 2], [3, 4]], v=[[1, 0], [0, 1]], mask="causal", mask_fill="-1e9")
    ).facts
    assert (scores.given, scores.scores_given, scores.has_inputs) == ("scores", True, False)
    assert (scores.mask.kind, scores.mask.fill) == ("causal", -(10**9))
    weights = derive(AttentionSpec(attention_weights=[[1, 0], [0, 1]], v=[[4, 0], [0, 8]])).facts
    assert (weights.given, weights.scale().is_identity, weights.output_projection) == (
        "weights",
        True,
        False,
    )


def test_token_by_token_dot_products_are_of_the_rotated_queries_and_keys() -> None:
    d = derive(AttentionSpec(x=[[1, 0], [0, 1]], rope=True))
    md = d.to_markdown(detail="token", max_width=100)
    assert "too long" not in md
    context = Context.start(d, Options(max_width=100), images=None)
    q, k = d.step("head1.q_rot").entries, d.step("head1.k_rot").entries
    line = rf"q_{{1}} \cdot k_{{2}} = {context.row(q, 0)} \cdot {context.row(k, 1)} = "
    assert line + context.exact(d["head1.scores"][0, 1]) in md


def test_the_facts_read_no_spec_field() -> None:
    """Facts answers from the nodes, the leaves and the operations: no ``.spec`` read."""
    tree = ast.parse((PACKAGE / "model" / "program_facts.py").read_text(encoding="utf-8"))
    reads = [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    assert [name for name in reads if name.endswith("spec")] == []


def test_how_each_weight_was_given_the_loss_and_the_parameters_are_the_programs() -> None:
    split, temperature = (
        derive(AttentionSpec.example(name)).facts for name in ("eight-tokens-split", "temperature")
    )
    assert (split.identity, split.symbolic) == (frozenset(), {"w_q", "w_k", "w_v", "w_o"})
    assert temperature.identity == {"w_q", "w_k", "w_v"}
    tau = sp.Symbol("tau", positive=True)
    assert (temperature.loss, temperature.parameters) == ("sum", {"tau": tau})
    d = derive(
        AttentionSpec(
            x=[[1, 0], [0, 1]],
            scale="3/2",
            weights={"w_q": "symbolic", "b_v": "symbolic"},
            loss={"kind": "mse", "target": [[0, 0], [0, 0]]},
        )
    )
    assert (d.facts.identity, d.facts.symbolic) == ({"w_k", "w_v"}, {"w_q", "b_v"})
    assert [leaf.kind for leaf in d.program.leaves if leaf.role == "b_v"] == ["symbolic"]
    assert d.facts.loss == "mse"


def test_an_operation_answers_its_facts_its_roles_and_its_caption() -> None:
    assert sorted(operations.FACTS) == [
        "convention", "dropout", "fused", "layout", "mask", "renormalised", "rope", "scale",
    ]  # fmt: skip
    d = derive(AttentionSpec.example("alibi"))
    by_key = [s.key for s in d.steps if s.head == 1 and d.facts.is_a(s.kind, "query_by_key")]
    assert by_key == ["head1.scores", "head1.scaled", "head1.bias", "head1.masked", "head1.weights"]
    assert [s.key for s in d.steps if d.facts.is_a(s.kind, "weights")] == [
        "head1.weights",
        "head2.weights",
    ]
    assert not d.facts.is_a("input", "weights") and not d.facts.is_a(None, "scores")
    filled = derive(AttentionSpec(x=[[1, 0], [0, 1]], scale="1/2", mask="causal", mask_fill="-1e4"))
    assert filled.facts.caption("head1.scaled") == (
        {"factor": sp.Rational(1, 2), "divisor": 2},
        "_divided",
    )
    assert filled.facts.caption("head1.masked") == ({"fill": -10000}, "_fill")
    given = derive(AttentionSpec(x=[[1, 0], [0, 1]], scale="3/2")).facts
    assert given.caption("head1.scaled") == ({"factor": sp.Rational(3, 2), "divisor": 2}, "_value")
    assert derive(AttentionSpec.example("two-tokens")).facts.caption("head1.scaled") == (
        {},
        "_none",
    )
    dropped = derive(AttentionSpec.example("causal-dropout")).facts
    assert dropped.caption("head1.dropped") == ({"p": sp.Rational(1, 2), "factor": 2}, "")
    with pytest.raises(AttributeError, match="'Facts' object has no attribute 'bias'"):
        _ = given.bias
