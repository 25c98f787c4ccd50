"""The running mean as attention with no scores (the "mathematical trick" of many GPT
tutorials): ``xbow[t] = mean(x[:t+1])`` computed by loops, then as ``tril / tril.sum(1)`` times
x, then as the softmax of ``torch.zeros((T, T))`` masked with -inf. The numbers say it: the
averages, the weights and the masked zeros are all checked, a slip among them is found, and a
printed 0/-inf mask applied to real scores stays a mask. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.infer import relations as rel

X = np.array([[0.4, -1.2], [1.0, 0.6], [-0.8, 0.2], [0.3, 1.5], [1.1, -0.5]])
T = len(X)
TRIL = np.tril(np.ones((T, T)))
AVERAGE = TRIL / TRIL.sum(axis=1, keepdims=True)


def _tensor(a: np.ndarray, digits: int = 4) -> str:
    def entry(x: float) -> str:
        return "-inf" if np.isneginf(x) else f"{x:.{digits}f}"

    rows = ",\n        ".join("[" + ", ".join(entry(x) for x in row) + "]" for row in a)
    return f"tensor([{rows}])\n"


def running_mean_page(means: np.ndarray) -> str:
    masked = np.where(TRIL == 1, 0.0, -np.inf)
    cells = [
        ("x = torch.randn(T, C)\nprint(x)", _tensor(X)),
        (
            "xbow = torch.zeros((T, C))\nfor t in range(T):\n"
            "    xbow[t] = torch.mean(x[:t+1], 0)\nprint(xbow)",
            _tensor(means),
        ),
        ("wei = torch.tril(torch.ones(T, T))\nwei = wei / wei.sum(1, keepdim=True)\nwei", None),
        ("wei", _tensor(AVERAGE)),
        (
            "wei = torch.zeros((T, T))\n"
            "wei = wei.masked_fill(torch.tril(torch.ones(T, T)) == 0, float('-inf'))\nwei",
            _tensor(masked, 0).replace(".0,", ".,").replace(".0]", ".]"),
        ),
    ]
    out = [{"cell_type": "markdown", "source": "# Self-attention as a running average\n"}]
    for source, printed in cells:
        outputs = (
            []
            if printed is None
            else [{"output_type": "execute_result", "data": {"text/plain": printed}}]
        )
        out.append({"cell_type": "code", "source": source, "outputs": outputs})
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4}, indent=1)


def _verdicts(text: str) -> dict[str, str]:
    found = extract_all(text, "ipynb", reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def test_the_running_mean_is_attention_with_zero_scores() -> None:
    verdicts = _verdicts(running_mean_page(AVERAGE @ X))
    assert verdicts["head1.output"] in ("exact", "rounded", "within")
    assert verdicts["head1.weights"] == "rounded"
    assert verdicts["head1.masked"] == "exact"
    assert "wrong" not in verdicts.values()
    (one,) = extract_all(running_mean_page(AVERAGE @ X), "ipynb")
    assert any("plain average" in note for note in one.notes)


def test_a_slipped_mean_is_wrong() -> None:
    means = AVERAGE @ X
    means[3, 1] += 0.1
    verdicts = _verdicts(running_mean_page(means))
    assert "wrong" in {v for k, v in verdicts.items() if k.startswith("head1.output")}
    assert verdicts["head1.weights"] == "rounded"


def test_masked_scores_equal_where_the_mask_leaves_them_are_even() -> None:
    def node(a: np.ndarray) -> rel.Node:
        return rel.Node(a, np.zeros_like(a), "printed")

    ones_masked = np.where(TRIL == 1, 1.0, -np.inf)
    assert rel.even(node(ones_masked))  # uniform weights whatever the constant: no sign
    scores = np.where(TRIL == 1, np.arange(T * T, dtype=float).reshape(T, T), -np.inf)
    assert not rel.even(node(scores))
    assert not rel.even(node(np.full((T, T), -np.inf)))
