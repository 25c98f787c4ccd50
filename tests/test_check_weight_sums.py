"""Row sums of the weights, printed to show that each row sums to 1 (``A.sum(dim=-1)``), are
checked as ``head1.weight_sums``; a row of ones that is an input, or the sums of another
distribution than the example's weights, is never claimed so."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mha_symbolic.cli import main

DOCUMENTS = Path(__file__).parent / "data" / "documents"
_S = np.array([[1.0, 0.0, 2.0], [0.5, 0.5, 0.0], [0.0, 1.0, 1.0]])


def _page(sums: str) -> str:
    e = np.exp(_S - _S.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    rows = ",\n        ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in a)
    return (
        "# Weights sum to one\n\n```python\n"
        "S = torch.tensor([[1.0, 0.0, 2.0], [0.5, 0.5, 0.0], [0.0, 1.0, 1.0]])\n"
        "A = torch.softmax(S, dim=-1)\nprint(A)\nprint(A.sum(dim=-1))\n```\n\n"
        f"```\ntensor([{rows}])\ntensor({sums})\n```\n"
    )


def _claims(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, list[str]]]:
    code = main(["check", str(path), "--format", "json"])
    out, reports, at = capsys.readouterr().out, [], 0
    while out[at:].strip():  # one report per example, one after another
        at += len(out[at:]) - len(out[at:].lstrip())
        value, at = json.JSONDecoder().raw_decode(out, at)
        reports.extend(value if isinstance(value, list) else [value])
    return code, {
        c["key"]: [e["verdict"] for e in c["entries"]] for r in reports for c in r["claims"]
    }


@pytest.mark.parametrize("sums", ["[1., 1., 1.]", "[1.0000, 1.0000, 1.0000]"])
def test_printed_row_sums_of_the_weights_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sums: str
) -> None:
    path = tmp_path / "page.md"
    path.write_text(_page(sums), encoding="utf-8")
    code, claims = _claims(path, capsys)
    assert code == 0
    assert claims["head1.weight_sums"] == ["exact"] * 3


def test_an_input_row_of_ones_is_no_sum_of_weights(capsys: pytest.CaptureFixture[str]) -> None:
    """The page's input [1, 1, 1, 1] equals the row sums of a softmax of a printed weight
    matrix: a coincidence, not a check of the example's weights."""
    _, claims = _claims(DOCUMENTS / "illustrated-self-attention.md", capsys)
    assert claims and "head1.weight_sums" not in claims
