"""The development corpus: every printed number of tests/data/corpus/dev/ and its truth.

Each truth is computed here with numpy float64 from the document's own inputs, independently of
mha_symbolic. A document's mistakes stay as printed and are described in ``notes``.
"""

from __future__ import annotations

import numpy as np

from tests.corpus.dev_fresh import DEV_FRESH
from tests.corpus.dev_i22_fit import DEV_I22_FIT
from tests.corpus.dev_i22_fmt import DEV_I22_FMT
from tests.corpus.dev_i22_kinds import DEV_I22_KINDS
from tests.corpus.dev_i22_lines import DEV_I22_LINES
from tests.corpus.dev_more import DEV_MORE
from tests.corpus.dev_same_page import DEV_SAME_PAGE
from tests.corpus.dev_seen_heldout import DEV_SEEN_HELDOUT
from tests.corpus.dev_seen_heldout2 import DEV_SEEN_HELDOUT_2
from tests.corpus.dev_seen_judge4 import DEV_SEEN_JUDGE4
from tests.corpus.dev_seen_judge5 import DEV_SEEN_JUDGE5
from tests.corpus.dev_seen_judge6 import DEV_SEEN_JUDGE6
from tests.corpus.dev_seen_judge6a import DEV_SEEN_JUDGE6A
from tests.corpus.dev_seen_judge7 import DEV_SEEN_JUDGE7
from tests.corpus.dev_seen_judge8 import DEV_SEEN_JUDGE8
from tests.corpus.dev_seen_judge9 import DEV_SEEN_JUDGE9
from tests.corpus.dev_seen_judge10d import DEV_SEEN_JUDGE10D
from tests.corpus.dev_seen_judge11 import DEV_SEEN_JUDGE11
from tests.corpus.dev_seen_judge11a import DEV_SEEN_JUDGE11A
from tests.corpus.dev_seen_judge13 import DEV_SEEN_JUDGE13
from tests.corpus.dev_seen_judge15 import DEV_SEEN_JUDGE15
from tests.corpus.helpers import array, causal, given, grid, row, rows, softmax
from tests.corpus.model import Arrays, Doc, Printed

S2 = np.sqrt(2.0)

# ------------------------------------------------------------------ skiitg-i-am-fine.md
_X1 = array("1 0 1 0\n0 1 0 1\n1 1 1 1")
FINE = Doc(
    file="dev/skiitg-i-am-fine.md",
    url="https://skiitg.co.in/transformers/attention.html",
    kind="course-notes",
    language="en",
    inputs={"X": _X1},
    printed=(
        Printed((("10,000",),), None, "Vocabulary size", attention=False),
        given("1.0 0.0 1.0 0.0\n0.0 1.0 0.0 1.0\n1.0 1.0 1.0 1.0", "X"),
        Printed(rows("1 0 1 0\n0 1 0 1\n1 1 1 1"), lambda a: a["X"], "Q = K = V"),
        Printed(rows("2 0 2\n0 2 2\n2 2 4"), lambda a: a["X"] @ a["X"].T, "scores"),
        Printed(
            rows("1.0 0.0 1.0\n0.0 1.0 1.0\n1.0 1.0 2.0"), lambda a: a["X"] @ a["X"].T / 2, "÷√4"
        ),
        Printed(
            rows("0.422 0.155 0.422\n0.155 0.422 0.422\n0.211 0.211 0.577"),
            lambda a: softmax(a["X"] @ a["X"].T / 2),
            "Attention weights",
        ),
        Printed(
            rows("0.844 0.577 0.844 0.577\n0.577 0.844 0.577 0.844\n0.788 0.788 0.788 0.788"),
            lambda a: softmax(a["X"] @ a["X"].T / 2) @ a["X"],
            "Final attention output",
            follows=True,
        ),
    ),
    notes="Markdown tables around the example (vocabulary size 10,000 is not attention); "
    "identity projections; mistake: the third row of weights is truncated, not rounded (0.211 for "
    "0.2119, 0.577 for 0.5761); the outputs add the printed three-digit weights (0.844 for "
    "0.8446): they follow from the page's own numbers.",
)

# ------------------------------------------------------------------ llmfs-ch03-simple-attention
_X2 = array(
    "0.43 0.15 0.89\n0.55 0.87 0.66\n0.57 0.85 0.64\n0.22 0.58 0.33\n0.77 0.25 0.10\n0.05 0.80 0.55"
)


def _s2(a: Arrays) -> np.ndarray:
    return a["X"] @ a["X"][1]


SIMPLE = Doc(
    file="dev/llmfs-ch03-simple-attention.ipynb",
    url="https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/01_main-chapter-code/ch03.ipynb",
    kind="book-notebook",
    language="en",
    inputs={"X": _X2},
    printed=(
        given(
            "0.43 0.15 0.89\n0.55 0.87 0.66\n0.57 0.85 0.64\n0.22 0.58 0.33\n0.77 0.25 0.10\n"
            "0.05 0.80 0.55",
            "inputs",
        ),
        Printed(row("0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865"), _s2, "attn_scores_2"),
        Printed(
            row("0.1455, 0.2278, 0.2249, 0.1285, 0.1077, 0.1656"),
            lambda a: _s2(a) / _s2(a).sum(),
            "Attention weights (divided by the sum)",
        ),
        Printed((("1.0000",),), lambda a: np.array(1.0), "Sum"),
        Printed(
            row("0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581"),
            lambda a: softmax(_s2(a)),
            "Attention weights",
        ),
        Printed((("1.",),), lambda a: np.array(1.0), "Sum"),
        Printed(row("0.4419, 0.6515, 0.5683"), lambda a: softmax(_s2(a)) @ a["X"], "context_vec_2"),
        Printed(
            rows(
                "0.9995, 0.9544, 0.9422, 0.4753, 0.4576, 0.6310\n"
                "0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865\n"
                "0.9422, 1.4754, 1.4570, 0.8296, 0.7154, 1.0605\n"
                "0.4753, 0.8434, 0.8296, 0.4937, 0.3474, 0.6565\n"
                "0.4576, 0.7070, 0.7154, 0.3474, 0.6654, 0.2935\n"
                "0.6310, 1.0865, 1.0605, 0.6565, 0.2935, 0.9450"
            ),
            lambda a: a["X"] @ a["X"].T,
            "attn_scores",
        ),
        Printed(
            rows(
                "0.2098, 0.2006, 0.1981, 0.1242, 0.1220, 0.1452\n"
                "0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581\n"
                "0.1390, 0.2369, 0.2326, 0.1242, 0.1108, 0.1565\n"
                "0.1435, 0.2074, 0.2046, 0.1462, 0.1263, 0.1720\n"
                "0.1526, 0.1958, 0.1975, 0.1367, 0.1879, 0.1295\n"
                "0.1385, 0.2184, 0.2128, 0.1420, 0.0988, 0.1896"
            ),
            lambda a: softmax(a["X"] @ a["X"].T),
            "attn_weights",
        ),
        Printed(
            rows(
                "0.4421, 0.5931, 0.5790\n0.4419, 0.6515, 0.5683\n0.4431, 0.6496, 0.5671\n"
                "0.4304, 0.6298, 0.5510\n0.4671, 0.5910, 0.5266\n0.4177, 0.6503, 0.5645"
            ),
            lambda a: softmax(a["X"] @ a["X"].T) @ a["X"],
            "all_context_vecs",
        ),
    ),
    notes="torch prints; no projections and no scaling (scores are X Xᵀ); a first "
    "normalisation divides by the sum instead of a softmax (right for what it computes); "
    "single-query vectors before the full matrices; sums printed as tensor(1.0000) and tensor(1.).",
)

# ------------------------------------------------------------------ llmfs-ch03-causal-mask
_W3 = """0.1921, 0.1646, 0.1652, 0.1550, 0.1721, 0.1510
0.2041, 0.1659, 0.1662, 0.1496, 0.1665, 0.1477
0.2036, 0.1659, 0.1662, 0.1498, 0.1664, 0.1480
0.1869, 0.1667, 0.1668, 0.1571, 0.1661, 0.1564
0.1830, 0.1669, 0.1670, 0.1588, 0.1658, 0.1585
0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529"""
_S3 = """0.2899,   -inf,   -inf,   -inf,   -inf,   -inf
0.4656, 0.1723,   -inf,   -inf,   -inf,   -inf
0.4594, 0.1703, 0.1731,   -inf,   -inf,   -inf
0.2642, 0.1024, 0.1036, 0.0186,   -inf,   -inf
0.2183, 0.0874, 0.0882, 0.0177, 0.0786,   -inf
0.3408, 0.1270, 0.1290, 0.0198, 0.1290, 0.0078"""
_CAUSAL_W = """1.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000
0.5517, 0.4483, 0.0000, 0.0000, 0.0000, 0.0000
0.3800, 0.3097, 0.3103, 0.0000, 0.0000, 0.0000
0.2758, 0.2460, 0.2462, 0.2319, 0.0000, 0.0000
0.2175, 0.1983, 0.1984, 0.1888, 0.1971, 0.0000
0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529"""
_DROP = """2., 2., 0., 2., 2., 0.
0., 0., 0., 2., 0., 2.
2., 2., 2., 2., 0., 2.
0., 2., 2., 0., 0., 2.
0., 2., 0., 2., 0., 2.
0., 2., 2., 2., 2., 0."""
_BATCH3 = """-0.4519,  0.2216
-0.5874,  0.0058
-0.6300, -0.0632
-0.5675, -0.0843
-0.5526, -0.0981
-0.5299, -0.1081"""


