"""Weights a notebook sets by hand over the ones it computed (``w = softmax(s)``, then
``w = torch.tensor([[0.0, 0.5, 0.5], ...])`` "for convenience"): the page assumes them from
there on, so the outputs it computes from them (and each key's share a_ij v_j, and a recap of
them printed again) follow from its assumption: "as assumed", never "wrong", in the report and
in its JSON entries. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

X = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 1.0], [1.0, 1.0, 0.0]])
W_Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
W_K = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
W_V = np.array([[1.0, 2.0], [0.0, 1.0], [2.0, 0.0]])
Q, K, V = X @ W_Q, X @ W_K, X @ W_V
S = Q @ K.T
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
HAND = np.round(A, 1)  # what the page sets by hand
OUT = HAND @ V


def _tensor(a: np.ndarray, digits: int) -> str:
    rows = [", ".join(f"{x:.{digits}f}" for x in row) for row in np.atleast_2d(a)]
    return "tensor([[" + "],\n        [".join(rows) + "]])\n"


def _literal(a: np.ndarray) -> str:
    return "[" + ",\n     ".join("[" + ", ".join(f"{x:.1f}" for x in row) + "]" for row in a) + "]"


def _blocks(a: np.ndarray) -> str:
    """torch's print of a 3-d tensor: one block of rows per key."""
    blocks = [
        "[" + ",\n         ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in b) + "]"
        for b in a
    ]
    return "tensor([" + ",\n\n        ".join(blocks) + "])\n"


def _recap() -> str:
    """The first output's sum written out, the shares a_1j v_j as the page's text gives them."""
    shares = [HAND[0, j] * V[j] for j in range(3)]
    lines = [
        f"{j + 1}: {HAND[0, j]:.1f} * [{V[j, 0]:.0f}, {V[j, 1]:.0f}] = [{s[0]:.1f}, {s[1]:.1f}]"
        for j, s in enumerate(shares)
    ]
    return "The first output, key by key:\n```\n" + "\n".join(lines) + "\n```\n"


def _code(source: str, printed: str) -> dict[str, object]:
    output = {"output_type": "stream", "name": "stdout", "text": printed}
    return {"cell_type": "code", "source": source, "outputs": [output]}


def _page(by_hand: bool = True) -> str:
    setting = (
        f"weights = torch.tensor({_literal(HAND)})\nprint(weights)"
        if by_hand
        else "print(weights.round(decimals=1))"
    )
    cells = [
        {"cell_type": "markdown", "source": "# Self-attention by hand\n"},
        _code(
            f"x = torch.tensor({_literal(X)})\nw_query = torch.tensor({_literal(W_Q)})\n"
            f"w_key = torch.tensor({_literal(W_K)})\nw_value = torch.tensor({_literal(W_V)})\n"
            "queries, keys, values = x @ w_query, x @ w_key, x @ w_value\n"
            "print(queries)\nprint(keys)\nprint(values)",
            _tensor(Q, 0) + _tensor(K, 0) + _tensor(V, 0),
        ),
        _code("scores = queries @ keys.T\nprint(scores)", _tensor(S, 0)),
        _code(
            "weights = torch.softmax(scores, dim=-1)\nprint(weights)\n"
            f"# rounded by hand\n{setting}",
            _tensor(A, 4) + _tensor(HAND, 4),
        ),
        _code(
            "weighted = values[:, None] * weights.T[:, :, None]\nprint(weighted)",
            _blocks(V[:, None, :] * HAND.T[:, :, None]),
        ),
        _code("outputs = weighted.sum(dim=0)\nprint(outputs)", _tensor(OUT, 4)),
        {"cell_type": "markdown", "source": _recap()},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)


def test_outputs_from_weights_set_by_hand_follow_from_them() -> None:
    assert not np.allclose(HAND @ V, A @ V, atol=5e-5)  # the hand-set weights change the outputs
    reports = [check(found.spec) for found in extract_all(_page(), "ipynb", reprints=True)]
    assumed = [a for r in reports for a in r.assumptions]
    assert {a.key for a in assumed} == {"head1.weights"}
    outputs = [c for r in reports for c in r.claims if c.key == "output"]
    assert outputs and all(c.verdict == "follows" for c in outputs), outputs
    said = [c.to_dict() for c in outputs]
    entries = [e["verdict"] for c in said for e in c["entries"]]
    assert "wrong" not in entries and "follows" in entries, entries
    assert not any("wrong" in c["explanation"].lower() for c in said), said
    shares = [c for r in reports for c in r.claims if c.step.startswith("head1.weighted")]
    assert len(shares) == 12, [c.key for c in shares]  # 9 of the 3-d print, 3 of the recap
    assert all(c.verdict in ("follows", "exact", "rounded") for c in shares), shares
    assert len(reports) == 2 and all(r.assumptions for r in reports)  # the recap's copy too


def test_a_rounded_print_of_the_computed_weights_is_no_assumption() -> None:
    reports = [check(found.spec) for found in extract_all(_page(False), "ipynb", reprints=True)]
    assert not [a for r in reports for a in r.assumptions]
