"""What every number of the held-out documents should be, computed independently with numpy.

The held-out documents (tests/data/corpus/heldout/) are never opened while `check DOC` is
developed; they only measure it. Each truth function reads the document's inputs, as printed,
and recomputes the attention step the document prints. Helpers: tests/corpus/heldout_help.py.
"""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import (
    a,
    block,
    given,
    one,
    other,
    settled,
)
from tests.corpus.heldout_judge import JUDGE_DOCS
from tests.corpus.heldout_judge2 import JUDGE_DOCS_2
from tests.corpus.heldout_judge3 import JUDGE_DOCS_3
from tests.corpus.heldout_judge4 import JUDGE_DOCS_4
from tests.corpus.heldout_judge10 import JUDGE_DOCS_10
from tests.corpus.heldout_judge11 import JUDGE_DOCS_11
from tests.corpus.heldout_judge12 import JUDGE_DOCS_12
from tests.corpus.heldout_judge14 import JUDGE_DOCS_14
from tests.corpus.heldout_judge16 import JUDGE_DOCS_16
from tests.corpus.heldout_judge17 import JUDGE_DOCS_17
from tests.corpus.heldout_more import MORE
from tests.corpus.heldout_new import NEW
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_4 = 5e-5

# --- Korean blog, padding mask with masked_fill(-1e9), e-notation prints ------------------------

_KO_RAW = block(
    """
    [250.7811,  -1.1604, -11.8655, -23.0747, -10.0332,   6.6510, -45.7395, -45.7395],
    [ -1.1604, 222.7683,  39.4433,   7.0246,  12.0378,  13.0978,   4.4677,   4.4677],
    [-11.8655,  39.4433, 214.6503,  31.6948,  17.2696,  28.4694,  24.3573,  24.3573],
    [-23.0747,   7.0246,  31.6948, 223.2298,  13.5132,  32.3621,  37.9429,  37.9429],
    [-10.0332,  12.0378,  17.2696,  13.5132, 256.6101,  32.1088,  -9.0106,  -9.0106],
    [  6.6510,  13.0978,  28.4694,  32.3621,  32.1088, 304.7859, -21.7731, -21.7731],
    [-45.7395,   4.4677,  24.3573,  37.9429,  -9.0106, -21.7731, 455.8302, 455.8302],
    [-45.7395,   4.4677,  24.3573,  37.9429,  -9.0106, -21.7731, 455.8302, 455.8302]
    """
)
_KO_SCALED = block(
    """
    [31.3476, -0.1451, -1.4832, -2.8843, -1.2542,  0.8314, -5.7174, -5.7174],
    [-0.1451, 27.8460,  4.9304,  0.8781,  1.5047,  1.6372,  0.5585,  0.5585],
    [-1.4832,  4.9304, 26.8313,  3.9618,  2.1587,  3.5587,  3.0447,  3.0447],
    [-2.8843,  0.8781,  3.9618, 27.9037,  1.6892,  4.0453,  4.7429,  4.7429],
    [-1.2542,  1.5047,  2.1587,  1.6892, 32.0763,  4.0136, -1.1263, -1.1263],
    [ 0.8314,  1.6372,  3.5587,  4.0453,  4.0136, 38.0982, -2.7216, -2.7216],
    [-5.7174,  0.5585,  3.0447,  4.7429, -1.1263, -2.7216, 56.9788, 56.9788],
    [-5.7174,  0.5585,  3.0447,  4.7429, -1.1263, -2.7216, 56.9788, 56.9788]
    """
)
_KO_MASKED = block(
    """
    [ 3.1348e+01, -1.4505e-01, -1.4832e+00, -2.8843e+00, -1.2542e+00,  8.3138e-01, -1.0000e+09, -1.0000e+09],
    [-1.4505e-01,  2.7846e+01,  4.9304e+00,  8.7807e-01,  1.5047e+00,  1.6372e+00, -1.0000e+09, -1.0000e+09],
    [-1.4832e+00,  4.9304e+00,  2.6831e+01,  3.9618e+00,  2.1587e+00,  3.5587e+00, -1.0000e+09, -1.0000e+09],
    [-2.8843e+00,  8.7807e-01,  3.9618e+00,  2.7904e+01,  1.6892e+00,  4.0453e+00, -1.0000e+09, -1.0000e+09],
    [-1.2542e+00,  1.5047e+00,  2.1587e+00,  1.6892e+00,  3.2076e+01,  4.0136e+00, -1.0000e+09, -1.0000e+09],
    [ 8.3138e-01,  1.6372e+00,  3.5587e+00,  4.0453e+00,  4.0136e+00,  3.8098e+01, -1.0000e+09, -1.0000e+09],
    [-5.7174e+00,  5.5846e-01,  3.0447e+00,  4.7429e+00, -1.1263e+00, -2.7216e+00, -1.0000e+09, -1.0000e+09],
    [-5.7174e+00,  5.5846e-01,  3.0447e+00,  4.7429e+00, -1.1263e+00, -2.7216e+00, -1.0000e+09, -1.0000e+09]
    """  # noqa: E501
)
_KO_PROB = block(
    """
    [1.0000e+00, 2.1033e-14, 5.5176e-15, 1.3591e-15, 6.9378e-15, 5.5841e-14, 0.0000e+00, 0.0000e+00],
    [6.9763e-13, 1.0000e+00, 1.1165e-10, 1.9407e-12, 3.6318e-12, 4.1463e-12, 0.0000e+00, 0.0000e+00],
    [5.0487e-13, 3.0802e-10, 1.0000e+00, 1.1693e-10, 1.9268e-11, 7.8133e-11, 0.0000e+00, 0.0000e+00],
    [4.2551e-14, 1.8319e-12, 4.0010e-11, 1.0000e+00, 4.1224e-12, 4.3491e-11, 0.0000e+00, 0.0000e+00],
    [3.3480e-15, 5.2839e-14, 1.0162e-13, 6.3540e-14, 1.0000e+00, 6.4945e-13, 0.0000e+00, 0.0000e+00],
    [6.5344e-17, 1.4628e-16, 9.9921e-16, 1.6255e-15, 1.5748e-15, 1.0000e+00, 0.0000e+00, 0.0000e+00],
    [2.3843e-05, 1.2675e-02, 1.5230e-01, 8.3218e-01, 2.3510e-03, 4.7689e-04, 0.0000e+00, 0.0000e+00],
    [2.3843e-05, 1.2675e-02, 1.5230e-01, 8.3218e-01, 2.3510e-03, 4.7689e-04, 0.0000e+00, 0.0000e+00]
    """  # noqa: E501
)
_KO_IDS = block(
    "[[3091, 3604,  206, 3958, 3760, 3590,    0,    0],\n"
    " [ 212, 3605,   53, 3832, 3596, 3682, 3760, 3590]]"
)