# The scores behind the page's prints, to 8 decimals: the notebook's seeded layer
# (torch.manual_seed(789), nn.Linear(3, 2, bias=False) for W_query then W_key) run again; the page
# prints them only masked and to 4 decimals, too coarse to decide two of its rounded weights.
_SCORES = """0.28990889  0.07162218  0.07603326 -0.01381329  0.13435957 -0.05112842
0.46564239  0.17225963  0.17508702  0.02593638  0.1771142   0.00851081
0.45943564  0.17031771  0.17308104  0.02588853  0.17451389  0.00895837
0.26415503  0.10239156  0.10364803  0.01864095  0.09731782  0.01222485
0.21828783  0.08735328  0.08818767  0.01770909  0.0785667   0.01444308
0.34078205  0.12703359  0.12903105  0.01979299  0.12896936  0.00775672"""


def _causal_weights(a: Arrays) -> np.ndarray:
    return softmax(causal(a["scores"]) / S2)


CAUSAL = Doc(
    file="dev/llmfs-ch03-causal-mask.ipynb",
    url="https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/01_main-chapter-code/ch03.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={"scores": array(_SCORES), "drop": array(_DROP)},
    printed=(
        Printed(rows(_W3), lambda a: softmax(a["scores"] / S2), "attn_weights"),
        given(
            "\n".join(
                [
                    "1. 0. 0. 0. 0. 0.",
                    "1. 1. 0. 0. 0. 0.",
                    "1. 1. 1. 0. 0. 0.",
                    "1. 1. 1. 1. 0. 0.",
                    "1. 1. 1. 1. 1. 0.",
                    "1. 1. 1. 1. 1. 1.",
                ]
            ),
            "mask_simple",
        ),
        Printed(
            rows(
                "0.1921, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000\n"
                "0.2041, 0.1659, 0.0000, 0.0000, 0.0000, 0.0000\n"
                "0.2036, 0.1659, 0.1662, 0.0000, 0.0000, 0.0000\n"
                "0.1869, 0.1667, 0.1668, 0.1571, 0.0000, 0.0000\n"
                "0.1830, 0.1669, 0.1670, 0.1588, 0.1658, 0.0000\n"
                "0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529"
            ),
            lambda a: np.tril(softmax(a["scores"] / S2)),
            "masked_simple",
        ),
        Printed(rows(_CAUSAL_W), _causal_weights, "masked_simple_norm"),
        Printed(rows(_S3), lambda a: causal(a["scores"]), "masked scores"),
        Printed(rows(_CAUSAL_W), _causal_weights, "attn_weights"),
        given(_DROP, "dropout(ones)", attention=False),
        Printed(
            rows(
                "2.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000\n"
                "0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000\n"
                "0.7599, 0.6194, 0.6206, 0.0000, 0.0000, 0.0000\n"
                "0.0000, 0.4921, 0.4925, 0.0000, 0.0000, 0.0000\n"
                "0.0000, 0.3966, 0.0000, 0.3775, 0.0000, 0.0000\n"
                "0.0000, 0.3327, 0.3331, 0.3084, 0.3331, 0.0000"
            ),
            lambda a: a["drop"] * _causal_weights(a),
            "dropout(attn_weights)",
        ),
        given(_BATCH3 + "\n" + _BATCH3, "context_vecs (2, 6, 2): weights not printed"),
    ),
    notes="torch prints with grad_fn lines; the full scores are never printed, only the "
    "masked ones (-inf above the diagonal): the truth reruns the seeded layer; masking after "
    "the softmax and renormalising gives the same weights as -inf before it; a dropout mask "
    "(2 = kept and doubled) is not attention; the batch (2, 6, 2) comes from unprinted weights.",
)


# ------------------------------------------------------------------ pt-denmartins-numpy-attention
_Q4 = """0.73634365, 0.42647927, 0.85683087, 0.32620017
1.19358144, 0.83688612, 1.39485002, 0.64264091
1.11520082, 0.57175117, 1.27103597, 0.58396596
1.03917841, 0.67847982, 1.17557442, 0.75079734"""
_K4 = """0.75780912, 0.59683623, 0.78892439, 0.77407585
1.34918327, 1.02141999, 1.24144089, 0.85427868
1.16087731, 1.01643544, 1.35860721, 1.27956075
1.24943877, 1.08885856, 1.31923949, 0.73091859"""
_V4 = """0.81080848, 0.2920271 , 0.68920257, 0.37484638
1.01372893, 0.81102414, 0.725672  , 0.60567394
1.22574627, 0.47592542, 1.1239937 , 0.72011269
0.74409112, 0.91022723, 0.58086821, 0.76392111"""

# Q, K and V to full precision: the notebook's own cells rerun (np.random.seed(1234)); its
# 8-decimal prints are too coarse to decide its 8-decimal products.
_Q4_FULL = [
    [0.7363436535825183, 0.42647926711945194, 0.8568308729136805, 0.3262001676956129],
    [1.1935814400877198, 0.8368861178306194, 1.394850017933934, 0.642640912671733],
    [1.1152008164964524, 0.5717511722084061, 1.2710359705998093, 0.583965961203838],
    [1.0391784065137233, 0.6784798247708276, 1.1755744193599535, 0.7507973352592147],
]
_K4_FULL = [
    [0.7578091218989569, 0.5968362328037766, 0.7889243863756203, 0.7740758534279907],
    [1.3491832680409441, 1.0214199901990946, 1.241440890091586, 0.8542786841931889],
    [1.1608773144506035, 1.0164354385380512, 1.3586072129232334, 1.2795607457636708],
    [1.2494387723187712, 1.088858564247204, 1.3192394866637065, 0.7309185923469033],
]
_V4_FULL = [
    [0.8108084808244627, 0.2920271032896197, 0.6892025718571202, 0.37484638143846644],
    [1.0137289346895622, 0.8110241368543695, 0.725672001973486, 0.6056739410905667],
    [1.2257462734361722, 0.47592541837183444, 1.1239936960189143, 0.7201126859350347],
    [0.7440911187802551, 0.9102272272568346, 0.5808682071713943, 0.7639211104665536],
]


def _scaled4(a: Arrays) -> np.ndarray:
    return a["Q"] @ a["K"].T / 2


DENMARTINS = Doc(
    file="dev/pt-denmartins-numpy-attention.ipynb",
    url="https://github.com/denmartins/denmartins.github.io/blob/master/files/lectures/2025/"
    "TopicosCD/code/03-TCD-Attention-Mechanisms.ipynb",
    kind="notebook-numpy",
    language="pt",
    inputs={"Q": np.array(_Q4_FULL), "K": np.array(_K4_FULL), "V": np.array(_V4_FULL)},
    printed=(
        given(_Q4, "Q"),
        given(_K4, "K"),
        given(_V4, "V"),
        Printed(
            rows(
                "1.74102466, 2.77144772, 2.86978282, 2.7531828\n"
                "3.00187487, 4.7457906 , 4.95359371, 4.71241696\n"
                "2.64113639, 4.16539406, 4.34981804, 4.11956372\n"
                "2.70105363, 4.19585129, 4.45382426, 4.13679429"
            ),
            lambda a: a["Q"] @ a["K"].T,
            "similarity_scores",
        ),
        Printed((("2.",),), lambda a: np.sqrt(a["K"].shape[1]), "dim"),
        Printed(
            rows(
                "1.26782464, 1.05059507, 1.35240051, 1.13455545\n"
                "2.22790493, 1.84235246, 2.36172036, 1.94668503\n"
                "1.9108265 , 1.58868634, 2.043417  , 1.70244209\n"
                "2.00283274, 1.6628199 , 2.12487558, 1.71850219"
            ),
            _scaled4,
            "scaled_similarity_scores",
        ),
        given(
            "0.09385167529024863\n0.06090284043555731\n0.8970449776197686",
            "variances",
            attention=False,
        ),
        given(
            "0.09385167529024863\n0.06090284043555731\n0.14133630407607445",
            "variances",
            attention=False,
        ),
        given("0., -inf, -inf, -inf\n0., 0., -inf, -inf\n0., 0., 0., -inf\n0., 0., 0., 0.", "mask"),
        Printed(
            rows(
                "1.26782464,       -inf,       -inf,       -inf\n"
                "2.22790493, 1.84235246,       -inf,       -inf\n"
                "1.9108265 , 1.58868634, 2.043417  ,       -inf\n"
                "2.00283274, 1.6628199 , 2.12487558, 1.71850219"
            ),
            lambda a: causal(_scaled4(a)),
            "masked_scores",
            follows=True,
        ),
        Printed(
            rows(
                "0.13158609, 0.        , 0.        , 0.\n"
                "0.34369052, 0.38290533, 0.        , 0.\n"
                "0.25030074, 0.29711571, 0.47964661, 0.\n"
                "0.27442264, 0.31997895, 0.52035339, 1."
            ),
            lambda a: softmax(causal(_scaled4(a))),
            "attention_weights",
        ),
        given("1., 1., 1., 1.", "attention_weights.sum(axis=0)"),
        Printed(
            rows(
                "0.10669112, 0.13339263, 0.16129116, 0.09791204\n"
                "0.39048592, 0.65895449, 0.60351176, 0.60426792\n"
                "0.62028548, 0.84277124, 0.98732989, 0.73530084\n"
                "1.04942201, 1.52098066, 1.79364527, 1.56162686"
            ),
            lambda a: softmax(causal(_scaled4(a))) @ a["V"],
            "self_attention_output",
        ),
    ),
    notes="Q, K, V given directly (embeddings and weights random, unprinted); three mistakes: "
    "the scaled scores are Q K / 2 (no transpose), the softmax runs down the columns "
    "(axis=0, checked by column sums), and the output multiplies by Vᵀ; the masked scores "
    "follow from the untransposed product; variances printed as np.float64 are not attention.",
)

