"""The sixteenth batch of held-out documents (GitHub repositories only): pages nobody tuned
`check` to, each transcribed into tests/data/corpus/heldout/ (numbers, notation and layout kept,
prose rewritten), with the truth computed independently with numpy from the numbers each page
prints. Registered in tests/corpus/truth_heldout.py; the oracle's counts per document are in
tests/test_corpus_heldout.py (EXPECTED)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, block, given, one, other, settled, values
from tests.corpus.heldout_judge16b import JUDGE_DOCS_16B
from tests.corpus.helpers import causal, grid, softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English notebook (numpy): four positions, random 8-dimensional q, k, v, causal mask -------

_AH_Q = grid(
    "[[ 0.11672673 -2.54870451 -1.44065948  0.93661829  1.36278968  1.04252277\n"
    "  -0.01310938 -1.3163937 ]\n [ 0.26721599 -0.90218255  0.07417847 -0.10430246  0.52684253"
    " -0.07081531\n  -0.60511725 -0.55225527]\n [-0.93297509  0.28724456  1.37184579  0.41589874"
    "  0.34981245 -0.24753755\n  -1.24497125  0.05044148]\n [-0.11414585 -0.01545749 -0.58376828"
    " -0.40193907  0.93931836 -1.94334363\n  -0.34770465  1.50103406]]",
    8,
)
_AH_K = grid(
    "[[ 1.1226585  -0.85645535  0.54315044  1.36560451  0.52539476 -0.94502504\n"
    "  -0.48444661  0.46268014]\n [-0.53713766 -1.16937329 -0.57988617  0.92713577 -0.85995607"
    " -0.40352635\n   0.26555146 -1.83159914]\n [-2.06994435 -0.09514715 -1.64928361 -0.17375184"
    "  0.13146819 -1.76335363\n   1.56568846  0.69751826]\n [ 0.32910684 -0.1939204  -0.80444134"
    "  0.78816869  0.35599408  0.28309835\n  -0.25970963  1.49744622]]",
    8,
)
_AH_V = grid(
    "[[-0.00368231  1.43739233 -0.59614565 -1.23171219  1.12030717 -0.98620738\n"
    "  -0.15461465 -1.03106383]\n [ 0.85585446 -1.79878344  0.67321704  0.05607552 -0.15542661"
    " -1.41264124\n  -0.40136933 -1.17626611]\n [ 0.50465335  2.28693419  0.67128338  0.2506863"
    "   1.78802234  0.14775751\n  -0.11405725  0.88026286]\n [-0.68069105  0.68385101  0.17994557"
    " -1.68013201  0.91543969 -0.19108312\n   0.03160471  1.40527326]]",
    8,
)
_AH_PRODUCTS = grid(
    "1.9385252 5.43647918 -0.38370563 1.24225801 1.35187753 1.19807371 -1.70999851 -0.38129862"
    " 1.06382646 -0.86860778 -1.86251774 -0.68520405 2.21209236 -2.81995366 5.32327746"
    " 2.24049732",
    4,
)
_AH_SCALED = grid(
    "0.68537216 1.92208565 -0.13566043 0.43920453 0.47796088 0.42358302 -0.60457577 -0.13480942"
    " 0.37611945 -0.30709922 -0.65849946 -0.24225621 0.78209275 -0.99700418 1.88206279"
    " 0.79213542",
    4,
)
_AH_MASKED = grid(
    "0.68537216 -inf -inf -inf 0.47796088 0.42358302 -inf -inf 0.37611945 -0.30709922 -0.65849946"
    " -inf 0.78209275 -0.99700418 1.88206279 0.79213542",
    4,
)
_AH_WEIGHTS = grid(
    "1. 0. 0. 0. 0.51359112 0.48640888 0. 0. 0.53753304 0.27144826 0.1910187 0. 0.19293995"
    " 0.03256643 0.57960627 0.19488734",
    4,
)
_AH_NEW_V = grid(
    "-0.00368231 1.43739233 -0.59614565 -1.23171219 1.12030717 -0.98620738 -0.15461465"
    " -1.03106383 0.41440401 -0.13671232 0.02128364 -0.60532081 0.49977893 -1.1936286"
    " -0.27463831 -1.10169151 0.32673907 0.72121642 -0.00947672 -0.59897862 0.90155754"
    " -0.88535361 -0.21384855 -0.7053796 0.18700384 1.67754576 0.33105314 -0.41795742"
    " 1.4258469 -0.18788199 -0.10285145 0.54683565",
    8,
)
_AH_HALVES = {"q": 5e-9, "k": 5e-9, "v": 5e-9}


def _ah_scaled(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T / np.sqrt(8.0)


def _ah_weights(x: Arrays) -> np.ndarray:
    return softmax(causal(_ah_scaled(x)))


def _ah(compute: Truth, printed: tuple[tuple[str, ...], ...]) -> Truth:
    return settled(compute, _AH_HALVES, printed)


EN_HALTHOR = Doc(
    file="heldout/en-notebook-numpy-four-positions-random-qkv-causal-mask-new-values-twice.ipynb",
    url=(
        "https://github.com/ajhalthor/Transformer-Neural-Network/blob/main/"
        "Self_Attention_for_Transformer_Neural_Networks.ipynb"
    ),
    kind="video-lesson-notebook",
    language="en",
    inputs={"q": values(_AH_Q), "k": values(_AH_K), "v": values(_AH_V)},
    printed=(
        given(one("4", "8", "8"), "L, d_k, d_v"),
        given(_AH_Q, "Q (np.random.randn, unseeded)"),
        given(_AH_K, "K"),
        given(_AH_V, "V"),
        Printed(_AH_PRODUCTS, _ah(lambda x: x["q"] @ x["k"].T, _AH_PRODUCTS), "np.matmul(q, k.T)"),
        other(one("0.8672192297664698", "0.9229851723027697", "5.1446872979260165"), "variances"),
        other(one("0.8672192297664698", "0.9229851723027697", "0.643085912240752"), "variances"),
        Printed(_AH_SCALED, _ah(_ah_scaled, _AH_SCALED), "scaled"),
        given(grid("1. 0. 0. 0. 1. 1. 0. 0. 1. 1. 1. 0. 1. 1. 1. 1.", 4), "np.tril(np.ones)"),
        Printed(
            grid("0. -inf -inf -inf 0. 0. -inf -inf 0. 0. 0. -inf 0. 0. 0. 0.", 4),
            lambda x: causal(np.zeros((4, 4))),
            "mask of 0 and -inf",
        ),
        Printed(_AH_MASKED, lambda x: causal(_ah(_ah_scaled, _AH_SCALED)(x)), "scaled + mask"),
        Printed(_AH_WEIGHTS, _ah(_ah_weights, _AH_WEIGHTS), "attention"),
        Printed(_AH_NEW_V, _ah(lambda x: _ah_weights(x) @ x["v"], _AH_NEW_V), "new_v"),
        given(_AH_V, "v"),
        given(one("-1", "-1", "-1"), "axis in the code"),
        given(_AH_Q, "Q again"),
        given(_AH_K, "K again"),
        given(_AH_V, "V again"),
        Printed(_AH_NEW_V, _ah(lambda x: _ah_weights(x) @ x["v"], _AH_NEW_V), "New V again"),
        Printed(_AH_WEIGHTS, _ah(_ah_weights, _AH_WEIGHTS), "Attention again"),
    ),
    notes=(
        "The original of a video lesson's Jupyter notebook in numpy (printed arrays, execute "
        "results as array reprs with rows wrapped over two lines, tuples of variances): four "
        "positions with unseeded random 8-dimensional q, k, v printed to eight decimals, the raw "
        "products q k^T, variances before and after scaling (not attention), the scores divided "
        "by sqrt(8), a lower-triangular mask of ones turned into 0 and -inf, the masked scores, "
        "the softmax per row (exact zeros above the diagonal) and the new values; then the same "
        "steps as one function, which prints Q, K, V, New V and Attention again. The truth "
        "allows for the inputs' rounding to eight decimals. All right: 160 right."
    ),
)

# --- English notebook (PyTorch): four tokens, unscaled scores, masked_fill with -inf ----------

_YR_S = block(
    "[[[-4.8263,  0.0533,  0.4051,  0.9552],\n [-1.6908, -4.7683, -3.0699,  4.9278],\n"
    " [-2.3103, -1.7604, -0.1232,  1.1981],\n [-3.6772,  2.1976,  1.4153,  1.5783]]]"
)
_YR_MASKED = block(
    "[[[-4.8263,    -inf,    -inf,    -inf],\n [-1.6908, -4.7683,    -inf,    -inf],\n"
    " [-2.3103, -1.7604, -0.1232,    -inf],\n [-3.6772,  2.1976,  1.4153,  1.5783]]]"
)
_YR_ATTN = block(
    "[[[1.0000, 0.0000, 0.0000, 0.0000],\n [0.9560, 0.0440, 0.0000, 0.0000],\n"
    " [0.0859, 0.1489, 0.7653, 0.0000],\n [0.0014, 0.5004, 0.2288, 0.2694]]]"
)
_YR_ONES = block("[[1., 1., 1., 1.],\n [1., 1., 1., 1.],\n [1., 1., 1., 1.],\n [1., 1., 1., 1.]]")
_YR_TRIL = block("[[1., 0., 0., 0.],\n [1., 1., 0., 0.],\n [1., 1., 1., 0.],\n [1., 1., 1., 1.]]")
_YR_A = block("[[1, 2, 3],\n [4, 5, 6],\n [7, 8, 9]]")

EN_CAUSAL_FILL = Doc(
    file="heldout/en-notebook-torch-four-tokens-unscaled-scores-masked-fill-tril-triu-aside.ipynb",
    url="https://github.com/yrhutu21/NLP/blob/main/Casual_Mask.ipynb",
    kind="notebook",
    language="en",
    inputs={"s": values(_YR_S)},
    printed=(
        given(one("4", "4"), "np.ones((4, 4))"),
        given(_YR_ONES, "np.ones"),
        given(one("4", "4"), "code"),
        given(_YR_TRIL, "np.tril(np.ones)"),
        given(one("4", "4"), "code"),
        given(_YR_TRIL, "np.tril(np.ones) again"),
        given(one("0", "-inf", "1", "4", "8", "1", "4", "8"), "code"),
        given(one("1", "4", "8"), "K.shape"),
        given(one("-2", "-1", "1", "8", "4"), "K.transpose(-2, -1).shape"),
        given(_YR_S, "scores = Q @ K^T (Q and K are never printed)"),
        given(one("1", "4", "4"), "scores.shape"),
        given(one("4", "4"), "code"),
        given(_YR_TRIL, "mask = torch.tril(torch.ones(4, 4))"),
        given(one("0", "-inf"), "code"),
        Printed(_YR_MASKED, lambda x: causal(x["s"]), "scores.masked_fill(mask == 0, -inf)"),
        given(one("-1"), "dim"),
        Printed(
            _YR_ATTN,
            settled(lambda x: softmax(causal(x["s"])), {"s": 5e-5}, _YR_ATTN),
            "attn = softmax(scores, dim=-1)",
        ),
        given(_YR_A, "A"),
        given(one("3", "3", "-inf"), "code"),
        given(block("[[-inf, -inf, -inf],\n [-inf, -inf, -inf],\n [-inf, -inf, -inf]]"), "full"),
        given(block("[[1, 0, 0],\n [4, 5, 0],\n [7, 8, 9]]"), "torch.tril(A)"),
        given(one("-1"), "code"),
        given(block("[[0, 0, 0],\n [4, 0, 0],\n [7, 8, 0]]"), "torch.tril(A, diagonal=-1)"),
        given(block("[[1, 2, 3],\n [0, 5, 6],\n [0, 0, 9]]"), "torch.triu(A)"),
        given(one("-1"), "code"),
        given(block("[[1, 2, 3],\n [4, 5, 6],\n [0, 8, 9]]"), "torch.triu(A, diagonal=-1)"),
    ),
    notes=(
        "A learner's Colab notebook in PyTorch (execute results as tensor reprs, one batch of "
        "three dimensions): np.ones and np.tril of a 4 x 4, the boolean causal mask, random "
        "queries and keys of size 8 that are never printed, so the products Q K^T (no division "
        "by sqrt(8), as the code says) are taken as given; the lower-triangular mask of ones, "
        "masked_fill(mask == 0, -inf) and the softmax per row; then an aside on torch.tril and "
        "torch.triu of the integers 1 to 9 with diagonal offsets (given). The truth allows for "
        "the scores' rounding to four decimals. All right: 32 right."
    ),
)

# --- English notebook (numpy): the cat sat, hand-set weights, then identity weights and a mask -

_CH_X = block("[[1. , 0. , 0.5],\n [0. , 1. , 0.3],\n [1. , 1. , 0.2]]")
_CH_WQ = block("[[1.0, 0.0, 0.5], [0.0, 1.0, 0.5],[0.0, 1.0, 0.5]]")
_CH_WV = block("[[0.5, 1.0, 0.2], [1.0, 0.5, 0.3],[1.0, 0.5, 0.1]]")
_CH_X2 = block("[[1.0, 0.0, 1.0],\n [0.0, 1.0, 1.0],\n [1.0, 1.0, 0.0]]")
_CH_W2 = block(
    "[[1.         0.         0.        ]\n [0.35954252 0.64045748 0.        ]\n"
    " [0.26445846 0.26445846 0.47108308]]"
)


def _ch_qkv(x: Arrays, name: str) -> np.ndarray:
    return x["x"] @ x[name]


def _ch_weights(x: Arrays) -> np.ndarray:
    return softmax(_ch_qkv(x, "wq") @ _ch_qkv(x, "wq").T / np.sqrt(3.0))


def _ch_masked(x: Arrays) -> np.ndarray:
    return causal(x["x2"] @ x["x2"].T / np.sqrt(3.0))


EN_CAT_SAT_HAND = Doc(
    file="heldout/en-notebook-numpy-the-cat-sat-hand-weights-then-identity-causal-mask.ipynb",
    url="https://github.com/Chamindu77/Transformer/blob/main/Attention/Attention.ipynb",
    kind="notebook",
    language="en",
    inputs={
        "x": values(_CH_X),
        "wq": values(_CH_WQ),
        "wv": values(_CH_WV),
        "x2": values(_CH_X2),
    },
    printed=(
        given(one("1.0", "0.0", "0.5", "0.0", "1.0", "0.3", "1.0", "1.0", "0.2", "3", "2"), "code"),
        given(_CH_X, "X"),
        given(_CH_WQ, "W_Q"),
        given(_CH_WQ, "W_K"),
        given(_CH_WV, "W_V"),
        Printed(
            block("[[1.  , 1.25, 0.25],\n [1.3 , 0.65, 0.33],\n [1.7 , 1.6 , 0.52]]"),
            lambda x: _ch_qkv(x, "wv"),
            "V",
        ),
        Printed(
            block("[[1.  , 0.5 , 0.75],\n [0.  , 1.3 , 0.65],\n [1.  , 1.2 , 1.1 ]]"),
            lambda x: _ch_qkv(x, "wq"),
            "Q",
        ),
        Printed(
            block("[[1.8125 1.1375 2.425 ]\n [1.1375 2.1125 2.275 ]\n [2.425  2.275  3.65  ]]"),
            lambda x: _ch_qkv(x, "wq") @ _ch_qkv(x, "wq").T,
            "Dot product scores",
        ),
        given(one("-1"), "code"),
        Printed(
            block(
                "[[1.04644736, 0.65673593, 1.4000744 ],\n [0.65673593, 1.21965244, 1.31347186],\n"
                " [1.4000744 , 1.31347186, 2.10732848]]"
            ),
            lambda x: _ch_qkv(x, "wq") @ _ch_qkv(x, "wq").T / np.sqrt(3.0),
            "scaled_scores",
        ),
        given(one("-1", "-1"), "code"),
        Printed(
            block(
                "[[0.32242711 0.21836449 0.4592084 ]\n [0.21348029 0.37482567 0.41169404]\n"
                " [0.25345618 0.23242983 0.51411399]]"
            ),
            _ch_weights,
            "Attention Weights",
        ),
        Printed(
            block(
                "[[1.38695523 1.27970424 0.39145543]\n [1.40063353 1.16919751 0.39114344]\n"
                " [1.42960874 1.290482   0.40740516]]"
            ),
            lambda x: _ch_weights(x) @ _ch_qkv(x, "wv"),
            "Final Output",
        ),
        given(one("-1", "-1", "-1", "-1"), "code"),
        given(_CH_X2, "X (second example)"),
        given(one("3", "3", "3", "3", "3", "3", "3", "-1", "3", "0", "1", "1"), "code"),
        Printed(
            block(
                "[[1.15470054,       -inf,       -inf],\n [0.57735027, 1.15470054,       -inf],\n"
                " [0.57735027, 0.57735027, 1.15470054]]"
            ),
            _ch_masked,
            "masked_scores",
        ),
        Printed(
            block(
                "[[1.        , 0.        , 0.        ],\n [0.35954252, 0.64045748, 0.        ],\n"
                " [0.26445846, 0.26445846, 0.47108308]]"
            ),
            lambda x: softmax(_ch_masked(x)),
            "attn_weights",
        ),
        given(one("3", "3"), "code"),
        Printed(block("[[1. 0. 1.]\n [0. 1. 1.]\n [1. 1. 0.]]"), lambda x: x["x2"], "Q"),
        Printed(block("[[1. 0. 1.]\n [0. 1. 1.]\n [1. 1. 0.]]"), lambda x: x["x2"], "K"),
        Printed(block("[[1. 0. 1.]\n [0. 1. 1.]\n [1. 1. 0.]]"), lambda x: x["x2"], "V"),
        Printed(_CH_W2, lambda x: softmax(_ch_masked(x)), "Masked Attention Weights"),
        Printed(
            block(
                "[[1.         0.         1.        ]\n [0.35954252 0.64045748 1.        ]\n"
                " [0.73554154 0.73554154 0.52891692]]"
            ),
            lambda x: softmax(_ch_masked(x)) @ x["x2"],
            "Masked Self-Attention Output",
        ),
    ),
    notes=(
        "A repository's introductory Jupyter notebook in numpy (execute results as array reprs "
        "and printed arrays): three words (The, cat, sat) with 3-dimensional embeddings that "
        "include decimals, hand-set projections (W_K equal to W_Q), V and Q printed, the scores, "
        "the scores over sqrt(3), the softmax per row and the output; then a second example with "
        "integer embeddings, identity projections (np.eye), the scaled scores with a causal mask "
        "of -inf, the masked weights, Q, K, V (the embeddings again) and the output. All right: "
        "117 right."
    ),
)

# --- English README (Markdown tables): four tokens, a causal mask, a softmax table off in two rows

_GK_S = grid("0.8 0.4 0.3 0.2 0.5 0.9 0.6 0.4 0.3 0.7 0.8 0.5 0.4 0.5 0.6 0.7", 4)


def _gk_weights(x: Arrays) -> np.ndarray:
    return softmax(causal(x["s"]))


def _gk_row(i: int) -> Truth:
    return lambda x: _gk_weights(x)[i : i + 1, : i + 1]


EN_CAUSAL_README = Doc(
    file="heldout/en-md-readme-causal-attention-four-tokens-softmax-table-rows-off.md",
    url=(
        "https://github.com/Gaurav14cs17/LLMs_Model/blob/main/atten/04-causal-attention/README.md"
    ),
    kind="course-notes",
    language="en",
    inputs={"s": values(_GK_S)},
    printed=(
        given(one("4"), "chapter"),
        given(
            grid("1 1 2 3 4 5 2 1 2 3 4 5 3 1 2 3 4 5 4 1 2 3 4 5 5 1 2 3 4 5", 6),
            "positions table (position, can see, cannot see)",
        ),
        given(one("0", "1"), "formula"),
        given(one("4", "4"), "heading"),
        given(_GK_S, "raw scores (illustrative, no Q or K)"),
        Printed(
            grid("0.8 -inf -inf -inf 0.5 0.9 -inf -inf 0.3 0.7 0.8 -inf 0.4 0.5 0.6 0.7", 4),
            lambda x: causal(x["s"]),
            "masked scores",
        ),
        Printed(
            grid(
                "1.00 0.00 0.00 0.00 0.40 0.60 0.00 0.00 0.22 0.35 0.43 0.00 0.18 0.22 0.26 0.34",
                4,
            ),
            _gk_weights,
            "softmax table",
        ),
        given(one("1.0", "1.0", "1.0", "1.0"), "row sums"),
        Printed(one("1.00"), _gk_row(0), "output computation, The"),
        Printed(one("0.40", "0.60"), _gk_row(1), "output computation, cat"),
        Printed(one("0.22", "0.35", "0.43"), _gk_row(2), "output computation, sat"),
        Printed(one("0.18", "0.22", "0.26", "0.34"), _gk_row(3), "output computation, on"),
        given(one("1", "2", "3", "4"), "mask table header"),
        Printed(
            grid("0 -inf -inf -inf 0 0 -inf -inf 0 0 0 -inf 0 0 0 0", 4),
            lambda x: causal(np.zeros((4, 4))),
            "causal mask table (row labels 1 to 4 left out)",
        ),
    ),
    notes=(
        "A chapter README of a GitHub course repository (Markdown tables, bold entries, -∞ "
        "written with the infinity sign): illustrative raw scores for The cat sat on (no Q or K "
        "behind them, so taken as given), the scores with -∞ above the diagonal, a softmax "
        "table with a column of row sums (1.0, given), the output computation listing the "
        "weights again, and the 4 x 4 mask of 0 and -∞. The mistake: two rows of the softmax "
        "table are not the softmax of their masked scores - row sat prints 0.22 0.35 0.43 for "
        "0.2415 0.3603 0.3982 and row on prints 0.18 0.22 0.26 0.34 for 0.2138 0.2363 0.2612 "
        "0.2887 (rows The and cat and the zeros are right); each slip is printed twice, in the "
        "softmax table and in the output computation: 12 wrong (6 + 6), 46 right."
    ),
)

# --- English notebook (PyTorch): two rows attend to two rows, softmax along dim 0, e-notation --

_JY_X1 = block("[[ 1.,  2.,  1.],\n [-1., -1., -2.]]")
_JY_X2 = block("[[ 2.,  2.,  1.],\n [-1., -2., -1.]]")


def _jy_weights(x: Arrays) -> np.ndarray:
    return softmax(x["x1"] @ x["x2"].T, axis=0)


EN_DIM_ZERO = Doc(
    file="heldout/en-notebook-torch-two-by-three-rows-softmax-along-dim-zero-e-notation.ipynb",
    url="https://github.com/24Jay/LLM/blob/main/attention.ipynb",
    kind="notebook",
    language="en",
    inputs={"x1": values(_JY_X1), "x2": values(_JY_X2)},
    printed=(
        given(one("1", "2", "1", "-1", "-1", "-2.0", "2", "2", "1", "-1", "-2", "-1.0"), "code"),
        given(_JY_X1, "x1"),
        given(_JY_X2, "x2"),
        given(one("0", "1"), "transpose(0, 1)"),
        Printed(block("[[ 7., -6.],\n [-6.,  5.]]"), lambda x: x["x1"] @ x["x2"].T, "raw_weights"),
        given(one("0"), "dim=0"),
        Printed(
            block("[[1.0000e+00, 1.6701e-05],\n [2.2603e-06, 9.9998e-01]]"),
            _jy_weights,
            "attn_weights = softmax(raw_weights, dim=0)",
        ),
        Printed(
            block("[[ 2.0000,  2.0000,  1.0000],\n [-1.0000, -2.0000, -1.0000]]"),
            lambda x: _jy_weights(x) @ x["x2"],
            "attn_outputs",
        ),
    ),
    notes=(
        "A short study notebook in PyTorch (execute results as tensor reprs, the weights in "
        "e-notation): x1 (2 x 3) as queries, x2 (2 x 3) as keys and values, the products x1 "
        "x2^T without scaling, a softmax taken along dim=0 (down each column, as the code says: "
        "the page's own step, checked as such), and the weighted rows of x2, which round to x2 "
        "itself. All right: 14 right."
    ),
)

JUDGE_DOCS_16: list[Doc] = [
    EN_HALTHOR,
    EN_CAUSAL_FILL,
    EN_CAT_SAT_HAND,
    EN_CAUSAL_README,
    EN_DIM_ZERO,
    *JUDGE_DOCS_16B,
]
