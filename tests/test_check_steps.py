"""Claims about intermediates documents print: e^{s_ij}, their row sums, a_ij v_j."""

from __future__ import annotations

import mpmath
import pytest

from mha_symbolic import check, derive
from mha_symbolic.errors import SpecError
from mha_symbolic.spec.attention import AttentionSpec

X = [[1, 0], [0, 1], [1, 1]]
IDENTITY = [[[1, 0], [0, 1]]]
V = [[[1, 2], [0, 1]]]
SPEC = AttentionSpec.from_dict(
    {
        "heads": 1,
        "scale": "none",
        "mask": "causal",
        "x": X,
        "weights": {"w_q": IDENTITY, "w_k": IDENTITY, "w_v": V},
    }
)
D = derive(SPEC)


def reference() -> tuple[list[list[mpmath.mpf]], list[mpmath.mpf], list[list[mpmath.mpf]]]:
    """exp of the causal scores X X^T, row sums, and values X W_V, by mpmath at 50 digits."""
    mpmath.mp.dps = 50
    scores = [[sum(a * b for a, b in zip(p, q)) for q in X] for p in X]
    exps = [
        [mpmath.e**s if j <= i else mpmath.mpf(0) for j, s in enumerate(r)]
        for i, r in enumerate(scores)
    ]
    sums = [sum(row) for row in exps]
    values = [[sum(x[k] * V[0][k][c] for k in range(2)) for c in range(2)] for x in X]
    return exps, sums, values


def printed(numbers: list[mpmath.mpf], places: int = 4) -> str:
    """Rounded to ``places`` by mpmath (not through a float)."""
    return "[" + ", ".join(_fixed(n, places) for n in numbers) + "]"


def _fixed(number: mpmath.mpf, places: int) -> str:
    scaled = mpmath.nint(number * 10**places)
    text = str(int(scaled)).rjust(places + 1, "0")
    return text[:-places] + "." + text[-places:]


def test_intermediates_hold_against_mpmath() -> None:
    exps, sums, values = reference()
    weights3 = [e / sums[2] for e in exps[2]]
    claims = {
        "head1.exp": "[" + ", ".join(printed(row) for row in exps) + "]",
        "head1.sums": "[" + ", ".join(printed([s]) for s in sums) + "]",
        "head1.weighted[3]": "["
        + ", ".join(printed([w * v for v in values[j]]) for j, w in enumerate(weights3))
        + "]",
        "head1.weighted[3,3]": printed([weights3[2] * v for v in values[2]]),
        "head1.exp[2,3]": "0",
    }
    report = check(D, claims)
    assert [c.verdict for c in report.claims] == ["rounded"] * 4 + ["exact"]


def test_intermediates_wrong() -> None:
    report = check(D, {"head1.sums[3]": "20.1073", "head1.exp[3,3]": "7.3890"})
    # e + e + e^2 = 12.8256...; e^2 = 7.389056... (7.3891 to four decimals)
    assert [c.verdict for c in report.claims] == ["wrong", "wrong"]


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (
            "head1.weighted",
            "claim 'head1.weighted': head1.weighted is per query: write head1.weighted[i] (the "
            "rows a_ij v_j of query i) or head1.weighted[i,j] (one of them)",
        ),
        (
            "head1.weighted[4]",
            "claim 'head1.weighted[4]': head1.weighted has 3 queries, no query 4",
        ),
    ],
)
def test_per_query_keys(key: str, message: str) -> None:
    with pytest.raises(SpecError) as error:
        check(D, {key: "1"})
    assert str(error.value) == message
