"""The relation search on whole small documents: the scores of printed Q and K scaled without
being printed, a forgotten transpose (Q K) located as a relation, A Vᵀ read as a head's output,
and a page of many square arrays searched to the end within the bound. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer import inferred, where_of
from mha_symbolic.extract.infer.mapping import capped, said_lines


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


def hostile_notebook(arrays: int, size: int = 3, seed: int = 0) -> str:
    """A notebook printing ``arrays`` random (size x size) arrays, one per output, with the
    words of attention around them (a hostile page: every pair is worth a try)."""
    import json

    rng = np.random.default_rng(seed)
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Attention, softmax\n"]}]
    for n in range(arrays):
        block = np.array2string(rng.normal(size=(size, size)), precision=4, separator=", ")
        cells.append(
            {
                "cell_type": "code",
                "execution_count": n + 1,
                "metadata": {},
                "source": [f"scores_{n} = attention_scores(Q, K)\n", f"scores_{n}"],
                "outputs": [
                    {
                        "output_type": "execute_result",
                        "execution_count": n + 1,
                        "metadata": {},
                        "data": {"text/plain": [f"array({block})"]},
                    }
                ],
            }
        )
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook, indent=1)


def test_a_page_of_hundreds_of_arrays_says_the_search_stopped_at_its_bound() -> None:
    document = read_document(hostile_notebook(260), kind="ipynb")
    _, items = find_items(document)
    inference = inferred(items, {})
    assert inference.search.capped
    assert [p.index for p in inference.search.arrays][-1] == 199
    assert str(capped(inference)) == (
        "the relation search stopped at its bound (200 arrays, 60000 relations): "
        "later arrays are not explained"
    )
