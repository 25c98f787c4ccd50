"""The eleventh held-out batch, continued (moved to dev in session 33): a lab course's chapter
document. (The batch's course notes with an approximate softmax row moved to dev earlier:
tests/corpus/dev_seen_judge11.py; its HTML book chapter stays held out:
tests/corpus/heldout_judge11.py.) Truth computed with numpy; see
tests/corpus/dev_seen_judge11a.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, given, one
from tests.corpus.helpers import softmax
from tests.corpus.model import Doc, Printed

# --- English Markdown chapter document of a lab course: identity scores, one softmax ------------

EN_CHAPTER_DOC = Doc(
    file="dev/en-md-course-chapter-doc-identity-scores-softmax-example.md",
    url=(
        "https://github.com/ftvision/transformer/blob/2a6bef4d24e033d0bc0c7e7882e67661724bd39d/"
        "chapters/ch01_attention/docs/02_scaled_dot_product.md"
    ),
    kind="course-notes",
    language="en",
    inputs={"q": np.eye(2), "k": np.eye(2), "s": a([2.0, 1.0, 0.1])},
    printed=(
        given((("1", "0"), ("0", "1")), "Q"),
        given((("1", "0"), ("0", "1")), "K"),
        Printed((("1", "0"), ("0", "1")), lambda x: x["q"] @ x["k"].T, "QK^T"),
        given(one("2.0", "1.0", "0.1"), "scores"),
        Printed(one("0.659", "0.242", "0.099"), lambda x: softmax(x["s"]), "softmax(scores)"),
    ),
    notes=(
        "An English Markdown chapter document of a self-study lab course (code blocks only): "
        "Q = K = I (2 x 2) and their QK^T, then softmax([2.0, 1.0, 0.1]) = [0.659, 0.242, 0.099] "
        "(0.09856 rounds to 0.099). A short document with few numbers and no mistake."
    ),
)

JUDGE_DOCS_11C: list[Doc] = [EN_CHAPTER_DOC]
