"""Development documents (the eighth held-out batch, moved to dev in session 31), Korean notebooks:
torch prints of a batch of one (Q, K and V from untrained linear layers) and a book chapter's
single query over eight embedded words. Their truth is computed with numpy from the printed
inputs; see tests/corpus/dev_seen_judge8.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_4 = 5e-5

# --- Korean torch notebook: x (1, 3, 4), Q, K, V from nn.Linear, weights and output ------------

_KO_Q = block(
    """
    [[[-0.1392,  0.5523,  0.2820,  0.0902],
     [ 0.2970,  0.8269, -0.4085,  0.1327],
     [ 0.0093,  0.9658,  0.0777,  0.1565]]]
    """
)
_KO_K = block(
    """
    [[[ 0.5735,  0.6561, -0.0016, -0.1080],
     [-0.7842, -0.0042, -0.3043, -0.1294],
     [ 0.1814,  0.6540, -0.1537, -0.1727]]]
    """
)
_KO_V = block(
    """
    [[[ 0.1540,  0.6550, -0.3631,  0.0075],
     [ 0.2296,  1.0156, -1.2490,  0.8316],
     [ 0.2688,  1.1628, -0.9876,  0.4233]]]
    """
)
_KO_W = block(
    """
    [[[0.3473, 0.3045, 0.3481],
     [0.3804, 0.2514, 0.3683],
     [0.3705, 0.2641, 0.3654]]]
    """
)
_KO_OUT = block(
    """
    [[[ 0.2170,  0.9416, -0.8503,  0.4032],
     [ 0.2153,  0.9327, -0.8158,  0.3677],
     [ 0.2159,  0.9358, -0.8253,  0.3770]]]
    """
)
_KO_HALVES = {"Q": _ROUNDED_4, "K": _ROUNDED_4, "V": _ROUNDED_4}


def _ko_weights(x: Arrays) -> np.ndarray:
    return softmax(x["Q"] @ x["K"].T / 2)


KO_LINEAR = Doc(
    file="dev/ko-notebook-torch-linear-qkv-batch-of-one-grad-fn.ipynb",
    url="https://github.com/seunghun92-lab/nlp/blob/main/08_transformer/01_attention.ipynb",
    kind="notebook-torch",
    language="ko",
    inputs={
        name: a([[float(e) for e in row] for row in rows])
        for name, rows in (("Q", _KO_Q), ("K", _KO_K), ("V", _KO_V))
    },
    printed=(
        other(one("1", "3", "4"), "torch.Size of x"),
        given(block("[[[1., 0., 1., 0.],\n[0., 2., 0., 2.],\n[1., 1., 1., 1.]]]"), "x"),
        given(_KO_Q, "Q"),
        given(_KO_K, "K"),
        given(_KO_V, "V"),
        Printed(_KO_W, settled(_ko_weights, _KO_HALVES, _KO_W), "attention 분포"),
        Printed(
            _KO_OUT, settled(lambda x: _ko_weights(x) @ x["V"], _KO_HALVES, _KO_OUT), "출력 output"
        ),
    ),
    notes=(
        "A Korean course notebook in torch: x (1, 3, 4), Q, K and V from untrained bias-free "
        "nn.Linear layers (weights never printed), scaled by sqrt(4) = 2. Shapes are printed "
        "first as torch.Size lines; the values come in one cell as batch-of-one tensors with "
        "grad_fn, to 4 decimals. All right."
    ),
)

# --- Korean book-chapter notebook: one query over eight embedded words --------------------------

_OMEGA_2 = (
    "-25.1623",
    "9.3602",
    "14.3667",
    "32.1482",
    "53.8976",
    "46.6626",
    "-1.2131",
    "-32.9392",
)
_WEIGHTS_2 = (
    "2.2317e-09",
    "1.2499e-05",
    "4.3696e-05",
    "3.7242e-03",
    "8.5596e-01",
    "1.4026e-01",
    "8.8897e-07",
    "3.1935e-10",
)
_EMBEDDED_1 = block(
    """
    tensor([-9.4053e-01, -4.6806e-01,  1.0322e+00, -2.8300e-01,  4.9275e-01,
            -1.4078e-02, -2.7466e-01, -7.6409e-01,  1.3966e+00, -9.9491e-01,
            -1.5822e-03,  1.2471e+00, -7.7105e-02,  1.2774e+00, -1.4596e+00,
            -2.1595e+00])
    """
)
_CONTEXT_NAIVE = block(
    """
    tensor([-9.3975e-01, -4.6856e-01,  1.0311e+00, -2.8192e-01,  4.9373e-01,
            -1.2896e-02, -2.7327e-01, -7.6358e-01,  1.3958e+00, -9.9543e-01,
            -7.1287e-04,  1.2449e+00, -7.8077e-02,  1.2765e+00, -1.4589e+00,
            -2.1601e+00])
    """
)
_CONTEXT_2 = block(
    """
    tensor([-1.2226, -3.4387, -4.3928, -5.2125, -1.1249, -3.3041, -1.4316, -3.2765,
            -2.5114, -2.6105, -1.5793, -2.8433, -2.4142, -0.3998, -1.9917, -3.3499])
    """
)


def _flat(rows: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    return (tuple(e for row in rows for e in row),)


KO_BOOK = Doc(
    file="dev/ko-notebook-torch-book-chapter-embedded-sentence-one-query.ipynb",
    url="https://github.com/silhyeonha-git/EfficientML/blob/main/ml_pytorch/pytorch16.ipynb",
    kind="notebook-torch",
    language="ko",
    inputs={"omega": a([float(e) for e in _OMEGA_2])},
    printed=(
        other(block("tensor([0, 7, 1, 2, 5, 6, 4, 3])"), "token ids"),
        other(one("8", "16"), "torch.Size of the embeddings"),
        Printed(
            one(*["1.0000"] * 8),
            lambda x: np.ones(8),
            "row sums of the unscaled weights",
        ),
        given(_flat(_CONTEXT_NAIVE), "context_vec_2 (embeddings not printed)"),
        given(_flat(_EMBEDDED_1), "embedded_sentence[1]"),
        given(one("14.3667"), "omega_23"),
        given(one(*_OMEGA_2), "omega_2"),
        Printed(
            one(*_WEIGHTS_2),
            settled(lambda x: softmax(x["omega"] / 4), {"omega": _ROUNDED_4}, one(*_WEIGHTS_2)),
            "attention_weights_2 = softmax(omega_2 / sqrt(16))",
        ),
        given(_flat(_CONTEXT_2), "context_vector_2 (values not printed)"),
    ),
    notes=(
        "A Korean study notebook following a book chapter: eight words embedded in 16-d "
        "(embeddings never printed), row sums of the unscaled softmax, the context vector of "
        "the second word; then random 16 x 16 projections, the second word's scores over the "
        "eight keys (printed), softmax(omega_2 / 4) in e-notation down to 3.2e-10, and the "
        "context vector (values not printed, so it cannot be recomputed). All right."
    ),
)

DEV_SEEN_JUDGE8B: list[Doc] = [KO_LINEAR, KO_BOOK]
