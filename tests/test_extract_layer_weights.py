"""Weights a notebook fixes into torch layers in code (``proj_k.weight.copy_(torch.eye(3) * 3)``
under ``with torch.no_grad():``, a tensor literal copied into another layer) are those layers'
weights, applied as X W^T; a cell that prints k and then v names each printed array by its own
print; the X a cell builds in code and prints again ("1.0" in code, "1." printed) is one input.
Truths with numpy (torch's nn.Linear convention written out)."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.cell_prints import print_of
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.layer_weights import as_assignment

X = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0]])
W_K = 3 * np.eye(3)
W_V = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0]])  # not symmetric
K, V = X @ W_K.T, X @ W_V.T  # nn.Linear: X W^T
S = X @ K.T / np.sqrt(3)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)


def _tensor(a: np.ndarray, digits: int) -> str:
    rows = [", ".join(f"{x:.{digits}f}" for x in row) for row in a]
    return "tensor([[" + "],\n        [".join(rows) + "]])\n"


def _notebook(block: str = "with torch.no_grad():", prints: str = "x)\nprint(k") -> str:
    setup = f"""import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0]])
proj_q = nn.Linear(3, 3, bias=False)
proj_k = nn.Linear(3, 3, bias=False)
proj_v = nn.Linear(3, 3, bias=False)
{block}
    proj_q.weight.copy_(torch.eye(3))
    proj_k.weight.copy_(torch.eye(3) * 3)
    proj_v.weight.copy_(torch.tensor([
        [1.0, 0.0, 1.0],
        [0.0, 2.0, 0.0],
        [1.0, 1.0, 0.0],
    ]))
q, k, v = proj_q(x), proj_k(x), proj_v(x)
print({prints})
print(v)
"""
    work = "w = F.softmax(q @ k.T / 3 ** 0.5, dim=-1)\nprint(w)\nprint(w @ v)\n"
    cells = [
        {"cell_type": "markdown", "source": "# Fixed projections\nWeights set by hand.\n"},
        _code(setup, _tensor(X, 0).replace(".0", ".") + _tensor(K, 0) + _tensor(V, 0)),
        _code(work, _tensor(A, 4) + _tensor(A @ V, 4)),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)


def _code(source: str, printed: str) -> dict[str, object]:
    output = {"output_type": "stream", "name": "stdout", "text": printed}
    return {"cell_type": "code", "source": source, "outputs": [output]}


def _verdicts(page: str) -> dict[str, str]:
    found = extract_all(page, "ipynb", reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def test_weights_fixed_into_layers_make_every_printed_step_checkable() -> None:
    verdicts = _verdicts(_notebook())
    assert verdicts == {
        "head1.k": "exact",
        "head1.v": "exact",
        "head1.weights": "rounded",
        "head1.output": "rounded",
    }


def test_the_layer_weight_is_applied_transposed_as_torch_does() -> None:
    found = extract_all(_notebook(), "ipynb", reprints=True)
    spec = found[0].spec
    assert spec.convention == "xWT"
    d = check(spec)
    assert {c.key for c in d.claims} >= {"head1.v"}


def test_a_weight_set_inside_a_function_is_not_read() -> None:
    page = _notebook(block="def fix():")
    assert "head1.k" not in {k for k, v in _verdicts(page).items() if v == "exact"}


def test_a_statement_copying_into_a_layer_names_the_layer() -> None:
    assert as_assignment("    W_v.weight.copy_(torch.tensor(") == "    W_v = torch.tensor("
    assert as_assignment("W_v.weight = nn.Parameter(") == "W_v = "
    assert as_assignment("W_v.weight.data = torch.tensor(") == "W_v = torch.tensor("
    assert as_assignment("attention(x, ") == "attention(x, "


def test_each_array_of_a_cell_is_named_by_its_own_print() -> None:
    document = read_document(_notebook(), "ipynb")
    firsts = [
        n for n, line in enumerate(document.lines) if line.output and line.text.startswith("tensor")
    ]
    assert [print_of(document, n) for n in firsts[:3]] == ["print(x)", "print(k)", "print(v)"]
    # two prints, three arrays: which print made which cannot be read, nothing is said
    document = read_document(_notebook(prints="x, k"), "ipynb")
    first = next(n for n, line in enumerate(document.lines) if line.output)
    assert print_of(document, first) is None


def test_what_depends_on_weights_never_given_is_not_called_wrong() -> None:
    """Weights set inside a function are not read: K and V then depend on symbols, and no
    printed number is right or wrong for every value of them (it was a false alarm)."""
    page = _notebook(block="def fix():")
    found = extract_all(page, "ipynb", reprints=True)
    verdicts = {c.key: c.verdict for one in found for c in check(one.spec).claims}
    assert "wrong" not in verdicts.values(), verdicts
    notes = [str(n) for one in found for n in one.notes]
    assert any("depends on weights the page does not give" in n for n in notes), notes


def test_a_cell_printing_anything_but_names_is_not_read_print_by_print() -> None:
    """print(k.T) prints the transpose, print(k[0]) one row: the arrays of such a cell are not
    named print by print (a transpose named K had been judged as K)."""
    for other in ("k.T", "k[0]", "np.round(k, 3)"):
        document = read_document(_notebook(prints=f"x)\nprint({other}"), "ipynb")
        first = next(n for n, line in enumerate(document.lines) if line.output)
        assert print_of(document, first) is None, other
    document = read_document(_notebook(prints='"X:", x)\nprint(k'), "ipynb")
    first = next(n for n, line in enumerate(document.lines) if line.output)
    assert print_of(document, first) == 'print("X:", x)'
