"""Development documents (the seventh held-out batch, moved to dev in session 30), continued: an
English notebook running one example in numpy (8 decimals) and again in torch (4 decimals, new
random weights). See tests/corpus/dev_seen_judge7.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, given, one, settled, single_precision
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
    file="dev/en-notebook-numpy-then-torch-three-words-two-runs.ipynb",
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


# --- Japanese Q&A notebook: fixed weights, then random scores, then the scaling test ------------

_JA_X = block(
    """
    tensor([[1., 0., 0., 0.],
            [0., 1., 0., 0.],
            [0., 0., 1., 0.]])
    """
)
_JA_Q = block(
    """
    tensor([[1., 0., 0., 0.],
            [0., 1., 0., 0.],
            [0., 0., 1., 0.]], grad_fn=<SelectBackward0>)
    """
)
_JA_K = block(
    """
    tensor([[2., 0., 0., 0.],
            [0., 2., 0., 0.],
            [0., 0., 2., 0.]], grad_fn=<SelectBackward0>)
    """
)
_JA_V = block(
    """
    tensor([[1.0000, 0.5000, 0.0000, 0.0000],
            [0.5000, 1.0000, 0.5000, 0.0000],
            [0.0000, 0.5000, 1.0000, 0.5000]], grad_fn=<SelectBackward0>)
    """
)
_JA_SCORES = block(
    """
    tensor([[1., 0., 0.],
            [0., 1., 0.],
            [0., 0., 1.]], grad_fn=<SelectBackward0>)
    """
)
_JA_WEIGHTS = block(
    """
    tensor([[0.5761, 0.2119, 0.2119],
            [0.2119, 0.5761, 0.2119],
            [0.2119, 0.2119, 0.5761]], grad_fn=<SelectBackward0>)
    """
)
_JA_OUT = block(
    """
    tensor([[0.6821, 0.6060, 0.3179, 0.1060],
            [0.5000, 0.7881, 0.5000, 0.1060],
            [0.3179, 0.6060, 0.6821, 0.2881]], grad_fn=<SelectBackward0>)
    """
)
_JA_RAND_SCORES = block(
    """
    tensor([[ 1.1419, -0.3811,  0.3753],
            [ 3.0666, -0.6720, -1.2386],
            [ 0.9294, -0.7231, -0.5776]])
    """
)
_JA_RAND_WEIGHTS = block(
    """
    tensor([[0.5943, 0.1296, 0.2761],
            [0.9641, 0.0229, 0.0130],
            [0.7076, 0.1356, 0.1568]])
    """
)
_JA_RAND_OUT = block(
    """
    tensor([[-0.2452,  0.3710, -1.1511, -0.1032],
            [-0.4223,  0.6332, -0.7990, -0.0403],
            [-0.2912,  0.4317, -1.0299, -0.0678]])
    """
)
_JA_WV = a([[1.0, 0.5, 0.0, 0.0], [0.5, 1.0, 0.5, 0.0], [0.0, 0.5, 1.0, 0.5], [0.0, 0.0, 0.5, 1.0]])
_JA_S = one("10.", "5.", "2.", "1.")
_JA_W1 = one("9.9285e-01", "6.6898e-03", "3.3307e-04", "1.2253e-04")
_JA_W1_NP = one("9.9285465e-01", "6.6898018e-03", "3.3306563e-04", "1.2252800e-04")
_JA_S8 = one("1.2500", "0.6250", "0.2500", "0.1250")
_JA_W8 = one("0.4489", "0.2403", "0.1651", "0.1457")
_JA_W8_NP = one("0.44887468", "0.24026531", "0.16513178", "0.14572828")
_JA_DOTS = ("-5.43", "-2.00", "-24.82")
_JA_SCALED = ("-1.92", "-0.25", "-1.10")


def _ja_qkv(x: Arrays) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # nn.Linear multiplies by the transposed weight; W_q = I, W_k = 2I, W_v symmetric
    return x["X"] @ np.eye(4), x["X"] @ (2 * np.eye(4)).T, x["X"] @ x["Wv"].T


def _ja_weights(x: Arrays) -> np.ndarray:
    q, k, _ = _ja_qkv(x)
    return softmax(q @ k.T / 2.0)


def _ja_scaled(i: int) -> Printed:
    d_k = (8, 64, 512)[i]
    printed = one(_JA_SCALED[i])
    return Printed(
        printed,
        settled(
            lambda x: x["dots"][i : i + 1].reshape(1, 1) / np.sqrt(d_k), {"dots": 5e-3}, printed
        ),
        f"scaled dot product, d_k = {d_k}",
    )


_JA_RAND_HALVES = {"s": 5e-5}

JA_QA = Doc(
    file="dev/ja-notebook-torch-qa-fixed-weights-and-scaling-test.ipynb",
    url="https://github.com/kouhei1970/learn_transformer/blob/main/notebooks/QandA_01_attention.ipynb",
    kind="notebook-torch",
    language="ja",
    inputs={
        "X": _matrix(_JA_X),
        "Wv": _JA_WV,
        "s": _matrix(_JA_RAND_SCORES),
        "z": _matrix(_JA_S),
        "dots": a([float(e) for e in _JA_DOTS]),
    },
    printed=(
        given(_JA_X, "X"),
        Printed(_JA_Q, lambda x: _ja_qkv(x)[0], "Query (Q)"),
        Printed(_JA_K, lambda x: _ja_qkv(x)[1], "Key (K)"),
        Printed(_JA_V, lambda x: _ja_qkv(x)[2], "Value (V)"),
        Printed(_JA_SCORES, lambda x: _ja_qkv(x)[0] @ _ja_qkv(x)[1].T / 2.0, "scores / sqrt(4)"),
        Printed(_JA_WEIGHTS, _ja_weights, "Attention Weights"),
        # row sums counted as dev counts them (a computed step), not as another number
        Printed(
            one("1.0000", "1.0000", "1.0000"), lambda x: _ja_weights(x).sum(axis=1), "row sums"
        ),
        Printed(_JA_OUT, lambda x: _ja_weights(x) @ _ja_qkv(x)[2], "final output"),
        given(_JA_RAND_SCORES, "random run: scores (already scaled)"),
        Printed(
            _JA_RAND_WEIGHTS,
            settled(lambda x: softmax(x["s"]), _JA_RAND_HALVES, _JA_RAND_WEIGHTS),
            "random run: weights",
        ),
        given(_JA_RAND_OUT, "random run: output (V never printed)"),
        given(_JA_S, "scores [10, 5, 2, 1]"),
        Printed(_JA_W1, lambda x: softmax(x["z"]), "softmax without scaling"),
        Printed(one("0.992855"), lambda x: softmax(x["z"])[:, :1], "largest weight, unscaled"),
        Printed(one("0.000123"), lambda x: softmax(x["z"])[:, 3:], "smallest weight, unscaled"),
        Printed(_JA_S8, lambda x: x["z"] / 8.0, "scores / 8"),
        Printed(_JA_W8, lambda x: softmax(x["z"] / 8.0), "softmax after scaling"),
        Printed(one("0.448875"), lambda x: softmax(x["z"] / 8.0)[:, :1], "largest weight, scaled"),
        Printed(one("0.145728"), lambda x: softmax(x["z"] / 8.0)[:, 3:], "smallest weight, scaled"),
        Printed(
            _JA_W1_NP, single_precision(lambda x: softmax(x["z"]), _JA_W1_NP), "unscaled, numpy"
        ),
        Printed(
            _JA_W8_NP,
            single_precision(lambda x: softmax(x["z"] / 8.0), _JA_W8_NP),
            "scaled, numpy",
        ),
        *(given(one(d), f"random dot product {d}") for d in _JA_DOTS),
        *(_ja_scaled(i) for i in range(3)),
    ),
    notes=(
        "A Q&A study notebook in torch. Fixed weights (W_q = I, W_k = 2I, W_v a symmetric band "
        "set in code), X three one-hot rows, Q, K, V, scores / sqrt(4), weights, row sums and "
        "output at 4 decimals; a random run printing scaled scores (headed 'Q x K^T'), weights "
        "and an output whose V is never shown; softmax of [10, 5, 2, 1] with and without / 8, "
        "as tensors, .item() at 6 decimals and float32 numpy arrays; three random dot products "
        "at 2 decimals with their scaled values. All right."
    ),
)


# --- English notebook: seeded integer weights (never shown), SciPy softmax in e-notation --------

_SC_WORDS = block(
    """
    array([[1, 0, 0],
           [0, 1, 0],
           [1, 1, 0],
           [0, 0, 1]])
    """
)
_SC_SCORES = block(
    """
    array([[ 8,  2, 10,  2],
           [ 4,  0,  4,  0],
           [12,  2, 14,  2],
           [10,  4, 14,  3]])
    """
)
_SC_WEIGHTS = block(
    """
    array([[2.36089863e-01, 7.38987555e-03, 7.49130386e-01, 7.38987555e-03],
           [4.54826323e-01, 4.51736775e-02, 4.54826323e-01, 4.51736775e-02],
           [2.39275049e-01, 7.43870015e-04, 7.59237211e-01, 7.43870015e-04],
           [8.99501754e-02, 2.81554063e-03, 9.05653685e-01, 1.58059922e-03]])
    """
)
_SC_OUT = block(
    """
    [[0.98522025 1.74174051 0.75652026]
     [0.90965265 1.40965265 0.5       ]
     [0.99851226 1.75849334 0.75998108]
     [0.99560386 1.90407309 0.90846923]]
    """
)

SCIPY_SEEDED = Doc(
    file="dev/en-notebook-numpy-scipy-seeded-integer-weights-scientific.ipynb",
    url=(
        "https://github.com/Ashwanthkumard/LearnNLP/blob/main/Transformers/"
        "02_Attention_Mechanism_with_NumPy_and_SciPy.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"s": _matrix(_SC_SCORES)},
    printed=(
        given(_SC_WORDS, "word vectors"),
        given(_SC_SCORES, "scores Q K^T (Q, K never printed)"),
        Printed(_SC_WEIGHTS, lambda x: softmax(x["s"] / np.sqrt(3.0)), "softmax(scores / sqrt(3))"),
        given(_SC_OUT, "output weights @ V (V never printed)"),
    ),
    notes=(
        "A study notebook: four one-hot-like word vectors, W_Q, W_K, W_V drawn with "
        "np.random.seed(42) and randint(3) but never displayed; the integer scores Q K^T, the "
        "weights softmax(scores / sqrt(3), axis=1) in e-notation (8 decimals of mantissa) and "
        "the output. The weights follow from the printed scores; the output needs V, which the "
        "page never shows, so it is given. All right."
    ),
)

DEV_SEEN_JUDGE7D: list[Doc] = [NUMPY_TORCH, JA_QA, SCIPY_SEEDED]
