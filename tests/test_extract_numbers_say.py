"""What the numbers say overrules what the words suggest: scores printed as X Xᵀ mean no
projection though a random generator seeds the page; a comment in one notebook cell names
nothing in the next; one printed block that gives Q, K and V alike is W_Q, W_K and W_V; a
print of Kᵀ is K transposed, not a product; softmax weights of 0s and 1s after a printed mask
are a result; "attention_weights_2" over one row of scores is query 2's row, not head 2.
Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import read


def _tensor(a: np.ndarray, digits: int, tail: str = "") -> str:
    a = np.atleast_2d(a)
    rows = [", ".join(f"{x:.{digits}f}" + "." * (digits == 0) for x in row) for row in a]
    return "tensor([[" + "],\n        [".join(rows) + f"]]{tail})\n"


def _vector(a: np.ndarray, digits: int) -> str:
    return "tensor([" + ", ".join(f"{x:.{digits}f}" for x in a) + "])\n"


def _code(source: str, printed: str = "") -> dict[str, object]:
    outputs = [{"output_type": "stream", "name": "stdout", "text": printed}] if printed else []
    return {"cell_type": "code", "source": source, "outputs": outputs}


def _page(*cells: dict[str, object]) -> str:
    return json.dumps({"cells": list(cells), "metadata": {}, "nbformat": 4}, indent=1)


def _claims(page: str) -> dict[str, str]:
    found = extract_all(page, "ipynb", reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# --- X Xᵀ on a seeded page: no projection ----------------------------------------------------
EMB = np.array([[0.5123, -1.2031, 0.3302], [1.1045, 0.4410, -0.7208], [-0.2150, 0.9034, 1.5111]])
GRAM = EMB @ EMB.T
GRAM_A = _softmax(GRAM)


def _seeded() -> str:
    return _page(
        {"cell_type": "markdown", "source": "# Self-attention without trainable weights\n"},
        _code(
            "torch.manual_seed(7)\nlayer = torch.nn.Embedding(3, 3)\n"
            "embeddings = layer(ids)\nembeddings",
            _tensor(EMB, 4, ", grad_fn=<EmbeddingBackward0>"),
        ),
        _code(
            "scores = embeddings @ embeddings.T\nscores",
            _tensor(GRAM, 4, ", grad_fn=<MmBackward0>"),
        ),
        _code("weights = F.softmax(scores, dim=1)\nweights", _tensor(GRAM_A, 4)),
        _code("context = weights @ embeddings\ncontext", _tensor(GRAM_A @ EMB, 4)),
    )


def test_scores_that_are_x_times_x_transposed_mean_no_projection_on_a_seeded_page() -> None:
    claims = _claims(_seeded())
    assert set(claims) == {"head1.scores", "head1.weights", "head1.output"}
    assert all(v in ("exact", "rounded", "within") for v in claims.values()), claims
    [found] = extract_all(_seeded(), "ipynb")
    assert any("X Xᵀ" in str(note) for note in found.notes)


# --- one block for Q, K and V, Kᵀ printed, a mask, 0/1 weights --------------------------------
X = np.array([[2.0, 1.0, 3.0, 0.0], [4.0, 5.0, 1.0, 6.0]])
BLOCK = np.array(
    [[0.5, 1.0, 1.5, 2.0], [2.5, 0.5, 1.0, 1.5], [1.0, 2.0, 0.5, 2.5], [1.5, 1.5, 2.5, 0.5]]
)
Q = X @ BLOCK.T  # nn.Linear's X Wᵀ, the same block for Q, K and V
SCALED = Q @ Q.T / np.sqrt(2)  # √head_dim of two heads, though Q is not split
MASKED = np.where(np.tril(np.ones((2, 2))) == 1, SCALED, -np.inf)
WEIGHTS = _softmax(MASKED)


def _batched(a: np.ndarray, digits: int) -> str:
    """torch's print of a (1, 1, T, T) tensor."""
    rows = [", ".join(f"{x:.{digits}f}" + "." * (digits == 0) for x in row) for row in a]
    return "tensor([[[[" + "],\n          [".join(rows) + "]]]])\n"


def _fused(rows_in_prose: bool = True) -> str:
    block_rows = ", ".join("[" + ", ".join(f"{v:.1f}" for v in row) + "]" for row in BLOCK)
    prose = f"The block's rows are {block_rows}, no bias; the output projection is the identity.\n"
    literal = ",\n         ".join("[" + ", ".join(f"{v:.1f}" for v in row) + "]" for row in BLOCK)
    return _page(
        _code(
            "import math\nimport torch\nT, C, n_heads = 2, 4, 2\nhead_dim = C // n_heads\n"
            "# Input: 2 tokens of width 4\n"
            "x = torch.tensor([[2.0, 1.0, 3.0, 0.0],\n                  [4.0, 5.0, 1.0, 6.0]])\n"
            'print("Input x:")\nprint(x)',
            "Input x:\n" + _tensor(X, 0),
        ),
        {"cell_type": "markdown", "source": prose if rows_in_prose else "The block, no bias.\n"},
        _code(f"block = [{literal}]\nqkv_weight = torch.tensor(block * 3)"),
        _code(
            "qkv = x @ qkv_weight.t()\nq, k, v = qkv.chunk(3, dim=1)\n"
            'print("q:")\nprint(q)\nprint("k:")\nprint(k)\nprint("v:")\nprint(v)',
            "q:\n" + _tensor(Q, 4) + "k:\n" + _tensor(Q, 4) + "v:\n" + _tensor(Q, 4),
        ),
        _code("att = (q @ k.transpose(-2, -1)) / math.sqrt(head_dim)"),
        _code("k.transpose(-2, -1)", _tensor(Q.T, 4)),
        _code("print(att)", _tensor(SCALED, 4)),
        _code(
            "mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)\nprint(mask)\n"
            "att = att.masked_fill(mask[:, :, :T, :T] == 0, float('-inf'))\n"
            'print("Attention scores (after the mask):")\nprint(att)',
            _batched(np.tril(np.ones((2, 2))), 0)
            + "\nAttention scores (after the mask):\n"
            + _batched(MASKED, 4),
        ),
        _code(
            'att = torch.softmax(att, dim=-1)\nprint("Attention scores (after the softmax):")\n'
            "print(att)",
            "Attention scores (after the softmax):\n" + _batched(WEIGHTS, 0),
        ),
        _code(
            'y = att @ v\nprint("Output of the heads (y):")\nprint(y)',
            "Output of the heads (y):\n" + _batched(WEIGHTS @ Q, 4),
        ),
    )