# ------------------------------------------------------------------ es-llama4-readme-quickly
QUICKLY = Doc(
    file="dev/es-llama4-readme-quickly.md",
    url="https://github.com/BugCatcherXO/Building-LLama4-from-Scratch",
    kind="blog",
    language="es",
    inputs={
        "q": np.array([0.22, 0.64, 0.73]),
        "k": np.array([0.54, 0.36, 0.74]),
        "s_self": np.array(1.2),
    },
    printed=(
        given("0.22, 0.64, 0.73", "Q_quickly"),
        given("0.54, 0.36, 0.74", "K_dog"),
        given("0.12, 0.84, 0.51", "V_dog"),
        given("0.62, 0.24, 0.33", "V_quickly"),
        Printed(row("0.1188 0.2304 0.5402"), lambda a: a["q"] * a["k"], "products"),
        Printed((("0.889",),), lambda a: a["q"] @ a["k"], "score(dog, quickly)"),
        Printed((("1.2",),), None, "assumed score of quickly"),
        Printed(
            row("0.42 0.58"),
            lambda a: softmax(np.array([a["q"] @ a["k"], a["s_self"]])),
            "alpha_dog, alpha_quickly",
        ),
    ),
    notes="Spanish README; one query against two keys, the second score assumed (≈ 1.2), "
    "not computed; a dot product written out as a sum of products; no output vector; "
    "\\[ \\] display maths with vectors in brackets.",
)


# ------------------------------------------------------------------ ja-indepa-sdpa-example
_X5 = array("1 0 1 0\n0 1 0 1\n1 1 0 0\n0 0 1 1")
_WQ5 = array("1 0\n0 1\n1 0\n0 1")
_WK5 = array("1 0\n0 1\n0 1\n1 0")


def _table5(column: int) -> Printed:
    """One column of the page's Q | K | V table (the true product per row)."""
    printed = {0: "1 0\n0 1\n1 0\n0 1", 1: "1 0\n0 1\n0 1\n1 0", 2: "1 0\n0 1\n1 0\n0 1"}[column]
    name = "QKV"[column]
    return Printed(rows(printed), lambda a: a["X"] @ a[f"W{name}"], f"{name} (table column)")


INDEPA = Doc(
    file="dev/ja-indepa-sdpa-example.html",
    url="https://indepa.net/archives/5948",
    kind="html-mathjax",
    language="ja",
    inputs={"X": _X5, "WQ": _WQ5, "WK": _WK5, "WV": _WQ5},
    printed=(
        given("1 0\n0 1\n1 0\n0 1", "W^Q"),
        given("1 0\n0 1\n0 1\n1 0", "W^K"),
        given("1 0\n0 1\n1 0\n0 1", "W^V"),
        given("1 0 1 0\n0 1 0 1\n1 1 0 0\n0 0 1 1", "X (table)"),
        _table5(0),
        _table5(1),
        _table5(2),
        Printed(
            rows("1 0 1 0\n0 1 0 1\n1 0 1 0\n0 1 0 1"),
            lambda a: (a["X"] @ a["WQ"]) @ (a["X"] @ a["WK"]).T,
            "E = QK^T",
        ),
    ),
    notes="Japanese HTML with MathJax (\\( \\) inline, \\[ \\begin{bmatrix} \\] display) and "
    "HTML tables, one vector per cell, Q, K and V side by side in one table; mistakes: "
    "Q, K, V are not X W (X W^Q gives [2, 0], [0, 2], [1, 1], [1, 1]) and E is "
    "not Q Kᵀ of the printed Q and K either; the page stops before the softmax.",
)


# ------------------------------------------------------------------ blazewild-mha-batch-numpy
_B7_X = """[[[-0.78  0.19  1.48 -1.23]
  [ 1.96  0.47 -0.4   0.59]
  [-0.1  -0.76  0.97  1.61]
  [ 1.63 -0.93  3.04 -0.44]
  [-1.11  1.49 -0.39 -0.31]
  [-1.87  0.83 -0.9   0.39]]

 [[ 0.68 -1.06  0.47 -0.77]
  [ 0.64 -1.77 -0.7  -2.07]
  [-0.54 -0.03 -1.02 -0.56]
  [-1.35 -0.49 -0.42 -0.7 ]
  [-0.03  0.45 -0.36  0.96]
  [-0.23 -0.91  1.46  0.07]]]"""
_B7_WQ = """[[ 0.1   0.27 -0.35 -0.11]
 [-1.86 -0.25 -1.25 -0.36]
 [-0.71  1.71 -1.17  1.05]
 [ 0.08  1.76  0.53 -0.1 ]]"""
_B7_WK = """[[ 0.7  -1.52  2.67  0.06]
 [-1.46  2.02 -0.78 -0.83]
 [ 1.39 -1.07 -0.52  1.11]
 [ 1.73  1.05  1.47  1.17]]"""
_B7_WV = """[[-1.26  0.25  0.03  1.92]
 [ 0.58 -0.25 -0.46  1.69]
 [ 0.08 -1.85 -0.71  0.3 ]
 [ 1.64 -0.9   1.04  0.72]]"""
_B7_Q = """[[[-1.5806  0.1079 -2.348   1.6944]
  [-0.347   0.7661 -0.4928 -0.8638]
  [ 0.8437  4.6553  0.7034  1.1421]
  [-0.3008  5.0966 -3.198   3.3915]
  [-2.6303 -1.8847 -1.182  -0.7928]
  [-1.0606 -1.565   0.8767 -1.0771]]

 [[ 1.6443 -0.1029  0.129   0.8773]
  [ 3.6876 -4.2249  1.7104  0.0388]
  [ 0.6812 -2.8681  1.1231 -0.9448]
  [ 1.0186 -2.1922  1.2054 -0.0461]
  [-0.5076  0.9534  0.378  -0.6327]
  [ 0.6386  2.7852 -0.4531  1.8789]]]"""
_B7_SCORES = """[[[[ 1.27232943e+00 -1.92447047e+00 -8.25559166e+00 -1.02962948e+01
     6.88779400e+00  5.53096911e+00]
   [-6.90044070e-01 -1.15176353e+00 -2.35481306e+00 -8.25242350e+00
     5.06738728e+00  5.58817185e+00]
   [-6.83277738e+00 -3.60222434e+00  9.63466660e-01 -3.25417745e+01
     1.88925147e+01  2.48136767e+01]
   [-6.38568534e+00 -5.35246058e+00 -5.27967452e+00 -4.29283892e+01
     2.56190627e+01  3.09582266e+01]
   [ 4.81260402e+00 -1.17481934e+00 -1.22301061e+01 -4.73591260e-01
     1.57676188e+00 -2.95740792e+00]
   [ 2.99170296e+00  3.17079200e-01 -4.34330692e+00  6.30654508e+00
    -3.21940552e+00 -5.93541324e+00]]

  [[ 1.12890025e+01 -1.39959745e+01  9.37104080e-01 -3.72639280e-01
     6.72504624e+00  8.52151728e+00]
   [ 2.37031984e+00 -2.90553676e+00 -4.17519144e+00 -4.62580006e+00
     3.97090246e+00  3.42716164e+00]
   [-3.38321258e+00  4.14960944e+00  5.63376646e+00  6.26385319e+00
    -5.47720161e+00 -4.76969058e+00]
   [ 1.53748698e+01 -1.90910535e+01  5.16166200e+00  3.53394075e+00
     6.88498305e+00  1.01501043e+01]
   [ 5.68428124e+00 -7.00255444e+00 -5.42868076e+00 -6.32517084e+00
     6.83974952e+00  6.50138264e+00]
   [-4.21475027e+00  5.23748375e+00 -1.94331165e+00 -1.51832170e+00
    -1.57816877e+00 -2.58453632e+00]]]


 [[[ 2.67288462e+00 -1.88786934e+00 -4.60383588e+00 -3.40863306e+00
     5.51621700e-01  5.76231600e+00]
   [ 2.39128309e+01  1.96219018e+01 -1.53718057e+01 -1.07462348e+01
    -8.14032198e+00  2.48146203e+01]
   [ 1.37829480e+01  1.60935826e+01 -5.47754012e+00 -3.60638774e+00
    -6.40511430e+00  1.07994838e+01]
   [ 1.12044609e+01  1.15431456e+01 -5.54147080e+00 -3.76451636e+00
    -4.65547452e+00  9.90665372e+00]
   [-4.95976356e+00 -4.92185574e+00  2.58579432e+00  1.76799588e+00
     1.99352628e+00 -4.52282538e+00]
   [-1.16361750e+01 -1.76070494e+01  1.78187584e+00  8.70204480e-01
     6.84715320e+00 -6.17343730e+00]]

  [[ 6.38297120e-01 -1.43091072e+00 -1.79541057e+00 -1.36201345e+00
     4.56145290e-01  2.07180380e+00]
   [ 2.18654376e+00  6.36492880e-01 -2.99647860e+00 -6.93510076e+00
     2.01006396e+00 -8.64023040e-01]
   [ 9.10442190e-01  2.05906727e+00 -2.26027200e-01 -3.62281439e+00
     9.81920790e-01 -2.93870106e+00]
   [ 1.50119840e+00  5.72790240e-01 -1.97993559e+00 -4.81702471e+00
     1.39100679e+00 -7.88415640e-01]
   [ 1.36042020e-01  1.22531778e+00  4.88799630e-01 -9.17360550e-01
     2.20869990e-01 -1.75822560e+00]
   [ 4.43566550e-01 -3.36396901e+00 -2.59709289e+00  2.45024400e-02
     1.25517240e-01  4.84603946e+00]]]]"""
_B7_RAW = """ [[  1.27  -1.92  -8.26 -10.3    6.89   5.53]
 [ -0.69  -1.15  -2.35  -8.25   5.07   5.59]
 [ -6.83  -3.6    0.96 -32.54  18.89  24.81]
 [ -6.39  -5.35  -5.28 -42.93  25.62  30.96]
 [  4.81  -1.17 -12.23  -0.47   1.58  -2.96]
 [  2.99   0.32  -4.34   6.31  -3.22  -5.94]]"""
