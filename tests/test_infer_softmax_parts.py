"""The softmax worked in parts: the page prints e^s of the scaled scores and their row sums
(whatever it calls them) before the weights; the numbers say they are the softmax's numerators
and denominators, claimed as head1.exp and head1.sums. e^s of other logits (the raw scores,
when the softmax takes the scaled ones) is left alone. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all


def text(a: np.ndarray, decimals: int) -> str:
    rows = ", ".join("[" + ", ".join(f"{x:.{decimals}f}" for x in row) + "]" for row in a)
    return f"[{rows}]"


S = np.array([[1.2884, 1.064, 1.452], [1.064, 1.6064, 1.4496], [1.452, 1.4496, 1.8768]])
SCALED = S / 2
E = np.exp(SCALED)
SUMS = E.sum(axis=1, keepdims=True)


def page(numerators: np.ndarray) -> str:
    return f"""# Softmax by hand

```
scores = {text(S, 4)}
scaled_scores = {text(SCALED, 4)}
numerators = {text(numerators, 8)}
denominators = {text(numerators.sum(axis=1, keepdims=True), 8)}
weights = {text(E / SUMS, 8)}
```
"""


def test_printed_numerators_and_their_sums_are_the_softmaxs_parts() -> None:
    (one,) = extract_all(page(E))
    lines = [str(line) for line in one.inferred]
    assert "line 6 Softmax by hand (3x3) = exp(line 5): holds to 8 digits" in lines
    assert (
        "line 7 Softmax by hand (3x1) = the row sums of exp(line 5), the softmax's denominators: "
        "holds to 8 digits"
    ) in lines
    assert {"head1.exp", "head1.sums", "head1.weights"} <= set(one.spec.claims)
    report = check(one.spec)
    assert report.ok
    assert {c.key: c.verdict for c in report.claims}["head1.sums"] in ("rounded", "within")


def test_numerators_of_other_logits_are_no_claim() -> None:
    """e^s of the raw scores while the weights soft-max the scaled ones: another computation
    than the example's, never judged against its numerators."""
    found = extract_all(page(np.exp(S)))
    assert not any(key in one.spec.claims for one in found for key in ("head1.exp", "head1.sums"))
    assert all(check(one.spec).ok for one in found)
