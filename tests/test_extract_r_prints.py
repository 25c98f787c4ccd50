"""Matrices as R prints them (``[,1] [,2]`` over ``[1,] ...`` rows; knitr's ``## `` or reprex's
``#> `` before each line; a wide one in blocks of columns): read whole, named by the
``print(name)`` above, and checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document

PAGE = """# Attention in R

The scores are given; the weights are their softmax by rows, no scale.

```r
print(scores)
```

```
##      [,1] [,2] [,3]
## [1,]    2    0    1
## [2,]    0    1    0
## [3,]    1    1    3
```

```r
weights = t(apply(scores, 1, function(s) exp(s) / sum(exp(s))))
print(weights)
#>           [,1]      [,2]      [,3]
#> [1,] 0.6652410 0.0900306 0.2447285
#> [2,] 0.2119416 0.5761169 0.2119416
#> [3,] 0.1065070 0.1065070 0.7869860
```

A wide print comes in blocks of columns:

```
     [,1] [,2] [,3]
[1,]  1.5  2.5  3.5
[2,]  4.5  5.5  6.5
     [,4]
[1,]  7.5
[2,]  8.5
```
"""


def test_r_prints_are_read_with_their_blocks_side_by_side(tmp_path: Path) -> None:
    path = tmp_path / "r.md"
    path.write_text(PAGE, encoding="utf-8")
    _, items = find_items(read_document(path))
    assert [item.rows for item in items if item.kind == "julia"] == [
        (("2", "0", "1"), ("0", "1", "0"), ("1", "1", "3")),
        (
            ("0.6652410", "0.0900306", "0.2447285"),
            ("0.2119416", "0.5761169", "0.2119416"),
            ("0.1065070", "0.1065070", "0.7869860"),
        ),
        (("1.5", "2.5", "3.5", "7.5"), ("4.5", "5.5", "6.5", "8.5")),
    ]
    assert not any(item.rows == (("1",),) for item in items)  # "[1,]" is no list of one


def test_a_block_of_another_height_or_a_skipped_column_is_no_matrix(tmp_path: Path) -> None:
    page = "     [,1] [,2]\n[1,]  1  2\n[2,]  3  4\n     [,4]\n[1,]  5\n[2,]  6\n"
    page += "\n     [,1]\n[1,]  1\n[2,]  2\n     [,2]\n[1,]  3\n"
    path = tmp_path / "r.md"
    path.write_text(page, encoding="utf-8")
    _, items = find_items(read_document(path))
    assert not [item for item in items if item.kind == "julia"]


def test_an_r_page_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.md"
    path.write_text(PAGE.replace("0.5761169", "0.5716169"), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "scores (line 10) -> scores" in out
    assert out.splitlines()[-1] == f"{path}: 1 claim: 0 hold (0 exact, 0 rounded), 1 wrong"
    assert "(2, 2)   claimed 0.5716169, exact 0.576116885: wrong" in out
