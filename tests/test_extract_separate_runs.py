"""Examples a page runs apart are judged apart: the same steps run again on new Q, K and V (a
notebook's numpy run, then its torch run with new random weights), a numbered problem after a
lesson ("Problem 1"), and an array code names itself (``causal_mask = np.triu(...)``) is never
named by the print above it. Truths with numpy."""

from __future__ import annotations

import json

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import read


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _matrix(a: np.ndarray, digits: int = 4) -> str:
    rows = [" ".join(f"{x:.{digits}f}" for x in row) for row in a]
    return "[[" + "]\n [".join(rows) + "]]\n"


def _code(source: str, printed: str) -> dict[str, object]:
    output = {"output_type": "stream", "name": "stdout", "text": printed}
    return {"cell_type": "code", "source": source, "outputs": [output]}


def _run(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> list[dict[str, object]]:
    a = softmax(q @ k.T / np.sqrt(q.shape[1]))
    prints = "".join(f"{n}:\n{_matrix(m)}" for n, m in (("Query", q), ("Key", k), ("Value", v)))
    return [
        _code(
            'print("Query:")\nprint(Q)\nprint("Key:")\nprint(K)\nprint("Value:")\nprint(V)', prints
        ),
        _code("A = softmax(Q @ K.T / np.sqrt(d))\nout = A @ V\nprint(out)", _matrix(a @ v)),
    ]


def _page(cells: list[dict[str, object]]) -> str:
    head = {"cell_type": "markdown", "source": "# Attention twice\nScaled dot-product attention.\n"}
    return json.dumps({"cells": [head, *cells], "metadata": {}, "nbformat": 4}, indent=1)


def _verdicts(page: str, kind: str) -> list[tuple[str, str]]:
    found = extract_all(page, kind, reprints=True)
    return [(c.key, c.verdict) for one in found for c in check(one.spec).claims]


RNG = np.random.default_rng(7)
_MASKED = (
    "scores = np.random.randn(3, 3)\nprint(scores)\n\n"
    "causal_mask = np.triu(np.ones((3, 3)), k=1).astype(bool)\n"
    "masked = scores.copy()\nmasked[causal_mask] = -np.inf\nprint(masked)\n"
    "print(softmax(masked))"
)
FIRST = [np.round(RNG.uniform(0, 1.5, (3, 4)), 4) for _ in range(3)]
SECOND = [np.round(RNG.uniform(0, 1.5, (3, 4)), 4) for _ in range(3)]


X = np.array([[0.2, 0.8, 0.5, 0.1], [0.9, 0.4, 0.7, 0.3], [0.5, 0.1, 0.2, 0.9]])


def test_the_same_steps_on_new_q_k_v_are_another_example() -> None:
    inputs = _code("X = np.array(embeddings)\nprint(X)", _matrix(X, 1))
    again = _code("X_torch = torch.tensor(X)\nprint(X_torch)", _matrix(X, 4))
    verdicts = _verdicts(_page([inputs, *_run(*FIRST), again, *_run(*SECOND)]), "ipynb")
    assert [key for key, _ in verdicts] == ["output", "output"]
    assert all(v in ("rounded", "within") for _, v in verdicts), verdicts


LESSON = """# Lesson: attention by hand

Tokens: The = [1.0, 0.0], cat = [0.0, 1.0], sat = [1.0, 1.0].

```python
X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
scores = X @ X.T = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
```

### Problem 1: by hand

```python
Q = [1, 2]
K = [[1, 0], [0, 1], [1, 1]]
V = [[2, 3], [4, 5], [6, 7]]
```

```python
scores = Q @ K.T = [1, 2, 3]
weights = softmax([1, 2, 3]) ≈ [0.09, 0.24, 0.67]
output = weights @ V ≈ [5.2, 6.2]
```
"""


def test_a_numbered_problem_after_a_lesson_is_its_own_example() -> None:
    verdicts = dict(_verdicts(LESSON, "md"))
    problem = {k: v for k, v in verdicts.items() if k.endswith("[1]") or k == "output"}
    assert "wrong" not in verdicts.values(), verdicts
    assert any(k.startswith("head1.weights") for k in problem), verdicts


def test_a_mask_built_in_code_is_not_named_by_the_print_above() -> None:
    document = read_document(_page([_code(_MASKED, "")]), "ipynb")
    mask = next(s for s in read(document).seen if s.item.statement.startswith("causal_mask"))
    assert mask.role != "scores"


def test_a_mask_built_in_code_leaves_its_example_right() -> None:
    s = np.round(RNG.normal(0, 1, (3, 3)), 4)
    masked = np.where(np.tril(np.ones((3, 3))) > 0, s, -np.inf)
    weights = softmax(masked)
    printed = _matrix(s) + _matrix(masked).replace("-inf", "-inf") + _matrix(weights, 8)
    verdicts = _verdicts(_page([_code(_MASKED, printed)]), "ipynb")
    assert verdicts, "nothing checked"
    assert all(v != "wrong" for _, v in verdicts), verdicts


def test_random_scores_under_a_mask_after_a_worked_example_are_their_own() -> None:
    """A worked example from printed Q, K and V, then random scores under a causal mask: the
    masked weights are judged against the printed scores, never against Q, K and V."""
    worked = _run(*FIRST)
    s = np.round(RNG.normal(0, 1, (3, 3)), 4)
    masked = np.where(np.tril(np.ones((3, 3))) > 0, s, -np.inf)
    printed = _matrix(s) + _matrix(masked) + _matrix(softmax(masked), 8)
    verdicts = _verdicts(_page([*worked, _code(_MASKED, printed)]), "ipynb")
    assert ("output", "rounded") in verdicts or ("output", "within") in verdicts, verdicts
    assert {"head1.masked", "head1.weights"} <= {key for key, _ in verdicts}, verdicts
    assert all(v != "wrong" for _, v in verdicts), verdicts


def test_the_heads_of_one_layer_printed_in_turn_stay_one_example() -> None:
    """Head 2's output printed after head 1's is no example of its own (it starts from no
    logits): the page stays one example of two heads."""
    from tests.test_extract_bengali import HEADS

    verdicts = _verdicts(HEADS, "md")
    assert len(verdicts) == 4 and all(v != "wrong" for _, v in verdicts), verdicts
