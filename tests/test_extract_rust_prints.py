"""A Rust quickstart (candle): X made with ``Tensor::new(&[[1f32, ...]], &device)`` (an
array maker, and Rust's typed literal 1f32 is the number 1), the results printed as
``[[0.4223, ...], ...]`` rows with candle's ``Tensor[[3, 3], f32]`` line below each."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract.items import entry

PAGE = """# Attention in Rust with candle: a quickstart

Scaled dot-product attention for three tokens with Q = K = V = X.

```rust
let x = Tensor::new(&[[1f32, 0., 1., 0.], [0., 1., 0., 1.], [1., 1., 1., 1.]], &device)?;
let scores = (x.matmul(&x.t()?)? / 2.0)?;
let weights = candle_nn::ops::softmax(&scores, 1)?;
println!("{weights}");
let out = weights.matmul(&x)?;
println!("{out}");
```

Output:

```
[[0.4223, 0.1554, 0.4223],
 [0.1554, 0.4223, 0.4223],
 [0.2119, 0.2119, 0.5761]]
Tensor[[3, 3], f32]
[[0.8446, 0.5777, 0.8446, 0.5777],
 [0.5777, 0.8446, 0.5777, 0.8446],
 [0.7881, 0.7881, 0.7881, 0.7881]]
Tensor[[3, 4], f32]
```
"""


def test_a_candle_quickstart_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "candle.md"
    path.write_text(PAGE, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "x (line 6) -> x" in out.splitlines()
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (0 exact, 2 rounded)"


@pytest.mark.parametrize(
    ("text", "number"), [("1f32", "1"), ("0.5_f64", "0.5"), ("2i64", "2"), ("f32", None)]
)
def test_a_rust_typed_literal_is_its_number(text: str, number: str | None) -> None:
    assert entry(text) == number
