"""The ninth held-out batch, continued: an English numpy notebook (one query against four keys)
and a Spanish course notebook (Bahdanau's additive attention with seeded weights). Truth computed
with numpy; see tests/corpus/heldout_judge9.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, values
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
    file="heldout/en-notebook-numpy-one-query-four-keys-contributions.ipynb",
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
    file="heldout/es-notebook-numpy-additive-attention-seeded-weights.ipynb",
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
    file="heldout/ja-md-scaled-dot-product-students-height-weight-age.md",
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
    file="heldout/html-lesson-attention-lab-rounded-expected-output.html",
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

JUDGE_DOCS_9B: list[Doc] = [EN_FOUR_KEYS, ES_ADDITIVE, JA_STUDENTS, EN_LAB]
