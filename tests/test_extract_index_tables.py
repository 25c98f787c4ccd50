"""Markdown tables whose first column counts the positions (``| Token | Dim 1 | ...`` over
``| 0 | ...``, ``| 1 | ...``) and whose header may count them too (``| Token | 0 | 1 | 2 |``):
the counts label rows and columns, they are no numbers of the matrix."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document

PAGE = """# Attention from a run, as tables

### Scores Q K^T

| Token | 0 | 1 | 2 |
|-------|------|------|------|
| 0 | 1.2 | -0.4 | 0.3 |
| 1 | 0.5 | 2.0 | -1.0 |
| 2 | 0.0 | 0.8 | 1.6 |

The scores are divided by sqrt(d_k) = 2 and a softmax is taken by rows.

### Attention weights

| Token | 0 | 1 | 2 |
|-------|--------|--------|--------|
| 0 | 0.4792 | 0.2153 | 0.3055 |
| 1 | 0.2786 | 0.5898 | 0.1316 |
| 2 | 0.2120 | 0.3162 | 0.4718 |

### X

| Token | Dim 1 | Dim 2 |
|-------|-------|-------|
| 0 | 0.5 | -1.5 |
| 1 | 2.5 | 0.0 |
| 2 | -3.0 | 1.0 |
"""


def test_counted_positions_label_rows_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "run.md"
    path.write_text(PAGE, encoding="utf-8")
    _, items = find_items(read_document(path))
    tables = [item for item in items if item.kind == "table"]
    assert [item.rows[0] for item in tables] == [
        ("1.2", "-0.4", "0.3"),
        ("0.4792", "0.2153", "0.3055"),
        ("0.5", "-1.5"),
    ]
    assert [len(item.rows) for item in tables] == [3, 3, 3]
    assert tables[0].columns == ("0", "1", "2") and tables[2].labels == ("0", "1", "2")


def test_a_first_column_of_numbers_under_a_number_is_data(tmp_path: Path) -> None:
    page = "| 0 | 1 | 2 |\n|---|---|---|\n| 0 | 1.5 | 2 |\n| 1 | 0.5 | 3 |\n"
    path = tmp_path / "plain.md"
    path.write_text(page, encoding="utf-8")
    _, items = find_items(read_document(path))
    assert next(item.rows for item in items if item.kind == "table")[0] == ("0", "1", "2")


def test_a_page_of_position_tables_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.md"
    path.write_text(PAGE.replace("0.5898", "0.5989"), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "(2, 2)   claimed 0.5989, exact 0.589798" in out
    assert out.splitlines()[-1].endswith("1 claim: 0 hold (0 exact, 0 rounded), 1 wrong")
