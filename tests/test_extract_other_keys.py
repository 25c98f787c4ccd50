"""A reading whose printed scores or weights attend over another number of keys than its own
tokens give (a decoder's one-token state read as the input, while the page's products are over
two encoder states) does not fit the page: none of its results is claimed, and the readings
that do fit are tried. A right page is never called wrong that way. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all


def _tensor(a: np.ndarray) -> str:
    rows = ",\n         ".join("[" + ", ".join(f"{x:7.4f}" for x in row) + "]" for row in a)
    return f"tensor([[{rows}]])\n"


def _cells(*cells: tuple[str, str]) -> str:
    out = [{"cell_type": "markdown", "source": ["# From a plain decoder to attention\n"]}]
    for source, printed in cells:
        output = {"output_type": "execute_result", "data": {"text/plain": printed}}
        out.append({"cell_type": "code", "source": source, "outputs": [output]})
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4}, indent=1)


HIDDEN = np.array([[0.2716, -0.4382], [0.5127, -0.7391]])  # the decoder's two states
OUTPUTS = np.array([[-0.1843, 0.3925], [-0.0512, 0.5174]])  # its predictions (no attention)
KEYS = np.array([[0.0931, -0.0417], [0.2716, -0.4382]])  # the encoder's states
QUERY = HIDDEN[1:]
PRODUCTS = QUERY @ KEYS.T
ALPHAS = np.exp(PRODUCTS) / np.exp(PRODUCTS).sum()
CONTEXT = ALPHAS @ KEYS


def _loop() -> str:
    lines = []
    for hidden, output in zip(HIDDEN, OUTPUTS):
        lines.append(f"Hidden: tensor([[[{hidden[0]:.4f}, {hidden[1]:.4f}]]])")
        lines.append(f"Output: tensor([[[{output[0]:.4f}, {output[1]:.4f}]]])\n")
    return "\n".join(lines) + "\n"


LOOP = "for i in range(2):\n    print(f'Hidden: {decoder.hidden}')\n    print(f'Output: {out}')"
PAGE = _cells(
    (LOOP, _loop()),
    ("values = hidden_seq\nvalues", _tensor(KEYS)),
    ("keys = hidden_seq\nkeys", _tensor(KEYS)),
    ("query = decoder.hidden.permute(1, 0, 2)\nquery", _tensor(QUERY)),
    ("products = torch.bmm(query, keys.permute(0, 2, 1))\nproducts", _tensor(PRODUCTS)),
    ("alphas = F.softmax(products, dim=-1)\nalphas", _tensor(ALPHAS)),
    ("context_vector = torch.bmm(alphas, values)\ncontext_vector", _tensor(CONTEXT)),
)


def test_a_reading_over_other_keys_than_the_pages_claims_nothing() -> None:
    found = extract_all(PAGE, "ipynb", reprints=True)
    verdicts = [(c.key, c.verdict) for one in found for c in check(one.spec).claims]
    assert verdicts, "the attention over the two encoder states is checked"
    assert all(v in ("exact", "rounded", "within") for _, v in verdicts), verdicts
    assert not any(key.startswith("output") for key, _ in verdicts)  # the decoder's output
