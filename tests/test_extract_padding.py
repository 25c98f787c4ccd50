"""A masked single query as a notebook prints it: the query made with ``torch.Tensor`` (an
array maker, not a computation's argument), a key padded out with ``masked_fill(mask, -1e9)``
and the softmax weights printed with exact zeros there: the zeros are read as the padding
mask that makes them, and the weights are checked, not refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.call_names import argument


def _cell(source: str, *printed: str) -> dict[str, object]:
    outputs = [{"output_type": "stream", "name": "stdout", "text": text} for text in printed]
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": outputs}


def _notebook(weights: str) -> dict[str, object]:
    cells = [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": "# Masked attention for one query\n\nThe last key is padding.",
        },
        _cell(
            "def attention(query, keys, values, mask):\n"
            "    scores = torch.bmm(query, keys.transpose(1, 2))\n"
            "    scores = scores.masked_fill(mask, -1e9)\n"
            "    weights = F.softmax(scores, dim=-1)\n"
            "    return torch.bmm(weights, values), weights"
        ),
        _cell("query = torch.Tensor([[[1., 0., 1.]]])"),
        _cell(
            "keys = torch.Tensor([[[1., 0., 0.], [0., 1., 0.], [1., 1., 0.], [0., 0., 1.]]])\n"
            "values = torch.Tensor([[[1., 2.], [3., 4.], [5., 6.], [7., 8.]]])"
        ),
        _cell(
            "mask = torch.tensor([[[False, False, False, True]]])\n"
            "context, weights = attention(query, keys, values, mask)\nprint(weights)",
            f"tensor([[[{weights}]]])\n",
        ),
    ]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _path(tmp_path: Path, weights: str) -> Path:
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps(_notebook(weights)), encoding="utf-8")
    return path


def test_padded_weights_of_one_query_are_checked_under_the_mask_their_zeros_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _path(tmp_path, "0.4223, 0.1554, 0.4223, 0.0000")
    found = extract_all(path)[0]
    assert found.spec.mask is not None
    assert found.spec.mask.tolist() == [[1, 1, 1, 0]]
    assert sorted(found.spec.claims) == ["head1.q[1]", "head1.weights[1]"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "masked (the keys later weights print as 0), by rows): holds to 4 digits" in " ".join(
        out.split()
    )
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"


def test_weights_without_a_zero_need_no_mask(tmp_path: Path) -> None:
    path = _path(tmp_path, "0.3222, 0.1185, 0.3222, 0.2371")
    assert extract_all(path)[0].spec.mask is None


@pytest.mark.parametrize(
    ("line", "passed"),
    [
        ("query = torch.Tensor(", False),
        ("query = torch.FloatTensor(", False),
        ("q = torch.tensor(np.array(", False),
        ("k = tf.convert_to_tensor(", False),
        ("out = attention(np.array(", True),
        ("y = f(torch.tensor(", True),
    ],
)
def test_an_array_maker_is_not_a_call_whose_argument_the_value_is(line: str, passed: bool) -> None:
    assert argument(line) is passed
