"""Development documents that were session 21's fresh held-out set (scored unseen then: 146
of 637, 22.9 %); opened to development once a newer held-out set was made.

Each truth function recomputes one printed array with numpy float64 from the document's own
inputs; `settled` (tests/corpus/heldout_help.py) allows for inputs the page prints rounded.
"""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, column, given, one, other, settled
from tests.corpus.helpers import grid, softmax
from tests.corpus.model import Arrays, Doc, Printed

_HALF_4 = 5e-5  # half a unit of a number printed with four decimals

# --- Chinese notebook (numpy): one query "cat" against Q = K = V given directly ---------------

_CAT_X = [
    [0.1, 0.2, 0.3, 0.4],
    [0.5, 0.6, 0.7, 0.8],
    [0.9, 1.0, 1.1, 1.2],
    [1.3, 1.4, 1.5, 1.6],
    [1.7, 1.8, 1.9, 2.0],
    [2.1, 2.2, 2.3, 2.4],
]


def _cat_scores(x: Arrays) -> np.ndarray:
    return x["X"][1] @ x["X"].T


def _cat_weights(x: Arrays) -> np.ndarray:
    return softmax(_cat_scores(x) / np.sqrt(x["X"].shape[1]))


ZH_CAT = Doc(
    file="dev/zh-notebook-numpy-cat-query-attention.ipynb",
    url=(
        "https://github.com/Furi5/DL_study/blob/3886a12f6b9f62d4b3a51df01bbb06ddc0f25b54/"
        "self_attention.ipynb"
    ),
    kind="notebook-numpy",
    language="zh",
    inputs={"X": a(_CAT_X)},
    printed=(
        given(tuple(tuple(str(v) for v in r) for r in _CAT_X), "Q = K = V"),
        Printed(one("0.7", "1.74", "2.78", "3.82", "4.86", "5.9"), _cat_scores, "scores"),
        Printed(one("2.0"), lambda x: np.array([np.sqrt(x["X"].shape[1])]), "sqrt_dk"),
        Printed(
            one("0.35", "0.87", "1.39", "1.91", "2.43", "2.95"),
            lambda x: _cat_scores(x) / np.sqrt(x["X"].shape[1]),
            "scale_scores",
        ),
        Printed(
            one("0.0315077", "0.05299682", "0.08914212", "0.14993952", "0.25220241", "0.42421143"),
            _cat_weights,
            "weights",
        ),
        Printed(
            one("1.62438656", "1.72438656", "1.82438656", "1.92438656"),
            lambda x: _cat_weights(x) @ x["X"],
            "output",
        ),
    ),
    notes=(
        "Q = K = V = a 6x4 list given directly; only the query of token 1 ('cat') is attended: "
        "1-d scores, sqrt(d_k) printed as a scalar, a softmax over axis 0, the output. numpy's "
        "default print drops trailing zeros (0.7, 5.9). All right."
    ),
)

# --- Korean course notes: a hand calculation whose output row has arithmetic slips -----------

_KO_Q = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
_KO_V = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]


def _ko_scaled(x: Arrays) -> np.ndarray:
    return (x["Q"] @ x["K"].T)[0] / np.sqrt(4)


def _ko2_scaled(x: Arrays) -> np.ndarray:
    return x["Q2"] @ x["K2"].T / np.sqrt(2)


def _ints(rows: list[list[int]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(v) for v in r) for r in rows)


def _ko_printed() -> tuple[Printed, ...]:
    hand = (
        given(_ints(_KO_Q), "Q"),
        given(_ints(_KO_Q), "K"),
        given(_ints(_KO_V), "V"),
        Printed(one("2", "0", "1"), lambda x: (x["Q"] @ x["K"].T)[0], "scores (cat)"),
        Printed(one("2"), lambda x: np.array([np.sqrt(4.0)]), "sqrt(d_k)"),
        Printed(one("1", "0", "0.5"), _ko_scaled, "scaled"),
        Printed(one("2.72", "1", "1.65"), lambda x: np.exp(_ko_scaled(x)), "exp"),
        Printed(one("5.37"), lambda x: np.array([np.exp(_ko_scaled(x)).sum()]), "sum"),
        Printed(one("0.51", "0.19", "0.31"), lambda x: softmax(_ko_scaled(x)), "softmax"),
        Printed(
            one("4.2", "5.3", "6.4", "7.6"),
            lambda x: softmax(_ko_scaled(x)) @ x["V"],
            "output",
        ),
        given(_ints(_KO_Q), "Q (np.array)"),
        given(_ints(_KO_Q), "K (np.array)"),
        given(_ints(_KO_V), "V (np.array)"),
    )
    exercise = (
        given((("1", "1", "1", "0", "2", "3"), ("0", "1", "0", "1", "4", "5")), "Q, K, V"),
        Printed(one("1.41"), lambda x: np.array([np.sqrt(2.0)]), "sqrt(d_k)"),
        Printed(block("[[1, 1],\n[0, 1]]"), lambda x: x["Q2"] @ x["K2"].T, "scores"),
        Printed(block("[[0.71, 0.71],\n[0, 0.71]]"), _ko2_scaled, "scaled"),
        Printed(one("2.03", "2.03"), lambda x: np.exp(_ko2_scaled(x)[0]), "exp (row 1)"),
        Printed(one("0.5", "0.5"), lambda x: softmax(_ko2_scaled(x))[0], "softmax (row 1)"),
        Printed(one("3", "4"), lambda x: (softmax(_ko2_scaled(x)) @ x["V2"])[0], "output (row 1)"),
    )
    return hand + exercise


KO_HAND = Doc(
    file="dev/ko-course-day43-attention-hand-calculation.md",
    url=(
        "https://github.com/jinyounghwa/MathForLLM/blob/0cfb03a1b6dcf3807d78d3851091c6c63d00914c/"
        "LLM_math/Day_43_Scaled_Dot_Product_Attention.md"
    ),
    kind="course-notes",
    language="ko",
    inputs={
        "Q": a(_KO_Q),
        "K": a(_KO_Q),
        "V": a(_KO_V),
        "Q2": a([[1, 1], [0, 1]]),
        "K2": a([[1, 0], [0, 1]]),
        "V2": a([[2, 3], [4, 5]]),
    },
    printed=_ko_printed(),
    notes=(
        "A hand calculation for the query 'cat' (d_k = 4): scores, scaling, exp, sum, softmax "
        "to two decimals all right, but the output row has three mistakes: the truth is "
        "[4.2029, 5.2029, 6.2029, 7.2029], printed [4.2, 5.3, 6.4, 7.6] (5.3, 6.4 and 7.6 are "
        "wrong; even the printed rounded weights give 5.26, 6.27, 7.28). A second 2x2 exercise "
        "(first row only) is right. Chains like '2/2' and '1·1 + 0·0' are not recorded as arrays."
    ),
)

