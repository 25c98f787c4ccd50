"""extract's inference from the numbers: the relations at printed precision (holds, slips at
entries, fails), and the search on small documents (Q, K, V given with d_v != d_k; a -1e9 mask;
Z = A V judged as Z; a GRU's state left alone). Truths computed here with numpy."""

from __future__ import annotations

import numpy as np
import pytest

from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer import inferred, where_of
from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import entry_value, printed_array
from mha_symbolic.extract.infer.mapping import said_lines
from mha_symbolic.extract.items import Item


def item(rows: list[list[str]], line: int = 0) -> Item:
    return Item(tuple(tuple(r) for r in rows), 0, 0, line, "list", "", "")


def printed(rows: list[list[str]], index: int = 0) -> rel.Printed:
    found = printed_array(index, item(rows, index))
    assert found is not None
    return found


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_printed_digits_are_the_precision() -> None:
    assert entry_value("0.27") == (0.27, pytest.approx(0.005), 2, False)
    assert entry_value("3") == (3.0, 0.0, 0, False)
    assert entry_value("\\frac{1}{2}") == (0.5, 0.0, 0, False)
    assert entry_value("-1.0000e+09")[3] is True
    # An integer among rounded decimals was rounded too.
    p = printed([["0", "0.27"]])
    assert p.rad.tolist() == [[pytest.approx(0.005), pytest.approx(0.005)]]
    assert printed([["-inf", "1"]]).fill == "-inf"


S = np.array([[1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [2.0, 1.0, 1.0]])
WEIGHTS = softmax(S / np.sqrt(2))


def rows4(a: np.ndarray) -> list[list[str]]:
    return [[f"{x:.4f}" for x in r] for r in a]


@pytest.mark.parametrize(
    ("result", "holds", "slips"),
    [
        (rows4(WEIGHTS), True, ()),
        # one entry wrong (0.6035 for 0.5035): a slip at [3, 1] (0-based (2, 0))
        ([*rows4(WEIGHTS)[:2], ["0.6035", "0.2483", "0.2483"]], True, ((2, 0),)),
        # scaled by 1 instead of 1/√2: most entries fail
        (rows4(softmax(S)), False, ()),
    ],
)
def test_softmax_of_scaled_scores(result: list[list[str]], holds: bool, slips: tuple) -> None:
    scores = rel.Node(S, np.zeros_like(S), "printed")
    node = rel.softmax(rel.scale(scores, 1 / np.sqrt(2), "√2"))
    fitted = rel.fit(node, printed(result, 1))
    if not holds:
        assert fitted is None
        return
    assert fitted is not None and fitted.slips == slips


def test_products_carry_the_error_of_rounded_operands() -> None:
    a = rel.Node(np.array([[0.33, 0.67]]), np.full((1, 2), 0.005), "printed")
    v = rel.Node(np.array([[1.0, 2.0], [3.0, 4.0]]), np.zeros((2, 2)), "printed")
    node = rel.product(a, v)
    assert node is not None
    assert node.rad.tolist() == [[pytest.approx(0.02), pytest.approx(0.03)]]
    assert rel.fit(node, printed([["2.34", "3.34"]], 1)) is not None
    assert rel.fit(node, printed([["2.44", "3.44"]], 1)) is None


def test_a_mask_is_a_mask_everywhere_never_a_slip() -> None:
    scores = rel.Node(S, np.zeros_like(S), "printed")
    masked = rel.mask(scores, rel.causal(3, 3))
    fill = [["1", "-1e9", "-1e9"], ["1", "1", "-1e9"], ["2", "1", "1"]]
    assert rel.fit(masked, printed(fill, 1)) == rel.Fit(True)
    assert rel.fit(masked, printed([["1", "0", "1"], ["1", "1", "0"], ["2", "1", "1"]], 1)) is None


DIRECT = """# One head, Q, K and V given

Q = [[1, 0], [0, 1], [1, 1]]

K = [[1, 1], [0, 1], [1, 0]]

V = [[1, 0, 2], [0, 1, 1], [2, 1, 0]]

Scores Q K^T = [[1, 0, 1], [1, 1, 0], [2, 1, 1]]

Attention weights, softmax of the scores over sqrt(2):

A = [[0.4011, 0.1978, 0.4011], [0.4011, 0.4011, 0.1978], [0.5035, 0.2483, 0.2483]]

Z = A V = [[1.2033, 0.5989, 1.0000], [0.7967, 0.5989, 1.2033], [1.0000, 0.4965, 1.2552]]
"""


def test_q_k_v_given_with_d_v_unlike_d_k() -> None:
    (one,) = extract_all(DIRECT)
    assert one.inferred[3:] == (
        "line 9 Q K^T (3x3) = line 3 × line 5ᵀ: holds exactly",
        "line 13 A (3x3) = softmax(line 9 / √2, by rows): holds to 4 digits",
        "line 15 Z (3x3) = line 13 × line 7: holds to 4 digits",
    )
    assert sorted(one.spec.claims) == ["head1.output", "head1.scores", "head1.weights"]


ZAV = """# Attention output

A = [[0.67, 0.33], [0.33, 0.67]]

V = [[1, 2], [3, 4]]

Z = A V = [[1.66, 2.66], [2.34, 3.34]]
"""


def test_z_printed_as_a_v_is_z_not_v() -> None:
    """The numbers say Z is A V: the head's output, whatever ``= V`` at the end of its name."""
    document = read_document(ZAV)
    _, items = find_items(document)
    inference = inferred(items, {})
    (members,) = inference.components
    assert [inference.roles.get(i) for i in members] == ["weights", "v", "head.output"]
    said = said_lines(inference, members, {}, where_of(document, items))
    assert said[-1] == "line 7 (2x2) = line 3 × line 5: holds to 2 digits"


GRU = (
    DIRECT
    + """
## A recurrent layer, for comparison

The GRU's hidden state after two steps:

h = [[0.1234, 0.5678, 0.9012], [0.3456, 0.7890, 0.1234], [0.5678, 0.9012, 0.3456]]
"""
)


def test_a_gru_state_in_the_page_is_left_alone() -> None:
    (one,) = extract_all(GRU)
    assert sorted(one.spec.claims) == ["head1.output", "head1.scores", "head1.weights"]
    assert not any("line 21" in line for line in one.inferred)


TWO = (
    DIRECT
    + """
# A second example

X = [[2, 0], [0, 1], [1, 1]]

S = [[4, 0, 2], [0, 1, 1], [2, 1, 2]]

masked_fill(mask, -1e9) after dividing by sqrt(2):

[[ 2.8284e+00, -1.0000e+09, -1.0000e+09],
 [ 0.0000e+00,  7.0711e-01, -1.0000e+09],
 [ 1.4142e+00,  7.0711e-01,  1.4142e+00]]
"""
)


def test_two_examples_and_a_mask_filled_with_minus_1e9() -> None:
    found = extract_all(TWO)
    said = [line for one in found for line in one.inferred]
    assert "line 21 S (3x3) = line 19 × line 19ᵀ: holds exactly" in said
    assert "line 25 (3x3) = line 21 / √2 masked (causal): holds to 5 digits" in said
