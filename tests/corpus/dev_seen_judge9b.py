"""Development documents (the ninth held-out batch, moved to dev in session 32), continued: an
English numpy notebook (one query against four keys), a Spanish course notebook (Bahdanau's
additive attention with seeded weights), Japanese Markdown notes (students' measurements as
keys, the attention matrix in percent), an English HTML course page (a numpy lab) and an English
torch notebook (a running average three ways, one printed from another X). Truth computed with
numpy; see tests/corpus/dev_seen_judge9.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, other, settled, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English numpy notebook: one query, four keys, weights as a bar chart, contributions ---------

_KEYS4 = "[[1.  0.  0. ]\n [0.  1.  0. ]\n [0.9 0.1 0. ]\n [0.  0.  1. ]]"
_VALUES4 = "[[10.  0.  0.]\n [ 0. 20.  0.]\n [ 8.  2.  0.]\n [ 0.  0. 30.]]"
_ITEM_ROWS = (("1.", "0.", "0."), ("0.", "1.", "0."), ("0.9", "0.1", "0."), ("0.", "0.", "1."))
_WEIGHTS4 = ("0.3220", "0.1915", "0.3057", "0.1808")
_CONTRIB4 = (
    ("3.22", "0.", "0."),
    ("0.", "3.83", "0."),
    ("2.446", "0.611", "0."),
    ("0.", "0.", "5.423"),
)
_VALUE_ROWS = (("10.", "0.", "0."), ("0.", "20.", "0."), ("8.", "2.", "0."), ("0.", "0.", "30."))


def _four_raw(x: Arrays) -> np.ndarray:
    return x["keys"] @ x["query"]


def _four_weights(x: Arrays) -> np.ndarray:
    return softmax(_four_raw(x) / np.sqrt(3))


def _item_dot(i: int) -> Truth:
    return lambda x: _four_raw(x)[i : i + 1]


def _item_weight(i: int) -> Truth:
    return lambda x: _four_weights(x)[i : i + 1]


def _item_contribution(i: int) -> Truth:
    return lambda x: _four_weights(x)[i] * x["values"][i]


def _four_items() -> tuple[Printed, ...]:
    out: list[Printed] = []
    for i, row in enumerate(_ITEM_ROWS):
        dot = ("1.000", "0.100", "0.910", "0.000")[i]
        out += [
            given(one(*row), f"key {i}"),
            given(one("1.", "0.1", "0."), "query"),
            Printed(one(dot), _item_dot(i), f"item {i}: query . key"),
        ]
    return tuple(out)


def _four_contributions() -> tuple[Printed, ...]:
    out: list[Printed] = []
    for i in range(4):
        out += [
            Printed(one(_WEIGHTS4[i]), _item_weight(i), f"weight {i}"),
            given(one(*_VALUE_ROWS[i]), f"value {i}"),
            Printed(one(*_CONTRIB4[i]), _item_contribution(i), f"contribution {i}"),
        ]
    return tuple(out)


EN_FOUR_KEYS = Doc(
    file="dev/en-notebook-numpy-one-query-four-keys-contributions.ipynb",
    url="https://github.com/stetho/what-i-learned-about-ai/blob/main/attention_mechanism.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={
        "keys": values(block(_KEYS4)),
        "values": values(block(_VALUES4)),
        "query": a([1.0, 0.1, 0.0]),
    },
    printed=(
        given(block(_KEYS4), "keys"),
        given(block(_VALUES4), "values"),
        given(one("1.", "0.1", "0."), "query"),
        *_four_items(),
        Printed(one("1.", "0.1", "0.91", "0."), _four_raw, "raw scores"),
        given(one("3"), "d_k"),
        Printed(one("1.732"), lambda x: np.sqrt([3.0]), "sqrt(d_k)"),
        Printed(
            one("0.577", "0.058", "0.525", "0."), lambda x: _four_raw(x) / np.sqrt(3), "scaled"
        ),
        Printed(one("1.732"), lambda x: np.sqrt([3.0]), "divided by"),
        Printed(tuple((w,) for w in _WEIGHTS4), lambda x: _four_weights(x)[:, None], "weights"),
        Printed(one("1.000000"), lambda x: _four_weights(x).sum(keepdims=True), "sum of weights"),
        *_four_contributions(),
        Printed(
            one("5.666", "4.442", "5.423"),
            lambda x: _four_weights(x) @ x["values"],
            "final attention output",
        ),
        Printed(
            one("5.666", "4.442", "5.423"),
            lambda x: _four_weights(x) @ x["values"],
            "output from the function",
        ),
    ),
    notes=(
        "An English numpy notebook (printoptions precision 3): one query against four 3-d keys "
        "set by hand, each dot product printed on a line with its key and the query, the raw "
        "and scaled scores, sqrt(3), the weights as a column with text bars, their sum, each "
        "value with its weight and contribution, and the output twice (by hand and by a "
        "function). The later parts of the notebook print only shapes and figures and are left "
        "out of the transcription. All right."
    ),
)


# --- Spanish course notebook: Bahdanau's additive attention, weights drawn from seed 42 ----------


def _seeded() -> dict[str, np.ndarray]:
    """The notebook's draws after np.random.seed(42): encoder states (5, 16), the decoder state
    (1, 16), then the two layers of the alignment network (32, 10) and (10, 1)."""
    rng = np.random.RandomState(42)
    return {
        "enc": rng.randn(5, 16),
        "dec": rng.randn(1, 16),
        "layer_1": rng.randn(32, 10),
        "layer_2": rng.randn(10, 1),
    }


def _alignment(x: Arrays) -> np.ndarray:
    inputs = np.concatenate((x["enc"], x["dec"].repeat(5, axis=0)), axis=1)
    return np.tanh(inputs @ x["layer_1"]) @ x["layer_2"]


def _context(x: Arrays) -> np.ndarray:
    """The encoder states weighted by the softmax of the scores (over the five states), summed."""
    return (x["enc"] * softmax(_alignment(x), axis=0)).sum(axis=0)


_SCORES = "[[4.35790943]\n [5.92373433]\n [4.18673175]\n [2.11437202]\n [0.95767155]]"
_CONTEXT = (
    "-0.63514569  0.04917298 -0.43930867 -0.9268003   1.01903919 -0.43181409 "
    "0.13365099 -0.84746874 -0.37572203  0.18279832 -0.90452701  0.17872958 "
    "-0.58015282 -0.58294027 -0.75457577  1.32985756"
)

ES_ADDITIVE = Doc(
    file="dev/es-notebook-numpy-additive-attention-seeded-weights.ipynb",
    url="https://github.com/OscarGalavizC/TAIA-2024/blob/main/atencion.ipynb",
    kind="notebook-numpy",
    language="es",
    inputs=_seeded(),
    printed=(
        Printed(block(_SCORES), _alignment, "scores (alignment)"),
        Printed(block(_SCORES), _alignment, "scores expected (Markdown)"),
        Printed(one(*_CONTEXT.split()), _context, "context_vector"),
        Printed(one(*_CONTEXT.split()), _context, "context vector expected (Markdown)"),
    ),
    notes=(
        "A Spanish course notebook (NLP course, adapted from a Deeplearning.ai lab): Bahdanau's "
        "additive attention in numpy, e = v^T tanh(W [h_j; s]) with encoder states, decoder "
        "state and both layers drawn after np.random.seed(42) and never printed (the truth "
        "draws them again), the five alignment scores as a column and the 16-d context vector "
        "(rows wrapped), each printed by a cell and again in Markdown as the expected result. "
        "The second part (QKV attention over downloaded fasttext embeddings) is left out. All "
        "right."
    ),
)

# --- Japanese Markdown notes: students' height, weight and age as keys, test scores as values -----

_STUDENT_KEYS = ((131.5, 29.6, 8.9), (151.2, 42.3, 12.8), (154.3, 47.5, 14.2))
_STUDENT_VALUES = (("12", "31"), ("45", "51"), ("52", "78"))
_QUERIES = (("1", "0", "0"), ("0", "-1", "0"), ("0.1", "0", "1"), ("0.05", "0", "0.5"))
_KEY_ROWS = tuple(tuple(str(e) for e in k) for k in _STUDENT_KEYS)


def _students_scores(x: Arrays) -> np.ndarray:
    return x["Q"] @ x["K"].T


def _key_header() -> tuple[Printed, ...]:
    return tuple(given(one(*row), f"K{j} (table header)") for j, row in enumerate(_KEY_ROWS))


def _student_rows(table: tuple[tuple[str, ...], ...], truth: Truth, label: str) -> Printed:
    return Printed(table, truth, label)


JA_STUDENTS = Doc(
    file="dev/ja-md-scaled-dot-product-students-height-weight-age.md",
    url="https://github.com/lvncers-knowledge-base/llm/blob/main/self-attention.md",
    kind="course-notes-md",
    language="ja",
    inputs={
        "K": a(list(map(list, _STUDENT_KEYS))),
        "Q": a([[float(e) for e in q] for q in _QUERIES]),
    },
    printed=(
        *(given(one(*row), f"K{j}") for j, row in enumerate(_KEY_ROWS)),
        *(given(one(*row), f"V{j}") for j, row in enumerate(_STUDENT_VALUES)),
        given(one("1", "0", "0"), "Q0"),
        given(one("0", "-1", "0"), "Q1"),
        given(one("1", "0", "1"), "Q2' (set aside)"),
        given(one("0.1", "0", "1"), "Q2"),
        given(one("0.05", "0", "0.5"), "Q3 = 0.5 * Q2"),
        *_key_header(),
        _student_rows(
            (
                ("131.5", "151.2", "154.3"),
                ("-29.6", "-42.3", "-47.5"),
                ("22.05", "27.92", "29.63"),
                ("11.025", "13.96", "14.815"),
            ),
            _students_scores,
            "QK^T (rows Q0..Q3)",
        ),
        *_key_header(),
        _student_rows(
            (("0", "4.3", "95.7"), ("100", "0", "0"), ("0", "15", "85"), ("1.5", "29.5", "69")),
            lambda x: 100 * softmax(_students_scores(x)),
            "Attention Matrix in % (softmax of QK^T, unscaled)",
        ),
    ),
    notes=(
        "Japanese Markdown notes (a knowledge-base copy of a Zenn article): keys are three "
        "students' height, weight and age, values their maths and English scores (never "
        "combined into an output), four queries, the table of QK^T and the attention matrix in "
        "whole or one-decimal percentages. The weights are the softmax of QK^T without a 1/sqrt(3) "
        "scale (what every printed entry matches), taken as the truth. Two mistakes as "
        "published, in the row of Q3 = 0.5 Q2: 1.5% for 1.56% and 29.5% for 29.37% (the third, "
        "69%, is right). Minus signs are U+2212 in the page."
    ),
)

# --- English HTML lesson: Q = K = V = X, three tokens of width 2, rounded expected output --------

_LAB_X = "[[1.0, 0.0],\n[0.0, 1.0],\n[1.0, 1.0]]"


def _lab_weights(x: Arrays) -> np.ndarray:
    return softmax(x["X"] @ x["X"].T / np.sqrt(2))


EN_LAB = Doc(
    file="dev/html-lesson-attention-lab-rounded-expected-output.html",
    url="https://airoads.org/ch06-deep-learning/ch05-transformer/01-attention-mechanism/",
    kind="html-lesson",
    language="en",
    inputs={"X": values(block(_LAB_X))},
    printed=(
        given(block(_LAB_X), "X (code)"),
        Printed(
            block("[[1. 0. 1.]\n [0. 1. 1.]\n [1. 1. 2.]]"), lambda x: x["X"] @ x["X"].T, "scores"
        ),
        Printed(
            block("[[0.401 0.198 0.401]\n [0.198 0.401 0.401]\n [0.248 0.248 0.503]]"),
            _lab_weights,
            "weights",
        ),
        Printed(
            block("[[0.802 0.599]\n [0.599 0.802]\n [0.752 0.752]]"),
            lambda x: _lab_weights(x) @ x["X"],
            "output",
        ),
    ),
    notes=(
        "An English course page (HTML): a numpy lab with Q = K = V = X for three 2-d tokens, "
        "scores, weights scaled by 1/sqrt(2) and the output, printed with np.round(., 3) as the "
        "expected output. Only the opening of the page is transcribed. All right."
    ),
)

# --- English torch notebook: a running average three ways, the softmax one from another X -------

_AVG_X = """
[[-0.9581,  0.9831],
 [-0.6718,  1.3933],
 [-0.5727, -0.0802],
 [-1.1377, -1.2894],
 [ 0.3739, -0.9770],
 [ 0.2736, -0.6151],
 [-0.8077, -0.1310],
 [ 0.5058,  0.3399]]
