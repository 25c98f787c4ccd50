"""A notebook whose torch prints are wider than a line (each row wrapped over two lines) and
whose input X comes from a random generator: the wrapped rows are read whole, and the random
generator that made X does not make the (unprinted, absent) projections random: Q = K = V = X
as the numbers say, and the right numbers hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all

X_PRINT = (
    "tensor([[4.1700e-01, 7.2030e-01, 1.0000e-04, 3.0230e-01, 1.4680e-01, 9.2300e-02,\n"
    "         1.8630e-01, 3.4560e-01, 3.9680e-01, 5.3880e-01, 4.1920e-01, 6.8520e-01],\n"
    "        [2.0450e-01, 8.7810e-01, 2.7400e-02, 6.7050e-01, 4.1730e-01, 5.5870e-01,\n"
    "         1.4040e-01, 1.9810e-01, 8.0070e-01, 9.6830e-01, 3.1340e-01, 6.9230e-01],\n"
    "        [8.7640e-01, 8.9460e-01, 8.5000e-02, 3.9100e-02, 1.6980e-01, 8.7810e-01,\n"
    "         9.8300e-02, 4.2110e-01, 9.5790e-01, 5.3320e-01, 6.9190e-01, 3.1550e-01]])\n"
)
WEIGHTS_PRINT = (
    "tensor([[0.3046, 0.3531, 0.3423],\n        [0.2664, 0.3982, 0.3354],\n"
    "        [0.2488, 0.3232, 0.4280]])\n"
)
OUTPUT_PRINT = (
    "tensor([[0.4992, 0.8357, 0.0388, 0.3422, 0.2502, 0.5260, 0.1400, 0.3194, 0.7315,\n"
    "         0.6885, 0.4752, 0.5612],\n"
    "        [0.4865, 0.8416, 0.0394, 0.3606, 0.2622, 0.5416, 0.1385, 0.3122, 0.7458,\n"
    "         0.7079, 0.4685, 0.5640],\n"
    "        [0.5450, 0.8459, 0.0453, 0.3086, 0.2441, 0.5794, 0.1338, 0.3303, 0.7675,\n"
    "         0.6752, 0.5017, 0.5293]])\n"
)


def _cell(source: str, printed: str) -> dict[str, object]:
    output = {"output_type": "stream", "name": "stdout", "text": printed}
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": [output]}


def _page(tmp_path: Path) -> Path:
    heading = "# Self-attention with wide embeddings\n\nQ = K = V = X, scaled dot products."
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": heading},
        _cell("X = torch.rand(3, 12)\nprint(X)", X_PRINT),
        _cell(
            "weights = torch.softmax(X @ X.T / 12 ** 0.5, dim=-1)\nprint(weights)", WEIGHTS_PRINT
        ),
        _cell("output = weights @ X\nprint(output)", OUTPUT_PRINT),
    ]
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}), encoding="utf-8")
    return path


def test_wrapped_torch_rows_of_a_random_input_are_checked_with_no_projection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path)
    spec = extract_all(path)[0].spec
    assert (spec.query.shape, spec.symbolic, sorted(spec.claims)) == (
        (3, 12),
        set(),
        ["head1.weights", "output"],
    )
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (0 exact, 2 rounded)"
