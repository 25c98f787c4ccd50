"""extract on public worked examples none of us wrote (tests/data/documents, sources in each
file): the share of printed numbers that land under the right step key with the right verdict,
without hand editing.

The expected placement of every printed result was written by reading each page; the right
verdict comes from an oracle independent of the library: NumPy float64 attention on the page's
own inputs, a number holding when it is within half a unit of its last printed digit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from mha_symbolic import check
from mha_symbolic.extract import extract_all

DOCUMENTS = Path(__file__).resolve().parent / "data" / "documents"


@dataclass(frozen=True)
class Page:
    """A page's inputs (for the oracle) and every printed result with the step it belongs to."""

    x: list  # or the query when q_k_v_given
    weights: tuple[list, list, list] | None  # W_Q, W_K, W_V (in x out); None: identity
    scale: float
    printed: list[tuple[str, list]]  # (step key, optionally [row] or [row,col]; the rows)
    key: list | None = None
    value: list | None = None
    mapping: list[str] = field(default_factory=list)


def rows(text: str) -> list[list[str]]:
    return [[e.strip() for e in row.split(",")] for row in text.strip("[] ").split("], [")]


ILLUSTRATED = Page(
    x=[[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]],
    weights=(
        [[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]],
        [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]],
        [[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]],
    ),
    scale=1.0,  # "dot product attention": no scaling
    printed=[
        ("head1.k", rows("[0, 1, 1], [4, 4, 0], [2, 3, 1]")),  # step 3 diagram
        ("head1.v", rows("[1, 2, 3], [2, 8, 0], [2, 6, 3]")),  # step 3 diagram
        ("head1.q", rows("[1, 0, 2], [2, 2, 2], [2, 1, 3]")),  # step 3 diagram
        ("head1.k", rows("[0., 1., 1.], [4., 4., 0.], [2., 3., 1.]")),  # printed keys
        ("head1.q", rows("[1., 0., 2.], [2., 2., 2.], [2., 1., 3.]")),
        ("head1.v", rows("[1., 2., 3.], [2., 8., 0.], [2., 6., 3.]")),
        ("head1.q[1]", rows("[1, 0, 2]")),  # step 4 diagram
        ("head1.scores[1]", rows("[2, 4, 4]")),  # step 4 diagram
        ("head1.scores", rows("[2., 4., 4.], [4., 16., 12.], [4., 12., 10.]")),
        ("head1.scores[1]", rows("[2, 4, 4]")),  # softmax([2, 4, 4]) = ...
        ("head1.weights[1]", rows("[0.0, 0.5, 0.5]")),
        (
            "head1.weights",
            rows(
                "[6.3379e-02, 4.6831e-01, 4.6831e-01], [6.0337e-06, 9.8201e-01, 1.7986e-02], "
                "[2.9539e-04, 8.8054e-01, 1.1917e-01]"
            ),
        ),
        ("head1.weights", rows("[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]")),
        ("output[1]", rows("[2.0, 7.0, 1.5]")),  # step 7
        ("output[1]", rows("[2.0, 7.0, 1.5]")),  # "is Output 1"
        (
            "output",
            rows("[2.0000, 7.0000, 1.5000], [2.0000, 8.0000, 0.0000], [2.0000, 7.8000, 0.3000]"),
        ),
    ],
    mapping=[
        "x (line 12) -> x",
        "w_query (line 31) -> weights.w_q",
        "w_key (line 25) -> weights.w_k",
        "w_value (line 37) -> weights.w_v",
        "Keys (line 77) -> claim head1.k",
        "Querys (line 82) -> claim head1.q",
        "Values (line 86) -> claim head1.v",
        "attn_scores (line 105) -> claim head1.scores",
        "attn_scores_softmax (line 119) -> claim head1.weights",
        "attn_scores_softmax (line 124) -> claim head1.weights[1]",
        "attn_scores_softmax (line 124) -> claim head1.weights[2]",
        "attn_scores_softmax (line 124) -> claim head1.weights[3]",
        "Output (line 150) -> claim output[1]",
        "outputs (line 158) -> claim output",
        "softmax (line 113) -> claim head1.scaled[1]",  # the row its numbers give
    ],
)
EXERCISE = Page(
    x=[[1, 0], [0, 1]],
    key=[[1, 0], [0, 1]],
    value=[[1, 2], [3, 4]],
    weights=None,
    scale=1 / np.sqrt(2),
    printed=[("output", rows("[1.66082, 2.66082], [2.33918, 3.33918]"))],
    mapping=[
        "Q (line 13) -> q",
        "Q (line 13) -> k",
        "V (line 14) -> v",
        "Output (line 17) -> claim output",
    ],
)
TINY_VECTORS = Page(
    x=[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]],
    weights=None,
    scale=0.5,
    printed=[
        (f"head1.scores[{i},{j}]", [[v]])
        for (i, j), v in {
            (1, 1): "2.0",
            (1, 2): "0.0",
            (1, 3): "1.0",
            (2, 1): "0.0",
            (2, 2): "2.0",
            (2, 3): "1.0",
            (3, 1): "1.0",
            (3, 2): "1.0",
        }.items()
    ],
    mapping=["X (line 18) -> x"]
    + [
        f"scores (line {line}) -> claim head1.scores[{i},{j}]"
        for line, (i, j) in zip(
            (44, 45, 46, 52, 53, 54, 60, 61),
            ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)),
        )
    ],
)
FROM_SCRATCH = Page(
    x=[[1, 0], [0, 2], [1, 1]],
    weights=([[1, 0], [0, 1]], [[1, 1], [0, 1]], [[1, 0], [0, 1]]),
    scale=1 / np.sqrt(2),
    printed=[
        ("head1.q", rows("[1, 0], [0, 2], [1, 1]")),  # "please: [1,0] · Wq = ... = [1, 0]"
        ("head1.q", rows("[1, 0], [0, 2], [1, 1]")),  # "Query vectors: please → [1, 0]"
        ("head1.k", rows("[1, 1], [0, 2], [1, 2]")),
        ("head1.k", rows("[1, 1], [0, 2], [1, 2]")),
    ],
)
I_AM_HAPPY = Page(
    x=[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]],
    weights=None,  # "For simplicity, let's say" Q = K = V = the embeddings
    scale=1 / np.sqrt(3),
    printed=[
        ("head1.q", rows("[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]")),
        ("head1.k", rows("[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]")),
        ("head1.v", rows("[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]")),
        ("head1.scores[1]", rows("[0.14, 0.32, 0.50]")),  # Q₁·K₁, Q₁·K₂, Q₁·K₃
        ("head1.scores", rows("[0.14, 0.32, 0.50], [0.32, 0.77, 1.22], [0.50, 1.22, 1.94]")),
        ("head1.scaled", rows("[0.08, 0.18, 0.29], [0.18, 0.44, 0.70], [0.29, 0.70, 1.12]")),
        ("head1.scaled[1]", rows("[0.08, 0.18, 0.29]")),  # "For first row"
        ("head1.weights[1]", rows("[0.30, 0.33, 0.37]")),  # "Probabilities: ... ≈"
        ("head1.weights", rows("[0.30, 0.33, 0.37], [0.26, 0.37, 0.37], [0.25, 0.36, 0.39]")),
    ],
    mapping=[
        "token rows (line 19-21) -> x",
        "Q (line 37) -> claim head1.q",
        "K (line 37) -> claim head1.k",
        "V (line 37) -> claim head1.v",
        "Step 3: Compute Q × K^T (dot products) (line 59) -> claim head1.scores",
        "Step 5: Apply Softmax (line 104) -> claim head1.weights",
        "Step 5: Apply Softmax (line 96) -> claim head1.weights[1]",  # the row its numbers give
    ],
)
PAGES = {
    "illustrated-self-attention.md": (ILLUSTRATED, 66),
    "scaled-dot-product-exercise.md": (EXERCISE, 4),
    "numerical-walkthrough-tiny-vectors.md": (TINY_VECTORS, 8),
    "self-attention-from-scratch.html": (FROM_SCRATCH, 12),
    "attention-i-am-happy.md": (I_AM_HAPPY, 54),
}


