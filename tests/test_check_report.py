"""The readable report (str) and the notebook's Markdown (_repr_markdown_)."""

from __future__ import annotations

from mha_symbolic import check
from mha_symbolic.spec.attention import AttentionSpec


def test_readable_report_within_100_columns() -> None:
    report = check(AttentionSpec.example("split-scaled"))
    text = str(report)
    assert all(len(line) <= 100 for line in text.splitlines())
    block = text[text.index("concat[1]: wrong") :].splitlines()[:8]
    assert block == [
        "concat[1]: wrong",
        "  claimed  [0.67, 0.33, 0.60, 0.40]",
        "  exact    [e^(sqrt(2)/2)/(1 + e^(sqrt(2)/2)), 1/(1 + e^(sqrt(2)/2)), e^(sqrt(2)/2)/(1 +",
        "           e^(sqrt(2)/2)), 1/(1 + e^(sqrt(2)/2))] = [0.6698, 0.3302, 0.6698, 0.3302]",
        "  [3]      claimed 0.60, exact 0.6698: wrong",  # entries indexed within the claimed row
        "  [4]      claimed 0.40, exact 0.3302: wrong",
        "  why      Follows correctly from the document's own head2.output; entry (1, 3): the "
        "concatenated",
        "           entry is 0.6698, the document has 0.60.",
    ]
    assert text.endswith("example split-scaled: 12 claims: 9 hold (3 exact, 6 rounded), 3 wrong\n")


def test_markdown_for_notebooks() -> None:
    report = check(AttentionSpec.example("split-scaled"))
    markdown = report._repr_markdown_()
    assert markdown.startswith(report.to_markdown())
    assert markdown.splitlines()[-1] == (
        "- `concat[2]`: Follows correctly from the document's own head2.output; entry (2, 3): "
        "the concatenated entry is 0.3302, the document has 0.40."
    )
    held = check(AttentionSpec.example("two-tokens"))
    assert held._repr_markdown_() == held.to_markdown()
