"""Printed formats beyond plain text: a notebook's HTML table output (a pandas Styler shows its
numbers only there) read as a matrix with its labels, and judged as the step its numbers are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all


def _styler(name: str, rows: list[list[str]]) -> dict[str, object]:
    """``display(df.style.format(...))``: the HTML table, and a plain text with no number."""
    tokens = ["t1", "t2", "t3"][: len(rows)]
    head = "".join(f'<th class="col_heading">{t}</th>' for t in tokens)
    body = "".join(
        f'<tr><th class="row_heading">{t}</th>' + "".join(f"<td>{v}</td>" for v in row) + "</tr>"
        for t, row in zip(tokens, rows)
    )
    return {
        "output_type": "display_data",
        "data": {
            "text/html": f'<table id="T_{name}"><thead><tr><th class="blank">&nbsp;</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table>",
            "text/plain": "<pandas.io.formats.style.Styler>",
        },
        "metadata": {},
    }


def _stream(text: str) -> dict[str, object]:
    return {"output_type": "stream", "name": "stdout", "text": text}


def _cell(source: str, outputs: list[dict[str, object]]) -> dict[str, object]:
    return {"cell_type": "code", "source": source, "outputs": outputs, "metadata": {}}


SCALED = [["0.707", "0.707", "0.000"], ["0.000", "0.707", "0.707"], ["0.707", "1.414", "0.707"]]
WEIGHTS = [["0.401", "0.401", "0.198"], ["0.198", "0.401", "0.401"], ["0.248", "0.503", "0.248"]]


def _notebook(tmp_path: Path, weights: list[list[str]]) -> Path:
    cells = [
        {"cell_type": "markdown", "source": "# Attention from Q, K and V", "metadata": {}},
        _cell(
            "print(Q); print(K); print(V)",
            [
                _stream("Q =\n [[1. 0.]\n [0. 1.]\n [1. 1.]]\n"),
                _stream("K =\n [[1. 0.]\n [1. 1.]\n [0. 1.]]\n"),
                _stream("V =\n [[1. 0.]\n [0. 1.]\n [1. 1.]]\n"),
            ],
        ),
        _cell(
            "S = Q @ K.T / np.sqrt(2)\nA = softmax(S)",
            [
                _stream("S :\n [[0.707 0.707 0.   ]\n [0.    0.707 0.707]\n [0.707 1.414 0.707]]"),
                _stream("A :\n [[0.401 0.401 0.198]\n [0.198 0.401 0.401]\n [0.248 0.503 0.248]]"),
            ],
        ),
        _cell(
            'display(pd.DataFrame(S).style.format("{:.3f}"))\n'
            'display(pd.DataFrame(A).style.format("{:.3f}"))',
            [
                _stream("Scores S :\n"),
                _styler("S", SCALED),
                _stream("Weights A :\n"),
                _styler("A", weights),
            ],
        ),
    ]
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}), "utf-8")
    return path


def test_a_styler_table_in_a_notebook_is_read_and_judged_as_the_step_it_prints(
    tmp_path: Path,
) -> None:
    path = _notebook(tmp_path, WEIGHTS)
    found = extract_all(path)[-1]
    mapping = [line for line in found.mapping if "cell 4" in line]
    assert mapping == [
        "S (cell 4, output line 2) -> claim head1.scaled[1]",
        "S (cell 4, output line 2) -> claim head1.scaled[2]",
        "S (cell 4, output line 2) -> claim head1.scaled[3]",
        "A (cell 4, output line 2) -> claim head1.weights[1]",
        "A (cell 4, output line 2) -> claim head1.weights[2]",
        "A (cell 4, output line 2) -> claim head1.weights[3]",
    ]


def test_a_slip_in_a_styler_table_is_reported_at_its_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slipped = [WEIGHTS[0], WEIGHTS[1], ["0.248", "0.530", "0.248"]]
    path = _notebook(tmp_path, slipped)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "  [2]      claimed 0.530, exact 0.50349: wrong" in out.splitlines()
    assert out.splitlines()[-1] == f"{path}: 8 claims: 7 hold (0 exact, 7 rounded), 1 wrong"