_B7_SCALED = """ [[  0.9   -1.36  -5.84  -7.28   4.87   3.91]
 [ -0.49  -0.81  -1.67  -5.84   3.58   3.95]
 [ -4.83  -2.55   0.68 -23.01  13.36  17.55]
 [ -4.52  -3.78  -3.73 -30.35  18.12  21.89]
 [  3.4   -0.83  -8.65  -0.33   1.11  -2.09]
 [  2.12   0.22  -3.07   4.46  -2.28  -4.2 ]]"""
_B7_WEIGHTS = """ [[0.01 0.   0.   0.   0.71 0.27]
 [0.01 0.   0.   0.   0.4  0.58]
 [0.   0.   0.   0.   0.01 0.99]
 [0.   0.   0.   0.   0.02 0.98]
 [0.87 0.01 0.   0.02 0.09 0.  ]
 [0.09 0.01 0.   0.9  0.   0.  ]]"""
_B7_CONTEXT = """ [[[[ 2.14402292  0.39960117]
   [ 2.67248838  0.49704621]
   [ 3.3800271   0.63468213]
   [ 3.36749812  0.6325333 ]
   [-0.61925828 -1.69258463]
   [-2.84382125 -4.2797494 ]]

  [[-2.01801767 -1.62729909]
   [-0.56197836 -0.9495289 ]
   [-0.60145552  1.72734375]
   [-2.36034517 -1.62563163]
   [-0.61218319 -1.06819435]
   [ 0.70400426  4.73762408]]]


 [[[-0.25085677 -2.23087072]
   [-1.00781468 -1.51982567]
   [-4.76704565  3.07631155]
   [-3.52532198  1.49825583]
   [ 0.43357436  1.2195325 ]
   [ 1.7634395  -0.22815464]]

  [[-0.27479377 -1.13175258]
   [-0.01637377 -0.4856992 ]
   [-0.28047406 -1.7318373 ]
   [-0.06779337 -0.73057099]
   [-0.2201747  -1.86373055]
   [-0.49290634 -1.46183568]]]]"""
_B7_CONTEXT0 = """ [2.14402292 0.39960117]"""
_B7_CONCAT0 = """ [ 2.14402292  0.39960117 -2.01801767 -1.62729909]"""
_B7_CONCAT = """ [[[ 2.14402292  0.39960117 -2.01801767 -1.62729909]
  [ 2.67248838  0.49704621 -0.56197836 -0.9495289 ]
  [ 3.3800271   0.63468213 -0.60145552  1.72734375]
  [ 3.36749812  0.6325333  -2.36034517 -1.62563163]
  [-0.61925828 -1.69258463 -0.61218319 -1.06819435]
  [-2.84382125 -4.2797494   0.70400426  4.73762408]]

 [[-0.25085677 -2.23087072 -0.27479377 -1.13175258]
  [-1.00781468 -1.51982567 -0.01637377 -0.4856992 ]
  [-4.76704565  3.07631155 -0.28047406 -1.7318373 ]
  [-3.52532198  1.49825583 -0.06779337 -0.73057099]
  [ 0.43357436  1.2195325  -0.2201747  -1.86373055]
  [ 1.7634395  -0.22815464 -0.49290634 -1.46183568]]]"""


def _heads7(a: Arrays, w: str) -> np.ndarray:
    """X W split into (B, H, S, d_head) = (2, 2, 6, 2)."""
    return (a["X"] @ a[w]).reshape(2, 6, 2, 2).transpose(0, 2, 1, 3)


def _scores7(a: Arrays) -> np.ndarray:
    return _heads7(a, "WQ") @ _heads7(a, "WK").transpose(0, 1, 3, 2)


def _context7(a: Arrays) -> np.ndarray:
    return softmax(_scores7(a) / S2) @ _heads7(a, "WV")


BLAZEWILD = Doc(
    file="dev/blazewild-mha-batch-numpy.ipynb",
    url="https://github.com/BlazeWild/Hav-Cocap/blob/main/Hav-Cocap/learn/multiheadattn.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={
        "X": array(_B7_X).reshape(2, 6, 4),
        "WQ": array(_B7_WQ),
        "WK": array(_B7_WK),
        "WV": array(_B7_WV),
    },
    printed=(
        given(_B7_X, "X (2, 6, 4)"),
        given(_B7_WQ, "W_q"),
        given(_B7_WK, "W_k"),
        given(_B7_WV, "W_v"),
        Printed(rows(_B7_Q), lambda a: a["X"] @ a["WQ"], "Q_total (2, 6, 4)"),
        Printed(grid(_B7_SCORES, 6), _scores7, "scores (2, 2, 6, 6)"),
        Printed(rows(_B7_RAW), lambda a: _scores7(a)[0, 0], "scores[0, 0].round(2)"),
        Printed(rows(_B7_SCALED), lambda a: _scores7(a)[0, 0] / S2, "scaled[0, 0].round(2)"),
        Printed(
            rows(_B7_WEIGHTS), lambda a: softmax(_scores7(a)[0, 0] / S2), "weights[0, 0].round(2)"
        ),
        Printed((("1.0000000000000002",),), None, "Sum of first row"),
        Printed(grid(_B7_CONTEXT, 2), _context7, "attention_output (2, 2, 6, 2)"),
        Printed(row(_B7_CONTEXT0), lambda a: _context7(a)[0, 0, 0], "attention_output[0, 0, 0]"),
        Printed(
            row(_B7_CONCAT0),
            lambda a: _context7(a).transpose(0, 2, 1, 3).reshape(2, 6, 4)[0, 0],
            "out_concat[0, 0]",
        ),
        Printed(
            rows(_B7_CONCAT),
            lambda a: _context7(a).transpose(0, 2, 1, 3).reshape(2, 6, 4),
            "out_concat (2, 6, 4)",
        ),
    ),
    notes="numpy prints of 3-d and 4-d arrays (batch 2, heads 2, 6 tokens, d_head 2), "
    "scores in e-notation wrapped over two lines per row, then one (batch, head) slice "
    "rounded to 2 decimals; heads concatenated without W_O; a float sum "
    "1.0000000000000002 that is not a result; shapes printed as tuples.",
)


# ------------------------------------------------------------------ toy-transformer-numpy-vs-torch
_S8 = """1.61744518, 1.35153675, 1.48872608, 1.57951193
1.39766512, 1.10238484, 1.25296955, 1.30298844
1.67081042, 1.39618009, 1.53787067, 1.63167416
1.22167049, 0.87404728, 1.04945537, 1.05431901"""
_C8 = """1.04199908, 1.1026673
1.04514966, 1.10237919
1.04210659, 1.10270256
1.04925196, 1.10208835"""

TOY = Doc(
    file="dev/toy-transformer-numpy-vs-torch.ipynb",
    url="https://github.com/rsnemmen/toy-transformer/blob/main/scaled-dot-p_comparison.ipynb",
    kind="notebook-numpy",
    language="en",
    # printed to 8 decimals from unprinted random weights: each entry is known to ±5e-9
    inputs={"S": array(_S8), "±S": np.full((4, 4), 5e-9), "C": array(_C8)},
    printed=(
        given("79,  1, 14, 67", "tokens", attention=False),
        given(
            "0.84711883, 0.29366239, 0.6859246\n0.01094959, 0.91137307, 0.48771804\n"
            "0.30762366, 0.60051404, 0.80047688\n0.46252616, 0.94153513, 0.05022171",
            "input",
        ),
        given(
            "1.04736787, 0.78204195\n0.4219047 , 1.03244979\n0.73243049, 0.91343069\n"
            "0.59448109, 1.12181464",
            "keys",
        ),
        given(_S8, "attn_scores (queries never printed)"),
        Printed(
            rows(
                "0.27712289, 0.21241728, 0.24365224, 0.2668076\n"
                "0.28414938, 0.21149891, 0.24587039, 0.25848132\n"
                "0.27801019, 0.21124687, 0.24340288, 0.26734006\n"
                "0.29463193, 0.20811768, 0.24802059, 0.24922981"
            ),
            lambda a: softmax(a["S"]),
            "softmax(attn_scores), unscaled",
        ),
        Printed(
            rows(
                "0.26916971, 0.22303226, 0.24575225, 0.26204578\n"
                "0.27400623, 0.222373  , 0.24735774, 0.25626302\n"
                "0.26979738, 0.22217786, 0.24559126, 0.2624335\n"
                "0.28122913, 0.21994181, 0.24898565, 0.24984341"
            ),
            lambda a: softmax(a["S"] / S2),
            "attn_weights",
        ),
        given(_C8, "context_vec (values never printed)"),
        Printed(
            rows("1.0420, 1.1027\n1.0451, 1.1024\n1.0421, 1.1027\n1.0493, 1.1021"),
            lambda a: a["C"],
            "torch context_vec",
        ),
    ),
    notes="numpy execute_result arrays then a torch tensor with grad_fn; queries, values and "
    "the weights are random and never printed, so the page starts from the scores; an "
    "unscaled softmax is printed before the scaled one; the torch result repeats the numpy "
    "one to 4 decimals; a token-id array is not attention.",
)