# --- Thai course notes: causal mask with -inf, multiply-by-zero row sums, cross-attention ------

_TH_S = [
    [1.2, 0.5, -0.3, 0.8],
    [0.4, 1.5, 0.2, -0.6],
    [-0.1, 0.7, 1.3, 0.9],
    [0.6, -0.2, 0.4, 1.1],
]
_TH_CROSS = [[0.1556, 0.1697, 0.3253], [0.0849, 0.4101, 0.2263], [0.2333, -0.0212, 0.4455]]
_LOWER = np.tril(np.ones((4, 4), dtype=bool))


def _th_masked(x: Arrays) -> np.ndarray:
    return np.where(_LOWER, x["S"], -np.inf)


def _th_causal(x: Arrays) -> np.ndarray:
    return softmax(_th_masked(x))


def _th_zeroed(x: Arrays) -> np.ndarray:
    return softmax(x["S"]) * _LOWER


def _th_cross(x: Arrays) -> np.ndarray:
    return softmax(x["C"])


def _rows4(values: list[list[float]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(f"{v:.4f}" for v in r) for r in values)


def _th_decoder_printed() -> tuple[Printed, ...]:
    weights = block("0.3126 0.3170 0.3704\n0.2828 0.3915 0.3257\n0.3321 0.2574 0.4105")
    cross = settled(_th_cross, {"C": _HALF_4}, weights)
    masked_rows = block(
        "1.2000 -inf -inf -inf\n0.4000 1.5000 -inf -inf\n"
        "-0.1000 0.7000 1.3000 -inf\n0.6000 -0.2000 0.4000 1.1000"
    )
    return (
        given(_rows4(_TH_S), "S = QK^T / sqrt(d_k)"),
        Printed(
            block(
                "0.4184 0.2078 0.0934 0.2805\n0.1926 0.5788 0.1577 0.0709\n"
                "0.1000 0.2226 0.4056 0.2719\n0.2553 0.1147 0.2090 0.4209"
            ),
            lambda x: softmax(x["S"]),
            "softmax(S), no mask",
        ),
        Printed(masked_rows, _th_masked, "S + M"),
        Printed(
            block(
                "1.0000 0.0000 0.0000 0.0000\n0.2497 0.7503 0.0000 0.0000\n"
                "0.1373 0.3057 0.5570 0.0000\n0.2553 0.1147 0.2090 0.4209"
            ),
            _th_causal,
            "A = softmax(S + M)",
        ),
        Printed(column(*["1.0000"] * 4), lambda x: _th_causal(x).sum(1)[:, None], "row sums of A"),
        Printed(one("0.2553", "0.1147", "0.2090", "0.4209"), lambda x: _th_causal(x)[3], "row 4"),
        Printed(
            block(
                "0.4184 0 0 0\n0.1926 0.5788 0 0\n0.1000 0.2226 0.4056 0\n"
                "0.2553 0.1147 0.2090 0.4209"
            ),
            _th_zeroed,
            "softmax(S) times the lower triangle",
        ),
        Printed(
            column("0.4184", "0.7714", "0.7281", "1.0000"),
            lambda x: _th_zeroed(x).sum(1)[:, None],
            "row sums after zeroing",
        ),
        Printed(one("0.4184", "0.7714", "0.7281"), lambda x: _th_zeroed(x).sum(1)[:3], "sums"),
        Printed(one("0.2497"), lambda x: _th_causal(x)[1, :1], "0.1926/0.7714"),
        Printed(one("0.7503"), lambda x: _th_causal(x)[1, 1:2], "0.5788/0.7714"),
        given(tuple(tuple(f"{v:.1f}" for v in r) for r in _TH_S), "S = np.array"),
        Printed(
            block(
                "[[1.     0.     0.     0.    ]\n [0.2497 0.7503 0.     0.    ]\n"
                " [0.1373 0.3057 0.557  0.    ]\n [0.2553 0.1147 0.209  0.4209]]"
            ),
            _th_causal,
            "print(np.round(A, 4))",
        ),
        Printed(one("1.", "1.", "1.", "1."), lambda x: _th_causal(x).sum(1), "A.sum(-1)"),
        given(_rows4(_TH_CROSS), "S_cross"),
        Printed(weights, cross, "A_cross"),
        Printed(
            column(*["1.0000"] * 3), lambda x: _th_cross(x).sum(1)[:, None], "row sums of A_cross"
        ),
        Printed(one("0.4105"), lambda x: cross(x)[2, 2:], "eat -> khao"),
    )


TH_DECODER = Doc(
    file="dev/th-course-decoder-causal-and-cross-attention.md",
    url=(
        "https://github.com/LLM-CE-KMITL/transformer-101/blob/"
        "710a70804e2af9c9a1c71ba02bd07058131c1254/11-decoder-masked-attention.md"
    ),
    kind="course-notes",
    language="th",
    inputs={"S": a(_TH_S), "C": a(_TH_CROSS)},
    printed=_th_decoder_printed(),
    notes=(
        "Scores given directly (no Q, K). Causal mask with -inf in Markdown tables (written "
        "$-\\infty$, recorded as -inf), the masked softmax with a row-sum column, the same "
        "softmax zeroed after the fact (rows no longer sum to 1), the renormalisation in prose "
        "(0.1926/0.7714 = 0.2497), a numpy print of A in code comments, then a 3x3 "
        "cross-attention from scores printed to four decimals. '28.05%' in prose is not "
        "recorded. All right."
    ),
)

# --- Thai course notes: padding mask, two heads, concat and W_O, then LayerNorm and FFN ------

_E = [
    [0.0, 0.0, 0.0, 0.0],
    [0.3, -0.1, 0.5, 0.2],
    [-0.2, 0.4, 0.1, -0.3],
    [0.5, 0.2, -0.4, 0.1],
    [0.1, 0.1, 0.1, 0.1],
]
_PAD_S = [
    [0.4047, 0.1967, 0.2500, 0.0229],
    [0.3995, 0.1986, 0.2460, 0.0163],
    [-0.1004, 0.3670, -0.1250, -0.5810],
    [-0.1909, -0.0016, -0.1317, -0.1368],
]
_W = {
    "WQ1": [[0.5, -0.2], [0.1, 0.4], [-0.3, 0.2], [0.2, 0.1]],
    "WK1": [[0.2, 0.4], [0.3, -0.1], [0.1, 0.5], [-0.2, 0.2]],
    "WV1": [[0.3, 0.1], [-0.2, 0.5], [0.4, -0.3], [0.1, 0.2]],
    "WQ2": [[0.1, 0.3], [-0.4, 0.2], [0.2, -0.1], [0.3, 0.5]],
    "WK2": [[-0.1, 0.2], [0.5, 0.1], [0.2, 0.3], [0.1, -0.4]],
    "WV2": [[0.2, -0.3], [0.1, 0.4], [-0.5, 0.2], [0.3, 0.1]],
    "WO": [
        [0.4, -0.2, 0.1, 0.3],
        [0.1, 0.5, -0.3, 0.2],
        [-0.2, 0.3, 0.4, -0.1],
        [0.5, 0.1, 0.2, 0.4],
    ],
}


def _th_x(x: Arrays) -> np.ndarray:
    """X = 2 E[ids] + PE, with the sinusoidal PE of the page computed exactly."""
    pos = np.arange(3)[:, None]
    angle = pos / 10000 ** (2 * np.arange(2)[None, :] / 4)
    pe = np.zeros((3, 4))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle)
    return 2 * x["E"][[1, 2, 3]] + pe