def _ko_masked(x: Arrays) -> np.ndarray:
    pad = np.zeros((8, 8), dtype=bool)
    pad[:, 6:] = True
    return np.where(pad, -1e9, x["scores"] / 8)


KO = Doc(
    file="heldout/ko-blog-transformer-scaled-dot-product.md",
    url="https://github.com/paul-hyun/paul-hyun.github.io/blob/master/_posts/2019-12-19-transformer-01.md",
    kind="blog",
    language="ko",
    inputs={"scores": a([[float(e) for e in row] for row in _KO_RAW])},
    printed=(
        other(_KO_IDS, "token ids"),
        other(_KO_IDS, "token ids"),
        other(block("[[1, 2, 3, 4, 5, 6, 0, 0],\n [1, 2, 3, 4, 5, 6, 7, 8]]"), "positions"),
        given(_KO_RAW, "scores = Q K^T"),
        Printed(
            _KO_SCALED,
            settled(lambda x: x["scores"] / 8, {"scores": _ROUNDED_4}, _KO_SCALED),
            "scores / sqrt(64)",
        ),
        Printed(
            _KO_MASKED,
            settled(_ko_masked, {"scores": _ROUNDED_4}, _KO_MASKED),
            "masked_fill(attn_mask, -1e9)",
        ),
        Printed(
            _KO_PROB,
            settled(lambda x: softmax(_ko_masked(x)), {"scores": _ROUNDED_4}, _KO_PROB),
            "attn_prob",
        ),
    ),
    notes=(
        "Self-attention with Q = K = V = 128-d embeddings not printed: the raw scores are the "
        "inputs. Scaled by 1/sqrt(d_head = 64) although the vectors are 128-d (the document's "
        "choice, kept as the truth). A padding mask (last two keys) filled with -1e9, printed "
        "as -1.0000e+09 among e-notation entries; softmax entries down to 6.5e-17. Only batch "
        "element [0] of a (2, 8, 8) tensor is printed. Token ids and positions are integers "
        "that are not attention."
    ),
)