def test_one_printed_block_is_every_projection_and_its_transposed_print_is_no_product() -> None:
    assert np.allclose(WEIGHTS, np.eye(2), atol=1e-6)  # the page's weights print as 0 and 1
    found = extract_all(_fused(), "ipynb", reprints=True)
    verdicts = [
        (c.key.removeprefix("head1."), c.verdict) for f in found for c in check(f.spec).claims
    ]
    assert all(v in ("exact", "rounded", "within") for _, v in verdicts), verdicts
    assert {k for k, _ in verdicts} >= {"q", "k", "v", "scaled", "masked", "weights"}, verdicts


def test_a_comment_in_one_cell_names_nothing_in_the_next() -> None:
    seen = read(read_document(_fused(), "ipynb")).seen
    later = [s for s in seen if s.where.startswith("cell 6, output")]
    assert later and all(s.role != "x" for s in later), [(s.where, s.role) for s in later]


# --- "attention_weights_2" over one row of scores --------------------------------------------
OMEGA = np.array([-12.5312, 4.0821, 9.3115, 21.6604, 30.0475, -3.3391])
ROW = _softmax(OMEGA / 4)


def _one_query() -> str:
    return _page(
        {"cell_type": "markdown", "source": "## Scaled dot-product attention for one query\n"},
        _code("embedded_sentence.shape", "torch.Size([6, 16])\n"),
        _code(
            "d = 16\nquery_2 = U_query.matmul(x_2)\nomega_2 = query_2.matmul(keys.T)\nomega_2",
            _vector(OMEGA, 4),
        ),
        _code(
            "attention_weights_2 = F.softmax(omega_2 / d**0.5, dim=0)\nattention_weights_2",
            _vector(ROW, 4 if ROW.min() > 1e-4 else 6),
        ),
    )


def test_a_number_in_a_name_is_the_row_of_a_one_row_example_not_a_head() -> None:
    claims = _claims(_one_query())
    assert claims.get("head1.weights[1]") in ("rounded", "within"), claims


# --- "attention" over numbers that cannot be weights ------------------------------------------
QR = np.array([[0.5, -1.25, 0.75, 0.25], [1.5, 0.25, -0.5, 1.0], [-0.75, 0.5, 1.25, -1.0]])
KR = np.array([[1.0, 0.5, -0.25, 0.75], [-0.5, 1.25, 0.5, 0.0], [0.25, -1.0, 1.5, 0.5]])
VR = np.array([[1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 1.0, 3.0], [2.0, 1.0, 0.0, 1.0]])
SR = QR @ KR.T / 2  # √d_k of 4
AR = _softmax(SR)


def _named_attention() -> str:
    return _page(
        _code(
            "q, k, v = make_qkv()\nprint(q)\nprint(k)\nprint(v)",
            "".join(_tensor(m, 4) for m in (QR, KR, VR)),
        ),
        _code(
            "attention = q @ k.T / math.sqrt(4)\nprint(attention)\n"
            "weights = torch.softmax(attention, dim=-1)\nprint(weights)\nprint(weights @ v)",
            _tensor(SR, 4) + _tensor(AR, 4) + _tensor(AR @ VR, 4),
        ),
    )


def test_a_name_that_says_weights_over_negative_numbers_is_not_believed() -> None:
    assert (SR < 0).any()
    claims = _claims(_named_attention())
    assert claims.get("head1.scaled") in ("exact", "rounded", "within"), claims


# --- the keys the weights average are the values too ------------------------------------------
QB = np.array([[0.55, 0.95]])
KB = np.array([[0.65, 0.2], [0.85, -0.4], [-0.95, -0.75]])
SB = QB @ KB.T
AB = _softmax(SB)


def _keys_as_values() -> str:
    return _page(
        {"cell_type": "markdown", "source": "## A context vector from the keys\n"},
        _code(
            "q = torch.tensor([[0.55, 0.95]])\n"
            "k = torch.tensor([[0.65, 0.2], [0.85, -0.4], [-0.95, -0.75]])\n"
            "products = q @ k.T\nproducts",
            _tensor(SB, 4),
        ),
        _code("alphas = F.softmax(products, dim=-1)\nalphas", _tensor(AB, 4)),
        _code("context = alphas @ k\ncontext", _tensor(AB @ KB, 4)),
    )


def test_keys_the_weights_average_are_the_values() -> None:
    claims = _claims(_keys_as_values())
    assert claims.get("head1.output[1]") in ("exact", "rounded", "within"), claims