# ------------------------------------------------------------------ puzan-mha-no-computation
PUZAN = Doc(
    file="dev/puzan-mha-no-computation.md",
    url="https://github.com/Puzan789/Transformers_From_Scratch/blob/main/MultiHead_Attention/"
    "Readme.md",
    kind="readme",
    language="en",
    inputs={},
    printed=(
        given("101, 102, 103, 104, 105, 103, 106", "Token IDs", attention=False),
        given(
            "0.1, 0.2, 0.3, 0.4, 0.5, 0.6\n0.2, 0.1, 0.4, 0.3, 0.6, 0.5\n"
            "0.5, 0.4, 0.3, 0.2, 0.1, 0.6\n0.6, 0.5, 0.4, 0.3, 0.2, 0.1\n"
            "0.3, 0.2, 0.1, 0.6, 0.5, 0.4\n0.5, 0.4, 0.3, 0.2, 0.1, 0.6\n"
            "0.4, 0.3, 0.2, 0.1, 0.6, 0.5",
            "embeddings",
        ),
        given(
            "0.0, 0.8415, 0.9093, 0.1411, 0.1411, 0.9093\n"
            "0.8415, 0.9093, 0.1411, -0.7568, -0.7568, 0.1411",
            "positional encoding",
            attention=False,
        ),
        given(
            "0.5, 0.4, 0.7, 0.6, 0.8, 0.9\n0.6, 0.5, 0.7, 0.7, 0.8, 1.0\n"
            "0.7, 0.6, 0.5, 0.8, 0.7, 0.6\n0.8, 0.7, 0.6, 0.9, 0.8, 0.7\n"
            "0.9, 0.8, 0.7, 1.0, 0.9, 0.8\n0.7, 0.6, 0.5, 0.8, 0.7, 0.6\n"
            "0.8, 0.7, 0.6, 0.9, 0.8, 0.7",
            "supposed output (no weights given)",
        ),
    ),
    notes="Numbers but no attention computation: token ids and a positional encoding (not "
    "attention), embeddings, and an output 'supposed' without any weight matrix; nothing "
    "here may be claimed wrong.",
)


# ------------------------------------------------------------------ udl-12-1-column-self-attention
# The notebook's inputs and parameters to full precision (its seeded cells rerun: seed 3 for
# the inputs, seed 0 for Ω and β in the order drawn); it prints the inputs to 8 digits only
# and the parameters not at all.
_UDL = {
    "X": [
        [1.7886284734303186, -0.27738820251439905, -0.04381816897592824],
        [0.43650985051198943, -0.35475897926898675, -0.47721803035950267],
        [0.09649746807200862, -0.08274148148245977, -1.3138647533626822],
        [-1.8634927033644908, -0.6270006768238473, 0.8846223804995846],
    ],
    "OQ": [
        [1.764052345967664, 0.4001572083672233, 0.9787379841057392, 2.240893199201458],
        [1.8675579901499675, -0.977277879876411, 0.9500884175255894, -0.1513572082976979],
        [-0.10321885179355784, 0.41059850193837233, 0.144043571160878, 1.454273506962975],
        [0.7610377251469934, 0.12167501649282841, 0.44386323274542566, 0.33367432737426683],
    ],
    "OK": [
        [1.4940790731576061, -0.20515826376580087, 0.31306770165090136, -0.8540957393017248],
        [-2.5529898158340787, 0.6536185954403606, 0.8644361988595057, -0.7421650204064419],
        [2.2697546239876076, -1.4543656745987648, 0.04575851730144607, -0.1871838500258336],
        [1.5327792143584575, 1.469358769900285, 0.1549474256969163, 0.37816251960217356],
    ],
    "OV": [
        [-0.8877857476301128, -1.980796468223927, -0.3479121493261526, 0.15634896910398005],
        [1.2302906807277207, 1.2023798487844113, -0.3873268174079523, -0.30230275057533557],
        [-1.0485529650670926, -1.4200179371789752, -1.7062701906250126, 1.9507753952317897],
        [-0.5096521817516535, -0.4380743016111864, -1.2527953600499262, 0.7774903558319101],
    ],
    "BQ": [
        [-1.6138978475579515],
        [-0.2127402802139687],
        [-0.8954665611936756],
        [0.386902497859262],
    ],
    "BK": [
        [-0.510805137568873],
        [-1.180632184122412],
        [-0.028182228338654868],
        [0.42833187053041766],
    ],
    "BV": [
        [0.06651722238316789],
        [0.3024718977397814],
        [-0.6343220936809636],
        [-0.3627411659871381],
    ],
}


def _udl_attention(a: Arrays, scale: float) -> np.ndarray:
    """Softmax down the columns of KᵀQ / scale (column n: the weights of output n)."""
    q = a["BQ"] + a["OQ"] @ a["X"]
    k = a["BK"] + a["OK"] @ a["X"]
    return softmax(k.T @ q / scale, axis=0)


def _udl_out(a: Arrays, scale: float) -> np.ndarray:
    return (a["BV"] + a["OV"] @ a["X"]) @ _udl_attention(a, scale)


def _udl_prime(n: int) -> Printed:
    text = (
        "0.94744244 -0.24348429 -0.91310441 -0.44522983",
        "1.64201168 -0.08470004  4.02764044  2.18690791",
        "1.61949281 -0.06641533  3.96863308  2.15858316",
    )[n]
    return Printed(row(text), lambda a: _udl_out(a, 1.0)[:, n], f"x_prime_{n}")


UDL = Doc(
    file="dev/udl-12-1-column-self-attention.ipynb",
    url="https://github.com/udlbook/udlbook/blob/main/Notebooks/Chap12/12_1_Self_Attention_A.ipynb",
    kind="book-notebook",
    language="en",
    inputs={name: np.array(value) for name, value in _UDL.items()},
    printed=(
        given(
            "1.78862847\n0.43650985\n0.09649747\n-1.8634927\n-0.2773882\n-0.35475898\n"
            "-0.08274148\n-0.62700068\n-0.04381817\n-0.47721803\n-1.31386475\n0.88462238",
            "all_x (three 4x1 columns)",
        ),
        Printed(
            row("1.24326146e-13 0.99828149 0.00171851"),
            lambda a: _udl_attention(a, 1.0)[:, 0],
            "Attentions for output 0",
        ),
        Printed(
            row("2.79525306e-12 0.00585506 0.99414494"),
            lambda a: _udl_attention(a, 1.0)[:, 1],
            "Attentions for output 1",
        ),
        Printed(
            row("0.00505708 0.00654776 0.98839516"),
            lambda a: _udl_attention(a, 1.0)[:, 2],
            "Attentions for output 2",
        ),
        _udl_prime(0),
        _udl_prime(0),
        _udl_prime(1),
        _udl_prime(1),
        _udl_prime(2),
        _udl_prime(2),
        Printed(
            rows(
                "0.94744244  1.64201168  1.61949281\n-0.24348429 -0.08470004 -0.06641533\n"
                "-0.91310441  4.02764044  3.96863308\n-0.44522983  2.18690791  2.15858316"
            ),
            lambda a: _udl_out(a, 1.0),
            "X_prime (D x N)",
        ),
        Printed(
            rows(
                "3.38843552e-07 1.55730194e-06 6.20418746e-02\n"
                "9.60161968e-01 7.12734969e-02 7.05962187e-02\n"
                "3.98376935e-02 9.28724946e-01 8.67361907e-01"
            ),
            lambda a: _udl_attention(a, 2.0),
            "scaled attention (columns sum to 1)",
        ),
        Printed(
            rows(
                "0.97411966  1.59622051  1.32638014\n-0.23738409 -0.09516106  0.13062402\n"
                "-0.72333202  3.70194096  3.02371664\n-0.34413007  2.01339538  1.6902419"
            ),
            lambda a: _udl_out(a, 2.0),
            "scaled X_prime (D x N)",
        ),
    ),
    notes="The book's column convention: inputs are columns, Q = β + Ω X, dot products "
    "KᵀQ, softmax down each column, output V·A (D x N); biases; weights and biases never "
    "printed (the truth reruns the seeded cells); unscaled first, then scaled by √D = 2; "
    "per-output weights printed as lists of 1x1 arrays in e-notation; each output vector "
    "printed twice (calculated and the notebook's expected string).",
)


# ------------------------------------------------------------------ udl-12-2-multihead-exercise
def _udl_multihead(a: Arrays) -> np.ndarray:
    """The exercise's expected answer from its own seeded cells (legacy numpy generator, the
    draws in the notebook's order): Ω_c [head 1; head 2], column convention."""
    x = np.random.RandomState(int(a["seed_x"])).normal(size=(8, 6))
    draw = np.random.RandomState(int(a["seed_w"])).normal
    heads = []
    for _ in range(2):
        oq, ok, ov = draw(size=(4, 8)), draw(size=(4, 8)), draw(size=(4, 8))
        bq, bk, bv = draw(size=(4, 1)), draw(size=(4, 1)), draw(size=(4, 1))
        q, k, v = bq + oq @ x, bk + ok @ x, bv + ov @ x
        heads.append(v @ softmax(k.T @ q / 2.0, axis=0))
    return draw(size=(8, 8)) @ np.vstack(heads)


UDL_MULTIHEAD = Doc(
    file="dev/udl-12-2-multihead-exercise.ipynb",
    url="https://github.com/udlbook/udlbook/blob/main/Notebooks/Chap12/"
    "12_2_Multihead_Self_Attention.ipynb",
    kind="book-notebook",
    language="en",
    inputs={"seed_x": np.array(3), "seed_w": np.array(0)},
    printed=(
        Printed(
            rows(
                "-21.207  -5.373 -20.933  -9.179 -11.319 -17.812\n"
                "-1.995   7.906 -10.516   3.452   9.863  -7.24\n"
                "5.479   1.115   9.244   0.453   5.656   7.089\n"
                "-7.413  -7.416   0.363  -5.573  -6.736  -0.848\n"
                "-11.261  -9.937  -4.848  -8.915 -13.378  -5.761\n"
                "3.548  10.036  -2.244   1.604  12.113  -2.557\n"
                "4.888  -5.814   2.407   3.228  -4.232   3.71\n"
                "1.248  18.894  -6.409   3.224  19.717  -5.629"
            ),
            _udl_multihead,
            "True values (X_prime, D x N)",
        ),
    ),
    notes="An exercise never run: inputs and parameters only as seeded code, the expected "
    "answer printed from print() strings inside a code cell; two heads stacked vertically "
    "and mixed by Ω_c (the W_O of the column convention), scale √(D/H) = 2, biases.",
)