# --- Portuguese lab README: Q, K, V given directly, d_v != d_k ----------------------------------


def _lab(x: Arrays) -> np.ndarray:
    return softmax(x["Q"] @ x["K"].T / np.sqrt(3)) @ x["V"]


PT_LAB = Doc(
    file="heldout/pt-lab-scaled-dot-product-readme.md",
    url="https://github.com/gustavodovale/LAB-P1-01-",
    kind="lab",
    language="pt",
    inputs={
        "Q": a([[1, 2, 2], [1, 1, 2]]),
        "K": a([[2, 5, 6], [0, 8, 1]]),
        "V": a([[10, 50], [20, 60]]),
    },
    printed=(
        given(block("[[1,2,2],[1,1,2]]"), "Q"),
        given(block("[[2,5,6],[0,8,1]]"), "K"),
        given(block("[[10,50],[20,60]]"), "V"),
        Printed(block("[[10.3035109  50.3035109 ]\n [10.05507332 50.05507332]]"), _lab, "saída"),
    ),
    notes="Q, K and V given directly (no weights), d_k = 3, d_v = 2; numpy's default print.",
)

# --- torch notebook: naive context from dot products of fixed embeddings ------------------------

_BANK_EMBEDDING = block(
    """
    tensor([ 4.8726e-03,  2.5025e-02, -9.0665e-02,  9.0132e-04, -5.9366e-02,
    -7.1815e-02,  1.1657e-01,  1.4013e-02,  4.2145e-02, -5.8147e-02,
    -1.1508e-02, -4.5583e-02, -3.5099e-02, -3.5663e-02, -1.5188e-02,
    -3.6052e-02, -2.3441e-02, -7.0539e-03,  1.8166e-02,  2.3922e-03,
    -5.3348e-02, -1.4290e-02, -6.5091e-02,  7.1515e-03,  5.7892e-02,
    9.6970e-03, -1.6430e-02,  1.4969e-03, -6.2971e-02, -1.1382e-01,
    1.9664e-02,  1.9894e-02, -1.0519e-02, -5.6780e-02,  2.2164e-02,
    6.9414e-03,  3.5962e-02,  4.6325e-02,  5.9934e-02, -5.8646e-02,
    -4.9340e-02, -9.5901e-02,  3.1774e-02, -3.0073e-02,  3.2300e-02,
    5.6226e-02,  2.9741e-02,  7.2413e-02,  2.3168e-02,  8.2737e-02,
    5.1423e-02, -6.8439e-02, -2.2604e-02,  3.0447e-02, -8.4573e-03,
    4.4288e-03,  2.9056e-02,  6.0356e-03,  3.0590e-02, -6.3986e-02,
    4.4218e-02,  4.3238e-02,  9.0240e-03,  3.6717e-02,  5.6420e-02,
    5.0804e-02, -3.1154e-02,  6.0604e-02, -3.1099e-02, -8.7058e-02,
    3.1987e-02, -1.2592e-01, -4.6660e-02, -5.3521e-02,  3.5088e-02,
    4.2861e-03,  9.0062e-02,  6.0866e-03,  6.9003e-02, -4.6365e-03,
    -1.1853e-02, -9.4913e-02, -4.4112e-02, -1.6533e-02, -2.3073e-02,
    7.4256e-03, -1.8748e-02,  1.7562e-02, -1.2182e-02, -3.4490e-02,
    5.2362e-03,  4.2174e-02,  3.8968e-02, -2.3150e-02, -1.4880e-02,
    -4.6543e-02, -1.9598e-02, -3.3969e-02,  2.9716e-02,  2.1163e-01,
    1.2332e-01,  1.0186e-01,  5.0180e-02,  6.2784e-02,  5.7626e-02,
    1.0567e-02,  3.3981e-02,  4.2009e-02,  4.5667e-02, -6.0977e-02,
    -3.8125e-02,  1.9120e-02,  1.4749e-02,  1.5613e-02, -4.7546e-03,
    3.4657e-02, -2.6556e-02,  5.7135e-03,  3.8375e-02,  4.4853e-02,
    4.4712e-02,  1.0860e-01, -1.0050e-01, -2.5744e-02, -9.0775e-02,
    8.0974e-03, -3.7027e-02, -4.7667e-33, -4.4432e-02,  1.0698e-02,
    3.8273e-02, -5.1219e-02,  4.7293e-03,  4.6302e-02, -4.9918e-02,
    1.5697e-02, -8.8313e-02,  1.0752e-01, -2.6705e-02, -8.8590e-02,
    4.2000e-03,  6.5892e-03,  1.0767e-02,  1.3991e-02, -2.4435e-02,
    3.5403e-03,  5.4019e-02,  6.2457e-02, -3.3713e-02,  4.1058e-02,
    -1.9223e-02,  1.7321e-02,  6.3336e-02, -7.1678e-02, -3.0104e-02,
    -2.4893e-02,  6.9786e-02,  1.3103e-02, -3.8268e-02, -4.8938e-02,
    5.0413e-03, -2.1830e-02, -1.6245e-02, -1.6689e-02, -2.3955e-03,
    -6.5194e-02,  2.5470e-02, -4.4790e-02, -5.0930e-03,  3.6581e-02,
    1.0573e-02,  6.5071e-02, -1.1235e-02,  9.7007e-02,  9.8707e-03,
    6.0036e-02, -2.3938e-02,  3.7312e-02, -7.7378e-02, -1.9247e-02,
    -1.9690e-01, -2.2360e-02,  1.7987e-02, -8.1374e-02,  5.8597e-03,
    2.1028e-02, -2.0334e-02, -4.5080e-02,  2.9060e-02,  5.2939e-02,
    -1.4261e-01,  2.8506e-02, -4.2200e-02, -2.2223e-03,  2.5122e-02,
    1.0009e-02, -8.7154e-03, -2.7155e-02, -8.7822e-02,  5.9236e-03,
    1.1569e-01,  5.7151e-02, -2.6391e-02,  1.2436e-02, -1.0648e-03,
    2.4951e-02, -5.2128e-03,  2.8171e-02, -2.4433e-03,  1.6445e-02,
    -1.2893e-02,  7.1391e-02,  4.7660e-02,  6.7601e-02,  1.5034e-02,
    -1.2224e-01,  1.8748e-02, -7.4535e-02, -1.1210e-01, -1.2162e-02,
    1.0157e-01,  1.7192e-02,  3.2484e-02,  3.0574e-33, -1.1119e-02,
    -1.1499e-01,  3.6282e-02,  7.5565e-02, -1.7045e-02, -7.8745e-03,
    5.3838e-02, -3.9428e-02,  2.4743e-02,  4.3550e-02, -5.9732e-02,
    2.1647e-02,  7.0860e-02,  2.6827e-02,  6.6173e-02, -3.9777e-02,
    3.0524e-02,  1.8863e-03,  2.9875e-02,  3.9553e-03,  1.4099e-02,
    8.8962e-03,  7.5469e-02,  1.1732e-02, -3.7054e-02,  3.8914e-02,
    -5.4886e-02, -6.7023e-02, -3.1836e-02,  1.3546e-02, -4.4660e-02,
    -5.5415e-02,  3.7519e-02,  3.1381e-02, -9.9140e-02,  3.3750e-03,
    7.3198e-02, -9.9591e-03, -1.7363e-02,  1.9876e-02,  2.8123e-02,
    1.9363e-03,  5.8529e-03,  3.8667e-02, -7.3202e-03, -9.3113e-03,
    2.0357e-02,  4.1646e-02,  2.1957e-02, -1.4011e-02, -7.0851e-02,
    -6.4941e-03, -8.6807e-03,  2.9359e-02, -4.4187e-02,  1.0187e-01,
    1.1022e-01, -2.2082e-02,  1.8283e-02,  1.3441e-02, -3.4626e-02,
    4.7149e-02,  2.3622e-02,  8.9288e-02, -3.3549e-02, -1.3786e-03,
    -1.7450e-02,  2.0551e-02, -1.9632e-04, -2.9466e-02,  1.8839e-02,
    1.1630e-02, -4.1521e-02,  7.2024e-02, -2.6965e-02,  5.4267e-02,
    -5.5602e-02, -7.3385e-02,  9.6938e-03, -4.0368e-02, -1.6242e-02,
    1.6834e-02, -2.3880e-03,  8.7311e-02,  3.2362e-02, -6.6422e-02,
    5.6448e-02, -5.7628e-02,  2.3870e-02, -7.9683e-02, -1.9987e-02,
    1.4949e-03,  8.7355e-04,  1.3291e-02, -6.8780e-02, -1.1502e-08,
    -3.5282e-02, -1.2699e-02,  1.4317e-02, -4.5848e-02,  5.7918e-02,
    -4.5229e-02,  4.2808e-02,  3.6315e-02, -3.1799e-02,  4.2104e-02,
    8.5865e-03,  4.9237e-02, -1.0782e-01, -4.8228e-02, -2.1367e-02,
    -1.2635e-02,  1.4652e-02, -4.8575e-02,  1.1166e-03,  5.1695e-02,
    2.4864e-02,  2.1319e-02, -6.3454e-03,  3.5548e-04, -4.7916e-02,
    -6.0529e-02,  8.5003e-02,  1.5598e-01,  9.2214e-02, -5.9692e-02,
    -3.6708e-02,  8.3967e-02,  1.7500e-02, -7.1064e-02, -4.7943e-03,
    -2.5733e-02,  5.6900e-02,  3.5081e-02, -1.0705e-02,  1.8001e-02,
    -4.8158e-02, -9.7603e-02, -2.3253e-02, -8.3268e-02,  5.3167e-02,
    -3.5734e-02, -2.6068e-02, -1.7324e-02,  3.5534e-02, -6.3233e-02,
    -3.3685e-02, -1.6283e-02,  1.0269e-01,  6.9119e-02,  8.1285e-02,
    -2.7823e-02, -7.4286e-02, -4.7802e-02, -1.2790e-02,  1.5570e-02,
    1.1485e-01, -3.9108e-02,  6.6060e-02, -8.0279e-02])
    """
)
_BANK_SCORES = one("0.4996", "1.0000", "0.2495", "0.2183")
_BANK_WEIGHTS = one("0.2391", "0.3943", "0.1862", "0.1804")