"""
_AVG = """
[[-0.9581,  0.9831],
 [-0.8150,  1.1882],
 [-0.7342,  0.7654],
 [-0.8351,  0.2517],
 [-0.5933,  0.0060],
 [-0.4488, -0.0976],
 [-0.5001, -0.1023],
 [-0.3743, -0.0471]]
"""
_AVG_SOFTMAX = """
[[-0.4257, -0.0290],
 [ 0.1150,  0.0988],
 [ 0.3981,  0.9026],
 [ 0.0536,  0.7600],
 [ 0.2473,  0.3690],
 [-0.0151, -0.0296],
 [ 0.1977, -0.1307],
 [-0.0139, -0.1230]]
"""
_LEARNED = """
[[1.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
 [0.4511, 0.5489, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
 [0.5757, 0.1867, 0.2376, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000],
 [0.3159, 0.1523, 0.0971, 0.4348, 0.0000, 0.0000, 0.0000, 0.0000],
 [0.0597, 0.2216, 0.3767, 0.0316, 0.3105, 0.0000, 0.0000, 0.0000],
 [0.1093, 0.2030, 0.1315, 0.0695, 0.3798, 0.1067, 0.0000, 0.0000],
 [0.0414, 0.1448, 0.2904, 0.0235, 0.1757, 0.0111, 0.3131, 0.0000],
 [0.1174, 0.0561, 0.0294, 0.1555, 0.0589, 0.3087, 0.0403, 0.2337]]
"""
_HALF_4 = 5e-5


def _tril_mean() -> np.ndarray:
    ones = np.tril(np.ones((8, 8)))
    return ones / ones.sum(axis=1, keepdims=True)


def _running_mean(x: Arrays) -> np.ndarray:
    return _tril_mean() @ x["X0"]


def _mask8(x: Arrays) -> np.ndarray:
    return np.where(np.tril(np.ones((8, 8))) == 1, 0.0, -np.inf)


def _settled4(text: str, compute: Truth, label: str) -> Printed:
    return Printed(block(text), settled(compute, {"X0": _HALF_4}, block(text)), label)


EN_STALE_X = Doc(
    file="dev/en-notebook-torch-running-average-tril-softmax-stale-x.ipynb",
    url="https://github.com/FreedomSlow/nlp_for_dummies/blob/main/attention.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={"X0": values(block(_AVG_X))},
    printed=(
        given(block(_AVG_X), "X[0]"),
        _settled4(_AVG, _running_mean, "X_avg[0] (loops)"),
        other(
            tuple(tuple("1." if j <= i else "0." for j in range(8)) for i in range(8)), "tril ones"
        ),
        Printed(
            tuple(tuple(f"{e:.4f}" for e in row) for row in _tril_mean()),
            lambda x: _tril_mean(),
            "tril / row sums",
        ),
        _settled4(_AVG, _running_mean, "X_avg_matmul[0]"),
        Printed(
            tuple(tuple("0." if j <= i else "-inf" for j in range(8)) for i in range(8)),
            _mask8,
            "w masked (0 and -inf)",
        ),
        Printed(
            tuple(tuple(f"{e:.4f}" for e in row) for row in _tril_mean()),
            lambda x: softmax(_mask8(x)),
            "softmax(w)",
        ),
        _settled4(_AVG_SOFTMAX, _running_mean, "X_avg_softmax[0] = softmax(w) @ X"),
        given(block(_LEARNED), "W[0], from random linear layers never printed"),
    ),
    notes=(
        "An English torch notebook: a running average of a random X (2 x 8 x 2, batch 0 "
        "printed to 4 decimals) by loops, as a product with the row-normalised lower-triangular "
        "matrix and through softmax of a 0/-inf causal mask, then weights from two random "
        "linear layers (printed, nothing they come from). One mistake as published: the softmax "
        "cell (run later, with another X, execution count 27 against 9 and 10) prints "
        "X_avg_softmax[0] = [[-0.4257, -0.0290], [0.1150, 0.0988], ...], which is not the "
        "average of the printed X that its weights give (the same rows as X_avg: 16 entries "
        "wrong)."
    ),
)

DEV_SEEN_JUDGE9B: list[Doc] = [EN_FOUR_KEYS, ES_ADDITIVE, JA_STUDENTS, EN_LAB, EN_STALE_X]
