"""Development documents (the seventh held-out batch, moved to dev in session 30), continued: a
Vietnamese notebook whose softmax runs down the columns (axis=0) and an English Markdown lesson
with softmax slips. See tests/corpus/dev_seen_judge7.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_8 = 5e-9


def _matrix(rows: tuple[tuple[str, ...], ...]) -> np.ndarray:
    return a([[float(e) for e in r] for r in rows])


# --- Vietnamese notebook: "Tôi thích học AI", softmax(axis=0) normalises the columns -------------

_VI_X = block(
    """
    [[0.37454012 0.95071431 0.73199394 0.59865848]
     [0.15601864 0.15599452 0.05808361 0.86617615]
     [0.60111501 0.70807258 0.02058449 0.96990985]
     [0.83244264 0.21233911 0.18182497 0.18340451]]
    """
)
_VI_Q = block(
    """
    [[1.3841427  0.93171313 0.94939871 0.93588465]
     [0.68253872 0.18947216 0.65080307 0.28016014]
     [1.20009753 0.47542591 1.05988217 0.61045127]
     [0.57476093 0.61773344 0.56933533 0.44500006]]
    """
)
_VI_K = block(
    """
    [[0.55821718 1.20734506 1.22395873 1.69819667]
     [0.28890481 0.76590281 0.52938731 0.69807356]
     [0.50829749 1.29232814 1.36798207 1.32073669]
     [0.18848415 1.02217749 1.01254462 1.02712599]]
    """
)
_VI_V = block(
    """
    [[1.39542095 1.22586424 1.46081725 1.6184706 ]
     [0.57365664 0.41484836 0.96500202 0.59265008]
     [1.3726727  1.0119398  1.81092011 1.47141317]
     [0.74197263 0.42928879 1.09429878 0.96558692]]
    """
)
_VI_SCORES = block(
    """
    [[2.32444626 1.13470157 2.22122649 1.56792258]
     [0.94104311 0.44120262 0.92604881 0.63452441]
     [1.78891827 0.84903602 1.74027902 1.20617869]
     [1.2595997  0.62560832 1.22851614 0.88665755]]
    """
)
_VI_WEIGHTS = block(
    """
    [[0.45853371 0.35058462 0.44196599 0.38525959]
     [0.11496534 0.17523066 0.12103203 0.15148994]
     [0.26840736 0.26346922 0.27322222 0.26831817]
     [0.1580936  0.2107155  0.16377976 0.1949323 ]]
    """
)
_VI_OUT = block(
    """
    [[1.73348946 1.32017013 2.23010301 1.97221352]
     [0.53948603 0.40113611 0.72199589 0.61428331]
     [1.09981154 0.83000118 1.43474629 1.25166176]
     [0.7109359  0.53063377 0.94419297 0.80996217]]
    """
)
_VI_HALVES = {"Q": _ROUNDED_8, "K": _ROUNDED_8, "V": _ROUNDED_8}


def _vi_scores(x: Arrays) -> np.ndarray:
    return x["Q"] @ x["K"].T / 2.0


VI_COLUMNS = Doc(
    file="dev/vi-notebook-numpy-softmax-axis0-weights-wrong.ipynb",
    url="https://github.com/khoapdaio/100-days-from-zero-to-hero-python/blob/main/day22.ipynb",
    kind="notebook-numpy",
    language="vi",
    inputs={"Q": _matrix(_VI_Q), "K": _matrix(_VI_K), "V": _matrix(_VI_V)},
    printed=(
        given(_VI_X, "input embeddings (random, seed 42)"),
        given(_VI_Q, "Q"),
        given(_VI_K, "K"),
        given(_VI_V, "V"),
        Printed(_VI_SCORES, settled(_vi_scores, _VI_HALVES, _VI_SCORES), "scores / sqrt(4)"),
        Printed(
            _VI_WEIGHTS,
            settled(lambda x: softmax(_vi_scores(x)), _VI_HALVES, _VI_WEIGHTS),
            "attention weights (softmax over axis=0)",
        ),
        Printed(
            _VI_OUT,
            settled(lambda x: softmax(_vi_scores(x)) @ x["V"], _VI_HALVES, _VI_OUT),
            "output = weights @ V",
            follows=True,
        ),
    ),
    notes=(
        "A Vietnamese exercise notebook (np.random.seed(42)): random embeddings and weights, "
        "Q, K, V printed to 8 decimals, scores QK^T / sqrt(4) right. The exercise's softmax is "
        "np.exp(x) / np.sum(np.exp(x), axis=0): it normalises each COLUMN (over the queries), "
        "so every printed column sums to 1 and no row does. Attention weights are a softmax "
        "over the keys (rows), so all 16 printed weights are wrong, a mistake (the row softmax "
        "of row 1 is "
        "[0.3738, 0.1137, 0.3371, 0.1754]). The output weights @ V is computed from those "
        "printed weights and consistent with them: it follows from the slip."
    ),
)

# --- English Markdown lesson: "The cat sat", two made-up softmax results, one stray output ------

_EN_STUDENTS = a([0.8, 0.2, 0.9])
_EN_TWO = a([2.0, 1.0, 3.0])


def _en_query_scores(x: Arrays) -> np.ndarray:
    return x["E"] @ x["E"][2]


def _en_score(j: int) -> Truth:
    return lambda x: _en_query_scores(x)[j : j + 1]


def _en_problem_weights(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["K"].T)


def _en_sat_parts() -> tuple[Printed, ...]:
    rows = (("1.0", "0.1"), ("0.2", "0.9"), ("0.8", "0.3"))
    sums = ("0.83", "0.43", "0.73")
    out = [given((r,), f"embedding {j}") for j, r in enumerate(rows)]
    out.append(given(one("0.8", "0.3"), "query = embedding of sat"))
    out += [given((r,), f"key {j}") for j, r in enumerate(rows)]
    for j, (r, s) in enumerate(zip(rows, sums, strict=True)):
        out += [
            given(one("0.8", r[0], "0.3", r[1]), f"factors of score {j}"),
            Printed(one(s), _en_score(j), f"score {j}"),
        ]
    return tuple(out)


def _en_sat_weights(x: Arrays) -> np.ndarray:
    return softmax(_en_query_scores(x))


EN_SAT = Doc(
    file="dev/en-md-lesson-sat-query-softmax-slips.md",
    url=(
        "https://github.com/gourav-d/llm-from-scratch/blob/main/modules/04_transformers/"
        "01_attention_mechanism.md"
    ),
    kind="markdown-lesson",
    language="en",
    inputs={
        "E": a([[1.0, 0.1], [0.2, 0.9], [0.8, 0.3]]),
        "q": a([1.0, 2.0]),
        "K": a([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
        "V": a([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]),
    },
    printed=(
        given(one("20"), "age in a value string"),
        given(one("22"), "age in a value string"),
        given(one("21"), "age in a value string"),
        given(one("0.8"), "similarity to john"),
        given(one("0.2"), "similarity to mary"),
        given(one("0.9"), "similarity to bob"),
        Printed(one("0.35", "0.05", "0.60"), lambda x: softmax(_EN_STUDENTS), "softmax(scores)"),
        Printed(
            one("0.35", "0.05", "0.60"),
            lambda x: softmax(_EN_STUDENTS),
            "the same weights in the mix",
            follows=True,
        ),
        given(one("2.0", "1.0", "3.0"), "example scores"),
        Printed(one("0.24", "0.09", "0.67"), lambda x: softmax(_EN_TWO), "softmax example"),
        *_en_sat_parts(),
        given(one("0.83", "0.43", "0.73"), "scores again, inside softmax(...)"),
        Printed(one("0.41", "0.18", "0.41"), _en_sat_weights, "weights for sat"),
        Printed(one("41"), lambda x: 100 * _en_sat_weights(x)[0:1], "% to The", follows=True),
        Printed(one("18"), lambda x: 100 * _en_sat_weights(x)[1:2], "% to cat", follows=True),
        Printed(one("41"), lambda x: 100 * _en_sat_weights(x)[2:3], "% to sat", follows=True),
        Printed(one("0.41"), lambda x: _en_sat_weights(x)[0:1], "weight of The", follows=True),
        given(one("1.0", "0.1"), "value of The"),
        Printed(one("0.18"), lambda x: _en_sat_weights(x)[1:2], "weight of cat", follows=True),
        given(one("0.2", "0.9"), "value of cat"),
        Printed(one("0.41"), lambda x: _en_sat_weights(x)[2:3], "weight of sat", follows=True),
        given(one("0.8", "0.3"), "value of sat"),
        Printed(one("0.784", "0.286"), lambda x: _en_sat_weights(x) @ x["E"], "output for sat"),
        given(block("0.6 0.2 0.2\n0.3 0.5 0.2\n0.4 0.2 0.4"), "illustrative weight matrix"),
        given(one("1", "2"), "Q"),
        given(block("[[1, 0], [0, 1], [1, 1]]"), "K"),
        given(block("[[2, 3], [4, 5], [6, 7]]"), "V"),
        given(one("1", "2"), "Q in the solution"),
        given(block("[[1, 0], [0, 1], [1, 1]]"), "K in the solution"),
        given(one("1", "1", "2", "0", "1", "0", "2", "1", "1", "1", "2", "1"), "products"),
        Printed(one("1", "2", "3"), lambda x: x["q"] @ x["K"].T, "scores"),
        given(one("1", "2", "3"), "scores inside softmax(...)"),
        given(one("1", "1", "2", "3", "2", "1", "2", "3", "3", "1", "2", "3"), "the exponents"),
        Printed(one("0.09", "0.24", "0.67"), _en_problem_weights, "softmax([1, 2, 3])"),
        Printed(one("0.09"), lambda x: _en_problem_weights(x)[0:1], "weight 1"),
        given(one("2", "3"), "value 1"),
        Printed(one("0.24"), lambda x: _en_problem_weights(x)[1:2], "weight 2"),
        given(one("4", "5"), "value 2"),
        Printed(one("0.67"), lambda x: _en_problem_weights(x)[2:3], "weight 3"),
        given(one("6", "7"), "value 3"),
        Printed(one("5.2", "6.2"), lambda x: _en_problem_weights(x) @ x["V"], "output"),
    ),
    notes=(
        "A Markdown lesson (code blocks with hand arithmetic). A lookup analogy gives "
        "similarities [0.8, 0.2, 0.9] and says softmax = [0.35, 0.05, 0.60]; the softmax is "
        "[0.377, 0.207, 0.416]: all three wrong (repeated in the mix line, which follows). "
        "softmax([2, 1, 3]) = [0.24, 0.09, 0.67] is right. 'The cat sat' (2-d embeddings, "
        "query = sat, V = K, no scaling): scores 0.83, 0.43, 0.73 right; softmax printed "
        "[0.41, 0.18, 0.41], truly [0.388, 0.260, 0.351]: all three wrong (the 41 %, 18 % and "
        "the weights in the output line follow). The output [0.784, 0.286] is a mistake and does "
        "not even follow from the printed weights (they give [0.774, 0.326]; the true output "
        "is [0.722, 0.379]). An illustrative 3 x 3 weight matrix is given, not computed. "
        "Problem 1 (q = [1, 2], scaling left out): scores [1, 2, 3], weights [0.09, 0.24, "
        "0.67] and output [5.2, 6.2] (5.150, 6.150) are right."
    ),
)


# --- Vietnamese notebook, another student's run of the same exercise: softmax over the rows -----

_VI2_WEIGHTS = block(
    """
    [[0.37375874 0.11373439 0.33710375 0.17540311]
     [0.30050337 0.18229358 0.29603114 0.22117191]
     [0.34464159 0.13464245 0.32827962 0.19243634]
     [0.31362022 0.1663662  0.30402174 0.21599184]]
    """
)
_VI2_OUT = block(
    """
    [[1.1796727  0.9217873  1.45815851 1.33770808]
     [1.09435999 0.83851284 1.39301108 1.243537  ]
     [1.1515616  0.89314997 1.43845963 1.30643711]
     [1.11065168 0.85384713 1.40560424 1.26208253]]
    """
)

VI_ROWS = Doc(
    file="dev/vi-notebook-numpy-row-softmax-four-words-seed42.ipynb",
    url=(
        "https://github.com/Kein95/AIO-Exercise/blob/master/"
        "AIO-B%E1%BB%95%20tr%E1%BB%A3/day%2022/day%2022.ipynb"
    ),
    kind="notebook-numpy",
    language="vi",
    inputs={"Q": _matrix(_VI_Q), "K": _matrix(_VI_K), "V": _matrix(_VI_V)},
    printed=(
        given(_VI_X, "input embeddings (random, seed 42)"),
        given(_VI_Q, "Q"),
        given(_VI_K, "K"),
        given(_VI_V, "V"),
        Printed(_VI_SCORES, settled(_vi_scores, _VI_HALVES, _VI_SCORES), "scores / sqrt(4)"),
        Printed(
            _VI2_WEIGHTS,
            settled(lambda x: softmax(_vi_scores(x)), _VI_HALVES, _VI2_WEIGHTS),
            "attention weights (row softmax)",
        ),
        Printed(
            _VI2_OUT,
            settled(lambda x: softmax(_vi_scores(x)) @ x["V"], _VI_HALVES, _VI2_OUT),
            "output",
        ),
    ),
    notes=(
        "The same seed-42 exercise as the notebook above, by another student: identical Q, K, "
        "V and scaled scores (8 decimals), but a stable softmax over axis=-1, so the weights "
        "are the row softmax and the output follows. All right; a correct twin of the "
        "column-softmax slip."
    ),
)

DEV_SEEN_JUDGE7C: list[Doc] = [VI_COLUMNS, EN_SAT, VI_ROWS]