BANK = Doc(
    file="heldout/notebook-torch-naive-context-bank.ipynb",
    url=(
        "https://github.com/Rkiitb/Transformer-From-Scratch/blob/main/"
        "Attention%20Mechanism/self_attention.ipynb"
    ),
    kind="notebook-torch",
    language="en",
    inputs={"scores": a([[float(e) for e in row] for row in _BANK_SCORES])},
    printed=(
        given(_BANK_EMBEDDING, "embeddings1['bank'] (384 entries)"),
        given(_BANK_SCORES, "weights1 = bank . word"),
        Printed(
            _BANK_WEIGHTS,
            settled(lambda x: softmax(x["scores"]), {"scores": _ROUNDED_4}, _BANK_WEIGHTS),
            "softmax(weights1, dim=0)",
        ),
        other(one("0.4996"), "old similarity River . bank"),
        other(one("0.5381"), "new similarity River . context bank"),
        other(one("0.4690"), "old similarity money . Bank"),
        other(one("0.5875"), "new similarity money . context Bank"),
    ),
    notes=(
        "Dot products of fixed sentence embeddings (only bank's 384-d embedding is printed, in "
        "e-notation with one -4.7667e-33), a softmax over a 1-d tensor (dim=0), then "
        "similarities of the mixed vector that cannot be recomputed from the page."
    ),
)

DOCS: list[Doc] = [
    KO,
    PT_LAB,
    BANK,
    *MORE,
    *NEW,
    *JUDGE_DOCS_10,
    *JUDGE_DOCS_11,
    *JUDGE_DOCS_12,
    *JUDGE_DOCS_14,
    *JUDGE_DOCS_16,
    *JUDGE_DOCS_17,
    *JUDGE_DOCS,
    *JUDGE_DOCS_2,
    *JUDGE_DOCS_3,
    *JUDGE_DOCS_4,
]
