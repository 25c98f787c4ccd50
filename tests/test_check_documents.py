"""Checking a document as printed: what the numbers relate is claimed (a print of the same
numbers again, a row the numbers place), what they do not relate is left alone, and a masked
entry is shown as a reader writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all


def _page(tmp_path: Path, text: str, name: str = "page.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


AGAIN = """# Causal attention weights from the scores

scores = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

masked = [[1, -inf, -inf], [4, 5, -inf], [7, 8, 9]]

| row | weights |
|---|---|
| 1 | [1.0, 0, 0] |
| 2 | [0.27, 0.73, 0] |
| 3 | [0.09, 0.24, 0.67] |

The same weights as the tensor prints them:

```
tensor([[1.0000, 0.0000, 0.0000],
        [0.2689, 0.7311, 0.0000],
        [0.0900, 0.2447, 0.6652]])
```
"""


def test_numbers_printed_again_are_claimed_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tensor prints the table's weights again: the same step, claimed row by row."""
    path = _page(tmp_path, AGAIN)
    claims = extract_all(path)[0].spec.claims
    assert sorted(claims) == [
        "head1.masked",
        "head1.weights",
        "head1.weights[1]",
        "head1.weights[2]",
        "head1.weights[3]",
    ]
    assert claims["head1.weights[2]"] == "[0.2689, 0.7311, 0.0000]"
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 5 claims: 5 hold (2 exact, 3 rounded)"
    )
