"""A notebook whose module applies nn.Linear (X W^T) but prints each weight already transposed
(``W_q.weight.transpose(0, 1)``), random weights to 4 decimals: the printed Q is X times W as
printed, so the numbers set the convention to xW over the code's words; K, printed once and
again by name, gets its W_K through the reprint. Every claim then holds (numpy oracle)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

X = np.array([[0.75, -1.25], [2.5, 0.5], [-3.5, 1.75]])
# Drawn like an initialisation; the page prints them to 4 decimals, already transposed.
W_Q = np.array([[0.3917, -0.2264], [-0.5182, 0.4471]])
W_K = np.array([[-0.2797, 0.5230], [-0.6926, 0.4497]])


def _tensor(a: np.ndarray, decimals: int = 4) -> str:
    rows = ",\n        ".join("[" + ", ".join(f"{x:.{decimals}f}" for x in r) + "]" for r in a)
    return f"tensor([{rows}])"


def _cell(source: str, output: str | None = None) -> dict[str, object]:
    shown = {"data": {"text/plain": [output]}, "metadata": {}, "output_type": "execute_result"}
    outputs = [shown] if output is not None else []
    return {"cell_type": "code", "metadata": {}, "source": [source], "outputs": outputs}


def _notebook() -> dict[str, object]:
    q, k = X @ W_Q, X @ W_K
    scores = q @ k.T / np.sqrt(2.0)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Self-attention by hand"]},
        _cell(
            "class SelfAttention(nn.Module):\n"
            "    def __init__(self, d_model=2):\n"
            "        super().__init__()\n"
            "        self.W_q = nn.Linear(d_model, d_model, bias=False)\n"
            "        self.W_k = nn.Linear(d_model, d_model, bias=False)\n"
        ),
        _cell("x = torch.tensor(" + _tensor(X, 2)[7:] + "\nx", _tensor(X, 2)),
        _cell("attn.W_q.weight.transpose(0, 1)", _tensor(W_Q)),
        _cell("attn.W_k.weight.transpose(0, 1)", _tensor(W_K)),
        _cell("attn.W_q(x)", _tensor(q)),
        _cell("attn.W_k(x)", _tensor(k)),
        _cell("k = attn.W_k(x)\nk", _tensor(k)),
        _cell("scaled = torch.matmul(q, k.T) / 2**0.5\nscaled", _tensor(scores)),
        _cell("weights = F.softmax(scaled, dim=1)\nweights", _tensor(e / e.sum(1, keepdims=True))),
    ]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_the_numbers_set_the_convention_over_the_code_and_every_claim_holds(
    tmp_path: Path,
) -> None:
    path = tmp_path / "attention.ipynb"
    path.write_text(json.dumps(_notebook()), encoding="utf-8")
    (one,) = extract_all(path)
    assert one.spec.convention == "xW"
    assert "w_k" in one.toml and "head1.k" in one.spec.claims
    report = check(one.spec)
    assert report.ok
    assert len(report.claims) == len(one.spec.claims) >= 4
