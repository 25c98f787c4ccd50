"""Pages that were refused whole for a reading of one line: each is checked now, and the
reading that refused it is gone. Truths with numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.indexed_vectors import stacked_vectors
from mha_symbolic.extract.reading import read


def _claims(text: str, kind: str = "md") -> dict[str, str]:
    found = extract_all(text, kind, reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


SECTIONS = """# Why scale

```
THE SCORES
==========

  | s11 s12 s13 |   <-- how much token 1 attends to 1, 2, 3
  | s31 s32 s33 |   <-- how much token 3 attends to 1, 2, 3

WHY SCALING?
============

  Without scaling:
    softmax([30, 50, 35]) --> [0.00, 1.00, 0.00]
```
"""


def test_a_token_named_above_a_rule_is_not_the_row_of_a_vector_below_it() -> None:
    """ "token 3" in the section above the underline is not the token of the softmax below:
    read as row 3, the scores wanted a sequence of three tokens the page never gives."""
    seen = read(read_document(SECTIONS, "md")).seen
    assert [s.row for s in seen if s.item.rows[0] == ("30", "50", "35")] == [None]
    weights = np.exp(np.array([30.0, 50.0, 35.0]) - 50.0)
    weights /= weights.sum()
    assert np.allclose(np.round(weights, 2), [0.0, 1.0, 0.0])
    claims = _claims(SECTIONS)
    assert claims.get("head1.weights[1]") in ("exact", "rounded"), claims


REPRINTED = """# Bank: attention of one query

The weights come out as [0.2, 0.7, 0.1] in the figure.

## Step 1

Raw similarity scores for bank: [0.25, 1.0, 0.05]

## Step 2

Softmax weights: [0.254, 0.538, 0.208]

Final weights: [0.2, 0.7, 0.1]
"""


def test_an_input_printed_again_alone_is_no_example() -> None:
    """[0.2, 0.7, 0.1] in the figure and again at the end relate only as a reprint: no example
    of its own (which overlapped the real one, so that the page's parts were not cut apart);
    the softmax of the scores is the page's example."""
    found = extract_all(REPRINTED, "md", reprints=True)
    said = [line for one in found for line in one.inferred]
    assert not [line for line in said if "printed again" in line], said
    assert [line for line in said if "softmax(" in line], said
    scores = np.array([0.25, 1.0, 0.05])
    assert np.allclose(np.exp(scores) / np.exp(scores).sum(), [0.254, 0.538, 0.208], atol=5e-4)
    assert _claims(REPRINTED).get("head1.weights[1]") == "rounded"


def _zero_based(first: int) -> str:
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    scores = x @ x.T / np.sqrt(2)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    rows = "\n".join(f"- $x_{first + i} = [{r[0]:.0f}, {r[1]:.0f}]$" for i, r in enumerate(x))
    table = "\n".join("[" + ", ".join(f"{w:.4f}" for w in row) + "]," for row in weights)
    return (
        "# Self-attention with Q = K = V = X, scaled by the square root of 2\n\n"
        f"The tokens:\n\n{rows}\n\nThe attention weights (softmax of the scaled scores):\n\n"
        f"```\nweights = [\n{table}\n]\n```\n"
    )


def test_vectors_named_from_zero_are_the_tokens_not_a_head_zero() -> None:
    """``x_0, x_1, x_2``: tokens counted from 0 (no head is numbered 0), stacked as X like
    ``x_1, x_2, x_3``; the weights are checked against it either way."""
    for first in (0, 1):
        claims = _claims(_zero_based(first))
        assert claims.get("head1.weights") in ("exact", "rounded"), (first, claims)


def test_one_vector_named_zero_is_the_first_row() -> None:
    text = "# Keys\n\nThe key of the first token: $k_0 = [0.5, 1.5]$\n"
    seen = stacked_vectors(read(read_document(text, "md")).seen)
    assert [(s.role, s.head, s.row) for s in seen if s.item.rows == (("0.5", "1.5"),)] == [
        ("k", None, 1)
    ]


WRITTEN_OUT = r"""# Scaled dot-product attention by hand

$$Q = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad
K = \begin{bmatrix} 0 & 1 \\ 1 & 0 \\ 1 & 1 \end{bmatrix}, \quad
V = \begin{bmatrix} 1 & 2 \\ 3 & 4 \\ 5 & 6 \end{bmatrix}$$

**Step 1.**

$$QK^T = PRODUCT$$

$$QK^T = \begin{bmatrix} 0 & 1 & 1 \\ 1 & 0 & 1 \\ 1 & 1 & 2 \end{bmatrix}$$

**Step 2: softmax of each row of QK^T divided by sqrt(2).**

$$A = \begin{bmatrix} 0.198 & 0.401 & 0.401 \\ 0.401 & 0.198 & 0.401 \\
0.248 & 0.248 & 0.503 \end{bmatrix}$$

**Step 3: multiply by V.**

Row 1:

$$= [3.406, \;\; 4.406]$$

Row 3:

$$= [3.510, \;\; 4.510]$$
"""


WRITTEN_OUT = WRITTEN_OUT.replace(  # the two matrices on one line, as the page writes them
    "PRODUCT",
    r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix} "
    r"\begin{bmatrix} 0 & 1 & 1 \\ 1 & 0 & 1 \end{bmatrix}",
)


