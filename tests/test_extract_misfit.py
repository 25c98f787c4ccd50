"""A page whose arrays fit no attention computation is refused in the page's terms: what was
found (names as printed, shapes, lines) and why it could not be checked, never the message of
a spec field the reader never wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main

ONE_QUERY_TWO_HEADS = """# Multi-head attention (2 heads)

Q = [1, 0]

K = [[1, 0, 1], [0, 1, 0], [1, 1, 1]]

Softmax weights = [0.4223, 0.1554, 0.4223]
"""


def _refusal(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    return err.removeprefix(f"mha-symbolic: {path}: ").rstrip("\n")


def test_a_query_row_that_fits_no_key_is_said_in_the_pages_terms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _refusal(tmp_path, ONE_QUERY_TWO_HEADS, capsys) == (
        "the printed arrays do not fit together: found Q (1×2, line 3) and K (3×3, line 5) "
        "but a row of Q has 2 numbers and a row of K 3: no scores can be formed from them; "
        "also tried one head: none fits"
    )


def test_keys_and_values_of_different_lengths_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = "# Attention\n\nq = [[1, 0]]\n\nkeys = [[1, 0], [0, 1], [1, 1]]\n\n"
    page += "values = [[1, 2], [3, 4]]\n\nsoftmax(q k^T) = [[0.4223, 0.1554, 0.4223]]\n"
    assert _refusal(tmp_path, page, capsys) == (
        "the printed arrays do not fit together: found q (1×2, line 3), keys (3×2, line 5) and "
        "values (2×2, line 7) but keys has 3 rows and values 2: not one value per key"
    )
