"""Rows printed one per line by a loop (``print(f"  [{', '.join(row)}]")``) under a heading:
the lines are one matrix, checked as the step its numbers give (here the masked scores, -inf
and all), not a one-row array each; a slip in one of them is found. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import read
from mha_symbolic.extract.row_lines import row_lines

SCORES = np.array(
    [[0.8, -0.3, 1.1, 0.2], [-1.2, 0.5, 0.4, 0.9], [0.3, 0.3, -0.6, 1.4], [1.0, -0.2, 0.7, -0.5]]
)
CAUSAL = np.tril(np.ones((4, 4))) == 1
MASKED = np.where(CAUSAL, SCORES, -np.inf)
WEIGHTS = np.exp(MASKED) / np.exp(MASKED).sum(axis=1, keepdims=True)


def _matrix(a: np.ndarray) -> str:
    return "[" + "\n ".join("[" + " ".join(f"{x:6.2f}" for x in r) + "]" for r in a) + "]"


def _lines(a: np.ndarray) -> str:
    def entry(x: float) -> str:
        return "  -inf" if np.isneginf(x) else f"{x:6.2f}"

    return "\n".join("  [" + ", ".join(entry(x) for x in row) + "]" for row in a)


def page(masked: np.ndarray) -> str:
    cells = [
        ("print(scores)", _matrix(SCORES)),
        (
            'print("Masked scores:")\nfor row in masked:\n    print(row)',
            "Masked scores:\n" + _lines(masked),
        ),
        ("print(F.softmax(masked, dim=-1).round(3))", _matrix(WEIGHTS).replace("  ", " ")),
    ]
    out = [{"cell_type": "markdown", "source": "# Causal attention, step by step\n"}]
    for source, printed in cells:
        output = {"output_type": "stream", "name": "stdout", "text": printed + "\n"}
        out.append({"cell_type": "code", "source": source, "outputs": [output]})
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4}, indent=1)


def _verdicts(text: str) -> dict[str, str]:
    found = extract_all(text, "ipynb", reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def test_rows_printed_one_per_line_are_one_matrix() -> None:
    verdicts = _verdicts(page(MASKED))
    assert verdicts.get("head1.masked") in ("exact", "rounded", "within"), verdicts
    assert "wrong" not in verdicts.values()
    assert not any("[" in key for key in verdicts)  # no row read on its own


def test_a_slip_in_one_row_line_is_found() -> None:
    slipped = MASKED.copy()
    slipped[2, 1] += 0.5
    verdicts = _verdicts(page(slipped))
    assert verdicts.get("head1.masked") == "wrong"


def test_rows_after_names_are_no_bare_rows() -> None:
    seen = read(read_document("q = [1.0, 2.0]\nk = [0.5, 0.5]\n", kind="md")).seen
    assert len(seen) == 2 and len(row_lines(seen)) == 2  # named vectors, never stacked
