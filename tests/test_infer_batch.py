"""A batch of sequences printed as (B, L, E): each element is one attention, its prints (the
whole batch, one element's matrix, one row) judged against that element. Truths with numpy."""

from __future__ import annotations

import numpy as np

from mha_symbolic import check
from mha_symbolic.check.batch import batch_specs, check_specs
from mha_symbolic.errors import SpecError
from mha_symbolic.extract import extract_all

X = np.array([[[1, 0], [0, 1], [1, 1]], [[0.5, 0], [0, 2], [1, -1]]])
W_Q = np.array([[1, 0.5], [0, 1]])
W_K = np.array([[0.5, 0], [1, 1]])
W_V = np.array([[2, 0], [0, 1]])


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


WEIGHTS = softmax((X @ W_Q) @ (X @ W_K).transpose(0, 2, 1) / np.sqrt(2))
OUTPUT = WEIGHTS @ (X @ W_V)


def numpy_print(a: np.ndarray) -> str:
    """As numpy prints a rounded array (entries apart by spaces, matrices by a blank line)."""
    with np.printoptions(precision=4, suppress=True):
        return str(np.round(a, 4))


def page(weights: str) -> str:
    return f"""# Attention over a batch

```python
print(X)
```
```
{numpy_print(X)}
```
```python
print(W_q, W_k, W_v, sep="\\n")
```
```
{numpy_print(W_Q)}
{numpy_print(W_K)}
{numpy_print(W_V)}
```
Softmax of the scaled scores, per sentence:
```
{weights}
```
And the weighted values:
```
{numpy_print(OUTPUT)}
```
"""


def verdicts(text: str) -> dict[str, list[str]]:
    (one,) = extract_all(text)
    assert one.batch is not None
    report = check_specs(batch_specs(one.batch, "page"), "page")
    return {v.claim.key: [e.verdict for e in v.entries] for v in report.claims}


def test_each_row_of_a_printed_batch_is_judged_against_its_own_element() -> None:
    (one,) = extract_all(page(numpy_print(WEIGHTS)))
    assert [str(line) for line in one.inferred][4:] == [
        "line 28 (2x3x3) = head{i}.weights, each batch element on its own: holds to 4 digits",
        "line 38 (2x3x2) = concat, each batch element on its own: holds to 4 digits",
    ]
    assert one.batch is not None and len(one.batch["x"]) == 2
    said = verdicts(page(numpy_print(WEIGHTS)))
    assert list(said)[:3] == ["b1.head1.weights[1]", "b1.head1.weights[2]", "b1.head1.weights[3]"]
    assert said["b2.head1.weights[2]"] == ["rounded", "rounded", "rounded"]
    assert said["b2.concat[3]"] == ["rounded", "rounded"]
    assert len(said) == 12


def test_a_slip_in_one_element_is_that_entry_alone() -> None:
    slipped = numpy_print(WEIGHTS).replace("0.9316", "0.9361")
    (one,) = extract_all(page(slipped))
    assert str(one.inferred[4]) == (
        "line 28 (2x3x3) = head{i}.weights, each batch element on its own: holds except at "
        "[5,2], the document's slips"
    )
    said = verdicts(page(slipped))
    assert said["b2.head1.weights[2]"] == ["rounded", "wrong", "rounded"]
    assert said["b2.head1.weights[1]"] == ["rounded", "rounded", "rounded"]


def test_a_batch_no_attention_of_the_printed_weights_explains_is_not_claimed() -> None:
    """The same X and weights, then numbers of the batch's shape that no attention of them
    computes: no batch example, and no claim on those numbers (the page is refused when
    nothing else of it is explained: its W_Q is no masked softmax of another print)."""
    other = numpy_print(np.array([[[0.1, 0.2, 0.7], [0.3, 0.3, 0.4], [0.5, 0.25, 0.25]]] * 2))
    text = page(other).replace(numpy_print(OUTPUT), numpy_print(OUTPUT + 0.5))
    try:
        found = extract_all(text)
    except SpecError as error:  # nothing of the page explained: refused, in one line
        assert "no input found" in str(error)
        return
    for one in found:
        assert one.batch is None
        assert not one.spec.claims


# ------------------------------------------------------------ a batch weighed by given weights
SEQUENCES = np.array(
    [
        [[1.9269, 1.4873], [0.9007, -2.1055], [0.6784, -1.2345]],
        [[1.6423, -0.1596], [-0.4974, 0.4396], [-0.7581, 1.0783]],
    ]
)
AVERAGE = np.tril(np.ones((3, 3))) / np.tril(np.ones((3, 3))).sum(axis=1, keepdims=True)


def averaging(result: np.ndarray) -> str:
    return f"""# Averaging the past

A batch of two sequences:
```
{numpy_print(SEQUENCES)}
```
The softmax of the masked zeros: each row averages the tokens up to it.
```
{numpy_print(AVERAGE)}
```
`wei @ x` for every sequence:
```
{numpy_print(result)}
```
"""


def test_a_batch_weighed_by_printed_weights_is_judged_per_element() -> None:
    """wei @ x[b]: the weights as printed (0.3333 for a third) are given, each sequence is
    weighed on its own, and the rounding of both is allowed for."""
    found = extract_all(averaging(AVERAGE @ SEQUENCES))
    one = found[-1]
    assert one.batch is not None
    assert [str(line) for line in one.inferred] == [
        "line 5 (2x3x2): an input (no relation among the printed numbers gives it)",
        "line 15 (3x3): an input (no relation among the printed numbers gives it)",
        "line 21 (2x3x2) = head{i}.output, each batch element on its own: holds to 4 digits",
    ]
    report = check_specs(batch_specs(one.batch, "page"), "page")
    said = {v.claim.key: v.verdict for v in report.claims}
    assert len(said) == 6
    assert said["b2.head1.output[2]"] in ("rounded", "within")
    assert report.ok


def test_a_batch_the_printed_weights_do_not_weigh_is_not_claimed() -> None:
    """The same page with the sums of the values printed in place of their averages: the
    weights are still a plain average (the softmax of masked zeros, checked and right), and
    the sums are no example's numbers: never claimed."""
    found = extract_all(averaging(np.tril(np.ones((3, 3))) @ SEQUENCES), reprints=True)
    assert all(one.batch is None for one in found)
    verdicts = {c.key: c.verdict for one in found for c in check(one.spec).claims}
    assert verdicts == {"head1.weights": "rounded"}
