"""The fresh held-out documents' truth, continued (see tests/corpus/heldout_judge.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, column, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- HTML lesson: softmax of four raw scores, three of the weights printed as percentages --------

PERCENT = Doc(
    file="heldout/html-lesson-softmax-percent-blend.html",
    url="https://seehowaiworks.com/lesson/attention-blends-meaning",
    kind="html-lesson",
    language="en",
    inputs={"s": a([0.4, 2.7, 1.3, 1.5])},
    printed=(
        given(column("0.4", "2.7", "1.3", "1.5"), "raw scores: the, cat, drinks, milk"),
        Printed(
            column("61", "15", "18"),
            lambda x: 100 * softmax(x["s"])[1:, None],
            "one blend: cat %, drinks %, milk % (the row 'the' is not shown)",
        ),
    ),
    notes=(
        "Unscaled softmax of four given scores, shown as whole percentages for three of the "
        "four tokens ('the', about 6%, is left out of the list, so the shown weights sum to "
        "94%). cat 60.7% → 61, drinks 15.0% → 15, milk 18.3% → 18: all right."
    ),
)

# --- tutorial rendered by Sphinx (HTML, MathJax): random Q, K, V printed, values, attention ---

_UVA_Q = block("[[ 0.3367,  0.1288],\n[ 0.2345,  0.2303],\n[-1.1229, -0.1863]]")
_UVA_K = block("[[ 2.2082, -0.6380],\n[ 0.4617,  0.2674],\n[ 0.5349,  0.8094]]")
_UVA_V = block("[[ 1.1103, -1.6898],\n[-0.9890,  0.9580],\n[ 1.3221,  0.8172]]")
_UVA_VALUES = block("[[ 0.5698, -0.1520],\n[ 0.5379, -0.0265],\n[ 0.2246,  0.5556]]")
_UVA_ATTENTION = block(
    "[[0.4028, 0.2886, 0.3086],\n[0.3538, 0.3069, 0.3393],\n[0.1303, 0.4630, 0.4067]]"
)
_UVA_HALVES = {"q": 5e-5, "k": 5e-5, "v": 5e-5}


def _uva_attention(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["k"].T / np.sqrt(2))


UVA = Doc(
    file="heldout/html-sphinx-tutorial-scaled-dot-product-uva.html",
    url=(
        "https://uvadlc-notebooks.readthedocs.io/en/latest/tutorial_notebooks/tutorial6/"
        "Transformers_and_MHAttention.html"
    ),
    kind="html-mathjax",
    language="en",
    inputs={
        "q": a([[float(e) for e in r] for r in _UVA_Q]),
        "k": a([[float(e) for e in r] for r in _UVA_K]),
        "v": a([[float(e) for e in r] for r in _UVA_V]),
    },
    printed=(
        given(_UVA_Q, "Q"),
        given(_UVA_K, "K"),
        given(_UVA_V, "V"),
        Printed(
            _UVA_VALUES,
            settled(lambda x: _uva_attention(x) @ x["v"], _UVA_HALVES, _UVA_VALUES),
            "Values",
        ),
        Printed(_UVA_ATTENTION, settled(_uva_attention, _UVA_HALVES, _UVA_ATTENTION), "Attention"),
    ),
    notes=(
        "Seeded random Q, K, V (3 x 2) printed by torch to 4 decimals, then the outputs "
        "('Values', printed before the weights) and the attention weights of "
        "softmax(QK^T/√2). The page's formulas are MathJax ($...$ inline, \\[...\\] display, "
        "an escaped &amp; inside a split environment). All right."
    ),
)

# --- Russian interview Q&A: why scale the dot product, one worked number --------------------------

RU_QA = Doc(
    file="heldout/ru-qa-interview-why-scale-attention.md",
    url="https://github.com/ivangolt/ml_ds_interview_question/blob/main/nlp.ipynb",
    kind="qa",
    language="ru",
    inputs={"s": a([[64.0]]), "d": a([[64.0]])},
    printed=(
        given(one("64"), "d_k"),
        given(one("64"), "dot product of order 64"),
        other(one("64"), "exponent in e^64"),
        other(one("8"), "sqrt(64)"),
        Printed(one("8"), lambda x: x["s"] / np.sqrt(x["d"]), "scaled dot product"),
        other(one("8"), "exponent in e^8"),
        other(one("2980"), "e^8 'of the order of 2980'"),
    ),
    notes=(
        "Interview questions with prose answers (the formulas are images in the source, marked "
        "[формула]). The only worked numbers: d_k = 64, a dot product of order 64, divided by "
        "sqrt(64) = 8 it becomes 8 (right), and e^8 'of the order of 2980' (e^8 = 2981, an "
        "order of magnitude, not an attention number). Complexity O(n^2 * d) is not a number "
        "array."
    ),
)

JUDGE_DOCS_3: list[Doc] = [PERCENT, UVA, RU_QA]