# ------------------------------------------------------------------ fr-ensta-calcul-attention
_Q12 = array("1 0\n0 1\n1 1")
_K12 = array("1 0\n1 1\n0 1")
_S12 = "0.707 0.707 0.\n0.    0.707 0.707\n0.707 1.414 0.707"
_A12 = "0.401 0.401 0.198\n0.198 0.401 0.401\n0.248 0.503 0.248"
_O12 = "0.599 0.599\n0.599 0.802\n0.497 0.752"


def _s12(a: Arrays) -> np.ndarray:
    return a["Q"] @ a["K"].T / S2


ENSTA = Doc(
    file="dev/fr-ensta-calcul-attention.ipynb",
    url="https://github.com/anaitchabane/Cours-ENSTA-Bretagne/blob/main/"
    "Exemple%20Simple%20Calcul%20Attention%20.ipynb",
    kind="course-notes",
    language="fr",
    inputs={"Q": _Q12, "K": _K12, "V": _Q12},
    printed=(
        given("1. 0.\n0. 1.\n1. 1.", "Q"),
        given("1. 0.\n1. 1.\n0. 1.", "K"),
        given("1. 0.\n0. 1.\n1. 1.", "V"),
        Printed((("2",),), None, "d_k"),
        Printed(rows(_S12), _s12, "S = Q K^T / sqrt(d_k)"),
        Printed(rows(_A12), lambda a: softmax(_s12(a)), "A"),
        Printed(row("1. 1. 1."), lambda a: softmax(_s12(a)).sum(axis=1), "row sums of A"),
        Printed(rows(_O12), lambda a: softmax(_s12(a)) @ a["V"], "O = A V"),
        Printed(row("0.599 0.599"), lambda a: (softmax(_s12(a)) @ a["V"])[0], "t1"),
        Printed(row("0.599 0.802"), lambda a: (softmax(_s12(a)) @ a["V"])[1], "t2"),
        Printed(row("0.497 0.752"), lambda a: (softmax(_s12(a)) @ a["V"])[2], "t3"),
        Printed(rows("0.707 0.707 0.000\n0.000 0.707 0.707\n0.707 1.414 0.707"), _s12, "S table"),
        Printed(rows(_A12), lambda a: softmax(_s12(a)), "A table"),
    ),
    notes="French course notebook; Q, K, V given directly (d_k = 2), rounded with "
    "np.round(…, 3) (so '0.' prints), row sums printed, each output row printed again, "
    "then S and A again as pandas Styler HTML tables (text/html outputs).",
)

# ------------------------------------------------------------------ ko-daffodil-attention-tables
DAFFODIL = Doc(
    file="dev/ko-daffodil-attention-tables.html",
    url="https://daffodil2024.blogspot.com/2025/08/blog-post_30.html",
    kind="blog",
    language="ko",
    inputs={"Q": np.eye(2), "K": np.eye(2), "V": array("1 0\n2 1")},
    printed=(
        given("1 0\n0 1", "Q table (columns Q1, Q2)"),
        given("1 0\n0 1", "K table (columns K1, K2)"),
        given("1 2\n0 1", "V table (columns V1, V2)"),
        Printed(row("1 0 0 1"), lambda a: (a["Q"] @ a["K"].T).ravel(), "dot products"),
        Printed((("1.414",),), lambda a: S2, "√2"),
        Printed(
            row("0.707 0 0 0.707"), lambda a: (a["Q"] @ a["K"].T / S2).ravel(), "scaled scores"
        ),
        Printed(
            rows("0.668, 0.332\n0.332, 0.668"),
            lambda a: softmax(a["Q"] @ a["K"].T / S2),
            "softmax rows",
        ),
        Printed(
            rows("1.332, 0.332\n1.668, 0.668"),
            lambda a: softmax(a["Q"] @ a["K"].T / S2) @ a["V"],
            "attention outputs (Step 5)",
            follows=True,
        ),
        Printed(
            rows("1.332, 0.332\n1.668, 0.668"),
            lambda a: softmax(a["Q"] @ a["K"].T / S2) @ a["V"],
            "result table",
            follows=True,
        ),
    ),
    notes="Korean blog; Q, K, V given as HTML tables whose COLUMNS are the vectors "
    "(V1 = [1, 0], V2 = [2, 1]); dot products and scaling written out one pair per line; "
    "mistake: softmax([0.707, 0]) is 0.670/0.330, printed 0.668/0.332; the outputs are "
    "computed from those printed weights and follow from the slip (printed twice).",
)


# ------------------------------------------------------------ hackinggpt5-softmax-mask-average
_X14 = """tensor([[[ 1.9269,  1.4873],
         [ 0.9007, -2.1055],
         [ 0.6784, -1.2345],
         [-0.0431, -1.6047],
         [-0.7521,  1.6487],
         [-0.3925, -1.4036],
         [-0.7279, -0.5594],
         [-0.7688,  0.7624]],

        [[ 1.6423, -0.1596],
         [-0.4974,  0.4396],
         [-0.7581,  1.0783],
         [ 0.8008,  1.6806],
         [ 1.2791,  1.2964],
         [ 0.6105,  1.3347],
         [-0.2316,  0.0418],
         [-0.2516,  0.8599]],

        [[-1.3847, -0.8712],
         [-0.2234,  1.7174],
         [ 0.3189, -0.4245],
         [ 0.3057, -0.7746],
         [-1.5576,  0.9956],
         [-0.8798, -0.6011],
         [-1.2742,  2.1228],
         [-1.2347, -0.4879]],

        [[-0.9138, -0.6581],
         [ 0.0780,  0.5258],
         [-0.4880,  1.1914],
         [-0.8140, -0.7360],
         [-1.4032,  0.0360],
         [-0.0635,  0.6756],
         [-0.0978,  1.8446],
         [-1.1845,  1.3835]]])"""
_BOW14 = """tensor([[[ 1.9269,  1.4873],
         [ 1.4138, -0.3091],
         [ 1.1687, -0.6176],
         [ 0.8657, -0.8644],
         [ 0.5422, -0.3617],
         [ 0.3864, -0.5354],
         [ 0.2272, -0.5388],
         [ 0.1027, -0.3762]],

        [[ 1.6423, -0.1596],
         [ 0.5725,  0.1400],
         [ 0.1289,  0.4528],
         [ 0.2969,  0.7597],
         [ 0.4933,  0.8671],
         [ 0.5129,  0.9450],
         [ 0.4065,  0.8160],
         [ 0.3242,  0.8215]],

        [[-1.3847, -0.8712],
         [-0.8040,  0.4231],
         [-0.4297,  0.1405],
         [-0.2459, -0.0882],
         [-0.5082,  0.1285],
         [-0.5701,  0.0069],
         [-0.6707,  0.3092],
         [-0.7412,  0.2095]],

        [[-0.9138, -0.6581],
         [-0.4179, -0.0662],
         [-0.4413,  0.3530],
         [-0.5344,  0.0808],
         [-0.7082,  0.0718],
         [-0.6008,  0.1724],
         [-0.5289,  0.4113],
         [-0.6109,  0.5329]]])"""
_ZERO_MASK14 = causal(np.zeros((8, 8)))
_WEI14 = softmax(_ZERO_MASK14)
_THIRD32 = float(np.float32(1 / 3))  # the page prints float32 thirds

_ZERO_MASK_TEXT14 = """tensor([[0., -inf, -inf, -inf, -inf, -inf, -inf, -inf],
        [0., 0., -inf, -inf, -inf, -inf, -inf, -inf],
        [0., 0., 0., -inf, -inf, -inf, -inf, -inf],
        [0., 0., 0., 0., -inf, -inf, -inf, -inf],
        [0., 0., 0., 0., 0., -inf, -inf, -inf],
        [0., 0., 0., 0., 0., 0., -inf, -inf],
        [0., 0., 0., 0., 0., 0., 0., -inf],
        [0., 0., 0., 0., 0., 0., 0., 0.]])"""
_WEI_TEXT14 = """tensor([[1.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
        [0.5000, 0.5000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
        [0.3333, 0.3333, 0.3333, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
        [0.2500, 0.2500, 0.2500, 0.2500, 0.0000, 0.0000, 0.0000, 0.0000],
        [0.2000, 0.2000, 0.2000, 0.2000, 0.2000, 0.0000, 0.0000, 0.0000],
        [0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.0000, 0.0000],
        [0.1429, 0.1429, 0.1429, 0.1429, 0.1429, 0.1429, 0.1429, 0.0000],
        [0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250]])"""


def _bow14(a: Arrays) -> np.ndarray:
    return np.einsum("ij,bjc->bic", _WEI14, a["x"])


_TABLE14_MASKED = """0, -inf, -inf, -inf, -inf, -inf, -inf, -inf
0, 0, -inf, -inf, -inf, -inf, -inf, -inf
0, 0, 0, -inf, -inf, -inf, -inf, -inf
0, 0, 0, 0, -inf, -inf, -inf, -inf
0, 0, 0, 0, 0, -inf, -inf, -inf
0, 0, 0, 0, 0, 0, -inf, -inf
0, 0, 0, 0, 0, 0, 0, -inf
0, 0, 0, 0, 0, 0, 0, 0"""
_TABLE14_SOFTMAX = """1.0, 0, 0, 0, 0, 0, 0, 0
0.5, 0.5, 0, 0, 0, 0, 0, 0
0.33, 0.33, 0.33, 0, 0, 0, 0, 0
0.25, 0.25, 0.25, 0.25, 0, 0, 0, 0
0.2, 0.2, 0.2, 0.2, 0.2, 0, 0, 0
0.167, 0.167, 0.167, 0.167, 0.167, 0.167, 0, 0
0.143, 0.143, 0.143, 0.143, 0.143, 0.143, 0.143, 0
0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125"""


