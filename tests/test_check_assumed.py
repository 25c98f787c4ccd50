"""A document's assumed numbers ([assumed]): judged against what the inputs give, never wrong."""

from __future__ import annotations

import json

from mha_symbolic import AttentionSpec, check
from mha_symbolic.cli import main


def test_one_tokens_assumed_outputs_differ_from_what_its_weights_give() -> None:
    report = check(AttentionSpec.example("one-token"))
    assert [(a.key, a.status) for a in report.assumptions] == [
        ("head1.output[1]", "differs"),
        ("head2.output[1]", "differs"),
    ]
    assert report.assumptions[0].note == (
        "Assumed by the document; the given inputs and weights give [4, 11], not [0.5, 1.2]."
    )
    assert [c.key for c in report.claims] == ["concat[1]"]  # assumptions are not claims
    assert report.summary() == (
        "example one-token: 1 claim: 0 hold (0 exact, 0 rounded), 1 assumed"
    )
    (concat,) = report.claims
    assert (concat.verdict, concat.holds, report.ok) == ("follows", False, True)


def test_split_scaleds_head_2_is_not_determined_by_its_inputs() -> None:
    report = check(AttentionSpec.example("split-scaled"))
    (only,) = report.assumptions
    assert (only.key, only.status) == ("head2.output", "undetermined")
    text = str(report)
    assert text.startswith(
        "head2.output: assumed (undetermined)\n  assumed  [[0.60, 0.40], [0.40, 0.60]]\n"
    )
    assert "not determined by the given inputs" in " ".join(text.split())


def test_an_assumption_the_weights_bear_out_is_consistent() -> None:
    raw = {
        "x": [[1, 0], [0, 1]],
        "heads": 1,
        "scale": "none",
        "assumed": {"head1.weights[1]": "[0.73, 0.27]", "head1.weights[2,2]": "0.8"},
    }
    report = check(AttentionSpec.from_dict(raw))
    assert [(a.key, a.status) for a in report.assumptions] == [
        ("head1.weights[1]", "consistent"),
        ("head1.weights[2,2]", "differs"),
    ]
    assert report.assumptions[0].note == (
        "Assumed by the document; consistent with the given inputs and weights."
    )
    assert report.assumptions[1].note == (
        "Assumed by the document; the given inputs and weights give 0.7311, not 0.8."
    )


def test_json_and_markdown_carry_the_assumptions(capsys) -> None:
    assert main(["check", "--example", "one-token", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    given = data["assumed"][1].pop("given")
    assert given.replace(" ", "") == r"\begin{bmatrix}6&9\end{bmatrix}"
    assert data["assumed"][1] == {
        "key": "head2.output[1]",
        "assumed": "[−0.4, 2.3]",
        "decimal": "[6, 9]",
        "status": "differs",
        "note": (
            "Assumed by the document; the given inputs and weights give [6, 9], not [-0.4, 2.3]."
        ),
    }
    markdown = check(AttentionSpec.example("one-token"))._repr_markdown_()
    assert "- `head1.output[1]` (assumed, differs): Assumed by the document;" in markdown
