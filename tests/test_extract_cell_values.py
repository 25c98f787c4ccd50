"""A vector worked out one entry a notebook cell (``exp(z[0])``, ``exp(z[1])``, ... each shown
as the cell's value): the cells are one vector, checked as the step their numbers give, and a
slip in one cell is found. Cells with a loop, or an index the outputs do not follow, are not
read as one. Truths with numpy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document

LOGITS = np.array([-1.0, 1.0, 5.0])
EXPS = np.exp(LOGITS)
SHARES = EXPS / EXPS.sum()


def _notebook(path: Path, cells: list[tuple[str, str]]) -> Path:
    out: list[dict[str, object]] = [{"cell_type": "markdown", "source": "# Softmax\n"}]
    for source, shown in cells:
        outputs = []
        if shown:
            data = {"text/plain": shown}
            outputs = [{"output_type": "execute_result", "data": data, "metadata": {}}]
        out.append({"cell_type": "code", "source": source, "outputs": outputs})
    path.write_text(
        json.dumps({"cells": out, "metadata": {}, "nbformat": 4}, indent=1), encoding="utf-8"
    )
    return path


def _cells(shares: list[str] | None = None, logits: np.ndarray = LOGITS) -> list[tuple[str, str]]:
    exps = np.exp(logits)
    written = ", ".join(str(float(x)) for x in logits)
    cells = [("from math import exp", ""), (f"z = [{written}]", "")]
    cells += [(f"exp(z[{i}])", repr(float(e))) for i, e in enumerate(exps)]
    cells += [("total = sum(exp(x) for x in z)", ""), ("total", repr(float(exps.sum())))]
    shown = shares or [repr(float(s)) for s in exps / exps.sum()]
    cells += [(f"exp(z[{i}])/total", s) for i, s in enumerate(shown)]
    return cells


def _claims(path: Path) -> dict[str, str]:
    found = extract_all(path.read_text(encoding="utf-8"), "ipynb", reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def test_cells_that_each_show_one_index_are_one_vector(tmp_path: Path) -> None:
    path = _notebook(tmp_path / "cells.ipynb", _cells())
    _, items = find_items(read_document(path))
    vectors = [item.rows[0] for item in items if item.kind == "lines"]
    assert vectors == [
        tuple(repr(float(e)) for e in EXPS),
        tuple(repr(float(s)) for s in SHARES),
    ]
    claims = _claims(path)
    assert claims["head1.exp"] in ("exact", "rounded")
    assert claims["head1.weights[1]"] in ("exact", "rounded")


def test_a_slip_in_one_cell_is_found(tmp_path: Path) -> None:
    logits = np.array([-1.0, 1.0, 5.0, 2.0, 0.5])
    shares = [f"{s:.4f}" for s in np.exp(logits) / np.exp(logits).sum()]
    shares[1] = "0.0279"  # 0.0169 truly
    path = _notebook(tmp_path / "slip.ipynb", _cells(shares, logits))
    claims = _claims(path)
    assert claims["head1.weights[1]"] == "wrong", claims
    assert claims["head1.exp"] in ("exact", "rounded"), claims


def test_a_loop_a_broken_run_or_another_print_between_is_no_vector(tmp_path: Path) -> None:
    looped = [("z = [-1.0, 1.0, 5.0]", "")]
    looped += [(f"for i in range(1):\n    exp(z[{i}])", repr(float(e))) for i, e in enumerate(EXPS)]
    skipped = [("z = [-1.0, 1.0, 5.0]", "")]
    skipped += [(f"exp(z[{i}])", repr(float(EXPS[i]))) for i in (0, 2)]
    between = [("z = [-1.0, 1.0, 5.0]", ""), ("exp(z[0])", repr(float(EXPS[0])))]
    between += [("len(z)", "3"), ("exp(z[1])", repr(float(EXPS[1])))]
    for name, cells in (("looped", looped), ("skipped", skipped), ("between", between)):
        _, items = find_items(read_document(_notebook(tmp_path / f"{name}.ipynb", cells)))
        assert not [item for item in items if item.kind == "lines"], name