def test_matrices_side_by_side_are_a_products_operands_and_output_rows_are_rows() -> None:
    """``QK^T = [Q] [Kᵀ]`` writes the product out: its two matrices are its operands, not the
    scores (read as scores of shape (3, 2), they made the page claim nothing); the page is
    checked, a row of A V printed alone as that row of the output."""
    seen = read(read_document(WRITTEN_OUT, "md")).seen
    written = [s for s in seen if s.item.shape in ((3, 2), (2, 3)) and "QK" in s.item.statement]
    assert len(written) == 2 and not [s for s in written if s.role == "scores"], written
    q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    k = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    v = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    scores = q @ k.T / np.sqrt(2)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    assert np.allclose(
        np.round(weights, 3),
        [[0.198, 0.401, 0.401], [0.401, 0.198, 0.401], [0.248, 0.248, 0.503]],
        atol=1e-3,
    )
    assert np.allclose((weights @ v)[2], [3.510, 4.510], atol=5e-4)
    claims = _claims(WRITTEN_OUT)
    assert claims.get("head1.scores") == "exact", claims
    assert claims.get("head1.weights") == "rounded", claims
    # Row 3 is A V's to its digits; row 1 (3.406; 3.4067 exactly) is what the weights rounded
    # to three decimals give: claimed, and not right.
    assert claims.get("head1.output[3]") == "rounded", claims
    assert claims.get("head1.output[1]") in ("wrong", "follows"), claims


BOOK = Path(__file__).parent / "data/corpus/dev"
CHAPTER = BOOK / "en-html-book-chapter-torch-attention-weights-from-unscaled-scores.html"


def test_examples_that_start_at_their_own_printed_scores_are_apart() -> None:
    """A chapter that works X Xᵀ first, then prints scores S of Q and K (unrelated to its
    printed Q and K) and masks them: each example starts at inputs of its own (an X, or the
    printed scores), so they are cut apart, not refused as one that does not fit. Masked
    scores printed before the scaling are a first try of that example (a spec has one scale):
    not claimed as its scaled masked step, which they are not."""
    found = extract_all(CHAPTER.read_text(encoding="utf-8"), "html", reprints=True)
    assert len(found) >= 2
    verdicts = [c for one in found for c in check(one.spec).claims]
    assert sum(c.verdict in ("exact", "rounded", "within") for c in verdicts) >= 5
    masked = [c for c in verdicts if c.key.startswith("head1.masked")]
    assert masked and all(c.verdict != "wrong" for c in masked), masked


def _masked_page() -> tuple[str, np.ndarray]:
    """Weights printed already masked (their softmax never printed), then each row over its
    sum: the page of a book that works the causal mask after the softmax."""
    weights = np.array(
        [[0.4213, 0.3105, 0.2682], [0.2519, 0.4000, 0.3481], [0.3027, 0.3306, 0.3667]]
    )
    masked = np.tril(weights)
    again = masked / masked.sum(axis=1, keepdims=True)
    rows = ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in row) + "]" for row in masked)
    done = ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in row) + "]" for row in again)
    text = (
        "# Masking after the softmax\n\n```python\nkept = attn_weights * mask\n"
        f"print(kept)\n```\n\n```\ntensor([{rows}])\n```\n\n"
        "```python\nprint(kept / kept.sum(dim=1, keepdim=True))\n```\n\n"
        f"```\ntensor([{done}])\n```\n"
    )
    return text, again


def test_weights_printed_masked_are_the_input_whose_rows_are_divided_by_their_sums() -> None:
    """The masked weights' rows no longer sum to 1, yet they are weights: the example starts
    at them, and the rows over their sums are checked (the page was refused: no input)."""
    text, again = _masked_page()
    assert np.allclose(again.sum(axis=1), 1)
    claims = _claims(text)
    assert claims.get("head1.renormalised") in ("exact", "rounded", "within"), claims


def test_a_slip_in_the_rows_over_their_sums_is_found() -> None:
    text, again = _masked_page()
    slipped = text.replace(f"{again[1, 0]:.4f}", f"{again[1, 0] + 0.01:.4f}")
    assert slipped != text
    claims = _claims(slipped)
    assert claims.get("head1.renormalised") == "wrong", claims


def _json_page(expected: str) -> str:
    """An online judge's example test: the input a JSON object, the expected output after it."""
    return (
        "<h1>Softmax attention weights</h1>\n<h2>Example Tests</h2>\n<div class='test'>\n"
        "<h4>A clear winner</h4>\n"
        '<pre>Input: {"scores":[2,0,1,3,-1]}\n'
        f"Expected: {expected}</pre>\n</div>\n"
    )


def test_a_json_key_names_the_array_after_it_not_the_label_before() -> None:
    """'Input: {"scores":[2,0,1,3,-1]}' holds the scores (the key), not an input X (the
    label): read
    as X, the test was one input alone and the page printed no results."""
    from mha_symbolic.extract.statement_names import names

    assert names('Input: {"scores":') == [("scores", None, "scores")]
    weights = np.exp([2.0, 0.0, 1.0, 3.0, -1.0])
    weights /= weights.sum()
    right = "[" + ",".join(f"{w:.4f}" for w in weights) + "]"
    claims = _claims(_json_page(right), "html")
    assert claims.get("head1.weights[1]") in ("exact", "rounded"), claims
    slipped = right.replace(f"{weights[0]:.4f}", f"{weights[0] + 0.001:.4f}")
    assert slipped != right
    assert _claims(_json_page(slipped), "html").get("head1.weights[1]") == "wrong"