def oracle(page: Page) -> dict[str, np.ndarray]:
    """Attention in NumPy float64 on the page's own inputs (one head, no W_O)."""
    x = np.array(page.x, dtype=float)
    key = np.array(page.key if page.key is not None else page.x, dtype=float)
    value = np.array(page.value if page.value is not None else page.x, dtype=float)
    w_q, w_k, w_v = (
        (np.array(w, dtype=float) for w in page.weights)
        if page.weights
        else (
            np.eye(x.shape[1]),
            np.eye(key.shape[1]),
            np.eye(value.shape[1]),
        )
    )
    q, k, v = x @ w_q, key @ w_k, value @ w_v
    scores = q @ k.T
    e = np.exp(scores * page.scale - (scores * page.scale).max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    output = weights @ v
    return {
        "head1.q": q,
        "head1.k": k,
        "head1.v": v,
        "head1.scores": scores,
        "head1.scaled": scores * page.scale,
        "head1.weights": weights,
        "head1.output": output,
        "output": output,
    }


def holds(printed: str, exact: float) -> bool:
    digits = Decimal(printed.rstrip(".") if printed.endswith(".") else printed)
    exponent = digits.as_tuple().exponent
    unit = Decimal(10) ** exponent if isinstance(exponent, int) and exponent < 0 else Decimal(0)
    if "." not in printed and "e" not in printed.lower():
        unit = Decimal(0)
    return abs(float(digits) - exact) <= float(unit) / 2 + 1e-12


def expected_entries(page: Page) -> list[tuple[str, int, int, str, bool]]:
    """(step, row, column, digits, holds) of every printed result, positions 1-based; a number
    printed twice at the same place with the same digits counts once."""
    values = oracle(page)
    out: list[tuple[str, int, int, str, bool]] = []
    for key, grid in page.printed:
        step, _, index = key.partition("[")
        place = [int(p) for p in index.rstrip("]").split(",")] if index else []
        for i, row in enumerate(grid):
            for j, digits in enumerate(row):
                r = place[0] if place else i + 1
                c = place[1] if len(place) > 1 else j + 1
                verdict = holds(digits, values[step][r - 1, c - 1])
                entry = (step, r, c, digits.rstrip("."), verdict)  # "4." prints 4
                if entry not in out:
                    out.append(entry)
    return out


def judged_entries(path: Path) -> set[tuple[str, int, int, str, bool]]:
    """What extract + check say, without hand editing: (step, row, column, digits, holds)."""
    found = set()
    for one in extract_all(path):
        for verdict in check(one.spec).claims:
            for e in verdict.entries:
                # "4." (numpy's print, kept as printed) is the digits 4, as expected_entries
                found.add((verdict.claim.step, *e.index, e.claimed.text.rstrip("."), e.holds))
    return found


def share(name: str) -> tuple[int, int]:
    page, _ = PAGES[name]
    wanted = expected_entries(page)
    found = judged_entries(DOCUMENTS / name)
    return sum(entry in found for entry in wanted), len(wanted)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_has_its_source_url(name: str) -> None:
    head = (DOCUMENTS / name).read_text(encoding="utf-8")[:600]
    assert "Source:" in head and "https://" in head


@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_is_mapped_as_read(name: str) -> None:
    page, count = PAGES[name]
    assert len(expected_entries(page)) == count
    if page.mapping:
        (one,) = extract_all(DOCUMENTS / name)
        assert list(one.mapping) == page.mapping


MEASURED = {  # name: printed results under the right key with the right verdict
    "illustrated-self-attention.md": 66,
    "scaled-dot-product-exercise.md": 4,
    "numerical-walkthrough-tiny-vectors.md": 8,
    "self-attention-from-scratch.html": 12,
    "attention-i-am-happy.md": 54,
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_share_of_numbers_placed_and_judged_right(name: str) -> None:
    assert share(name) == (MEASURED[name], PAGES[name][1])


def test_overall_share_is_at_least_90_percent() -> None:
    right = sum(share(name)[0] for name in PAGES)
    total = sum(count for _, count in PAGES.values())
    assert (right, total) == (144, 144)
    assert right / total >= 0.9
