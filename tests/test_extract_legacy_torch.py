"""Tensors as PyTorch before 0.4 printed them: bare rows over ``[torch.FloatTensor of size
3x4]``, a wide one in ``Columns 0 to 2`` blocks side by side: read whole and checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document

PAGE = """# Self-attention, as PyTorch 0.3 printed it

Q = K = V = X, scores divided by sqrt(d_k) = 2.

```python
X = torch.Tensor([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]])
weights = F.softmax(X.mm(X.t()) / 2, dim=1)
print(weights)
print(weights.mm(X))
print(weights[0])
```

```
 0.4223  0.1554  0.4223
 0.1554  0.4223  0.4223
 0.2119  0.2119  0.5761
[torch.FloatTensor of size 3x3]

Columns 0 to 2
 0.8446  0.5777  0.8446
 0.5777  0.8446  0.5777
 0.7881  0.7881  0.7881

Columns 3 to 3
 0.5777
 0.8446
 0.7881
[torch.FloatTensor of size 3x4]

 0.4223
 0.1554
 0.4223
[torch.FloatTensor of size 3]
```
"""


def test_footed_blocks_are_read_side_by_side(tmp_path: Path) -> None:
    path = tmp_path / "old.md"
    path.write_text(PAGE, encoding="utf-8")
    _, items = find_items(read_document(path))
    assert [item.rows for item in items if item.kind == "julia"] == [
        (
            ("0.4223", "0.1554", "0.4223"),
            ("0.1554", "0.4223", "0.4223"),
            ("0.2119",) * 2 + ("0.5761",),
        ),
        (
            ("0.8446", "0.5777", "0.8446", "0.5777"),
            ("0.5777", "0.8446", "0.5777", "0.8446"),
            ("0.7881",) * 4,
        ),
        (("0.4223", "0.1554", "0.4223"),),
    ]


def test_an_old_torch_notebook_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.md"
    path.write_text(PAGE.replace("0.8446  0.5777  0.8446\n", "0.8446  0.5777  0.8464\n"), "utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"{path}: 3 claims: 2 hold (0 exact, 2 rounded), 1 wrong"
    assert "  (1, 3)   claimed 0.8464, exact 0.844638: wrong" in out.splitlines()
