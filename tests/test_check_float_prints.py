"""A float64 printed in full (Julia's and Python's shortest round-trip print, 16 or 17
significant digits) says which float, not the exact value to its last digit: it holds when the
exact value is within a few ulps; and a call's one list argument (``softmax([1, 2, 3])``) is
that list, never a tuple of counts. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.extract import extract_all

PRINTED = ("0.09003057317038046", "0.24472847105479764", "0.6652409557748218")  # as Julia does
REPL = """# Softmax in the REPL

```
julia> softmax([1, 2, 3])
3-element Vector{Float64}:
 0.09003057317038046
 0.24472847105479764
 0.6652409557748218
```
"""


def test_a_float64_print_of_softmax_holds_though_its_last_digit_is_off() -> None:
    """0.24472847105479764 is the float64 nearest e^2/(e + e^2 + e^3) = 0.24472847105479765...:
    rounded, not wrong; the argument [1, 2, 3] is read as the scores."""
    truth = np.exp([1.0, 2.0, 3.0]) / np.exp([1.0, 2.0, 3.0]).sum()
    assert np.allclose([float(p) for p in PRINTED], truth, rtol=1e-15, atol=0)
    (one,) = extract_all(REPL)
    assert one.spec.claims == {
        "head1.weights[1]": "[0.09003057317038046, 0.24472847105479764, 0.6652409557748218]",
        "head1.scores[1]": "[1, 2, 3]",
    }
    assert [(v.claim.key, v.verdict) for v in check(one.spec).claims] == [
        ("head1.weights[1]", "rounded"),
        ("head1.scores[1]", "exact"),
    ]


def test_a_float64_print_off_by_more_than_a_few_ulps_is_wrong() -> None:
    """e/(1 + e) = 0.73105857863000487...: its float64 print holds; one unit off in the 15th
    digit (100 ulps) is wrong."""
    d = derive(AttentionSpec.example("two-tokens"))
    verdicts = [
        check(d, {"head1.weights[1,1]": claimed}).claims[0].verdict
        for claimed in ("0.7310585786300049", "0.7310585786300149")
    ]
    assert verdicts == ["rounded", "wrong"]
