"""Development documents that were once held out but are the very pages the extract tests were
built on (tests/data/documents/ holds transcriptions of the same URLs): a book section whose
scores are written out one by one, a code-lab page whose expected outputs are wrong, and a blog's
projections with one value vector first written wrong. Judged as unseen they would flatter the
tool, so they count as dev (see tests/test_corpus_heldout.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one
from tests.corpus.helpers import softmax
from tests.corpus.model import Doc, Printed

# --- book section as HTML: Q = K = V = X, scores written out one by one --------------------------

_TINY_X = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]]

TINY = Doc(
    file="dev/book-html-tiny-vectors-walkthrough.html",
    url="https://www.book-ai.org/books/transformer/chapter-02/section-03",
    kind="book-html",
    language="en",
    inputs={"X": a(_TINY_X)},
    printed=(
        given(block("[1.0, 0.0, 1.0, 0.0]\n[0.0, 1.0, 0.0, 1.0]\n[1.0, 1.0, 0.0, 0.0]"), "tokens"),
        given(block("[[1.0, 0.0, 1.0, 0.0]\n[0.0, 1.0, 0.0, 1.0]\n[1.0, 1.0, 0.0, 0.0]]"), "X"),
        Printed(one("2.0", "0.0", "1.0"), lambda x: x["X"][:1] @ x["X"].T, "scores row 0"),
        Printed(one("0.0", "2.0", "1.0"), lambda x: x["X"][1:2] @ x["X"].T, "scores row 1"),
        Printed(one("1.0", "1.0"), lambda x: x["X"][2:] @ x["X"][:2].T, "scores row 2"),
    ),
    notes=(
        "Scores computed element by element as sums of products, one line each; transcribed "
        "up to scores[2][1], where the stored copy of the page ends. All right."
    ),
)

# --- exercise web page whose expected outputs are off in the fourth decimal ----------------------


def _codelab(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    return softmax(q @ np.eye(2) / np.sqrt(2)) @ v


_LAB_V1 = a([[1, 2], [3, 4]])
_LAB_V2 = a([[10, 20], [30, 40]])
_LAB_OUT = block("[[1.66082, 2.66082], [2.33918, 3.33918]]")

CODELAB = Doc(
    file="dev/exercise-html-code-lab-sdpa-expected-output.html",
    url="https://amanailab.com/code-lab/scaled-dot-product-attention",
    kind="exercise",
    language="en",
    inputs={},
    printed=(
        given(block("[[1,0],[0,1]]"), "Q = K"),
        given(block("[[1,2],[3,4]]"), "V"),
        Printed(_LAB_OUT, lambda x: _codelab(np.eye(2), _LAB_V1), "example output"),
        given(block("[[1,0],[0,1]]"), "case 1 Q"),
        given(block("[[1,0],[0,1]]"), "case 1 K"),
        given(block("[[1,2],[3,4]]"), "case 1 V"),
        Printed(_LAB_OUT, lambda x: _codelab(np.eye(2), _LAB_V1), "case 1 expected"),
        given(one("1", "0"), "case 2 Q"),
        given(block("[[1,0],[0,1]]"), "case 2 K"),
        given(block("[[10,20],[30,40]]"), "case 2 V"),
        Printed(
            one("16.60882", "26.60882"),
            lambda x: _codelab(a([[1, 0]]), _LAB_V2),
            "case 2 expected",
        ),
    ),
    notes=(
        "The mistakes: the expected outputs do not follow the page's own formula. "
        "softmax([1, 0]/√2) = [0.66976, 0.33024], so case 1 is "
        "[[1.66048, 2.66048], [2.33952, 3.33952]] (printed 1.66082 ...) and case 2 is "
        "[16.60477, 26.60477] (printed 16.60882 ...): all 10 printed "
        "results are wrong in the fourth decimal."
    ),
)

# --- blog page: projections of three 2-d embeddings, one value vector first written wrong --------

_PSM_X = [[1, 0], [0, 2], [1, 1]]
_PSM_W = {"Wq": [[1, 0], [0, 1]], "Wk": [[1, 1], [0, 1]], "Wv": [[1, 0], [0, 1]]}


def _psm_row(i: int, w: str) -> Truth:
    return lambda x: x["X"][i : i + 1] @ x[w]


def _psm_step(w: str, results: tuple[tuple[str, str], ...]) -> tuple[Printed, ...]:
    rows = [(given(one(*map(str, _PSM_X[i])), f"embedding {i}"), r) for i, r in enumerate(results)]
    out: list[Printed] = []
    for i, (embedding, result) in enumerate(rows):
        out += [embedding, Printed(one(*result), _psm_row(i, w), f"token {i} · {w}")]
    return tuple(out)


PSM = Doc(
    file="dev/blog-html-self-attention-please-study-man.html",
    url=(
        "https://omkarchebale.vercel.app/blogs/"
        "self-attention-from-scratch-a-complete-numerical-walkthrough"
    ),
    kind="blog-html",
    language="en",
    inputs={"X": a(_PSM_X), **{k: a(v) for k, v in _PSM_W.items()}},
    printed=(
        given(one("1", "0"), "please"),
        given(one("0", "2"), "study"),
        given(one("1", "1"), "man"),
        given(block("1 0 1 1 1 0\n0 1 0 1 0 1"), "Wq, Wk, Wv side by side"),
        *_psm_step("Wq", (("1", "0"), ("0", "2"), ("1", "1"))),
        Printed(block("1 0\n0 2\n1 1"), lambda x: x["X"] @ x["Wq"], "Query vectors"),
        *_psm_step("Wk", (("1", "1"), ("0", "2"), ("1", "2"))),
        Printed(block("1 1\n0 2\n1 2"), lambda x: x["X"] @ x["Wk"], "Key vectors"),
        given(one("1", "0"), "embedding 0"),
        Printed(one("1", "0"), _psm_row(0, "Wv"), "token 0 · Wv"),
        given(one("0", "2"), "embedding 1"),
        Printed(one("2", "2"), _psm_row(1, "Wv"), "token 1 · Wv, first written"),
    ),
    notes=(
        "Projections only (the stored copy of the page ends inside step 3, before any score "
        "or softmax). Inputs and weights are integers; every product line prints the input "
        "row and the result. In step 3 the author first writes study · Wv = [0+0, 0+2] = "
        "[2, 2] — a mistake, it is [0, 2] (first entry wrong, second right) — and corrects it on "
        "the same line ('→ actually ... = [0', cut off in the copy). Everything else is right."
    ),
)


DEV_SAME_PAGE: list[Doc] = [TINY, CODELAB, PSM]
