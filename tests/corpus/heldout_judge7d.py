"""The seventh batch of held-out documents, continued: an English notebook running one example in
numpy (8 decimals) and again in torch (4 decimals, new random weights). See
tests/corpus/heldout_judge7.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, given, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed


def _matrix(rows: tuple[tuple[str, ...], ...]) -> np.ndarray:
    return a([[float(e) for e in r] for r in rows])


# --- English notebook: the same three words through numpy, then torch --------------------------

_NB_Q = block(
    """
    [[0.58352471 0.69020868 0.22134042 1.31596799]
     [1.07000686 1.47739322 0.75098463 1.61922134]
     [1.0722933  0.82367632 0.5395647  0.74499289]]
    """
)
_NB_K = block(
    """
    [[0.83760721 0.6137794  0.4806961  0.62550493]
     [1.01553254 1.09163663 0.82764348 0.81977231]
     [0.83769352 0.47516817 0.8319121  0.43856935]]
    """
)
_NB_V = block(
    """
    [[0.34359845 0.58175548 0.7888782  1.02046847]
     [0.3434527  1.43844635 1.26034733 1.6961633 ]
     [0.3202968  1.17951542 0.83865699 1.09813922]]
    """
)
_NB_SCORES = block(
    """
    [[0.92097116 1.30401524 0.78902953]
     [1.58843265 2.32417184 1.46662105]
     [1.06453977 1.52269786 1.03261968]]
    """
)
_NB_WEIGHTS = block(
    """
    [[0.29912045 0.43873273 0.26214682]
     [0.25174083 0.52538919 0.22286997]
     [0.28171054 0.44542914 0.27286032]]
    """
)
_NB_OUT = block(
    """
    [[0.33742605 1.11431467 1.00877649 1.33727905]
     [0.33832864 1.16507435 1.04767718 1.39278171]
     [0.33717543 1.12645553 1.01246695 1.3426359 ]]
    """
)
_NB_X = block(
    """
    tensor([[0.2000, 0.8000, 0.5000, 0.1000],
            [0.9000, 0.4000, 0.7000, 0.3000],
            [0.5000, 0.1000, 0.2000, 0.9000]])
    """
)
_NB_TQ = block(
    """
    tensor([[1.0462, 0.9843, 0.9905, 0.4263],
            [1.3142, 1.7460, 1.3134, 1.1299],
            [0.9985, 1.5294, 0.5645, 0.8287]], grad_fn=<MmBackward0>)
    """
)
_NB_TK = block(
    """
    tensor([[1.3015, 0.8496, 0.6376, 0.7813],
            [1.7786, 1.1751, 0.9665, 0.6145],
            [1.1877, 0.6539, 0.9527, 0.6404]], grad_fn=<MmBackward0>)
    """
)
_NB_TV = block(
    """
    tensor([[0.4930, 0.6533, 1.1594, 1.0376],
            [1.1325, 1.0038, 1.4088, 1.2255],
            [0.9825, 0.6386, 0.5909, 0.7084]], grad_fn=<MmBackward0>)
    """
)
_NB_TOUT = block(
    """
    tensor([[0.9193, 0.8123, 1.1254, 1.0381],
            [0.9365, 0.8326, 1.1611, 1.0613],
            [0.9142, 0.8164, 1.1419, 1.0482]], grad_fn=<MmBackward0>)
    """
)
_NB_HALVES = {"Q": 5e-9, "K": 5e-9, "V": 5e-9}
_NB_T_HALVES = {"tQ": 5e-5, "tK": 5e-5, "tV": 5e-5}


def _nb_scores(x: Arrays) -> np.ndarray:
    return x["Q"] @ x["K"].T / 2.0


def _nb_torch(x: Arrays) -> np.ndarray:
    return softmax(x["tQ"] @ x["tK"].T / 2.0) @ x["tV"]


NUMPY_TORCH = Doc(
    file="heldout/en-notebook-numpy-then-torch-three-words-two-runs.ipynb",
    url="https://github.com/VidyaMandava/Transformers/blob/main/SelfAttention_Implementation.ipynb",
    kind="notebook-numpy-torch",
    language="en",
    inputs={
        "Q": _matrix(_NB_Q),
        "K": _matrix(_NB_K),
        "V": _matrix(_NB_V),
        "tQ": _matrix(_NB_TQ),
        "tK": _matrix(_NB_TK),
        "tV": _matrix(_NB_TV),
    },
    printed=(
        given(_NB_Q, "Query Matrix"),
        given(_NB_K, "Key Matrix"),
        given(_NB_V, "Value Matrix"),
        Printed(_NB_SCORES, settled(_nb_scores, _NB_HALVES, _NB_SCORES), "'Raw' (scaled) scores"),
        Printed(
            _NB_WEIGHTS,
            settled(lambda x: softmax(_nb_scores(x)), _NB_HALVES, _NB_WEIGHTS),
            "Attention Weights",
        ),
        Printed(
            _NB_OUT,
            settled(lambda x: softmax(_nb_scores(x)) @ x["V"], _NB_HALVES, _NB_OUT),
            "Final Attention Output",
        ),
        given(_NB_X, "X_torch"),
        given(_NB_TQ, "Query Matrix (PyTorch)"),
        given(_NB_TK, "Key Matrix (PyTorch)"),
        given(_NB_TV, "Value Matrix (PyTorch)"),
        Printed(_NB_TOUT, settled(_nb_torch, _NB_T_HALVES, _NB_TOUT), "Final Output (PyTorch)"),
    ),
    notes=(
        "A study notebook, two independent runs of one example: numpy with random W_q, W_k, "
        "W_v never printed, Q, K, V (3 x 4) printed to 8 decimals, scores scaled by sqrt(4) "
        "but labelled 'Raw Attention Scores', weights and output; then torch with NEW random "
        "weights, Q, K, V printed to 4 decimals with grad_fn, and only the output. The two runs "
        "share X but not Q, K, V. All right."
    ),
)

JUDGE_DOCS_7D: list[Doc] = [NUMPY_TORCH]
