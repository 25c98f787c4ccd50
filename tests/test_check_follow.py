"""Following the document's own earlier numbers, and the diagnosis in a sentence."""

from __future__ import annotations

from mha_symbolic import check, derive
from mha_symbolic.spec.attention import AttentionSpec

TWO = derive(AttentionSpec.example("two-tokens"))


def explanations(report) -> dict[str, str | None]:  # type: ignore[no-untyped-def]
    return {c.key: c.explanation for c in report.claims}


def test_a_slip_and_the_steps_that_follow_from_it() -> None:
    """Head 2's output printed wrong, and the concat that carries the slip on."""
    example = AttentionSpec.example("split-scaled")
    claims = {**example.claims, "head2.output": example.assumed["head2.output"]}
    report = check(derive(example), claims)
    notes = {k: v for k, v in explanations(report).items() if v}
    assert notes == {
        "head2.output": "Wrong here; the later concat[1], concat[2] follow correctly from this "
        "slip; entry (1, 1): the weighted sum of values is 0.6698, the document has 0.60.",
        "concat[1]": "Follows correctly from the document's own head2.output; entry (1, 3): "
        "the concatenated entry is 0.6698, the document has 0.60.",
        "concat[2]": "Follows correctly from the document's own head2.output; entry (2, 3): "
        "the concatenated entry is 0.3302, the document has 0.40.",
    }
    # the diagnosis column is as before (renderers and goldens read it)
    assert report.claims[-1].diagnosis == "inconsistent with the given inputs and weights"


def test_steps_that_follow_from_an_assumed_number() -> None:
    """The built-in split-scaled example assumes head 2's output: concat follows from it."""
    report = check(AttentionSpec.example("split-scaled"))
    notes = {k: v for k, v in explanations(report).items() if v}
    assert notes == {
        "concat[1]": "Follows correctly from the document's assumed head2.output; entry (1, 3): "
        "the concatenated entry is 0.6698, the document has 0.60.",
        "concat[2]": "Follows correctly from the document's assumed head2.output; entry (2, 3): "
        "the concatenated entry is 0.3302, the document has 0.40.",
    }


def test_a_wrong_score_and_its_consequences() -> None:
    report = check(
        TWO,
        {
            "head1.scores[1]": "[2.405, 0]",
            "head1.weights[1]": "[0.9172, 0.0828]",  # softmax of the document's own scores
            "head1.output[1]": "[0.9172, 0.0828]",
        },
    )
    assert [c.verdict for c in report.claims] == ["wrong"] * 3
    assert explanations(report) == {
        "head1.scores[1]": "Wrong here; the later head1.weights[1], head1.output[1] follow "
        "correctly from this slip; entry (1, 1): the dot product is 1, the document has 2.405.",
        "head1.weights[1]": "Follows correctly from the document's own head1.scores; entry "
        "(1, 1): the attention weight is 0.731059, the document has 0.9172.",
        "head1.output[1]": "Follows correctly from the document's own head1.scores, "
        "head1.weights; entry (1, 1): the weighted sum of values is 0.731059, the document "
        "has 0.9172.",
    }


def test_computed_from_its_own_rounded_weights() -> None:
    report = check(
        TWO,
        {"head1.weights": "[[0.73, 0.27], [0.27, 0.73]]", "head1.output[1]": "[0.7300, 0.2700]"},
    )
    assert [c.verdict for c in report.claims] == ["rounded", "wrong"]
    assert report.claims[1].explanation == (
        "Computed from the document's own rounded head1.weights: consistent; entry (1, 1): "
        "the weighted sum of values is 0.731059, the document has 0.7300."
    )


def test_a_likely_mistake_in_the_sentence() -> None:
    report = check(AttentionSpec.example("split-scaled"), {"head1.weights[1]": "[0.73, 0.27]"})
    claim = report.claims[0]
    assert claim.mistakes and claim.explanation is not None
    assert claim.explanation.startswith("Likely mistake: " + claim.mistakes[0])


def test_claims_that_hold_need_no_sentence() -> None:
    report = check(AttentionSpec.example("two-tokens"))
    assert report.ok and all(c.explanation is None for c in report.claims)
