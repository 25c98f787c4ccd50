"""The integers a call takes as axes or sizes (``h.permute(1, 0, 2)``, ``w.transpose(0, 1)``)
are no value: ``query = h.permute(1, 0, 2)`` names the tensor printed below it, not the
three integers, so the page is not refused for a query of 3 numbers against keys of 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mha_symbolic.extract.call_names import dimension_arguments
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import read

KEYS = np.array([[0.25, -0.5], [0.75, 0.5]])
QUERY = np.array([[0.5, -1.0]])


def _cell(source: str, output: str) -> dict[str, object]:
    shown = {"data": {"text/plain": [output]}, "metadata": {}, "output_type": "execute_result"}
    return {"cell_type": "code", "metadata": {}, "source": [source], "outputs": [shown]}


def _tensor(a: np.ndarray) -> str:
    return (
        "tensor([[[" + "],\n         [".join(", ".join(f"{x:.4f}" for x in r) for r in a) + "]]])"
    )


NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# One query over two keys"]},
        _cell("keys = hidden_seq\nkeys", _tensor(KEYS)),
        _cell("query = decoder.hidden.permute(1, 0, 2)\nquery", _tensor(QUERY)),
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_axes_of_a_call_are_no_value() -> None:
    rows = (("1", "0", "2"),)
    assert dimension_arguments("query = decoder.hidden.permute", "tuple", rows)
    assert dimension_arguments("w.transpose", "tuple", (("0", "1"),))
    assert not dimension_arguments("query = torch.tensor", "tuple", rows)
    assert not dimension_arguments("x.view", "tuple", (("0.5", "1"),))


def test_the_name_goes_to_the_tensor_printed_below_not_to_the_axes(tmp_path: Path) -> None:
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    seen = read(read_document(path)).seen
    named = {s.name: s.item.rows for s in seen if s.role == "q"}
    assert named == {"query": (("0.5000", "-1.0000"),)}
    # an operand of the call: no value, and no name for the vector on the line below to lend it
    assert [s.role for s in seen if s.item.rows == (("1", "0", "2"),)] == ["operand"]
