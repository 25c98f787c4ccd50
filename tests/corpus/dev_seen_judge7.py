"""Development documents: the seventh held-out batch, studied in session 30 and moved to dev (truth
unchanged by the move; it was computed with numpy from the printed inputs when the batch was
held out): a Turkish notebook (one query, a temperature table, a causal mask) and a Portuguese
one (a causal mask, then encoder-decoder weights) here; Chinese and Spanish notebooks in
dev_seen_judge7b.py; the rest in dev_seen_judge7c.py and dev_seen_judge7d.py. See
tests/corpus/truth_dev.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.dev_seen_judge7b import DEV_SEEN_JUDGE7B
from tests.corpus.dev_seen_judge7c import DEV_SEEN_JUDGE7C
from tests.corpus.dev_seen_judge7d import DEV_SEEN_JUDGE7D
from tests.corpus.heldout_help import Truth, a, block, given, one, other, settled
from tests.corpus.helpers import causal, grid, softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_8 = 5e-9

# --- Turkish notebook: "Ali bankadan kredi çekti", V = K, no scaling; temperature; causal mask --

_TR_WORDS = ("Ali", "bankadan", "kredi", "çekti")
_TR_K = (("0.8", "0.2", "0.1", "0.3"), ("0.2", "0.9", "0.8", "0.1"))
_TR_K += (("0.1", "0.8", "0.9", "0.2"), ("0.3", "0.6", "0.7", "0.5"))
_TR_SCORES = block(
    """
    [[ 0.99342831 -0.2765286   1.29537708  3.04605971]
     [-0.46830675 -0.46827391  3.15842563  1.53486946]
     [-0.93894877  1.08512009 -0.92683539 -0.93145951]
     [ 0.48392454 -3.82656049 -3.44983567 -1.12457506]]
    """
)
_TR_MASKED = block(
    """
    [[ 0.99342831        -inf        -inf        -inf]
     [-0.46830675 -0.46827391        -inf        -inf]
     [-0.93894877  1.08512009 -0.92683539        -inf]
     [ 0.48392454 -3.82656049 -3.44983567 -1.12457506]]
    """
)
_TR_WEIGHTS = block(
    """
    [[1.         0.         0.         0.        ]
     [0.49999179 0.50000821 0.         0.        ]
     [0.10437055 0.78998693 0.10564252 0.        ]
     [0.81090851 0.0108881  0.01586944 0.16233395]]
    """
)


def _tr_scores(x: Arrays) -> np.ndarray:
    return x["K"] @ x["K"][3]


def _tr_weights(x: Arrays) -> np.ndarray:
    return softmax(_tr_scores(x))


def _tr_score(j: int) -> Truth:
    return lambda x: _tr_scores(x)[j : j + 1]


def _tr_weight_line(j: int) -> Truth:
    """A softmax line: the score, the weight and the weight in percent."""
    return lambda x: np.array([_tr_scores(x)[j], _tr_weights(x)[j], 100 * _tr_weights(x)[j]])


def _tr_share(j: int) -> Truth:
    return lambda x: _tr_weights(x)[j : j + 1]


def _tr_part(j: int) -> Truth:
    return lambda x: _tr_weights(x)[j] * x["K"][j]


def _tr_temperature(tau: float) -> Truth:
    return lambda x: softmax(x["s"] / tau)


def _tr_exp(j: int) -> Truth:
    return lambda x: np.exp(x["s"][j : j + 1])


def _tr_division(j: int) -> Truth:
    """exp(s_j) / sum = share (share in percent)."""

    def truth(x: Arrays) -> np.ndarray:
        e = np.exp(x["s"])
        return np.array([e[j], e.sum(), e[j] / e.sum(), 100 * e[j] / e.sum()])

    return truth


def _tr_masked(x: Arrays) -> np.ndarray:
    return causal(x["scores"])


def _tr_compare(i: int, j: int) -> Truth:
    """One line of a comparison table: unmasked weight (and %), masked weight (and %)."""

    def truth(x: Arrays) -> np.ndarray:
        u = softmax(x["scores"])[i, j]
        m = softmax(_tr_masked(x))[i, j]
        return np.array([u, 100 * u, m, 100 * m])

    return truth


_TR_COMPARE = (
    (0, ("0.096", "9.6", "1.000", "100.0"), ("0.027", "2.7", "0.000", "0.0")),
    (0, ("0.130", "13.0", "0.000", "0.0"), ("0.747", "74.7", "0.000", "0.0")),
    (2, ("0.094", "9.4", "0.104", "10.4"), ("0.715", "71.5", "0.790", "79.0")),
    (2, ("0.096", "9.6", "0.106", "10.6"), ("0.095", "9.5", "0.000", "0.0")),
)


def _tr_tables() -> tuple[Printed, ...]:
    out: list[Printed] = []
    for half, (i, first, second) in enumerate(_TR_COMPARE):
        base = 2 * (half % 2)
        out += [
            Printed((first,), _tr_compare(i, base), f"{_TR_WORDS[i]} -> key {base + 1}"),
            Printed((second,), _tr_compare(i, base + 1), f"{_TR_WORDS[i]} -> key {base + 2}"),
        ]
        if half % 2:
            out.append(other(one("1.000000"), "total of the masked row"))
    return tuple(out)


def _tr_first_part() -> tuple[Printed, ...]:
    scores = ("0.5800", "1.2100", "1.2400", "1.1900")
    weights = (("0.1503", "15.0"), ("0.2822", "28.2"), ("0.2908", "29.1"), ("0.2766", "27.7"))
    parts = (
        ("0.1202495", "0.03006238", "0.01503119", "0.04509356"),
        ("0.05644543", "0.25400445", "0.22578173", "0.02822272"),
        ("0.02908223", "0.23265781", "0.26174004", "0.05816445"),
        ("0.08299161", "0.16598322", "0.19364709", "0.13831935"),
    )
    out = [given(one(*r), f"embedding of {w}") for w, r in zip(_TR_WORDS, _TR_K, strict=True)]
    out.append(given(one(*_TR_K[3]), "Q = embedding of çekti"))
    out += [given(one(*r), f"K[{j}]") for j, r in enumerate(_TR_K)]
    out += [Printed(one(t), _tr_score(j), f"score {j}") for j, t in enumerate(scores)]
    out.append(Printed(one("0.58", "1.21", "1.24", "1.19"), _tr_scores, "raw scores"))
    for j, (w, p) in enumerate(weights):
        out.append(Printed(one(scores[j], w, p), _tr_weight_line(j), f"softmax line {j}"))
    out.append(other(one("1.0000"), "sum of the weights"))
    for j, part in enumerate(parts):
        out += [
            Printed(one(weights[j][0]), _tr_share(j), f"weight {j}"),
            given(one(*_TR_K[j]), f"value {j}"),
            Printed(one(*part), _tr_part(j), f"weight {j} x value {j}"),
        ]
    out.append(
        Printed(
            one("0.28876877", "0.68270785", "0.69620004", "0.26980008"),
            lambda x: _tr_weights(x) @ x["K"],
            "attention output",
        )
    )
    return tuple(out)


def _tr_temperature_table() -> tuple[Printed, ...]:
    table = {
        "0.1": ("0.0000", "0.9526", "0.0474", "0.0000"),
        "0.5": ("0.0035", "0.6428", "0.3528", "0.0009"),
        "1.0": ("0.0401", "0.5400", "0.4000", "0.0199"),
        "2.0": ("0.1172", "0.4301", "0.3702", "0.0826"),
        "5.0": ("0.1947", "0.3275", "0.3085", "0.1693"),
    }
    out = [given(one("1.2", "3.8", "3.5", "0.5"), "scores for the temperature table")]
    for tau, probs in table.items():
        out += [
            given(one(tau), "temperature"),
            Printed(one(*probs), _tr_temperature(float(tau)), f"softmax(s / {tau})"),
        ]
    out += [
        given(one("0.1"), "tau in the comment"),
        Printed(
            one("93"), lambda x: 100 * softmax(x["s"] / 0.1)[1:2], "top share at tau 0.1, in %"
        ),
        given(one("1"), "tau in the comment"),
        given(one("5"), "tau in the comment"),
    ]
    return tuple(out)


def _tr_softmax_by_hand() -> tuple[Printed, ...]:
    exps = ("3.3201", "44.7012", "33.1155", "1.6487")
    lines = (("0.0401", "4.01"), ("0.5400", "54.00"), ("0.4000", "40.00"), ("0.0199", "1.99"))
    out = [Printed(one(t), _tr_exp(j), f"e^s{j}") for j, t in enumerate(exps)]
    out.append(Printed(one(*exps), lambda x: np.exp(x["s"]), "the terms of the total"))
    out.append(Printed(one("82.7855"), lambda x: np.exp(x["s"]).sum(keepdims=True), "total"))
    out += [
        Printed(one(exps[j], "82.7855", w, p), _tr_division(j), f"division {j}")
        for j, (w, p) in enumerate(lines)
    ]
    out.append(other(one("1.000000"), "total of the shares"))
    return tuple(out)


TR_BANK = Doc(
    file="dev/tr-notebook-numpy-bank-loan-query-temperature-causal-mask.ipynb",
    url=(
        "https://github.com/cemal-yuksel/finetuningllmwithhuggingface/blob/main/"
        "02.trarchandbasicllm/02.qkv-dec-enc.ipynb"
    ),
    kind="notebook-numpy",
    language="tr",
    inputs={
        "K": a([[float(e) for e in r] for r in _TR_K]),
        "s": a([1.2, 3.8, 3.5, 0.5]),
        "scores": a([[float(e) for e in r] for r in _TR_SCORES]),
    },
    printed=(
        *_tr_first_part(),
        *_tr_temperature_table(),
        *_tr_softmax_by_hand(),
        given(_TR_SCORES, "scaled scores (random, seed 42)"),
        Printed(_TR_MASKED, _tr_masked, "masked scores"),
        Printed(
            _TR_WEIGHTS,
            settled(lambda x: softmax(_tr_masked(x)), {"scores": _ROUNDED_8}, _TR_WEIGHTS),
            "masked weights",
        ),
        *_tr_tables(),
    ),
    notes=(
        "Selected cells of a Turkish course notebook (numpy prints inside prose lines). One "
        "query (the vector of 'çekti') against four 4-d keys with V = K and no scaling: the "
        "scores, softmax lines (score, weight, percent), each weight times its value vector "
        "and the output. A temperature table softmax(s / tau) for five tau; the notebook's "
        "comment then says the top score gets '%93' at tau = 0.1 while its own table prints "
        "0.9526 (95.3 %): that one number is a mistake. The softmax of [1.2, 3.8, 3.5, 0.5] "
        "by hand (exponentials, total, divisions, percents). Last, a random 4 x 4 score matrix "
        "(seed 42, printed to 8 decimals) under a causal mask (-inf above the diagonal), the "
        "masked weights, and unmasked/masked weight tables for two query words."
    ),
)

# --- Portuguese notebook: numpy causal attention (4 x 8), then encoder-decoder weights ----------

_PT_Q = grid(
    """
    [[ 0.9045319   0.14563315  0.68870739  1.17313896  1.10497416 -0.84473162
       0.8313184  -0.53928657]
     [-1.27447765  0.99654701 -0.74059388  0.9847301   0.82794299 -1.37675222
       1.69346126 -0.99658588]
     [-0.16544797 -0.0865677  -1.78418276 -0.10264331  0.20122295  0.14763751
      -1.63080619  0.94260766]
     [-0.12828603  0.53658352  0.97659724 -0.96086491  0.09931256 -0.63004574
       0.40092678  0.59326671]]
    """,
    8,
)
_PT_K = grid(
    """
    [[ 0.78156276  0.36030074 -1.02714339  0.75400295  0.40185708  1.58115191
       1.14393046 -0.8187551 ]
     [-0.52178903 -0.37659981  0.98367459 -0.17517294 -0.71823844 -0.45571092
      -0.12969153 -0.09984294]
     [-0.04423277 -1.75014314  0.53493758 -0.63848271  0.68151372 -0.29492109
       0.04810835 -0.73905168]
     [-1.49590884 -0.62133279  1.11817854 -0.59791679 -0.47594922  0.53805772
      -0.5930017  -0.09085652]]
    """,
    8,
)
_PT_V = grid(
    """
    [[ 0.65364729 -0.72776649  0.5386928   0.09838626 -0.87422196  0.12339661
      -0.74118016  1.05155913]
     [-1.02750459 -1.82469114 -2.01382791 -0.12215566 -1.01331401  0.24561483
       0.07742181 -0.02101762]
     [-0.40151161  1.36303216 -1.67469038  0.19420657 -0.03556264 -0.40888298
       0.49108855  2.06675431]
     [-0.81817674 -0.37964852 -0.65374055  2.0826181   0.99868644 -0.47676159
      -0.19867136 -0.01798444]]
    """,
    8,
)
_PT_NEW_V = grid(
    """
    [[ 0.65364729 -0.72776649  0.5386928   0.09838626 -0.87422196  0.12339661
      -0.74118016  1.05155913]
     [ 0.15890177 -1.05058001 -0.21248751  0.03348307 -0.9151553   0.15936416
      -0.50027411  0.73591094]
     [-0.15541548 -0.37956203 -0.8824252   0.06608881 -0.64927236 -0.00975561
      -0.12073844  1.06760346]
     [-0.6535814  -0.49852171 -1.260209    0.67691309 -0.12502266 -0.15270312
       0.01179     0.58002494]]
    """,
    8,
)
_PT_WEIGHTS = block(
    """
    [[1.         0.         0.         0.        ]
     [0.7057104  0.2942896  0.         0.        ]
     [0.40136678 0.28340511 0.31522811 0.        ]
     [0.09361946 0.34833189 0.23932775 0.3187209 ]]
    """
)
_PT_CROSS = block(
    """
    array([[0.28080198, 0.3166223 , 0.22625997, 0.17631574],
           [0.26284798, 0.28518612, 0.22967078, 0.22229512],
           [0.26658834, 0.24439295, 0.23417792, 0.25484079],
           [0.22395816, 0.20286802, 0.24939458, 0.32377924]])
    """
)
_PT_HALVES = {"q": _ROUNDED_8, "k": _ROUNDED_8, "v": _ROUNDED_8}


def _pt_weights(x: Arrays, masked: bool = True) -> np.ndarray:
    scaled = x["q"] @ x["k"].T / np.sqrt(8)
    return softmax(causal(scaled) if masked else scaled)


def _pt_cross(x: Arrays) -> np.ndarray:
    decoder = _pt_weights(x) @ x["v"]
    encoder = _pt_weights(x, masked=False) @ x["v"]
    return softmax(decoder @ encoder.T / np.sqrt(8))


def _pt_inputs() -> dict[str, np.ndarray]:
    return {
        n: a([[float(e) for e in r] for r in t])
        for n, t in (("q", _PT_Q), ("k", _PT_K), ("v", _PT_V))
    }


PT_CAUSAL = Doc(
    file="dev/pt-notebook-numpy-causal-mask-encoder-decoder-weights.ipynb",
    url="https://github.com/leticiafossato/transformers/blob/main/self_attention.ipynb",
    kind="notebook-numpy",
    language="pt",
    inputs=_pt_inputs(),
    printed=(
        other(one("0.8125119189894539", "0.5906094327889003", "1.9007652779718835"), "variances"),
        other(one("0.2375956597464854"), "variance of the scaled scores"),
        Printed(
            block(
                "[[0., -inf, -inf, -inf], [0., 0., -inf, -inf],"
                " [0., 0., 0., -inf], [0., 0., 0., 0.]]"
            ),
            lambda x: causal(np.zeros((4, 4))),
            "causal mask (0 and -inf)",
        ),
        given(_PT_Q, "Q"),
        given(_PT_K, "K"),
        given(_PT_V, "V"),
        Printed(
            _PT_NEW_V, settled(lambda x: _pt_weights(x) @ x["v"], _PT_HALVES, _PT_NEW_V), "New V"
        ),
        Printed(_PT_WEIGHTS, settled(_pt_weights, _PT_HALVES, _PT_WEIGHTS), "Attention"),
        Printed(_PT_CROSS, settled(_pt_cross, _PT_HALVES, _PT_CROSS), "attention_inp_out"),
    ),
    notes=(
        "A Portuguese course notebook: random Q, K, V (4 x 8) printed by numpy to 8 decimals, "
        "each row wrapped over two lines; a causal mask of 0 and -inf added to QK^T / sqrt(8); "
        "the output ('New V') printed before the weights. Then encoder-decoder attention: the "
        "masked output is the query and the unmasked output both key and value, scaled by "
        "sqrt(8) again; only its weights are printed. The two variances printed first are not "
        "attention. All right."
    ),
)

DEV_SEEN_JUDGE7: list[Doc] = [
    TR_BANK,
    PT_CAUSAL,
    *DEV_SEEN_JUDGE7B,
    *DEV_SEEN_JUDGE7C,
    *DEV_SEEN_JUDGE7D,
]
