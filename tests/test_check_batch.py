"""A batch axis: x of shape (batch, L, E), claims per batch element (b2.head1.weights)."""

from __future__ import annotations

import pytest

from mha_symbolic.check.batch import batches, check_batch
from mha_symbolic.errors import SpecError

IDENTITY = [[1, 0], [0, 1]]
RAW = {
    "heads": 1,
    "scale": "none",
    "x": [[[1, 0], [0, 1]], [[2, 0], [0, 2]]],
    "weights": {"w_q": [IDENTITY], "w_k": [IDENTITY], "w_v": [IDENTITY]},
}
# torch 2.13: torch.softmax(x @ x.transpose(1, 2), dim=-1).unsqueeze(1), x float64 as above.
TORCH_BATCH = """tensor([[[[0.7311, 0.2689],
          [0.2689, 0.7311]]],


        [[[0.9820, 0.0180],
          [0.0180, 0.9820]]]], dtype=torch.float64)"""


def test_claims_per_batch_element() -> None:
    report = check_batch(
        RAW,
        {
            "weights": TORCH_BATCH,
            "b2.head1.scores[1,1]": "4",
            "b2.head1.weights[1]": "[0.9820, 0.0190]",
        },
    )
    assert [(c.key, c.verdict) for c in report.claims] == [
        ("b1.head1.weights", "rounded"),
        ("b2.head1.weights", "rounded"),
        ("b2.head1.scores[1,1]", "exact"),
        ("b2.head1.weights[1]", "wrong"),  # 1/(1 + e^4) = 0.017986
    ]


def test_batch_of_specs() -> None:
    specs = batches(RAW)
    assert [spec["x"] for spec in specs] == RAW["x"]
    assert all(spec["weights"] is RAW["weights"] for spec in specs)
    assert batches({**RAW, "x": IDENTITY}) == [{**RAW, "x": IDENTITY}]


@pytest.mark.parametrize(
    ("claims", "message"),
    [
        (
            {"head1.scores": "1"},
            "claim 'head1.scores': name its batch element (b1.head1.scores .. b2.head1.scores)",
        ),
        ({"b3.head1.scores": "1"}, "claim 'b3.head1.scores': the batch has 2 elements, no b3"),
    ],
)
def test_bad_batch_claims(claims: dict[str, str], message: str) -> None:
    with pytest.raises(SpecError) as error:
        check_batch(RAW, claims)
    assert str(error.value) == message


def test_batch_sizes_must_agree() -> None:
    raw = {**RAW, "x": None, "query": RAW["x"], "key": [RAW["x"][0]] * 3, "value": RAW["x"]}
    del raw["x"]
    with pytest.raises(SpecError) as error:
        batches(raw)
    assert str(error.value) == (
        "the batched inputs differ in batch size: query has 2, key has 3, value has 2"
    )
