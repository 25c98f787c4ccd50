"""What a sentence's brackets are: a range ("into [0, 1]", "归一到 [0,1]") is no array, a
vector after "=" is; an index after a long name ("embedded_sentence[1]") is a subscript."""

from __future__ import annotations

import pytest

from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document


def _rows(text: str) -> list[tuple[tuple[str, ...], ...]]:
    _, items = find_items(read_document(text, "md"))
    return [item.rows for item in items]


@pytest.mark.parametrize(
    "sentence",
    [
        "Softmax maps every score into [0, 1] and each row sums to one.\n",
        "The weights lie in [0,1], never outside.\n",
        "再用 softmax 归一到 [0,1]，总和为 1：\n",
        "Die Gewichte liegen zwischen [0, 1].\n",
        "Each weight $a_{ij} \\in [0, 1]$.\n",
    ],
)
def test_a_range_in_a_sentence_is_no_array(sentence: str) -> None:
    assert _rows(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "rows"),
    [
        ("x_1 = [0, 1]\n", [(("0", "1"),)]),
        (
            "The weights of token 2 are [0.5, 0.5] in [0.2, 0.8].\n",
            [(("0.5", "0.5"),), (("0.2", "0.8"),)],
        ),
        ("'love' → [1, 0]\n", [(("1", "0"),)]),
    ],
)
def test_a_vector_stays_a_vector(sentence: str, rows: list[tuple[tuple[str, ...], ...]]) -> None:
    """After "=", an arrow, or "in" before numbers with decimals (not a range of whole
    numbers), the brackets hold an array."""
    assert _rows(sentence) == rows


def test_an_index_after_a_long_name_subscripts_it() -> None:
    """``embedded_sentence[1]`` picks a row (once read as the vector [1], named x_2)."""
    assert _rows("x_2 = embedded_sentence[1]\nq = x_2 @ w_query_matrix[0]\n") == []
