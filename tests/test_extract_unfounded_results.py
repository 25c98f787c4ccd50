"""A print named "Output" in a part of the page where the numbers found no example and nothing
that computes a result is printed (no weight, no Q, K or V, no scores or weights) is left
alone: a decoder's prediction printed beside its hidden state is no attention output."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main

DECODER = """# A decoder without attention

```python
inputs = source_seq[:, -1:]
for i in range(2):
    print(f'Hidden: {decoder.hidden}')
    out = decoder(inputs)   # Predicts coordinates
    print(f'Output: {out}')
    # Predicted coordinates are next step's inputs
    inputs = out
```

```
Hidden: tensor([[[ 0.3105, -0.5263]]], grad_fn=<PermuteBackward0>)
Output: tensor([[[-0.2339,  0.4702]]], grad_fn=<ViewBackward0>)
```
"""

# The same names where the page gives what computes the output: a wrong output is still found.
WORKED = """# One token, by hand

X = [[1, 2]]

W_Q = [[1, 0], [0, 1]]

W_K = [[1, 0], [0, 1]]

W_V = [[2, 0], [0, 1]]

Output = [[3, 2]]
"""


def _page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_decoder_output_beside_its_hidden_state_is_no_claim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(_page(tmp_path, DECODER))]) == 2
    captured = capsys.readouterr()
    assert "wrong" not in captured.out and "nothing to check" in captured.err


def test_an_output_the_printed_weights_compute_is_still_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(_page(tmp_path, WORKED))]) == 1  # X W_V = [2, 2], not [3, 2]
    assert "output" in capsys.readouterr().out