def _th_head(x: Arrays, h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores, weights and output of head h."""
    xs = _th_x(x)
    q, k, v = xs @ x[f"WQ{h}"], xs @ x[f"WK{h}"], xs @ x[f"WV{h}"]
    s = q @ k.T / np.sqrt(2)
    return s, softmax(s), softmax(s) @ v


def _th_concat(x: Arrays) -> np.ndarray:
    return np.hstack([_th_head(x, 1)[2], _th_head(x, 2)[2]])


def _th_qkv(x: Arrays) -> np.ndarray:
    xs = _th_x(x)
    return np.hstack([xs @ x["WQ1"], xs @ x["WK1"], xs @ x["WV1"]])


def _table(text: str) -> tuple[tuple[str, ...], ...]:
    """Rows of a Markdown table: the numbers between bars, '/' separating rows."""
    return tuple(tuple(part.split()) for part in text.split("/"))


def _pad_printed() -> tuple[Printed, ...]:
    halves = {"P": _HALF_4}
    plain = _table(
        "0.2984 0.2423 0.2556 0.2037/0.2978 0.2436 0.2555 0.2030/"
        "0.2387 0.3809 0.2329 0.1476/0.2312 0.2794 0.2453 0.2441"
    )
    masked = _table(
        "0.3747 0.3043 0.3210 0.0000/0.3737 0.3057 0.3206 0.0000/"
        "0.2800 0.4468 0.2732 0.0000/0.3059 0.3696 0.3245 0.0000"
    )

    def pad_masked(x: Arrays) -> np.ndarray:
        return softmax(np.where(np.arange(4) < 3, x["P"], -np.inf))

    return (
        given(_rows4(_PAD_S), "S with <pad>"),
        Printed(plain, settled(lambda x: softmax(x["P"]), halves, plain), "softmax(S), no mask"),
        Printed(masked, settled(pad_masked, halves, masked), "softmax(S + M_pad)"),
        given(_rows4(_PAD_S), "S = torch.tensor"),
        Printed(masked, settled(pad_masked, halves, masked), "torch.round(A, decimals=4)"),
    )


def _mha_printed() -> tuple[Printed, ...]:
    qkv = _table(
        "0.3600 0.5400 0.1800 0.9400 0.5600 0.4400/0.3718 0.5298 0.4314 0.2275 -0.0116 0.7313/"
        "1.4270 -0.4243 0.0591 0.6153 0.3840 0.6568"
    )
    head1 = _table(
        "0.4047 0.1967 0.2500 0.3747 0.3043 0.3210/0.3995 0.1986 0.2460 0.3737 0.3057 0.3206/"
        "-0.1004 0.3670 -0.1250 0.2800 0.4468 0.2732"
    )
    head2 = _table(
        "0.3572 0.4069 0.2359 0.4060 0.2239/0.3146 0.3372 0.3482 0.5113 0.1006/"
        "0.3581 0.4250 0.2169 0.3890 0.2448"
    )
    out = _table(
        "0.3295 0.5982 0.4060 0.2239 0.2224 0.3774 0.0607 0.2675/"
        "0.3288 0.5986 0.5113 0.1006 0.1394 0.3970 0.0779 0.2075/"
        "0.2565 0.6294 0.3890 0.2448 0.2101 0.4046 0.0414 0.2618"
    )
    return (
        Printed(qkv, _th_qkv, "Q1 | K1 | V1"),
        Printed(head1, lambda x: np.hstack(_th_head(x, 1)[:2]), "S1 | A1"),
        Printed(
            _table("0.3295 0.5982/0.3288 0.5986/0.2565 0.6294"),
            lambda x: _th_head(x, 1)[2],
            "head_1 = A1 V1",
        ),
        Printed(head2, lambda x: np.hstack(_th_head(x, 2)[1:]), "A2 | head_2"),
        Printed(one("0.4468"), lambda x: _th_head(x, 1)[1][2, 1:2], "head 1, khao -> kin"),
        Printed(one("0.3146", "0.3372", "0.3482"), lambda x: _th_head(x, 2)[1][1], "head 2, kin"),
        Printed(
            out,
            lambda x: np.hstack([_th_concat(x), _th_concat(x) @ x["WO"]]),
            "concat | MultiHead(X) = concat W^O",
        ),
    )


_LN_AND_FFN = (
    (
        "X + MultiHead(X), mean, std",
        "0.8224 1.1774 1.0607 1.6675 1.1820 0.3081/"
        "0.5809 1.7373 0.2879 0.6074 0.8034 0.5536/2.1194 0.3884 -0.7386 1.4616 0.8077 1.0857",
    ),
    (
        "Z = LN(...)",
        "-1.1670 -0.0149 -0.3937 1.5756/-0.4019 1.6870 -0.9311 -0.3540/"
        "1.2081 -0.3862 -1.4242 0.6023",
    ),
    ("std before LN", "0.3081 1.0857"),
    ("ratio of the stds", "3.5"),
    (
        "W_1",
        "0.2 -0.3 0.5 0.1 -0.2 0.4 0.1 -0.5/0.4 0.1 -0.2 0.3 0.5 -0.1 0.2 0.3/"
        "-0.1 0.5 0.3 -0.4 0.1 0.2 -0.3 0.4/0.3 0.2 -0.4 0.5 -0.3 0.1 0.4 -0.2",
    ),
    ("b_1", "0.1 -0.1 0 0.2 -0.2 0.1 0 -0.1"),
    (
        "before ReLU",
        "0.3727 0.3669 -1.3289 1.0241 -0.4861 -0.2865 0.6287 0.0065/"
        "0.6813 -0.3471 -0.6761 0.8614 0.7370 -0.4511 0.4349 0.3054/"
        "0.5103 -1.0927 0.0131 1.0758 -0.9578 0.3973 0.7118 -1.5101",
    ),
    (
        "after ReLU",
        "0.3727 0.3669 0.0000 1.0241 0.0000 0.0000 0.6287 0.0065/"
        "0.6813 0.0000 0.0000 0.8614 0.7370 0.0000 0.4349 0.3054/"
        "0.5103 0.0000 0.0131 1.0758 0.0000 0.3973 0.7118 0.0000",
    ),
    ("b_2", "0 0.1 -0.1 0.05"),
    (
        "FFN(Z)",
        "0.3415 -0.2610 0.6329 0.3774/0.1380 -0.1547 0.7694 0.3433/0.6433 -0.3831 0.5436 0.6573",
    ),
    (
        "Z + FFN(Z)",
        "-0.8255 -0.2759 0.2392 1.9530/-0.2639 1.5323 -0.1618 -0.0107/"
        "1.8514 -0.7693 -0.8806 1.2596",
    ),
    (
        "Y = LN(Z + FFN(Z))",
        "-1.0553 -0.5272 -0.0322 1.6147/-0.7348 1.7189 -0.5952 -0.3889/"
        "1.2291 -0.9383 -1.0304 0.7396",
    ),
    ("mean and std of Y", "0.0000 1.0000"),
)


def _th_encoder_printed() -> tuple[Printed, ...]:
    weights = tuple(given(tuple(tuple(str(v) for v in r) for r in _W[name]), name) for name in _W)
    return (
        *_pad_printed(),
        other(one("1", "2", "3"), "token ids"),
        given(tuple(tuple(str(v) for v in r) for r in _E), "E"),
        other(_table("0.3 -0.1 0.5 0.2/-0.2 0.4 0.1 -0.3/0.5 0.2 -0.4 0.1"), "E[[1,2,3]]"),
        other(
            _table(
                "0.0000 1.0000 0.0000 1.0000/0.8415 0.5403 0.0100 1.0000/"
                "0.9093 -0.4161 0.0200 0.9998"
            ),
            "PE",
        ),
        given(
            _table(
                "0.6000 0.8000 1.0000 1.4000/0.4415 1.3403 0.2100 0.4000/"
                "1.9093 -0.0161 -0.7800 1.1998"
            ),
            "X = 2 E[ids] + PE",
        ),
        *weights,
        *_mha_printed(),
        *(other(_table(text), label) for label, text in _LN_AND_FFN),
    )


TH_ENCODER = Doc(
    file="dev/th-course-encoder-padding-multihead-wo.md",
    url=(
        "https://github.com/LLM-CE-KMITL/transformer-101/blob/"
        "710a70804e2af9c9a1c71ba02bd07058131c1254/10-encoder-full-pipeline.md"
    ),
    kind="course-notes",
    language="th",
    inputs={"E": a(_E), "P": a(_PAD_S), **{name: a(w) for name, w in _W.items()}},
    printed=_th_encoder_printed(),
    notes=(
        "A padding mask over the last key (-inf as $-\\infty$ in LaTeX, masked_fill in torch), "
        "then a two-head encoder layer by hand: X = 2 E[ids] + sinusoidal PE, per-head Q|K|V "
        "and S|A tables printed side by side, the heads concatenated and multiplied by W^O "
        "(4x4), then residual, LayerNorm and a ReLU FFN whose numbers are not attention. The "
        "truth recomputes X exactly from E and the PE formula. All right."
    ),
)

# --- Chinese notebook (torch): one query's scores given, then scaling and softmax -------------

_EMBEDDED = """
0.3374, -0.1778, -0.3035, -0.5880,  0.3486,  0.6603, -0.2196, -0.3792,
0.7671, -1.1925,  0.6984, -1.4097,  0.1794,  1.8951,  0.4954,  0.2692,
0.5146,  0.9938, -0.2587, -1.0826, -0.0444,  1.6236, -2.3229,  1.0878,
0.6716,  0.6933, -0.9487, -0.0765, -0.1526,  0.1167,  0.4403, -1.4465,
0.2553, -0.5496,  1.0042,  0.8272, -0.3948,  0.4892, -0.2168, -1.7472,
-1.6025, -1.0764,  0.9031, -0.7218, -0.5951, -0.7112,  0.6230, -1.3729,
-1.3250,  0.1784, -2.1338,  1.0524, -0.3885, -0.9343, -0.4991, -1.0867,
0.8805,  1.5542,  0.6266, -0.1755,  0.0983, -0.0935,  0.2662, -0.5850,
-0.0770, -1.0205, -0.1690,  0.9178,  1.5810,  1.3010,  1.2753, -0.2010,
0.4965, -1.5723,  0.9666, -1.1481, -1.1589,  0.3255, -0.6315, -2.8400,
0.8768,  1.6221, -1.4779,  1.1331, -1.2203,  1.3139,  1.0533,  0.1388,
2.2473, -0.8036, -0.2808,  0.7697, -0.6596, -0.7979,  0.1838,  0.2293
"""
_CONTEXT = """-1.5993,  0.0156,  1.2670,  0.0032, -0.6460, -1.1407, -0.4908, -1.4632,
0.4747,  1.1926,  0.4506, -0.7110,  0.0602,  0.7125, -0.1628, -2.0184,
0.3838, -2.1188, -0.8136, -1.5694,  0.7934, -0.2911, -1.3640, -0.2366,
-0.9564, -0.5265,  0.0624,  1.7084"""
_OMEGA = ("8.5808", "-7.6597", "3.2558", "1.0395", "11.1466", "-0.4800")
_SCALED = ("1.7515", "-1.5635", "0.6646", "0.2122", "2.2753", "-0.0980")
_ALPHA = ("0.2912", "0.0106", "0.0982", "0.0625", "0.4917", "0.0458")


def _dessert_scaled(x: Arrays) -> np.ndarray:
    return x["omega"] / np.sqrt(24)


def _dessert_printed() -> tuple[Printed, ...]:
    halves = {"omega": _HALF_4}
    return (
        other(one("0", "1", "2", "3", "4", "5"), "word -> index dict"),
        other(one("0", "4", "5", "2", "1", "3"), "sentence_int"),
        given(grid(_EMBEDDED, 16), "embedded_sentence (6x16, two lines a row)"),
        given(one("11.1466"), "omega_24 = query_2 . keys[4]"),
        given(one(*_OMEGA), "omega_2"),
        Printed(one("4.8990"), lambda x: np.array([np.sqrt(24.0)]), "sqrt(24)"),
        Printed(
            one("1.7515"),
            settled(lambda x: _dessert_scaled(x)[:, :1], halves, one("1.7515")),
            "omega_2[0] / sqrt(24)",
        ),
        Printed(one(*_SCALED), settled(_dessert_scaled, halves, one(*_SCALED)), "omega_2 / sqrt"),
        Printed(
            one(*_ALPHA),
            settled(lambda x: softmax(_dessert_scaled(x)), halves, one(*_ALPHA)),
            "attention_weights_2",
        ),
        Printed(one("1."), lambda x: np.array([softmax(_dessert_scaled(x)).sum()]), "sum"),
        given(one(*grid(_CONTEXT, 28)[0]), "context_vector_2 (values never printed)"),
    )


ZH_DESSERT = Doc(
    file="dev/zh-notebook-torch-dessert-sentence-attention.ipynb",
    url=(
        "https://github.com/lry199010/machine-learning/blob/"
        "82605fd93904340f16362972d929df1a199c9aa1/self_attention.ipynb"
    ),
    kind="notebook-torch",
    language="zh",
    inputs={"omega": a([[float(v) for v in _OMEGA]])},
    printed=_dessert_printed(),
    notes=(
        "Torch prints of one query's unnormalised scores omega (W_q, W_k, W_v are random and "
        "never printed), scaled by sqrt(d_k = 24) and soft-maxed over dim 0; d_v = 28 differs "
        "from d_k. Integer word ids and the 6x16 embedding (two printed lines per row) are not "
        "attention results; the context vector cannot be recomputed (values never printed). "
        "Multi-head and cross-attention cells print only shapes. All right."
    ),
)

# --- Notebook (numpy): scores printed, softmax of scores / 2, and a 'Sum exp' of the raw scores

_FWD_SCORES = """
[[25.77798284 18.64742887 19.48398366 23.86705031 21.05392398]
 [17.41027692 12.56780902 13.08852887 16.24935311 14.15475403]
 [20.86580444 15.14410588 15.57329611 18.67234283 16.64457634]
 [27.73448991 20.11888043 20.41837683 24.71968864 21.85938877]
 [20.05451185 14.56520542 14.72214283 17.89288909 15.923275  ]]
"""
_FWD_ATTENTION = block(
    """
    [[0.64510652 0.01824951 0.02772725 0.2481291  0.06078761]
     [0.51019242 0.04531119 0.0587866  0.28552399 0.1001858 ]
     [0.63160775 0.03614069 0.04479132 0.21093241 0.07652783]
     [0.75616668 0.01678452 0.01949592 0.16747954 0.04007334]
     [0.62505956 0.04017294 0.04345224 0.21209527 0.07921998]]
    """
)
_FWD_SUM_EXP = column(
    "1.81758557e+11", "4.99842208e+07", "1.30831869e+09", "1.16781266e+12", "5.84159344e+08"
)
_FWD_RESULT = block(
    """
    [[2.8008452  2.24120063 1.59079464 2.44745014]
     [2.79069057 2.14378157 1.50042271 2.36748655]
     [2.7716833  2.23145586 1.5976439  2.43297517]
     [2.77443958 2.32262364 1.68618768 2.50579409]
     [2.77092348 2.2274314  1.5955526  2.42962055]]
    """
)


def _fwd_printed() -> tuple[Printed, ...]:
    halves = {"S": 5e-9}
    sum_exp = settled(lambda x: np.exp(x["S"]).sum(1, keepdims=True), halves, _FWD_SUM_EXP)
    weights = settled(lambda x: softmax(x["S"] / 2), halves, _FWD_ATTENTION)
    return (
        Printed(_FWD_SUM_EXP, sum_exp, "Sum exp (of the unscaled scores)"),
        given(block(_FWD_SCORES), "Scores"),
        Printed(_FWD_ATTENTION, weights, "Attention (softmax of scores / sqrt(4))"),
        Printed(one(*["1."] * 5), lambda x: softmax(x["S"] / 2).sum(1), "Sum"),
        given(_FWD_RESULT, "Result (v never printed)"),
        other(one("0.01"), "learning_rate"),
    )


NP_FORWARD = Doc(
    file="dev/notebook-numpy-attention-forward-sum-exp.ipynb",
    url=(
        "https://github.com/antoni-climent/ai_adventures/blob/"
        "07f667943d7b6f4609fb41f860c02396a2498fa9/attention_numpy.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={"S": a([[float(v) for v in r] for r in block(_FWD_SCORES)])},
    printed=_fwd_printed(),
    notes=(
        "Random X and weights never printed; the scores are printed (8 decimals) and the "
        "attention is softmax(scores / sqrt(d_k = 4)). The 'Sum exp' column printed first is "
        "the row sum of exp of the UNSCALED scores (as the print statement says), in "
        "e-notation, not the softmax denominator actually used. The result cannot be "
        "recomputed (v never printed); a learning rate appears in a gradient cell that fails. "
        "All right."
    ),
)

# --- Sphinx page of a notebook (HTML, MathJax): 'sky is blue', 2-d embeddings, torch prints ----

_SKY_E = [[-1.0720, -0.5001], [-0.0120, -0.4311], [-0.0050, -0.5321]]
_SKY_W = {
    "WQ": [[-0.0271, -0.3840], [-0.3940, -0.6610]],
    "WK": [[-0.4109, 0.5777], [-0.1162, -0.1661]],
    "WV": [[-0.2045, 0.1210], [-0.1712, -0.4462]],
}


def _sky(x: Arrays, name: str) -> np.ndarray:
    return x["E"] @ x[name]


def _sky_scaled(x: Arrays) -> np.ndarray:
    return _sky(x, "WQ") @ _sky(x, "WK").T / np.sqrt(2)


def _sky_printed() -> tuple[Printed, ...]:
    four = tuple(tuple(f"{v:.4f}" for v in r) for r in _SKY_E)
    weights = tuple(
        given(tuple(tuple(f"{v:.4f}" for v in r) for r in _SKY_W[name]), name) for name in _SKY_W
    )
    return (
        other(one("1", "2", "3"), "sequence (token ids)"),
        given(four, "embeddings dict (code)"),
        given(_table("-1.072 -0.5001/-0.012 -0.4311/-0.005 -0.5321"), "embeddings dict (output)"),
        given(four, "embedded_tokens (code)"),
        given(four, "embedded_tokens"),
        *weights,
        Printed(_table("0.2261 0.7422/0.1702 0.2896/0.2098 0.3536"), lambda x: _sky(x, "WQ"), "Q"),
        Printed(_table("0.4986 -0.5362/0.0550 0.0647/0.0639 0.0855"), lambda x: _sky(x, "WK"), "K"),
        Printed(_table("0.3048 0.0934/0.0763 0.1909/0.0921 0.2368"), lambda x: _sky(x, "WV"), "V"),
        Printed(
            _table("-0.2853 0.0604 0.0779/-0.0704 0.0281 0.0356/-0.0850 0.0344 0.0436"),
            lambda x: _sky(x, "WQ") @ _sky(x, "WK").T,
            "attn_logits",
        ),
        Printed(
            _table("-0.2017 0.0427 0.0551/-0.0498 0.0199 0.0252/-0.0601 0.0243 0.0309"),
            _sky_scaled,
            "scaled_attention_logits",
        ),
        Printed(
            _table("0.2801 0.3577 0.3622/0.3175 0.3404 0.3422/0.3141 0.3418 0.3441"),
            lambda x: softmax(_sky_scaled(x)),
            "attention_weights",
        ),
        Printed(
            column("1.", "1.", "1.0000"),
            lambda x: softmax(_sky_scaled(x)).sum(1)[:, None],
            "row sums",
        ),
        Printed(
            _table("0.1460 0.1802/0.1543 0.1757/0.1535 0.1761"),
            lambda x: softmax(_sky_scaled(x)) @ _sky(x, "WV"),
            "O",
        ),
    )


HTML_SKY = Doc(
    file="dev/html-sphinx-notebook-self-attention-basics.html",
    url=(
        "https://github.com/gihanpanapitiya/deep_learning/blob/"
        "94c43328403410d1d76db689ada4f86b5cf84879/docs/tutorials/transformers/attention_1.html"
    ),
    kind="html-mathjax",
    language="en",
    inputs={"E": a(_SKY_E), **{name: a(w) for name, w in _SKY_W.items()}},
    printed=_sky_printed(),
    notes=(
        "A notebook rendered by Sphinx (MathJax config, \\( \\) inline math, symbolic "
        "matrices with subscripts like Q_{1,1}): 2-d embeddings and 2x2 weights given, torch "
        "prints of Q, K, V, the logits, the logits / sqrt(2), the softmax, three row sums "
        "printed as 1., 1. and 1.0000, and the output. Computed in float32 by the page. "
        "All right."
    ),
)

# --- Notebook (torch): cross-attention of one decoder state over three encoder outputs -------

_CROSS_SCORES = ("0.1654", "0.1047", "0.0918")
_CROSS_WEIGHTS = one("0.3484", "0.3279", "0.3237")

CROSS_STEP = Doc(
    file="dev/notebook-torch-cross-attention-decoder-step.ipynb",
    url=(
        "https://github.com/Rekha215/Attention_Basics/blob/"
        "b9e635ea5690de091fe05b720b3630df76ff695f/cross_attention_example.ipynb"
    ),
    kind="notebook-torch",
    language="en",
    inputs={"s": a([[float(v) for v in _CROSS_SCORES]])},
    printed=(
        given(_table("1.0 0.0 0.5 0.5/0.5 1.0 0.0 0.5/0.0 0.5 1.0 0.5"), "encoder_outputs"),
        given(one("0.5", "0.5", "0.0", "1.0"), "decoder_hidden"),
        given(one(*_CROSS_SCORES), "Attention Scores (Q K^T, unscaled)"),
        Printed(
            _CROSS_WEIGHTS,
            settled(lambda x: softmax(x["s"]), {"s": _HALF_4}, _CROSS_WEIGHTS),
            "Attention Weights",
        ),
        given(one("0.7012", "-0.0544", "0.0585", "0.2132"), "Context Vector (V never printed)"),
        other(one("-0.0396", "-0.3584", "-1.1777", "1.5756"), "LayerNorm(output_proj + residual)"),
    ),
    notes=(
        "Cross-attention, one decoder query over three encoder outputs (N, 1, L printed as "
        "[[...]]), projections random and never printed, scores not scaled by sqrt(4). Only "
        "the softmax can be checked; the context needs V; the last line is a LayerNorm output "
        "(not attention). All right."
    ),
)

# --- Vietnamese notes: one dot product by hand and a torch print in a code comment ---------

VI_DOT = Doc(
    file="dev/vi-notes-attention-dot-product.md",
    url=(
        "https://github.com/tranbahau-ai/llm-from-scratch/blob/"
        "294a671223c4e705c48f71ea4ed48ccf1b32b765/docs/attention-merchanism.md"
    ),
    kind="course-notes",
    language="vi",
    inputs={"q": a([[1, 2, 3]]), "K": a([[2, 1, 0], [1, 2, 3]])},
    printed=(
        given(one("1", "2", "3"), "Q"),
        given(one("2", "1", "0"), "K"),
        Printed(one("4"), lambda x: x["q"] @ x["K"][:1].T, "Q . K = 1x2 + 2x1 + 3x0"),
        given(one("1.0", "2.0", "3.0"), "Q (torch)"),
        given(_table("2.0 1.0 0.0/1.0 2.0 3.0"), "K (torch)"),
        Printed(one("4.", "14."), lambda x: x["q"] @ x["K"].T, "print(score)"),
    ),
    notes=(
        "Conceptual notes in Vietnamese with one worked dot product (LaTeX) and a torch "
        "matmul whose result is printed in a code comment; scaling, softmax and the causal "
        "mask only as formulas. All right."
    ),
)

# --- Thai course notes: two heads from one combined W, LaTeX bmatrix, concat and W_O ---------

_MH_X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
_MH_W = {
    "WQ": [[1, 1, -1, 1], [-1, 0, 0.5, -0.5], [1, 0, 0, 0.5], [0, -1, 1, 0]],
    "WK": [[-0.5, -0.5, -1, 0.5], [1, 1, -0.5, -1], [-1, 0.5, 0, 1], [0, 1, 0.5, 0]],
    "WV": [[-1, -1, -1, 0.5], [-0.5, 0.5, -0.5, -0.5], [1, -1, -1, 0.5], [-0.5, -0.5, -0.5, 0]],
    "WO": [[1, 0, 0.5, -0.5], [0, 1, -0.5, 0.5], [0.5, -0.5, 1, 0], [-0.5, 0.5, 0, 1]],
}


def _mh_proj(x: Arrays, name: str, h: int | None = None) -> np.ndarray:
    full = x["X"] @ x[name]
    return full if h is None else full[:, 2 * h : 2 * h + 2]


def _mh_raw(x: Arrays, h: int) -> np.ndarray:
    return _mh_proj(x, "WQ", h) @ _mh_proj(x, "WK", h).T


def _mh_a(x: Arrays, h: int) -> np.ndarray:
    return softmax(_mh_raw(x, h) / np.sqrt(2))


def _mh_concat(x: Arrays) -> np.ndarray:
    return np.hstack([_mh_a(x, h) @ _mh_proj(x, "WV", h) for h in (0, 1)])


def _mh_diag(x: Arrays, h: int) -> np.ndarray:
    return np.array([np.trace(_mh_a(x, h)) / 3])


def _latex(rows: list[list[float]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(f"{v:g}" for v in r) for r in rows)


def _mh_head(h: int, qk: str, scaled: str, weights: str, out: str) -> tuple[Printed, ...]:
    return (
        Printed(_table(qk), lambda x: _mh_raw(x, h), f"Q{h + 1} K{h + 1}^T"),
        Printed(_table(scaled), lambda x: _mh_raw(x, h) / np.sqrt(2), "divided by sqrt(2)"),
        Printed(_table(weights), lambda x: _mh_a(x, h), f"A_{h + 1}"),
        Printed(_table(out), lambda x: _mh_a(x, h) @ _mh_proj(x, "WV", h), f"head_{h + 1}"),
    )


def _mh_slices(h: int, q: str, k: str, v: str) -> tuple[Printed, ...]:
    return (
        Printed(_table(q), lambda x: _mh_proj(x, "WQ", h), f"Q_{h + 1}"),
        Printed(_table(k), lambda x: _mh_proj(x, "WK", h), f"K_{h + 1}"),
        Printed(_table(v), lambda x: _mh_proj(x, "WV", h), f"V_{h + 1}"),
    )


def _mh_code_given() -> tuple[Printed, ...]:
    return (
        given(_table("1. 0. 1. 0./0. 1. 0. 1./1. 1. 0. 0."), "X = np.array"),
        given(_table("1. 1. -1. 1./-1. 0. 0.5 -0.5/1. 0. 0. 0.5/0. -1. 1. 0."), "WQ = np.array"),
        given(_table("-0.5 -0.5 -1. 0.5/1. 1. -0.5 -1./-1. 0.5 0. 1./0. 1. 0.5 0."), "WK"),
        given(_table("-1. -1. -1. 0.5/-0.5 0.5 -0.5 -0.5/1. -1. -1. 0.5/-0.5 -0.5 -0.5 0."), "WV"),
        given(_table("1. 0. 0.5 -0.5/0. 1. -0.5 0.5/0.5 -0.5 1. 0./-0.5 0.5 0. 1."), "WO"),
    )


def _mh_printed() -> tuple[Printed, ...]:
    mh = _table(
        "-2.4242 1.2732 -2.3913 1.3061/-0.6966 -1.2692 -0.4365 -1.0091/"
        "-2.0280 0.6572 -1.9595 0.7257"
    )
    return (
        given(_latex(_MH_X), "X"),
        *(given(_latex(_MH_W[name]), name) for name in _MH_W),
        Printed(_table("2 1 -1 1.5/-1 -1 1.5 -0.5/0 1 -0.5 0.5"), lambda x: _mh_proj(x, "WQ"), "Q"),
        Printed(
            _table("-1.5 0 -1 1.5/1 2 0 -1/0.5 0.5 -1.5 -0.5"), lambda x: _mh_proj(x, "WK"), "K"
        ),
        Printed(
            _table("0 -2 -2 1/-1 0 -1 -0.5/-1.5 -0.5 -1.5 0"), lambda x: _mh_proj(x, "WV"), "V"
        ),
        *_mh_slices(0, "2 1/-1 -1/0 1", "-1.5 0/1 2/0.5 0.5", "0 -2/-1 0/-1.5 -0.5"),
        *_mh_head(
            0,
            "-3 4 1.5/1.5 -3 -1/0 2 0.5",
            "-2.1213 2.8284 1.0607/1.0607 -2.1213 -0.7071/0 1.4142 0.3536",
            "0.0060 0.8490 0.1449/0.8249 0.0342 0.1408/0.1530 0.6292 0.2178",
            "-1.0665 -0.0845/-0.2455 -1.7203/-0.9560 -0.4149",
        ),
        *_mh_slices(1, "-1 1.5/1.5 -0.5/-0.5 0.5", "-1 1.5/0 -1/-1.5 -0.5", "-2 1/-1 -0.5/-1.5 0"),
        *_mh_head(
            1,
            "3.25 -1.5 0.75/-2.25 0.5 -2/1.25 -0.5 0.5",
            "2.2981 -1.0607 0.5303/-1.5910 0.3536 -1.4142/0.8839 -0.3536 0.3536",
            "0.8295 0.0289 0.1416/0.1089 0.7612 0.1299/0.5323 0.1544 0.3132",
            "-1.9003 0.8151/-1.1739 -0.2717/-1.6889 0.4551",
        ),
        Printed(
            _table("0.8490 0.8295/0.8249 0.7612/0.6292 0.5323"),
            lambda x: np.array(
                [
                    [_mh_a(x, 0)[i, j], _mh_a(x, 1)[i, k]]
                    for i, j, k in ((0, 1, 0), (1, 0, 1), (2, 1, 0))
                ]
            ),
            "focus of each head (table)",
        ),
        Printed(
            one("0.0860", "0.6346"),
            lambda x: np.hstack([_mh_diag(x, 0), _mh_diag(x, 1)]),
            "diag means",
        ),
        Printed(one("0.0860"), lambda x: _mh_diag(x, 0), "diag mean, head 1 (prose)"),
        Printed(one("0.6346"), lambda x: _mh_diag(x, 1), "diag mean, head 2 (prose)"),
        Printed(
            _table(
                "-1.0665 -0.0845 -1.9003 0.8151/-0.2455 -1.7203 -1.1739 -0.2717/"
                "-0.9560 -0.4149 -1.6889 0.4551"
            ),
            _mh_concat,
            "[head_1; head_2]",
        ),
        Printed(mh, lambda x: _mh_concat(x) @ x["WO"], "MultiHead(X)"),
        given(one("1", "0", "0.5", "-0.5"), "first column of W^O"),
        Printed(
            one("-1.0665", "0.9502", "0.4076"),
            lambda x: np.array(
                [_mh_concat(x)[0, 0], -0.5 * _mh_concat(x)[0, 2], 0.5 * _mh_concat(x)[0, 3]]
            ),
            "-1.0665 - 0.9502 - 0.4076 (terms of the check)",
        ),
        Printed(one("-2.4242"), lambda x: (_mh_concat(x) @ x["WO"])[0, :1], "= -2.4242"),
        *_mh_code_given(),
        Printed(
            one("0.086", "0.6346"), lambda x: np.hstack([_mh_diag(x, 0), _mh_diag(x, 1)]), "# diag"
        ),
        Printed(
            one("-2.4242", "1.2732", "-2.3913", "1.3061"),
            lambda x: (_mh_concat(x) @ x["WO"])[0],
            "print(o) (first row, in a comment)",
        ),
    )


TH_TWO_HEADS = Doc(
    file="dev/th-course-multihead-two-heads-latex.md",
    url=(
        "https://github.com/LLM-CE-KMITL/transformer-101/blob/"
        "710a70804e2af9c9a1c71ba02bd07058131c1254/06-multi-head-attention.md"
    ),
    kind="latex-in-markdown",
    language="th",
    inputs={"X": a(_MH_X), **{name: a(w) for name, w in _MH_W.items()}},
    printed=_mh_printed(),
    notes=(
        "Two heads sliced from one combined 4x4 W^Q, W^K, W^V (columns 1-2 and 3-4), all in "
        "LaTeX bmatrix: Q K V, each head's raw scores, scores / sqrt(2), softmax with some "
        "entries in \\mathbf, head outputs, a table of the largest weights, diagonal means, "
        "concat and W^O, then a hand check of one entry as a chain of signed terms and the "
        "numpy/torch results in code comments (0.086 without its trailing zero). All right."
    ),
)

# --- Notebook (torch): batch 0 of random scores, scaled by sqrt(8), and the unscaled softmax --

_RAW = (
    "-1.2955 1.0110 -1.1253 -4.9447/1.8294 0.7432 -0.5131 -5.1092/"
    "-3.2314 1.6361 -0.0782 -2.5119/0.3663 -1.4356 0.8898 -4.7521"
)
_SCALED8 = (
    "-0.4580 0.3574 -0.3979 -1.7482/0.6468 0.2628 -0.1814 -1.8064/"
    "-1.1425 0.5785 -0.0276 -0.8881/0.1295 -0.5076 0.3146 -1.6801"
)
_WEIGHTS8 = (
    "0.2175 0.4916 0.2310 0.0599/0.4537 0.3090 0.1982 0.0390/"
    "0.0915 0.5115 0.2790 0.1180/0.3453 0.1826 0.4155 0.0565"
)
_OUT8 = (
    "-0.2786 -0.0528 -0.5245 -0.2117 0.1071 -0.2984 0.2336 -0.1146/"
    "-0.4687 -0.1608 -0.5746 0.1081 0.2751 -0.0187 0.7547 -0.4147/"
    "-0.1701 -0.0369 -0.5337 -0.2441 0.0010 -0.3409 -0.0189 0.0410/"
    "-0.4162 -0.1179 -0.3925 0.4595 0.2722 0.1509 0.5419 -0.3494"
)


def _r8(x: Arrays) -> np.ndarray:
    return x["S"] / np.sqrt(8)


def _rak_printed() -> tuple[Printed, ...]:
    halves = {"S": _HALF_4}

    def near(compute: Truth, text: str) -> Truth:
        return settled(compute, halves, _table(text))

    unscaled = "0.0816 0.8195 0.0968 0.0021"
    return (
        given(_table(_RAW), "Raw scores (before scaling) for batch 0"),
        Printed(_table(_SCALED8), near(_r8, _SCALED8), "Scaled scores for batch 0"),
        Printed(_table(_WEIGHTS8), near(lambda x: softmax(_r8(x)), _WEIGHTS8), "Attention weights"),
        given(_table(_OUT8), "Output vectors (V never printed)"),
        Printed(
            _table(unscaled),
            near(lambda x: softmax(x["S"])[:1], unscaled),
            "Unscaled softmax row 0",
        ),
        Printed(
            _table("0.2175 0.4916 0.2310 0.0599"),
            near(lambda x: softmax(_r8(x))[:1], "0.2175 0.4916 0.2310 0.0599"),
            "Scaled softmax row 0",
        ),
        Printed(
            one("1.8294003009796143"),
            near(lambda x: np.array([x["S"].max()]), "1.8294003009796143"),
            "Unscaled max score",
        ),
        Printed(
            one("0.6467906832695007"),
            near(lambda x: np.array([_r8(x).max()]), "0.6467906832695007"),
            "Scaled max score",
        ),
    )


TORCH_SCALED = Doc(
    file="dev/notebook-torch-scaled-vs-unscaled-softmax.ipynb",
    url=(
        "https://github.com/Rakshithbodakuntla/scaled_dot_product_attention/blob/"
        "a93f50267d1bb4c2e65c81c0b48d66edf0c7fd4e/scaled_dot_product_attention.ipynb"
    ),
    kind="notebook-torch",
    language="en",
    inputs={"S": a([[float(v) for v in r] for r in _table(_RAW)])},
    printed=_rak_printed(),
    notes=(
        "Random Q, K, V never printed; batch 0 of a (2, 4, 4) score tensor printed to four "
        "decimals, then scaled by sqrt(d_k = 8), soft-maxed, an output that needs V, the "
        "softmax of row 0 without and with the scaling, and two maxima printed with float32's "
        "full repr (16 decimals), which the four-decimal scores can only bound. All right."
    ),
)

DEV_FRESH: list[Doc] = [
    ZH_CAT,
    KO_HAND,
    TH_DECODER,
    TH_ENCODER,
    ZH_DESSERT,
    NP_FORWARD,
    HTML_SKY,
    CROSS_STEP,
    VI_DOT,
    TH_TWO_HEADS,
    TORCH_SCALED,
]
