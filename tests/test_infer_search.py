"""The relation search on whole small documents: the scores of printed Q and K scaled without
being printed, a forgotten transpose (Q K) located as a relation, A Vᵀ read as a head's output,
and a page of many square arrays searched to the end within the bound. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer import inferred, where_of
from mha_symbolic.extract.infer.mapping import said_lines


def text(a: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.4f}" for x in row) + "]" for row in a) + "]"


def softmax(s: np.ndarray, axis: int = 1) -> np.ndarray:
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


Q = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
K = np.array([[0.0, 1.0, 1.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
V = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [2.0, 0.0, 1.0]])
WRONG_SCALED = Q @ K / np.sqrt(3)  # the transpose forgotten
BY_COLUMNS = softmax(WRONG_SCALED, axis=0)
MISTAKES = f"""# Three mistakes

Q = {text(Q)}

K = {text(K)}

V = {text(V)}

scaled = {text(WRONG_SCALED)}

weights = {text(BY_COLUMNS)}

output = {text(BY_COLUMNS @ V.T)}
"""


def _said(document_text: str) -> tuple[list[str], dict[int, str | None]]:
    document = read_document(document_text)
    _, items = find_items(document)
    inference = inferred(items, {})
    (members,) = inference.components
    said = said_lines(inference, members, {}, where_of(document, items))
    return [str(line) for line in said], {i: inference.roles.get(i) for i in members}


def test_the_mistakes_are_relations_of_one_example() -> None:
    """Q K / √3 (no transpose), a softmax down the columns and A Vᵀ: each found, so that the
    whole page is one example starting at Q, K and V (V named by the product A Vᵀ)."""
    said, roles = _said(MISTAKES)
    assert said[3:] == [
        "line 9 (3x3) = (line 3 × line 5) / √3: holds to 4 digits",
        "line 11 (3x3) = softmax(line 9, by columns): holds to 4 digits",
        "line 13 (3x3) = line 11 × line 7ᵀ: holds to 4 digits",
    ]
    assert list(roles.values()) == ["q", "k", "v", "scaled", "weights", "head.output"]


SCORES = Q @ K.T
PRINTED_QK = f"""# Scores never printed

Q = {text(Q)}

K = {text(K)}

V = {text(V)}

A = {text(softmax(SCORES / np.sqrt(3)))}
"""


def test_weights_of_printed_q_and_k_whose_scores_are_not_printed() -> None:
    said, roles = _said(PRINTED_QK)
    assert said[-1] == "line 9 (3x3) = softmax((line 3 × line 5ᵀ) / √3, by rows): holds to 4 digits"
    assert roles == {0: "q", 1: "k", 3: "weights"}
