"""The readable report (str) and the notebook's Markdown (_repr_markdown_)."""

from __future__ import annotations

from mha_symbolic import check
from mha_symbolic.spec.attention import AttentionSpec


def test_readable_report_within_100_columns() -> None:
    report = check(AttentionSpec.example("split-scaled"))
    text = str(report)
    assert all(len(line) <= 100 for line in text.splitlines())
    block = text[text.index("concat[1]: as assumed") :].splitlines()[:8]
    assert block == [
        "concat[1]: as assumed",
        "  claimed  [0.67, 0.33, 0.60, 0.40]",
        "  exact    [e^(sqrt(2)/2)/(1 + e^(sqrt(2)/2)), 1/(1 + e^(sqrt(2)/2)), e^(sqrt(2)/2)/(1 +",
        "           e^(sqrt(2)/2)), 1/(1 + e^(sqrt(2)/2))] = [0.6698, 0.3302, 0.6698, 0.3302]",
        # entries indexed within the claimed row, as assumed like the claim (never "wrong")
        "  [3]      claimed 0.60, exact 0.6698: as assumed",
        "  [4]      claimed 0.40, exact 0.3302: as assumed",
        "  why      Follows correctly from the document's assumed head2.output; entry (1, 3): the",
        "           concatenated entry is 0.6698, the document has 0.60.",
    ]
    assert text.endswith(
        "example split-scaled: 11 claims: 9 hold (3 exact, 6 rounded), 2 assumed\n"
    )


def test_markdown_for_notebooks() -> None:
    report = check(AttentionSpec.example("split-scaled"))
    markdown = report._repr_markdown_()
    assert markdown.startswith(report.to_markdown())
    assert markdown.splitlines()[-1] == (
        "- `concat[2]`: Follows correctly from the document's assumed head2.output; entry (2, 3): "
        "the concatenated entry is 0.3302, the document has 0.40."
    )
    held = check(AttentionSpec.example("two-tokens"))
    assert held._repr_markdown_() == held.to_markdown()


def test_cli_printed_claims_and_why(capsys) -> None:  # type: ignore[no-untyped-def]
    from mha_symbolic.cli import main

    pasted = (
        "head1.weights=tensor([[0.7311, 0.2689],\n        [0.2689, 0.7311]], "
        "dtype=torch.float64, grad_fn=<SoftmaxBackward0>)"
    )
    assert main(["check", "--example", "two-tokens", "--claim", pasted]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "example two-tokens: 1 claim: 1 holds (0 exact, 1 rounded)"
    )
    assert main(["check", "--example", "split-scaled", "--why"]) == 0
    out = capsys.readouterr().out
    assert "  why      Follows correctly from the document's assumed head2.output;" in out
    spec = ["check", "--example", "two-tokens", "--claim", "head1.weights[1,1]=0.7310589"]
    assert main([*spec, "--dtype", "float32"]) == 0
    assert main(spec) == 1  # 0.73105858 to seven decimals is 0.7310586; float32 errs more


def test_cli_text_is_the_readable_report_and_table_the_wide_one(capsys) -> None:  # type: ignore[no-untyped-def]
    from mha_symbolic.cli import main

    assert main(["check", "--example", "split-scaled"]) in (0, 1)
    text = capsys.readouterr().out
    report = check(AttentionSpec.example("split-scaled"))
    assert text == str(report)
    assert max(len(line) for line in text.splitlines()[:-1]) <= 100
    assert main(["check", "--example", "split-scaled", "--format", "table"]) in (0, 1)
    assert capsys.readouterr().out == report.to_text()


def test_bengali_report_columns_line_up_by_display_width() -> None:
    import re

    from mha_symbolic.language.check_phrases import columns

    text = check(AttentionSpec.example("split-scaled")).readable(lang="bn")
    block = text[text.index("`concat[1]`") :].splitlines()[1:8]
    assert block[3] == "  [3]         দাবি 0.60, হুবহু মান 0.6698: ধরে নেওয়া মান অনুযায়ী"
    # Every value starts at one display column, whatever the letters of its label ("হুবহু" is
    # 5 characters but 3 columns: its vowel signs sit on their letters).
    prefixes = [re.match(r"  \S+ +| +", line) for line in block]
    assert {columns(m.group(0)) for m in prefixes if m} == {14}
    assert len({len(m.group(0)) for m in prefixes if m}) > 1  # so not by len()


def test_a_large_exact_value_is_said_in_decimals_in_the_readable_report() -> None:
    """A claim on an 8 x 8 softmax of printed scores: its exact entries (eight exponentials
    each) would fill hundreds of lines of a terminal; the text report says the decimals and
    where the exact entries are, the JSON keeps them whole."""
    import numpy as np

    rng = np.random.default_rng(3)
    scores = np.round(rng.normal(size=(8, 8)) * 2, 4)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    spec = AttentionSpec.from_dict(
        {
            "scores": [[f"{v:.4f}" for v in row] for row in scores],
            "v": [[str(i + j) for j in range(2)] for i in range(8)],
            "claims": {
                "head1.weights": str([[float(round(v, 4)) for v in row] for row in weights])
            },
        }
    )
    report = check(spec)
    assert report.claims[0].holds
    text = str(report)
    assert len(text.splitlines()) < 40, len(text.splitlines())
    assert "(too long to print; --format json has it)" in " ".join(text.split())
    assert "e^{" in report.to_json()  # the exact entries are still given whole (LaTeX)