def _term14(text: str, weight: float, token: int, feature: int) -> Printed:
    return Printed(((text,),), lambda a: weight * a["x"][0, token, feature], "weight * x")


HACKING = Doc(
    file="dev/hackinggpt5-softmax-mask-average.md",
    url="https://github.com/mytechnotalent/HackingGPT-5",
    kind="blog",
    language="en",
    inputs={"x": array(_X14).reshape(4, 8, 2), "±x": np.full((4, 8, 2), 5e-5)},
    printed=(
        given("\n".join(["0, 0, 0, 0, 0, 0, 0, 0"] * 8), "table: raw weights"),
        Printed(rows(_TABLE14_MASKED), lambda a: _ZERO_MASK14, "table: after masking"),
        Printed(rows(_TABLE14_SOFTMAX), lambda a: _WEI14, "table: after softmax"),
        given(_X14, "x (4, 8, 2)"),
        Printed(rows(_ZERO_MASK_TEXT14), lambda a: _ZERO_MASK14, "wei after masked_fill"),
        Printed(rows(_WEI_TEXT14), lambda a: _WEI14, "wei after softmax"),
        given("1.0000\n2.7183\n0.3679\n0.0000453999", "e^0, e^1, e^-1, e^-10"),
        Printed(row("0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0"), lambda a: _WEI14[1], "wei[1]"),
        _term14("0.9635", 0.5, 0, 0),
        _term14("0.4504", 0.5, 1, 0),
        Printed((("1.4138",),), lambda a: _bow14(a)[0, 1, 0], "sum"),
        _term14("0.7436", 0.5, 0, 1),
        _term14("-1.0528", 0.5, 1, 1),
        Printed((("-0.3091",),), lambda a: _bow14(a)[0, 1, 1], "sum"),
        Printed(
            row("1.4138160943984985, -0.3091186285018921"),
            lambda a: _bow14(a)[0, 1],
            "x_bow_3[0, 1]",
        ),
        Printed(
            row("0.3333333432674408, " * 3 + "0.0, 0.0, 0.0, 0.0, 0.0"),
            lambda a: np.array([_THIRD32] * 3 + [0.0] * 5),
            "wei[2] (float32)",
        ),
        _term14("0.6423", 1 / 3, 0, 0),
        _term14("0.3002", 1 / 3, 1, 0),
        _term14("0.2261", 1 / 3, 2, 0),
        Printed((("1.1687",),), lambda a: _bow14(a)[0, 2, 0], "sum"),
        _term14("0.4958", 1 / 3, 0, 1),
        _term14("-0.7018", 1 / 3, 1, 1),
        _term14("-0.4115", 1 / 3, 2, 1),
        Printed((("-0.6176",),), lambda a: _bow14(a)[0, 2, 1], "sum"),
        Printed(
            row("1.168683648109436, -0.6175941228866577"),
            lambda a: _bow14(a)[0, 2],
            "x_bow_3[0, 2]",
        ),
        Printed(grid(_BOW14, 2), _bow14, "x_bow (4, 8, 2)"),
    ),
    notes="A README tutorial: the masking trick as a Markdown table of bracketed rows "
    "(zeros, -inf, softmax rounded 0.33/0.167/0.143), a (4, 8, 2) torch batch, "
    "masked_fill with -inf then softmax of zeros (uniform causal averaging, no Q or K), "
    "float32 values printed to 16 digits (0.3333333432674408), one weighted sum written "
    "out term by term, e^x values that are not results; the batch is printed to 4 "
    "decimals (margins ±5e-5).",
)


# ------------------------------------------------------------------ zh-d2l-masked-softmax-additive
def _d2l_pool(a: Arrays) -> np.ndarray:
    """Equal keys give equal scores: the weights are uniform over each valid length."""
    values = np.arange(40.0).reshape(10, 4)
    return np.stack([values[: int(n)].mean(axis=0, keepdims=True) for n in a["valid_lens"]])


D2L_ZH = Doc(
    file="dev/zh-d2l-masked-softmax-additive.ipynb",
    url="https://github.com/d2l-ai/d2l-zh-pytorch-colab/blob/master/chapter_attention-mechanisms/"
    "attention-scoring-functions.ipynb",
    kind="book-notebook",
    language="zh",
    inputs={"valid_lens": np.array([2, 6])},
    printed=(
        given(
            "0.5980, 0.4020, 0.0000, 0.0000\n0.5548, 0.4452, 0.0000, 0.0000\n"
            "0.3716, 0.3926, 0.2358, 0.0000\n0.3455, 0.3337, 0.3208, 0.0000",
            "masked_softmax of torch.rand (inputs never printed)",
        ),
        given(
            "1.0000, 0.0000, 0.0000, 0.0000\n0.4125, 0.3273, 0.2602, 0.0000\n"
            "0.5254, 0.4746, 0.0000, 0.0000\n0.3117, 0.2130, 0.1801, 0.2952",
            "masked_softmax with per-row lengths",
        ),
        Printed(
            rows("2.0000,  3.0000,  4.0000,  5.0000\n10.0000, 11.0000, 12.0000, 13.0000"),
            _d2l_pool,
            "additive attention output (2, 1, 4)",
        ),
    ),
    notes="Chinese d2l notebook: masked softmax over valid lengths (fill -1e6 in code), "
    "applied to random tensors that are never printed (the weights are inputs here); "
    "additive attention with all keys equal, so the (2, 1, 4) output is the mean of the "
    "first 2 and first 6 value rows whatever the random queries and weights.",
)


# ------------------------------------------------------------------ de-hausgebrauch-multihead-toy
_X16 = array("2.0 0.0 1.0 1.0\n0.0 1.5 0.0 1.0\n0.0 0.5 2.5 1.0\n1.0 2.0 0.5 0.0\n2.0 0.0 1.5 0.5")
_W16 = {
    "WQ1": array("1 0\n0 1\n0 0\n0 0"),
    "WK1": array("0.8 0\n0 1.0\n0 0\n0 0"),
    "WV1": array("1 0\n0 1\n0 0\n0 0"),
    "WQ2": array("0 0\n0 0\n1 0\n0 1"),
    "WK2": array("0 0\n0 0\n1.0 0\n0 0.8"),
    "WV2": array("0 0\n0 0\n1 0\n0 1"),
}


def _head16(a: Arrays, h: int) -> tuple[np.ndarray, np.ndarray]:
    """(weights, context) of head h."""
    q, k, v = (a["X"] @ a[f"W{m}{h}"] for m in "QKV")
    weights = softmax(q @ k.T / S2)
    return weights, weights @ v


HAUSGEBRAUCH = Doc(
    file="dev/de-hausgebrauch-multihead-toy.ipynb",
    url="https://github.com/karkessler/llm-hausgebrauch/blob/main/notebooks/"
    "multihead_attention_toy.ipynb",
    kind="course-notes",
    language="de",
    inputs={"X": _X16, **_W16},
    printed=(
        given(
            "2.0  0.0  1.0  1.0\n0.0  1.5  0.0  1.0\n0.0  0.5  2.5  1.0\n1.0  2.0  0.5  0.0\n"
            "2.0  0.0  1.5  0.5",
            "X (DataFrame)",
        ),
        Printed((("2",),), None, "Head-Dimension"),
        Printed(row("0.91  1.577"), lambda a: _head16(a, 1)[1][3], "Head 1, von"),
        Printed(row("1.373 0.736"), lambda a: _head16(a, 2)[1][3], "Head 2, von"),
        Printed(
            rows(
                "0.067        0.184\n0.180        0.129\n0.044        0.313\n"
                "0.643        0.154\n0.067        0.220"
            ),
            lambda a: np.stack([_head16(a, 1)[0][3], _head16(a, 2)[0][3]], axis=1),
            "alpha of 'von', one column per head",
        ),
        Printed(
            rows(
                "1.708  0.337  1.714  0.840\n0.728  1.469  1.137  0.781\n"
                "0.871  1.041  2.258  0.934\n0.910  1.577  1.373  0.736\n"
                "1.708  0.337  1.922  0.855"
            ),
            lambda a: np.hstack([_head16(a, 1)[1], _head16(a, 2)[1]]),
            "C_concat",
        ),
    ),
    notes="German course notebook; two heads with selection matrices (keys scaled by 0.8, "
    "given only in code), printed as pandas DataFrames (text/plain with row labels); the "
    "weights of one query printed as a column per head (transposed rows); heads "
    "concatenated without W_O.",
)


# ------------------------------------------------------------------ de-hausgebrauch-causal-mask
def _s17(a: Arrays) -> np.ndarray:
    return a["Q"] @ a["K"].T / S2


def _causal17(a: Arrays) -> np.ndarray:
    return softmax(causal(_s17(a), fill=-1e9))


