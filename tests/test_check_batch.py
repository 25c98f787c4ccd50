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


# ---------------------------------------------------------------- the batch axis in files
BATCH_TOML = """heads = 1
scale = "none"
x = [[[1, 0], [0, 1]], [[2, 0], [0, 1]]]

[claims]
"b1.head1.weights[1,1]" = "0.73"
"b2.head1.weights[1,1]" = "0.73"
"""


def test_check_a_batched_spec_file(tmp_path, capsys) -> None:
    from mha_symbolic.cli import main

    spec = tmp_path / "batch.toml"
    spec.write_text(BATCH_TOML, encoding="utf-8")
    assert main(["check", str(spec)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("b1.head1.weights[1,1]: rounded\n")
    assert "b2.head1.weights[1,1]: wrong\n" in out
    assert out.endswith(f"{spec}: 2 claims: 1 holds (0 exact, 1 rounded), 1 wrong\n")
    assert main(["check", str(spec), "--claim", "b2.head1.weights[1,1]=0.98"]) == 0


def test_derive_a_batched_spec_file(tmp_path, capsys) -> None:
    from mha_symbolic.cli import main

    spec = tmp_path / "batch.toml"
    spec.write_text(BATCH_TOML, encoding="utf-8")
    assert main(["derive", str(spec), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Batch element 1 of 2\n\n# ")
    assert out.count("# Batch element ") == 2 and "# Batch element 2 of 2\n\n# " in out
    assert main(["derive", str(spec), "-o", str(tmp_path / "out.md")]) == 0
    assert (tmp_path / "out-b1.md").is_file() and (tmp_path / "out-b2.md").is_file()
    assert main(["derive", str(spec), "--format", "tex"]) == 2
    assert capsys.readouterr().err.endswith(
        "a batch of 2 in tex is one file per element: give -o FILE\n"
    )


@pytest.mark.parametrize(
    ("x", "message"),
    [
        ("[[[1, 0], [0, 1]], [[2, 0]]]", "the batch elements differ in length: b1 has 2, b2 has 1"),
        (
            "[[[1, 0], [0, 1]], [[2, 0], [0]]]",
            "batch element 2 (b2): x: row 2 has 1 entry but row 1 has 2",
        ),
        (
            "[[[1, 0], [0, 1]], [[1, 0, 0], [0, 1, 0]]]",
            "the batch elements of x differ in width (E): b1 has 2, b2 has 3",
        ),
    ],
)
def test_bad_batches_are_one_line(tmp_path, capsys, x: str, message: str) -> None:
    from mha_symbolic.cli import main

    spec = tmp_path / "bad.toml"
    spec.write_text(f"heads = 1\nx = {x}\n", encoding="utf-8")
    assert main(["check", str(spec)]) == 2
    assert capsys.readouterr().err == f"mha-symbolic: {spec}: {message}\n"
