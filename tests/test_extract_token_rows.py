"""Token rows printed under their labels ("cat → [2, 1]"): a block of Query rows printed after
a projection by the identity (the very rows of X) is rows 1, 2, 3 of Q, whatever a line above
says of rows; a token's product printed on its own line ("cat: [2,1] · W_K = ... = [1, 2]") is
that token's row of K; and a block printing those rows again is judged again."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all

_SETUP = """# Attention by hand

Three tokens, each with its embedding:

cat → [2, 1]
sat → [0, 3]
down → [1, 1]

The weights:

W_Q = [[1, 0], [0, 1]]
W_K = [[0, 1], [1, 0]]
W_V = [[1, 1], [0, 1]]
"""

# W_Q is the identity: the Query rows print the embeddings again, under the same labels.
QUERIES = (
    _SETUP
    + """
## Query vectors

ABOVE

Query vectors:

cat → [2, 1]
sat → [0, 3]
down → [1, 1]
"""
)

PRODUCTS = (
    _SETUP
    + """
## Keys

cat: [2,1] · W_K = [2×0+1×1, 2×1+1×0] = [1, 2]
sat: [0,3] · W_K = [0×0+3×1, 0×1+3×0] = [3, 0]
down: [1,1] · W_K = [1×0+1×1, 1×1+1×0] = [1, 1]

Key vectors:

cat → [1, 2]
sat → [3, 0]
down → [1, 1]

## Values

cat: [2,1] · W_V = [2×1+1×0, 2×1+1×1] = [2, 3]
sat: [0,3] · W_V = [0×1+3×0, 0×1+3×1] = [0, 4]
"""
)


def _page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "above",
    [
        "Each entry sums over the rows of W_Q: [e_1 × row1_j + e_2 × row2_j].",
        "The query of token 2 changes most.",
    ],
)
def test_labelled_query_rows_are_rows_one_to_three(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], above: str
) -> None:
    # Once the first row took row 2 from the line above and the next rows clashed with it:
    # [2, 1] claimed as Q's row 2 and called wrong, the page split in two examples.
    path = _page(tmp_path, QUERIES.replace("ABOVE", above))
    (found,) = extract_all(path, reprints=True)
    assert found.spec.claims == {
        "head1.q[1]": "[2, 1]",
        "head1.q[2]": "[0, 3]",
        "head1.q[3]": "[1, 1]",
    }
    assert "Query vectors (line 21) -> claim head1.q[1]" in found.mapping
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 3 claims: 3 hold (3 exact, 0 rounded)"
    )


def test_a_line_naming_several_rows_gives_no_row(tmp_path: Path) -> None:
    # "row1 ... row2" is a formula over the rows: a vector under it is placed by its numbers.
    text = QUERIES.replace(
        "ABOVE", "Each entry sums over the rows of W_Q: [e_1 × row1_j + e_2 × row2_j]."
    )
    text = text[: text.index("Query vectors:")] + "Q = [2, 1]\n"
    (found,) = extract_all(_page(tmp_path, text))
    assert found.spec.claims == {"head1.q[1]": "[2, 1]"}


def test_each_tokens_product_line_is_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, PRODUCTS)
    drafted = extract_all(path)
    assert len(drafted) == 1  # extract writes the example; check judges the block again too
    assert drafted[0].spec.claims == {
        "head1.k[1]": "[1, 2]",
        "head1.k[2]": "[3, 0]",
        "head1.k[3]": "[1, 1]",
        "head1.v[1]": "[2, 3]",
        "head1.v[2]": "[0, 4]",
    }
    found = extract_all(path, reprints=True)
    assert len(found) == 2
    assert found[1].spec.claims == {
        "head1.k[1]": "[1, 2]",
        "head1.k[2]": "[3, 0]",
        "head1.k[3]": "[1, 1]",
    }
    assert found[1].notes[0] == (
        "the steps printed again at line 23, line 24, line 25, each judged against the same "
        "example as its first print"
    )
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "  [2]      claimed 4, exact 3: wrong" in out  # sat · W_V is [0, 3]
    assert f"{path}: 5 claims: 4 hold (4 exact, 0 rounded), 1 wrong" in out
    assert out[-1] == f"{path}: 3 claims: 3 hold (3 exact, 0 rounded)"


def test_a_product_by_a_weight_not_beside_the_token_stays_unread(tmp_path: Path) -> None:
    # The label is no token of the page: the line is not a token's product.
    text = PRODUCTS.replace("cat: [2,1] · W_V", "first: [2,1] · W_V")
    (found, _) = extract_all(_page(tmp_path, text), reprints=True)
    assert "head1.v[1]" not in found.spec.claims
