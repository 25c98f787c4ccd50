"""Two pages a reader meets often. (1) After a worked example, a "trace" of single entries
(``score[2,0] = Q[2] · K[0] → 0.52``) whose numbers are only an illustration: none of them is the
example's value, so they are another computation's and never called wrong, while a trace of the
example's own values is checked entry by entry and a slip among right entries is still found.
(2) Scores printed with -inf where a causal mask stands (``wei.masked_fill(tril == 0, -inf)``)
and given as the example's start, then printed again: the printed -inf are the masked scores,
never "wrong" against the unmasked ones. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.extract import extract_all

Q = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0]])
K = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0], [2.0, 1.0, 0.0]])
V = np.array([[1.0, 2.0], [0.0, 1.0], [3.0, 0.0]])
SCORES = Q @ K.T
WEIGHTS = np.exp(SCORES / np.sqrt(3)) / np.exp(SCORES / np.sqrt(3)).sum(1, keepdims=True)


def _matrix(a: np.ndarray) -> str:
    return "[" + ",\n ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in a) + "]"


def trace_page(trace: list[str]) -> str:
    lines = "\n".join(f"score[2,{j}] = Q[2] · K[{j}]  →  {value}" for j, value in enumerate(trace))
    return (
        "# Attention by hand\n\n```python\n"
        f"Q = np.array({Q.tolist()})\nK = np.array({K.tolist()})\nV = np.array({V.tolist()})\n"
        f"scores = Q @ K.T\nprint(scores)\n```\n```\n{_matrix(SCORES)}\n```\n"
        "```python\nweights = softmax(scores / np.sqrt(3))\nprint(weights)\n```\n"
        f"```\n{_matrix(WEIGHTS)}\n```\n\n"
        f"A trace for position 2 (the numbers are only an illustration):\n\n```\n{lines}\n```\n"
    )


def _verdicts(text: str) -> dict[str, str]:
    found = extract_all(text, "md", reprints=True)
    return {c.key: c.verdict for one in found for c in check(one.spec).claims}


def test_a_trace_of_made_up_entries_is_not_claimed() -> None:
    made_up = ["0.52", "0.31", "0.89"]
    assert not any(abs(float(m) - s) < 0.01 for m, s in zip(made_up, SCORES[2]))
    verdicts = _verdicts(trace_page(made_up))
    assert verdicts == {"head1.scores": "exact", "head1.weights": "rounded"}
    (one,) = extract_all(trace_page(made_up), "md")
    assert any("none of them this example's value" in note for note in one.notes)


def test_a_trace_of_the_examples_entries_is_checked() -> None:
    right = [f"{s:.2f}" for s in SCORES[2]]
    verdicts = _verdicts(trace_page(right))
    assert [verdicts[f"head1.scores[3,{j}]"] for j in (1, 2, 3)] == ["exact"] * 3


def test_a_slip_among_right_entries_is_still_wrong() -> None:
    slipped = [f"{s:.2f}" for s in SCORES[2]]
    slipped[1] = f"{SCORES[2, 1] + 0.5:.2f}"
    verdicts = _verdicts(trace_page(slipped))
    assert verdicts["head1.scores[3,2]"] == "wrong"
    assert verdicts["head1.scores[3,1]"] == verdicts["head1.scores[3,3]"] == "exact"


def test_given_scores_printed_with_minus_infinity_are_the_masked_scores() -> None:
    masked = np.where(np.tril(np.ones((3, 3))) == 1, 0.0, -np.inf)
    weights = np.tril(np.ones((3, 3))) / np.tril(np.ones((3, 3))).sum(1, keepdims=True)
    shown = ",\n        ".join(
        "[" + ", ".join("-inf" if np.isinf(x) else "0." for x in row) + "]" for row in masked
    )
    soft = ",\n        ".join("[" + ", ".join(f"{x:.4f}" for x in row) + "]" for row in weights)
    text = (
        "# Masked self-attention\n\n```python\ntril = torch.tril(torch.ones(T, T))\n"
        "wei = torch.zeros((T, T))\nwei = wei.masked_fill(tril == 0, float('-inf'))\n"
        f"```\n```\ntensor([{shown}])\n```\n\nOn the next slide, the same again:\n\n"
        f"```\ntensor([{shown}])\n```\n"
        f"```python\nwei = F.softmax(wei, dim=-1)\n```\n```\ntensor([{soft}])\n```\n"
    )
    verdicts = _verdicts(text)
    assert verdicts.get("head1.masked") == "exact", verdicts  # the print again, -inf and all
    assert "wrong" not in verdicts.values()
    assert verdicts.get("head1.weights") in ("exact", "rounded")
    assert not any(key.startswith("head1.scores") for key in verdicts)
