"""One query's weights printed on their own: each row is placed by the softmax its numbers
follow (of which printed scores, scaled or not), never by its name alone. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all


def text(a: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.4f}" for x in row) + "]" for row in a) + "]"


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


S = np.array([[1.2, -0.4, 2.1], [0.3, 1.7, -1.1], [-0.8, 0.5, 0.9]])
SCALED = S / np.sqrt(2)
WITH_AND_WITHOUT = f"""# Why the scores are scaled

```
scores = {text(S)}
scaled = {text(SCALED)}
attention weights = {text(softmax(SCALED))}
softmax of row 0, unscaled: {text(softmax(S[:1]))[1:-1]}
softmax of row 0, scaled: {text(softmax(SCALED[:1]))[1:-1]}
```
"""


def test_a_row_soft_maxed_without_the_scale_is_its_own_example_not_a_wrong_weight() -> None:
    """Both rows are named softmax row 0: the first is the softmax of the raw scores' row,
    the second of the scaled row. The numbers put each with its own scale (two examples, one
    per setting), so neither is called wrong (the unscaled one once was, four entries)."""
    scaled, unscaled = extract_all(WITH_AND_WITHOUT)
    assert [str(line) for line in scaled.inferred][-1] == (
        "line 8 softmax (1x3) = softmax(row 1 of line 5, by rows): holds to 4 digits"
    )
    assert [str(line) for line in unscaled.inferred][-1] == (
        "line 7 softmax (1x3) = softmax(row 1 of line 4, by rows): holds to 4 digits"
    )
    assert unscaled.spec.scale == "none"
    assert sorted(unscaled.spec.claims) == ["head1.weights[1]"]
    assert sorted(scaled.spec.claims) == ["head1.scaled", "head1.weights", "head1.weights[1]"]
    for one in (scaled, unscaled):
        report = check(one.spec)
        assert report.ok
        assert {c.verdict for c in report.claims} <= {"rounded", "within", "exact"}


def test_a_row_of_other_numbers_under_the_same_name_is_still_judged() -> None:
    """A row no softmax of the printed scores gives (a slip in two entries) stays a claim on
    the row its name says, and is found wrong."""
    wrong = softmax(SCALED[:1]).copy()
    wrong[0, :2] = wrong[0, 1::-1]
    page = WITH_AND_WITHOUT.replace(text(softmax(SCALED[:1]))[1:-1], text(wrong)[1:-1])
    page = page.replace("softmax of row 0, unscaled", "unscaled")
    found = extract_all(page)
    claims = [key for one in found for key in one.spec.claims]
    assert "head1.weights[1]" in claims
    verdicts = {c.key: c.verdict for one in found for c in check(one.spec).claims}
    assert verdicts["head1.weights[1]"] == "wrong"
