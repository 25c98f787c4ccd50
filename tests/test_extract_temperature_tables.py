"""A table of softmax(z / T), one row per temperature, after the logits z: each row is judged as
the softmax of z scaled by 1/T, right rows right and a wrong row wrong; a table of other numbers
is no such table. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

Z = np.array([2.0, 3.0, 8.0])
TEMPERATURES = (0.5, 1.0, 2.0, 5.0)


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max())
    return e / e.sum()


def _page(rows: list[np.ndarray], label: str = "T = ") -> str:
    table = ["| Temperature | p0 | p1 | p2 | Entropy |", "|---|---|---|---|---|"]
    for t, p in zip(TEMPERATURES, rows):
        entropy = float(-(p * np.log(np.maximum(p, 1e-300))).sum())
        table.append(f"| {label}{t} | " + " | ".join(f"{x:.4f}" for x in p) + f" | {entropy:.2f} |")
    return (
        "# Softmax with a temperature\n\nThe attention softmax divides its logits by T.\n\n"
        "```python\nlogits = np.array([2.0, 3.0, 8.0])\n```\n\n" + "\n".join(table) + "\n"
    )


def _verdicts(page: str) -> list[str]:
    found = extract_all(page, "md", reprints=True)
    return [c.verdict for one in found for c in check(one.spec).claims if "weights" in c.key]


def test_each_row_is_the_softmax_at_its_temperature() -> None:
    rows = [softmax(Z / t) for t in TEMPERATURES]
    verdicts = _verdicts(_page(rows))
    assert len(verdicts) == len(TEMPERATURES)
    assert all(v in ("rounded", "exact", "within") for v in verdicts), verdicts


def test_a_row_worked_wrong_is_found() -> None:
    rows = [softmax(Z / t) for t in TEMPERATURES]
    rows[2] = np.array([0.0427, 0.0704, 0.8869])  # not softmax(z / 2): [0.0440, 0.0725, 0.8835]
    verdicts = _verdicts(_page(rows))
    assert verdicts.count("wrong") == 1 and len(verdicts) == len(TEMPERATURES), verdicts


def test_rows_of_other_numbers_are_no_temperature_table() -> None:
    rows = [np.array([0.2, 0.3, 0.5]) for _ in TEMPERATURES]  # distributions, not softmax(z/T)
    assert _verdicts(_page(rows, label="run ")) == []


def test_a_printed_table_with_the_temperature_as_its_first_column() -> None:
    """A notebook's f-string table ("0.5 | 0.0000 | ... |", a header line and dashes above):
    read as a table, its first column the temperatures."""
    lines = ["T    | p0     | p1     | p2", "-" * 30]
    lines += [
        f"{t:<4} | " + " | ".join(f"{x:.4f}" for x in softmax(Z / t)) + " |" for t in TEMPERATURES
    ]
    cells = [
        {"cell_type": "markdown", "source": "# Temperature\nThe attention softmax of z / T.\n"},
        {
            "cell_type": "code",
            "source": "scores = np.array([2.0, 3.0, 8.0])\nfor t in temps:\n    print(row(t))",
            "outputs": [{"output_type": "stream", "name": "stdout", "text": "\n".join(lines)}],
        },
    ]
    page = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)
    found = extract_all(page, "ipynb", reprints=True)
    verdicts = [c.verdict for one in found for c in check(one.spec).claims if "weights" in c.key]
    assert len(verdicts) == len(TEMPERATURES), verdicts
    assert all(v in ("rounded", "exact", "within") for v in verdicts), verdicts


def _loop_page(rows: list[np.ndarray]) -> str:
    """A loop's printed lines, one per temperature, kept as comments under the code."""
    lines = "\n".join(
        f"# T={t}: [" + ", ".join(f"{x:.3f}" for x in p) + "]" for t, p in zip(TEMPERATURES, rows)
    )
    return (
        "# Temperature in attention\n\n```python\nscores = torch.tensor([2.0, 3.0, 8.0])\n"
        "for T in [0.5, 1.0, 2.0, 5.0]:\n    print(f'T={T}: {F.softmax(scores / T, dim=0)}')\n"
        f"{lines}\n```\n"
    )


def test_one_printed_line_per_temperature_is_a_table() -> None:
    """ "# T=0.5: [0.000, 0.002, 0.998]" on lines one after another: each the softmax at its
    T, judged as a row of a temperature table (they were left unread: no name, no relation
    where the page worked them wrong)."""
    rows = [softmax(Z / t) for t in TEMPERATURES]
    verdicts = _verdicts(_loop_page(rows))
    assert len(verdicts) == len(TEMPERATURES), verdicts
    assert all(v in ("rounded", "exact", "within") for v in verdicts), verdicts
    rows = [p[::-1] for p in rows]  # every row worked wrong: the probabilities reversed
    verdicts = _verdicts(_loop_page(rows))
    assert verdicts == ["wrong"] * len(TEMPERATURES), verdicts