HAUSGEBRAUCH_CAUSAL = Doc(
    file="dev/de-hausgebrauch-causal-mask.ipynb",
    url="https://github.com/karkessler/llm-hausgebrauch/blob/main/notebooks/"
    "causal_masking_rechenbeispiel.ipynb",
    kind="course-notes",
    language="de",
    inputs={
        "Q": array("1.0 0.5\n0.8 1.0\n0.2 1.2\n0.6 0.9"),
        "K": array("1.0 0.2\n0.7 1.0\n0.1 1.1\n0.5 0.8"),
        "V": array("1.0 0.0\n0.0 1.0\n0.5 0.7\n0.3 0.9"),
    },
    printed=(
        given(
            "1.0  0.5  1.0  0.2  1.0  0.0\n0.8  1.0  0.7  1.0  0.0  1.0\n"
            "0.2  1.2  0.1  1.1  0.5  0.7\n0.6  0.9  0.5  0.8  0.3  0.9",
            "Q | K | V side by side",
        ),
        Printed(
            rows(
                "0.778  0.849   0.460  0.636\n0.707  1.103   0.834  0.849\n"
                "0.311  0.948   0.948  0.750\n0.552  0.933   0.742  0.721"
            ),
            _s17,
            "S",
        ),
        given("1    0     0    0\n1    1     0    0\n1    1     1    0\n1    1     1    1", "mask"),
        Printed(row("1. 1. 1. 1."), lambda a: softmax(_s17(a)).sum(axis=1), "row sums, no mask"),
        Printed(row("1. 1. 1. 1."), lambda a: _causal17(a).sum(axis=1), "row sums, mask"),
        Printed(
            rows(
                "1.000  0.000   0.000  0.000\n0.402  0.598   0.000  0.000\n"
                "0.209  0.395   0.395  0.000\n0.206  0.301   0.249  0.244"
            ),
            _causal17,
            "A_causal",
        ),
        Printed(
            rows(
                "0.443    0.644      1.000      0.000\n0.401    0.695      0.402      0.598\n"
                "0.381    0.728      0.407      0.672\n0.403    0.695      0.403      0.695"
            ),
            lambda a: np.hstack([softmax(_s17(a)) @ a["V"], _causal17(a) @ a["V"]]),
            "C without | with mask",
        ),
    ),
    notes="German course notebook; Q, K, V given directly and printed side by side in one "
    "DataFrame; the mask fills -1e9 (np.where) and the masked scores are never printed; "
    "the unmasked weights are not printed either, only their row sums; the contexts "
    "without and with the mask share one table (two 2-column blocks).",
)


# ------------------------------------------------------------------ de-hausgebrauch-slide-check
def _slide18(a: Arrays) -> np.ndarray:
    """'von' (the last row) attends to the four tokens before it; K = V = 0.5 X."""
    x = a["X"]
    keys = 0.5 * x[:4]
    weights = softmax(keys @ x[4] / 2.0)
    return weights @ keys


SLIDE = Doc(
    file="dev/de-hausgebrauch-slide-check.ipynb",
    url="https://github.com/karkessler/llm-hausgebrauch/blob/main/notebooks/"
    "attention_rechenbeispiel.ipynb",
    kind="course-notes",
    language="de",
    inputs={"X": array("2 0 1 1\n0 2 0 1\n1 1 0 0\n0 1 3 1\n1 2 1 0")},
    printed=(
        given("2, 0, 1, 1\n0, 2, 0, 1\n1, 1, 0, 0\n0, 1, 3, 1\n1, 2, 1, 0", "X (in code)"),
        Printed(row("0.304, 0.529, 0.603, 0.339"), _slide18, "Folie (markdown)"),
        Printed(row("0.304, 0.529, 0.603, 0.339"), _slide18, "expected (code)"),
    ),
    notes="A notebook saved without outputs: the inputs are in code cells, W_K = W_V = "
    "0.5 I, one query attending to the four tokens before it (not itself); the only "
    "printed result is the slide's rounded output, in Markdown and again in code; "
    "mistake: its last entry 0.339 should be 0.399 (a transposed digit).",
)


# ------------------------------------------------------------------ de-hausgebrauch-decoder-loss
def _not_attention(text: str, label: str) -> Printed:
    return given(text, label, attention=False)


DECODER_LOSS = Doc(
    file="dev/de-hausgebrauch-decoder-loss.ipynb",
    url="https://github.com/karkessler/llm-hausgebrauch/blob/main/notebooks/"
    "decoder_softmax_crossentropy_wout.ipynb",
    kind="course-notes",
    language="de",
    inputs={},
    printed=(
        _not_attention("12856\n5312\n9021", "token ids"),
        _not_attention("3.2, 1.7, 1.2", "logits"),
        _not_attention("2.0, 1.0, 0.1", "logits z, example 1"),
        _not_attention("0.6590, 0.2424, 0.0986", "softmax of the logits"),
        _not_attention("1,0,0", "one-hot target"),
        _not_attention("1.5, 0.5", "x"),
        _not_attention("-0.3410, 0.2424, 0.0986", "p - y"),
        _not_attention(
            "-0.5115, -0.1705\n0.3636,  0.1212\n0.1479,  0.0493", "dL/dW_out, example 1"
        ),
        _not_attention("3.52, 2.37, 1.185, 0.07", "logits z, example 2"),
        _not_attention("0.692, 0.219, 0.066, 0.022", "softmax, example 2"),
        _not_attention("1,0,0,0", "one-hot target"),
        _not_attention("1.2, 0.8, 0.5", "x"),
        _not_attention(
            "-0.3696, -0.2464, -0.154\n0.2628,  0.1752,  0.1095\n"
            "0.0792,  0.0528,  0.033\n0.0264,  0.0176,  0.011",
            "dL/dW_out, example 2",
        ),
        _not_attention("0.6590", "p_old"),
        _not_attention("0.85", "p_new"),
    ),
    notes="no attention computation at all: the output layer after attention, softmax of "
    "logits, a cross-entropy loss and its gradients for W_out, token ids; softmax rows that "
    "look like attention weights are a trap: any claim here is a false alarm.",
)


# ------------------------------------------------------------ prakash-simplified-attention-latex
_X20 = array("1.8 0.1 0.5\n0.3 1.2 0.8\n1.8 -0.3 0.8")
_W20 = "0.44 0.10 0.46\n0.25 0.40 0.35\n0.45 0.18 0.37"


def _weights20(a: Arrays) -> np.ndarray:
    return softmax(a["X"] @ a["X"].T / np.sqrt(3.0))


PRAKASH = Doc(
    file="dev/prakash-simplified-attention-latex.md",
    url="https://github.com/prakash-p-3121/introduction-to-building-llms/blob/main/"
    "03_Simplified_Self_Attention/README.md",
    kind="readme",
    language="en",
    inputs={"X": _X20},
    printed=(
        given("1.8 0.1 0.5\n0.3 1.2 0.8\n1.8 -0.3 0.8", "X"),
        given("1.8 0.1 0.5\n0.3 1.2 0.8\n1.8 -0.3 0.8", "Queries"),
        given("1.8 0.3 1.8\n0.1 1.2 -0.3\n0.5 0.8 0.8", "Keys.T"),
        Printed(
            rows("3.50 1.06 3.61\n1.06 1.70 1.12\n3.61 1.12 3.97"),
            lambda a: a["X"] @ a["X"].T,
            "attention_scores",
        ),
        Printed((("3.97",),), lambda a: a["X"][2] @ a["X"][2], "largest score"),
        Printed((("1.732",),), lambda a: np.sqrt(3.0), "sqrt(3)"),
        Printed(
            rows("2.02 0.61 2.08\n0.61 0.98 0.65\n2.08 0.65 2.30"),
            lambda a: a["X"] @ a["X"].T / np.sqrt(3.0),
            "Scaled Scores",
            follows=True,
        ),
        Printed(rows(_W20), _weights20, "Attention Weights", follows=True),
        Printed(row("0.45, 0.18, 0.37"), lambda a: _weights20(a)[2], "row of studying", True),
        Printed(rows(_W20), _weights20, "weights again", follows=True),
        given("1.8 0.1 0.5\n0.3 1.2 0.8\n1.8 -0.3 0.8", "Values"),
        Printed(
            rows("1.64 0.02 0.67\n1.20 0.39 0.83\n1.53 -0.02 0.60"),
            lambda a: _weights20(a) @ a["X"],
            "context_vectors",
            follows=True,
        ),
        Printed(row("1.53, -0.02, 0.60"), lambda a: (_weights20(a) @ a["X"])[2], "studying", True),
    ),
    notes="README with $$ \\begin{bmatrix} $$ LaTeX inside HTML tables (a \\leftarrow "
    "label column beside each matrix), Q = K = V = X, the product written with Keys.T "
    "spelled out; mistakes: two scores are wrong (x_am·x_am = 2.17 printed 1.70, "
    "x_am·x_studying = 0.82 printed 1.12), 3.97/1.732 = 2.29 printed 2.30, and the weights "
    "and contexts carry those slips (follows) but are not even the softmax of the printed "
    "scaled scores (row 3 gives 0.40, 0.10, 0.50, printed 0.45, 0.18, 0.37).",
)

DOCS: list[Doc] = [
    FINE,
    SIMPLE,
    CAUSAL,
    DENMARTINS,
    QUICKLY,
    INDEPA,
    BLAZEWILD,
    TOY,
    PUZAN,
    UDL,
    UDL_MULTIHEAD,
    ENSTA,
    DAFFODIL,
    HACKING,
    D2L_ZH,
    HAUSGEBRAUCH,
    HAUSGEBRAUCH_CAUSAL,
    SLIDE,
    DECODER_LOSS,
    PRAKASH,
    *DEV_MORE,
    *DEV_I22_FIT,
    *DEV_I22_FMT,
    *DEV_I22_LINES,
    *DEV_I22_KINDS,
    *DEV_FRESH,
    *DEV_SAME_PAGE,
    *DEV_SEEN_HELDOUT,
    *DEV_SEEN_HELDOUT_2,
    *DEV_SEEN_JUDGE4,
    *DEV_SEEN_JUDGE5,
    *DEV_SEEN_JUDGE6,
    *DEV_SEEN_JUDGE6A,
    *DEV_SEEN_JUDGE7,
    *DEV_SEEN_JUDGE8,
    *DEV_SEEN_JUDGE9,
    *DEV_SEEN_JUDGE11,
    *DEV_SEEN_JUDGE11A,
    *DEV_SEEN_JUDGE13,
    *DEV_SEEN_JUDGE15,
    *DEV_SEEN_JUDGE10D,
]
