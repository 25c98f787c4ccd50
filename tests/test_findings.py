"""Findings: shapes and conventions a document contradicts (seeds 002 and 004), reported by
`check DOC` (exit 1) and noted by `extract` (exit 0, the spec written is usable)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic.check.findings import transpose_findings
from mha_symbolic.cli import main

SEEDS = Path(__file__).resolve().parent / "data" / "seeds"


def seed(number: str) -> str:
    return str(next(SEEDS.glob(f"{number}_*.txt")))


SHAPES_002 = [
    f"finding: W_{letter} is stated as (4, 2) (line {line}) but its products use it as (2, 2)"
    for letter, line in (("Q", 53), ("K", 57), ("V", 61))
]
TRANSPOSED_004 = (
    "finding: Wo is applied as it is (lines 46, 57) and transposed as Woᵀ (lines 42, 56); "
    "one of the two is wrong"
)


def test_check_002_reports_the_stated_shapes_as_findings(capsys: pytest.CaptureFixture) -> None:
    assert main(["check", seed("002")]) == 1
    assert capsys.readouterr().out.splitlines() == SHAPES_002


def test_check_004_reports_w_o_applied_both_ways(capsys: pytest.CaptureFixture) -> None:
    assert main(["check", seed("004")]) == 1
    wrapped = [TRANSPOSED_004.removesuffix(" is wrong"), "    is wrong"]  # at 100 columns
    assert capsys.readouterr().out.splitlines() == wrapped
    assert main(["check", seed("004"), "--format", "md"]) == 1  # Markdown is never wrapped
    assert capsys.readouterr().out.splitlines() == [TRANSPOSED_004]


def test_check_000_has_no_finding(capsys: pytest.CaptureFixture) -> None:
    main(["check", seed("000")])
    assert not any(line.startswith("finding") for line in capsys.readouterr().out.splitlines())


def test_extract_002_writes_a_usable_spec_exits_0_and_notes_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "spec.toml"
    assert main(["extract", seed("002"), "-o", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if "finding" in line] == [
        f"{seed('002')}: {line}" for line in SHAPES_002
    ]
    assert out.read_text(encoding="utf-8").startswith("#")


def test_findings_in_json_are_the_json_document(capsys: pytest.CaptureFixture) -> None:
    """A page with findings and no example: stdout is one JSON document holding them (a JSON
    reader gets the findings, not an empty stream); stderr says them as lines."""
    assert main(["check", seed("004"), "--format", "json"]) == 1
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert document["claims"] == [] and document["findings"][0]["weight"] == "w_o"
    assert [f["text"] for f in document["findings"]] == [TRANSPOSED_004]
    assert captured.err.splitlines() == [TRANSPOSED_004]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "O = C × W_O\nlater: O = C \\cdot W_O^T",
            [
                "finding: W_O is applied as it is (line 1) and transposed as W_O^T (line 2); "
                "one of the two is wrong"
            ],
        ),
        ("Q = X @ W_q.T\nK = X @ W_k", []),  # different weights: no contradiction
        ("O = C × W_O^{\\top}\nO = C × W_O^{\\top}", []),  # the same way twice
        ("the weight Wo mixes the heads\nO = C × Woᵀ", []),  # prose is not a product
        ("Words × Wonder\nO = H · Wo", []),  # other words starting with W
    ],
)
def test_transpose_findings(text: str, expected: list[str]) -> None:
    assert [str(f.phrase) for f in transpose_findings(text.splitlines())] == expected
