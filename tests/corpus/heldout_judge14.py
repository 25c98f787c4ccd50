"""The fourteenth batch of held-out documents (GitHub repositories only): pages nobody tuned
`check` to, each transcribed into tests/data/corpus/heldout/ (numbers, notation and layout kept,
prose rewritten), with the truth computed independently with numpy from the numbers each page
prints. Registered in tests/corpus/truth_heldout.py; the oracle's counts per document are in
tests/test_corpus_heldout.py (EXPECTED)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, settled, single_precision, values
from tests.corpus.heldout_judge14b import JUDGE_DOCS_14B
from tests.corpus.helpers import causal, grid, softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English book notebook (numpy): three inputs, divisor 1, softmax row by row ----------------

_DR_X = block("[[1. 0. 1. 0.]\n [0. 2. 0. 2.]\n [1. 1. 1. 1.]]")
_DR_WQ = block("[[1 0 1]\n [1 0 0]\n [0 0 1]\n [0 1 1]]")
_DR_WK = block("[[0 0 1]\n [1 1 0]\n [0 1 0]\n [1 1 0]]")
_DR_WV = block("[[0 2 0]\n [0 3 0]\n [1 0 3]\n [1 1 0]]")


def _dr(x: Arrays, name: str) -> np.ndarray:
    return x["x"] @ x[name]


def _dr_weights(x: Arrays) -> np.ndarray:
    return softmax(_dr(x, "wq") @ _dr(x, "wk").T)


def _dr_row(i: int) -> Truth:
    return lambda x: _dr_weights(x)[i : i + 1]


def _dr_value(i: int) -> Truth:
    return lambda x: _dr(x, "wv")[i : i + 1]


def _dr_part(j: int) -> Truth:
    return lambda x: (_dr_weights(x)[0, j] * _dr(x, "wv")[j]).reshape(1, 3)


EN_ROTHMAN = Doc(
    file="heldout/en-notebook-numpy-book-three-inputs-divisor-one-row-softmax-weighted-values.ipynb",
    url=(
        "https://github.com/Denis2054/Transformers-for-NLP-2nd-Edition/blob/main/Chapter02/"
        "Multi_Head_Attention_Sub_Layer.ipynb"
    ),
    kind="book-notebook",
    language="en",
    inputs={"x": values(_DR_X), "wq": values(_DR_WQ), "wk": values(_DR_WK), "wv": values(_DR_WV)},
    printed=(
        given(_DR_X, "x"),
        given(_DR_WQ, "w_query"),
        given(_DR_WK, "w_key"),
        given(_DR_WV, "w_value"),
        Printed(block("[[1. 0. 2.]\n [2. 2. 2.]\n [2. 1. 3.]]"), lambda x: _dr(x, "wq"), "Q"),
        Printed(block("[[0. 1. 1.]\n [4. 4. 0.]\n [2. 3. 1.]]"), lambda x: _dr(x, "wk"), "K"),
        Printed(block("[[1. 2. 3.]\n [2. 8. 0.]\n [2. 6. 3.]]"), lambda x: _dr(x, "wv"), "V"),
        Printed(
            block("[[ 2.  4.  4.]\n [ 4. 16. 12.]\n [ 4. 12. 10.]]"),
            lambda x: _dr(x, "wq") @ _dr(x, "wk").T,
            "scores, divisor 1",
        ),
        Printed(one("0.06337894", "0.46831053", "0.46831053"), _dr_row(0), "softmax row 1"),
        Printed(one("6.03366485e-06", "9.82007865e-01", "1.79861014e-02"), _dr_row(1)),
        Printed(one("2.95387223e-04", "8.80536902e-01", "1.19167711e-01"), _dr_row(2)),
        Printed(one("1.", "2.", "3."), _dr_value(0), "V[0]"),
        Printed(one("2.", "8.", "0."), _dr_value(1), "V[1]"),
        Printed(one("2.", "6.", "3."), _dr_value(2), "V[2]"),
        Printed(one("0.06337894", "0.12675788", "0.19013681"), _dr_part(0), "Attention 1"),
        Printed(one("0.93662106", "3.74648425", "0."), _dr_part(1), "Attention 2"),
        Printed(one("0.93662106", "2.80986319", "1.40493159"), _dr_part(2), "Attention 3"),
        Printed(
            one("1.93662106", "6.68310531", "1.59506841"),
            lambda x: _dr_weights(x)[:1] @ _dr(x, "wv"),
            "first output row",
        ),
        given(one("3", "64", "512"), "shape of one head, dimension of 8 heads"),
        given(
            block(
                "0.56468036 0.84093457 0.82947301 0.38060399 0.40217666 0.41135804\n"
                "0.39462287 0.7404385 0.19385572 0.35313777 0.09411459 0.34114942\n"
                "0.25418635 0.6578489 0.75116683 0.88148612 0.91526444 0.80329105"
            ),
            "random heads concatenated (printed with ...)",
        ),
    ),
    notes=(
        "A book's companion Jupyter notebook (numpy, printed outputs, image cells left out): "
        "three inputs x (3 x 4), integer weights set by hand, Q, K, V, the scores Q K^T with "
        "the divisor sqrt(d_k) replaced by 1 (stated, not a mistake), one softmax per row "
        "printed to eight digits (two rows in e-notation), the three value vectors weighted by "
        "the first row and their sum, the first output row. Steps 8-10 stand in for trained "
        "heads with random arrays (their 3 x 64 prints left out; the truncated concatenation "
        "is given). All right: 66 right."
    ),
)

# --- Korean notebook (TensorFlow, float32): Q = K, three tokens, output before weights ---------

_KT_QK = "[[1.0, 0.0, 1.0, 0.0],\n [0.0, 2.0, 0.0, 2.0],\n [1.0, 1.0, 1.0, 1.0]]"
_KT_OUT = block("[[[0.3        0.40000004]\n  [0.32028684 0.42028683]\n  [0.3533913  0.4533913 ]]]")
_KT_W = block(
    "[[[0.42231882 0.15536241 0.42231882]\n  [0.01587624 0.8668133  0.11731042]\n"
    "  [0.15536241 0.42231882 0.42231882]]]"
)


def _kt_weights(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["k"].T / np.sqrt(4.0))


KO_TF_FLOAT32 = Doc(
    file="heldout/ko-notebook-tensorflow-float32-three-tokens-query-equals-key-weights-output.ipynb",
    url="https://github.com/juhumkwon/source_code/blob/main/Attention_1.ipynb",
    kind="notebook",
    language="ko",
    inputs={
        "q": values(block(_KT_QK)),
        "k": values(block(_KT_QK)),
        "v": a([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]),
    },
    printed=(
        given(one("-1", "-1e9", "-1"), "axis and mask constant in the code"),
        given(one("1", "3", "4"), "batch, seq_len, depth"),
        given(block(_KT_QK), "Q"),
        given(one("1", "3", "4"), "Q shape"),
        given(block(_KT_QK), "K"),
        given(one("1", "3", "4"), "K shape"),
        given(block("[[0.1, 0.2],\n [0.3, 0.4],\n [0.5, 0.6]]"), "V"),
        given(one("1", "3", "2"), "V shape"),
        Printed(
            _KT_OUT,
            single_precision(lambda x: _kt_weights(x) @ x["v"], _KT_OUT),
            "Attention Output (float32)",
        ),
        Printed(_KT_W, single_precision(_kt_weights, _KT_W), "Attention Weights (float32)"),
    ),
    notes=(
        "A Korean-commented Colab notebook in TensorFlow (one code cell, printed numpy arrays "
        "of float32): scaled dot-product attention of three tokens with Q = K (4-dimensional "
        "rows [1,0,1,0], [0,2,0,2], [1,1,1,1]) and 2-dimensional values, printed output first "
        "and weights second, with float32 digits such as 0.40000004 for 0.4 (the truth allows "
        "for single precision). All right: 15 right."
    ),
)

# --- English notebook (PyTorch): random input transposed, scores divided by 2, row softmax ------

_DM_X = block(
    "[[0.8311, 0.8966, 0.9652, 0.3645],\n [0.7580, 0.4778, 0.5988, 0.4520],\n"
    " [0.7356, 0.1954, 0.3560, 0.4245],\n [0.8762, 0.1240, 0.9374, 0.5385],\n"
    " [0.3336, 0.9823, 0.6054, 0.5508]]"
)
_DM_A1 = block(
    "[[-0.0461, -0.0809, -0.1210, -0.0057],\n [ 0.2983,  0.1843,  0.2416,  0.1894],\n"
    " [ 0.0242, -0.0446, -0.0475,  0.0374],\n [ 0.0418,  0.0318, -0.0084,  0.0325]]"
)
_DM_A2 = block(
    "[[-0.0230, -0.0404, -0.0605, -0.0029],\n [ 0.1491,  0.0922,  0.1208,  0.0947],\n"
    " [ 0.0121, -0.0223, -0.0238,  0.0187],\n [ 0.0209,  0.0159, -0.0042,  0.0162]]"
)
_DM_A3 = block(
    "[[0.2521, 0.2478, 0.2428, 0.2573],\n [0.2588, 0.2445, 0.2516, 0.2451],\n"
    " [0.2540, 0.2454, 0.2450, 0.2556],\n [0.2522, 0.2509, 0.2459, 0.2510]]"
)
_DM_F = block(
    "[[-0.6343,  0.0544, -0.4861],\n [-0.6419,  0.0541, -0.4920],\n"
    " [-0.6364,  0.0542, -0.4877],\n [-0.6354,  0.0549, -0.4872]]"
)
_DM_HALVES = {"a1": 5e-5}

EN_TRANSPOSED = Doc(
    file="heldout/en-notebook-torch-random-input-transposed-divide-by-two-row-softmax.ipynb",
    url="https://github.com/dmbernaal/self_attention/blob/master/self_attention.ipynb",
    kind="notebook",
    language="en",
    inputs={"a1": values(_DM_A1)},
    printed=(
        given(one("5", "4"), "torch.rand(5, 4)"),
        given(_DM_X, "x (random, unseeded)"),
        given(one("5", "3", "5", "3", "5", "3"), "nn.Linear(5, 3) three times"),
        given(one("5", "4"), "Input dimensions"),
        given(one("4", "3"), "Output dimensions"),
        given(_DM_A1, "A1 = queries keys^T (the weights are never printed)"),
        given(one("4", "4"), "A1.shape"),
        given(one("4."), "torch.tensor(4.)"),
        Printed(_DM_A2, settled(lambda x: x["a1"] / 2.0, _DM_HALVES, _DM_A2), "A2 = A1 / 2"),
        given(one("1"), "dim 1"),
        Printed(
            _DM_A3,
            settled(lambda x: softmax(x["a1"] / 2.0), _DM_HALVES, _DM_A3),
            "A3 = softmax(A2, 1)",
        ),
        given(one("4", "4"), "A3.shape"),
        given(_DM_F, "F = A3 values (the values are never printed)"),
        given(one("4", "3"), "F.shape"),
    ),
    notes=(
        "A Jupyter notebook in PyTorch (printed tensors as execute results, tuples with "
        "torch.Size): a random 5 x 4 input whose transpose goes through three bias-free "
        "Linear(5, 3) layers, so that the four columns act as tokens; the queries, keys, values "
        "and weights are never printed, so the product A1 = queries keys^T is taken as given and "
        "the weighted values F cannot be checked. Checked: A1 divided by sqrt(4) = 2 (the code's "
        "divisor, though the keys have 3 entries) and the softmax along rows. The truth allows "
        "for A1's rounding to four decimals. All right: 32 right."
    ),
)

# --- Indonesian-commented notebook (TensorFlow): random 1 x 3 x 4 Q, K, V, float32 output ------

_AI_Q = block(
    "[[[-1.9292568   1.2269667   0.6370855   0.268685  ]\n"
    "  [ 0.09105452 -0.64205617 -1.4091802   0.6219789 ]\n"
    "  [-0.04484814  1.2287714   0.5167272  -0.01811061]]]"
)
_AI_K = block(
    "[[[-0.96645766 -0.5565629  -0.45644137  0.18691523]\n"
    "  [-1.6269337  -1.5180072   0.01363173 -1.1714674 ]\n"
    "  [-0.10310423  0.24987963  0.7463436  -1.4164997 ]]]"
)
_AI_V = block(
    "[[[-0.3739626  -0.70063055  0.898552   -0.315544  ]\n"
    "  [-0.04521862  0.23821616  0.52189904 -0.10142639]\n"
    "  [ 0.7520454   0.61420715 -0.39475915 -0.6265716 ]]]"
)
_AI_OUT = block(
    "[[[ 0.07502148,  0.02067154,  0.38318983, -0.33131033],\n"
    "  [-0.13379401, -0.23168473,  0.6230169 , -0.27831373],\n"
    "  [ 0.3288317 ,  0.21215089,  0.09149134, -0.45905122]]]"
)


def _ai_out(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["k"].T / np.sqrt(4.0)) @ x["v"]


ID_TF_RANDOM = Doc(
    file="heldout/id-notebook-tensorflow-random-normal-one-by-three-by-four-float32-output.ipynb",
    url=(
        "https://github.com/Airin32/My_Little_Lab/blob/main/seq2seqmodels/"
        "self_attention_with_Ai.ipynb"
    ),
    kind="notebook",
    language="id",
    inputs={"q": values(_AI_Q), "k": values(_AI_K), "v": values(_AI_V)},
    printed=(
        given(one("-1", "-1"), "tf.shape(K)[-1], axis=-1"),
        given(one("1", "3", "4", "1", "3", "4", "1", "3", "4"), "tf.random.normal shapes"),
        given(_AI_Q, "Q (tf.random.normal, unseeded)"),
        given(_AI_K, "K"),
        given(_AI_V, "V"),
        given(one("1", "3", "4"), "shape=(1, 3, 4)"),
        Printed(
            _AI_OUT,
            single_precision(_ai_out, _AI_OUT),
            "scaled_dot_attention(Q, K, V) (float32)",
        ),
        given(one("-1", "-1", "3", "4", "1", "3", "4", "1", "3", "4", "1", "3", "4"), "code"),
        given(
            block(
                "[[[ 1.0591817   0.50720805 -0.11987717 -0.11517995]\n"
                "  [ 0.92439175  0.30485007 -0.04524641 -0.04805614]\n"
                "  [ 0.899948    0.32792068 -0.10444834 -0.0222591 ]]]"
            ),
            "output of a second draw whose inputs are not printed",
        ),
        given(one("1", "3", "4"), "shape=(1, 3, 4)"),
    ),
    notes=(
        "A learner's Colab notebook in TensorFlow with a few Indonesian comments (the later "
        "cells, layers without numbers, left out): Q, K, V drawn with tf.random.normal([1, 3, "
        "4]) and printed as float32, then scaled_dot_attention(Q, K, V) shown as a tf.Tensor "
        "repr (<tf.Tensor: shape=(1, 3, 4), dtype=float32, numpy=array(...)>); a second "
        "function is run on new draws that are never printed, so its output is only given. "
        "The truth allows for single precision. All right: 12 right."
    ),
)

# --- English notebook (numpy): ten positions, printed scaled scores, a causal softmax --------

_JM_S = grid(
    (
        "-0.24377662 1.02113081 1.3023725 1.27063396 0.61714306\n"
        "-0.24391184 -1.77506907 0.10631629 1.42332514 1.72122403\n"
        "-1.712277 -0.34658796 0.3629974 -0.76977711 1.08587583\n"
        "0.16609727 0.27010721 0.15325385 0.18152852 0.49246579\n"
        "1.05832548 1.98228014 2.18850259 0.82108503 0.42838988\n"
        "1.8003839 -0.39505285 -0.02929142 -0.69937748 -0.23668556\n"
        "1.09747933 0.32267196 -0.20756995 -0.85043791 -0.20697511\n"
        "-0.15425011 0.59800415 -0.13253693 1.38956401 0.55788049\n"
        "1.442453 -0.17433992 1.44209349 -0.37922308 0.06991483\n"
        "-0.76360436 1.27243722 0.73817403 -1.301752 -0.46046847\n"
        "1.9083543 -1.33721653 0.99054056 0.1473052 -0.4756667\n"
        "-0.67855265 1.67230011 1.19530252 -1.51350064 0.12218795\n"
        "1.51843864 0.3968648 0.73078071 0.43601877 -2.06270872\n"
        "-0.2010952 -0.3849416 -0.36601384 0.22421066 0.10103515\n"
        "1.18249188 0.93866833 0.77501054 0.04092458 -0.05374637\n"
        "-0.94093601 -0.71874403 -1.26376346 1.06500405 -0.55640732\n"
        "-0.41315987 0.60340905 1.45690012 -0.99235632 1.23683168\n"
        "-0.9963281 -0.28592463 1.71987027 0.26580614 1.15352023\n"
        "-0.92585863 -0.729652 -1.68159077 -0.11462305 -0.41757294\n"
        "0.25874514 -0.11306163 -0.71986568 -0.10551769 0.23315013\n"
    ),
    10,
)
_JM_M = grid(
    (
        "0. -inf -inf -inf -inf -inf -inf -inf -inf -inf\n"
        "0. 0. -inf -inf -inf -inf -inf -inf -inf -inf\n"
        "0. 0. 0. -inf -inf -inf -inf -inf -inf -inf\n"
        "0. 0. 0. 0. -inf -inf -inf -inf -inf -inf\n"
        "0. 0. 0. 0. 0. -inf -inf -inf -inf -inf\n"
        "0. 0. 0. 0. 0. 0. -inf -inf -inf -inf\n"
        "0. 0. 0. 0. 0. 0. 0. -inf -inf -inf\n"
        "0. 0. 0. 0. 0. 0. 0. 0. -inf -inf\n"
        "0. 0. 0. 0. 0. 0. 0. 0. 0. -inf\n"
        "0. 0. 0. 0. 0. 0. 0. 0. 0. 0.\n"
    ),
    10,
)
_JM_A = grid(
    (
        "1. 0. 0. 0. 0. 0. 0. 0. 0. 0.\n"
        "0.20331724 0.79668276 0. 0. 0. 0. 0. 0. 0. 0.\n"
        "0.15116157 0.38081127 0.46802717 0. 0. 0. 0. 0. 0. 0.\n"
        "0.53346922 0.24581863 0.14465507 0.07605708 0. 0. 0. 0. 0. 0.\n"
        "0.38264445 0.07596808 0.38250691 0.06189443 0.09698614 0. 0. 0. 0. 0.\n"
        "0.5625456 0.02190908 0.2246758 0.0966816 0.05185499 0.04233293 0. 0. 0. 0.\n"
        "0.40395754 0.13159591 0.18376391 0.13685061 0.01124769 0.07236885 0.06021548 0. 0. 0.\n"
        "0.29288024 0.22950854 0.19486021 0.09352198 0.08507435\n"
        "0.03503459 0.04375159 0.02536851 0. 0.\n"
        "0.03555465 0.09826224 0.23070293 0.01992299 0.18513076\n"
        "0.01984402 0.04037885 0.30009557 0.070108 0.\n"
        "0.05316333 0.06468799 0.02496904 0.11965403 0.08838078\n"
        "0.17381172 0.119841 0.06532415 0.12074849 0.16941946\n"
    ),
    10,
)
_JM_NV = grid(
    (
        "-0.77619716 0.78746114 -1.3483487 0.72068791 -0.13545548 -0.05036879\n"
        "-0.62739304 -0.32487966 0.68112591 -0.38931659 0.11685185 0.04739216\n"
        "-0.29292767 -0.15508948 -0.22815548 0.15647082 0.77177643 -0.12194113\n"
        "-0.50205301 0.18204522 -0.29486757 0.14680658 0.25700999 0.13210688\n"
        "-0.58436974 -0.28711701 -0.10361234 -0.14411789 0.44227375 0.76628905\n"
        "-0.47548399 -0.01235199 -0.00600266 -0.43051166 -0.18088839 0.12450246\n"
    ),
    6,
)
_JM_HALVES = {"s": 5e-9}


def _jm_weights(x: Arrays) -> np.ndarray:
    return softmax(causal(x["s"]))


EN_TEN_CAUSAL = Doc(
    file="heldout/en-notebook-numpy-ten-positions-printed-scaled-scores-causal-softmax.ipynb",
    url="https://github.com/jmo-on/transformer-architecture/blob/main/notebook/self_attention.ipynb",
    kind="notebook",
    language="en",
    inputs={"s": values(_JM_S)},
    printed=(
        given(one("10", "512", "512"), "sequence_length, d_k, d_v"),
        given(one("10", "512", "10", "512", "10", "512"), "q.shape, k.shape, v.shape"),
        given(one("10", "10"), "scaled.shape"),
        given(_JM_S, "scaled = q k^T / sqrt(512) (q and k are never printed)"),
        given(one("10", "10"), "mask.shape"),
        given(_JM_M, "mask of 0 and -inf"),
        given(one("-1", "10", "10"), "axis=-1, attention.shape"),
        Printed(
            _JM_A, settled(_jm_weights, _JM_HALVES, _JM_A), "attention = softmax(scaled + mask)"
        ),
        given(one("10", "512"), "new_v.shape"),
        given(_JM_NV, "new_v, printed with ... (v is never printed)"),
        given(one("-1", "-1", "-1", "-2", "-1", "1", "8", "512", "1"), "code of the functions"),
    ),
    notes=(
        "A Jupyter notebook in numpy (tuples of shape and array as execute results): ten "
        "positions with unseeded random 512-dimensional q, k, v that are never printed, the "
        "scaled scores q k^T / sqrt(512) printed in full (10 x 10, taken as given), the causal "
        "mask of 0 and -inf, the masked softmax (10 x 10, exact zeros above the diagonal) and "
        "the new values (10 x 512, cut with ...; given). Checked: the 100 weights from the "
        "printed scores. The truth allows for the scores' rounding to eight decimals. All "
        "right: 100 right."
    ),
)

# --- English notebook (PyTorch): eight heads, the first head's masked scores, softmax by hand ---

_MH_M = block(
    "[[ 0.1183,    -inf,    -inf,    -inf],\n [ 0.1025,  0.2206,    -inf,    -inf],\n"
    " [ 0.6805,  0.0523,  0.5075,    -inf],\n [ 0.2214,  0.2996, -0.1913, -0.5682]]"
)
_MH_A = block(
    "[[1.0000, 0.0000, 0.0000, 0.0000],\n [0.4705, 0.5295, 0.0000, 0.0000],\n"
    " [0.4211, 0.2247, 0.3542, 0.0000],\n [0.3128, 0.3382, 0.2070, 0.1420]]"
)
_MH_Y = block("[[ 0.7365, -0.3431],\n [-0.4874, -2.2317],\n [ 0.6121, -0.8378]]")


def _mh_by_hand(k: int) -> Truth:
    scores = a([0.1025, 0.2206])
    return lambda x: a([[np.exp(scores[k]) / np.exp(scores).sum()]])


EN_EIGHT_HEADS = Doc(
    file="heldout/en-notebook-torch-eight-heads-masked-scores-softmax-by-hand-full-digits.ipynb",
    url="https://github.com/letter-night/Transformer_basic/blob/main/Multihead_Attention.ipynb",
    kind="notebook",
    language="en",
    inputs={"m": values(_MH_M)},
    printed=(
        given(one("4", "1", "512", "512"), "sequence_length, batch_size, input_dim, d_model"),
        given(one("1", "4", "512"), "x.size()"),
        given(one("3", "1", "4", "1536"), "3 * d_model, qkv.shape"),
        given(one("8", "1", "4", "8", "192"), "num_heads, qkv.shape"),
        given(one("1", "8", "4", "192"), "after permute"),
        given(one("1", "8", "4", "64", "1", "8", "4", "64", "1", "8", "4", "64"), "q, k, v shapes"),
        given(one("1", "8", "4", "4"), "scaled.shape"),
        given(one("64", "4", "8", "1"), "k.T.shape"),
        given(_MH_Y, "torch.transpose of a random 2 x 3 y"),
        given(_MH_Y, "the same, other argument order"),
        given(one("1", "8", "64", "4"), "k.transpose(-1, -2).shape"),
        Printed(
            block(
                "[[0., -inf, -inf, -inf],\n [0., 0., -inf, -inf],\n [0., 0., 0., -inf],\n"
                " [0., 0., 0., 0.]]"
            ),
            lambda x: causal(np.zeros((4, 4))),
            "mask[0][1] (computed with torch.triu)",
        ),
        given(_MH_M, "(scaled + mask)[0][0] (q and k are never printed)"),
        given(one("0.1025", "0.1025", "0.2206"), "np.exp(0.1025) / (...)"),
        Printed(one("0.4705092691356438"), _mh_by_hand(0), "softmax by hand, first entry"),
        given(one("0.2206", "0.1025", "0.2206"), "np.exp(0.2206) / (...)"),
        Printed(one("0.5294907308643562"), _mh_by_hand(1), "softmax by hand, second entry"),
        given(one("1", "8", "4", "4"), "attention.shape"),
        Printed(_MH_A, settled(lambda x: softmax(x["m"]), {"m": 5e-5}, _MH_A), "attention[0][0]"),
        given(one("1", "8", "4", "64"), "values.shape"),
        Printed(_MH_A, settled(lambda x: softmax(x["m"]), {"m": 5e-5}, _MH_A), "attention[0][0]"),
        given(one("1", "8", "4", "64", "1", "4", "512", "1", "4", "512"), "sizes"),
        given(
            block(
                "0.1429 -0.1624 -0.1575 0.1823 -0.2781 0.1793\n"
                "-0.2342 -0.0401 0.0101 -0.2937 -0.2094 0.0264\n"
                "0.0021 0.0474 0.0387 0.3759 -0.1068 0.3643\n"
                "0.3227 0.2198 0.0553 0.3369 0.2028 0.0202"
            ),
            "out after the output layer (printed with ...)",
        ),
    ),
    notes=(
        "A Jupyter notebook in PyTorch (execute results; a learner's copy of a well-known video "
        "lesson's multi-head notebook with its own random draws): x of shape (1, 4, 512), one "
        "Linear layer to 3 x 512 split into eight heads of 64, shapes at every step, a torch."
        "transpose aside on a random 2 x 3 tensor, the causal mask, the first head's masked "
        "scores (printed to four decimals with -inf; q and k are never printed, so taken as "
        "given), a softmax of the second row checked by hand with np.exp to full double "
        "precision (0.4705092691356438, 0.5294907308643562), the first head's weights "
        "printed twice, and the projected output (cut with ...; given). The mask, computed "
        "with torch.triu, is checked as the causal mask. The truth allows for the scores' "
        "rounding to four decimals. All right: 50 right."
    ),
)

JUDGE_DOCS_14: list[Doc] = [
    EN_ROTHMAN,
    KO_TF_FLOAT32,
    EN_TRANSPOSED,
    ID_TF_RANDOM,
    EN_TEN_CAUSAL,
    EN_EIGHT_HEADS,
    *JUDGE_DOCS_14B,
]
