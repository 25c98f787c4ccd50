"""`check DOC` reports the examples that have claims; a part of the page read as an example
with nothing to check (a tensor printed on its own after an indexing demo) is no report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mha_symbolic.cli import main
from mha_symbolic.web.documents import checked


def _cell(source: str, output: str = "") -> dict:
    outputs = [{"output_type": "stream", "name": "stdout", "text": output}] if output else []
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": outputs}


def _notebook() -> str:
    x = np.arange(18, dtype=np.float64).reshape(3, 6) / 4
    e = np.exp(x - x.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    printed = (
        "tensor(["
        + ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in a)
        + "])\n"
    )
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# Softmax, then indexing"},
        _cell("X = torch.arange(18.).view(3, 6) / 4\nprint(torch.softmax(X, dim=1))", printed),
        _cell(
            "X = torch.arange(12).view(4, 3)\nX[mask] = 100\nprint(X)",
            "tensor([[100,   1,   2],\n        [  3, 100,   5],\n        [  6,   7,   8],\n"
            "        [  9,  10, 100]])\n",
        ),
        _cell(
            "X[~mask] = 100\nprint(X)",
            "tensor([[  0, 100, 100],\n        [100,   4, 100],\n"
            "        [100, 100, 100],\n        [100, 100,  11]])\n",
        ),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_reading_with_nothing_to_check_is_no_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "page.ipynb"
    path.write_text(_notebook(), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "no claims to check" not in out and "== example" not in out
    assert out.splitlines()[-1] == f"{path}: 1 claim: 1 holds (0 exact, 1 rounded)"


def test_the_page_shows_the_same_examples() -> None:
    examples = checked(_notebook(), "ipynb", "en")["examples"]
    assert len(examples) == 1 and len(examples[0]["claims"]) == 1
