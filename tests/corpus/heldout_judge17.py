"""The seventeenth batch of held-out documents: web pages outside GitHub (interactive visuals and
lessons, tutorials, a gist, blog and wiki notes, in English, Japanese, Chinese and German) nobody
tuned `check` to, each transcribed into tests/data/corpus/heldout/ (numbers, notation and layout
kept, prose rewritten), with the truth computed independently with numpy from the numbers each
page prints. Registered in tests/corpus/truth_heldout.py; the oracle's counts per document are in
tests/test_corpus_heldout.py (EXPECTED). Continued in tests/corpus/heldout_judge17b.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, block, given, one, settled, values
from tests.corpus.heldout_judge17b import JUDGE_DOCS_17B
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English interactive visual: eight words, a Q/K/V table, one query's weights in percent -----

_GQ_TABLE = block(
    "[0.95, -0.90] [0.37, -1.25] [0.04, -1.31] [-0.30, -1.27]\n"
    "[-0.95, 0.80] [-0.42, 1.17] [-0.11, 1.24] [0.22, 1.22]\n"
    "[-0.85, -0.75] [-1.11, -0.22] [-1.13, 0.07] [-1.07, 0.36]\n"
    "[-0.85, 0.95] [-0.26, 1.25] [0.07, 1.27] [0.40, 1.21]\n"
    "[-0.20, 0.00] [-0.17, 0.10] [-0.14, 0.14] [-0.10, 0.17]\n"
    "[-0.80, 0.90] [-0.24, 1.18] [0.07, 1.20] [0.38, 1.14]\n"
    "[-0.75, -0.85] [-1.07, -0.36] [-1.13, -0.07] [-1.11, 0.22]\n"
    "[0.85, -0.75] [0.36, -1.07] [0.07, -1.13] [-0.22, -1.11]"
)
_GQ = values(_GQ_TABLE)
_GQ_WEIGHTS = one("34", "3", "7", "4", "9", "4", "8", "30")
_GQ_OUT = one("-0.319", "-0.580")
_GQ_HALVES = {"q": 0.005, "k": 0.005, "v": 0.005}


def _gq_weights(x: Arrays) -> np.ndarray:
    return softmax(x["q"][:1] @ x["k"].T / np.sqrt(2.0))


GLOQO = Doc(
    file="heldout/en-html-interactive-visual-eight-words-qkv-table-percent-weights-output.html",
    url="https://www.gloqo.ai/visuals/attention/",
    kind="interactive-visual",
    language="en",
    inputs={"q": _GQ[:, 2:4], "k": _GQ[:, 4:6], "v": _GQ[:, 6:8]},
    printed=(
        given(_GQ_TABLE, "embedding, Q, K, V of the eight words (the projections not printed)"),
        Printed(
            _GQ_WEIGHTS,
            settled(lambda x: 100.0 * _gq_weights(x), _GQ_HALVES, _GQ_WEIGHTS),
            "the query angry's weights, in percent",
        ),
        given(one("0.95", "-0.90", "0.37", "-1.25", "0.04", "-1.31", "-0.30", "-1.27"), "angry"),
        Printed(_GQ_OUT, settled(lambda x: _gq_weights(x) @ x["v"], _GQ_HALVES, _GQ_OUT), "output"),
        given(one("0", "1"), "the softmax lies between 0 and 1"),
    ),
    notes=(
        "An interactive page (HTML; a table of words with their 2-d embedding, Q, K and V "
        "printed to two decimals, the projection matrices never printed) with the detail of one "
        "query: angry's weights over the eight words as whole percents (34%, 3%, ...) and its "
        "output [-0.319, -0.580]. The truth is softmax(q k^T / sqrt(2)) from the printed Q and "
        "K, allowing for their rounding to two decimals (without the division by sqrt(2) the "
        "weights would be 43% ... 35%). All right: 10 right."
    ),
)

# --- English simulation tutorial: "The cat sat on the mat", the query of sat worked by hand ------

_ST_X = block(
    "[0.20, 0.80, 0.10]\n[0.90, 0.10, 0.40]\n[0.60, 0.70, 0.50]\n"
    "[0.10, 0.40, 0.80]\n[0.20, 0.60, 0.20]\n[0.80, 0.20, 0.70]"
)
_ST_WQ = [("0.90", "0.20", "0.10"), ("0.10", "0.80", "0.30"), ("0.20", "0.40", "0.90")]


def _st_query(x: Arrays) -> np.ndarray:
    return (x["x"][2] @ x["wq"]).reshape(1, 3)


def _st_line(i: int) -> tuple[Printed, Printed]:
    operands = one(
        str(i), str(i), *(t for pair in zip(("0.60", "0.70", "0.50"), _ST_WQ[i]) for t in pair)
    )
    result = one(("0.73", "0.77", "0.85")[i])
    return (
        given(operands, f"Q(sat)[{i}] = X(sat) dot W_Q[:,{i}], operands"),
        Printed(result, lambda x: _st_query(x)[:, i : i + 1], f"Q(sat)[{i}]"),
    )


SHARETECHNOTE = Doc(
    file="heldout/en-html-simulation-tutorial-the-cat-sat-query-projection-dot-arithmetic.html",
    url="https://www.sharetechnote.com/html/WebProgramming/Websim_TfQKV.html",
    kind="html-tutorial",
    language="en",
    inputs={
        "x": values(_ST_X),
        "wq": np.array([[float(t) for t in col] for col in _ST_WQ]).T,
    },
    printed=(
        given(_ST_X, "the six input vectors"),
        given(one("0.60", "0.70", "0.50"), "X(sat) again"),
        Printed(one("0.73", "0.77", "0.85"), _st_query, "Q(sat) = X(sat) W_Q"),
        *_st_line(0),
        *_st_line(1),
        *_st_line(2),
    ),
    notes=(
        "A web-simulation tutorial (HTML, prose numbers; only its opening is transcribed, up to "
        "where the keys begin): six 3-d input vectors for 'The cat sat on the mat', and the "
        "query of sat worked out entry by entry, each line printing the column of W_Q it uses "
        "(0.60(0.90)+0.70(0.20)+0.50(0.10) = 0.73, ...); W_Q is read from those columns. "
        "All right: 6 right."
    ),
)

# --- English interactive lesson: scaled scores as a two-decimal grid and a three-decimal table --

_CV_TABLE = block(
    "0.226 0.827 0.029 0.630\n0.413 0.820 0.094 0.587\n"
    "0.847 0.349 -0.078 0.955\n-0.070 0.648 0.056 0.200"
)
_CV_GRID = block(
    "0.23 0.83 0.03 0.63\n0.41 0.82 0.09 0.59\n0.85 0.35 -0.08 0.96\n-0.07 0.65 0.06 0.20"
)

CS_VISUALIZATIONS = Doc(
    file="heldout/en-html-interactive-lesson-scaled-scores-grid-two-decimals-table-three.html",
    url="https://cs-visualizations.com/algorithms/ai-ml/transformers/softmax-output",
    kind="interactive-lesson",
    language="en",
    inputs={"s": values(_CV_TABLE)},
    printed=(
        given(one("12", "15", "1", "7"), "duration 12-15 min, step 1/ 7"),
        given(one("4", "4"), "a 4x4 matrix"),
        Printed(
            _CV_GRID,
            settled(lambda x: x["s"], {"s": 5e-4}, _CV_GRID),
            "Scaled Scores = Q K^T / sqrt(d_k), the grid",
        ),
        given(one("4", "4"), "4 x 4"),
        given(_CV_TABLE, "the score matrix table (three decimals)"),
    ),
    notes=(
        "The first step of an interactive lesson (HTML): the scaled scores Q K^T / sqrt(d_k) of "
        "'The cat sat down' shown twice, as a grid to two decimals and as a labelled table to "
        "three (Q and K are not printed, so the table is taken as given and the grid is checked "
        "as its rounding; 0.955 shows as 0.96). All right: 16 right."
    ),
)

# --- English console page: a causal attention distribution, cell labels and hover tooltips -----

_PD_TIPS = (
    ("1.000",),
    ("0.640", "0.360"),
    ("0.450", "0.320", "0.230"),
    ("0.720", "0.150", "0.080", "0.050"),
    ("0.220", "0.280", "0.250", "0.150", "0.100"),
)
_PD_LABELS = (
    ("1.00",),
    ("0.64", "0.36"),
    ("0.45", "0.32", "0.23"),
    ("0.72", "0.15", "0.08", "0.05"),
    ("0.22", "0.28", "0.25", "0.15", "0.10"),
)


def _pd_cell(i: int, j: int) -> Truth:
    return lambda x: x[f"t{i}"][:, j : j + 1]


def _pd_printed() -> tuple[Printed, ...]:
    out: list[Printed] = []
    for i, (labels, tips) in enumerate(zip(_PD_LABELS, _PD_TIPS, strict=True)):
        for j, (label, tip) in enumerate(zip(labels, tips, strict=True)):
            out.append(Printed(one(label), _pd_cell(i, j), f"row {i + 1}, key {j + 1}"))
            out.append(given(one(tip), "its tooltip"))
    return tuple(out)


PIERCE = Doc(
    file="heldout/en-html-kv-cache-console-causal-attention-distribution-labels-tooltips.html",
    url="https://api.pierce.dev/kv_cache_attention?console=attention_distribution",
    kind="interactive-console",
    language="en",
    inputs={f"t{i}": np.array([[float(t) for t in tips]]) for i, tips in enumerate(_PD_TIPS)},
    printed=_pd_printed(),
    notes=(
        "A console page of a KV-cache demo (HTML grid): a causal attention distribution over "
        "five tokens, each allowed cell showing its weight to two decimals with a tooltip to "
        "three ('sat → John: 0.640'), masked cells as dashes. No scores are printed, so the "
        "tooltips are taken as given and the labels are checked as their rounding (every row "
        "sums to 1). All right: 15 right."
    ),
)

# --- English gist: a masked softmax in PyTorch, the example's results in comments ---------------

_MS_A = one("0.1218", "0.7097", "0.4001")
_MS_C = one("0.0000", "0.5768", "0.4232")


def _ms_masked(x: Arrays, mask: np.ndarray) -> np.ndarray:
    return softmax(np.where(mask, -np.inf, x["a"]))


GIST = Doc(
    file="heldout/en-md-gist-pytorch-masked-softmax-boolean-mask-example-comments.md",
    url="https://gist.github.com/wisnunugroho21/3d69aa096e2ebcf54b886d63e53d42f1",
    kind="gist",
    language="en",
    inputs={"a": values(_MS_A)},
    printed=(
        given(one("-1"), "dim = -1"),
        given(one("1", "3"), "torch.rand(1, 3)"),
        given(_MS_A, "a (unseeded)"),
        given(one("0.5"), "mask a < 0.5"),
        Printed(one("0.", "1.", "0."), lambda x: _ms_masked(x, x["a"] < 0.5), "b"),
        Printed(
            _MS_C,
            settled(lambda x: _ms_masked(x, np.array([[True, False, False]])), {"a": 5e-5}, _MS_C),
            "c, the first position masked",
        ),
    ),
    notes=(
        "A GitHub gist (a Python file, transcribed as Markdown with its code; the function "
        "rewritten in words and a shorter body): a softmax that fills masked positions with the "
        "dtype's minimum, and a commented-out example printing a random a = [0.1218, 0.7097, "
        "0.4001], the softmax with a < 0.5 masked ([0., 1., 0.]) and with the first position "
        "masked ([0.0000, 0.5768, 0.4232]). The truth allows for a's rounding to four decimals. "
        "All right: 6 right."
    ),
)

JUDGE_DOCS_17: list[Doc] = [
    GLOQO,
    SHARETECHNOTE,
    CS_VISUALIZATIONS,
    PIERCE,
    GIST,
    *JUDGE_DOCS_17B,
]
