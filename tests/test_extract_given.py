"""Pages that start past the inputs (Q, K and V; the scores; the weights with V) are checked from
what they give, and a mask the numbers follow goes into the spec with its printed fill."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all

GIVEN = """# Attention from Q, K and V, no scaling

Q = [[1, 0], [0, 1]]

K = [[1, 0], [0, 1]]

V = [[1, 2, 3], [4, 5, 6]]

weights = [[0.73, 0.27], [0.27, 0.73]]

output = [[1.81, 2.81, 3.81], [3.19, 4.19, 5.19]]
"""
MASKED = """# Masked self-attention

X = [[1, 0], [0, 1], [1, 1]]

Q = K = V = X, so the scores are X X^T:

S = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]

masked_fill(mask, -1e9) after dividing by sqrt(2):

[[ 7.0711e-01, -1.0000e+09, -1.0000e+09],
 [ 0.0000e+00,  7.0711e-01, -1.0000e+09],
 [ 7.0711e-01,  7.0711e-01,  1.4142e+00]]

softmax:

[[1.0000, 0.0000, 0.0000],
 [0.3302, 0.6698, 0.0000],
 [0.2483, 0.2483, 0.5035]]
"""
SCORES = """# Causal attention weights from the scores

scores = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

masked = [[1, -inf, -inf], [4, 5, -inf], [7, 8, 9]]

weights = [[1.0000, 0.0000, 0.0000], [0.2689, 0.7311, 0.0000], [0.0900, 0.2447, 0.6652]]
"""


def _page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_q_k_v_with_d_v_unlike_d_k_are_checked_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, GIVEN)
    spec = extract_all(path)[0].spec
    assert spec.stage == "qkv"
    assert [m.shape for m in spec.v or ()] == [(2, 3)]
    assert sorted(spec.claims) == ["head1.weights", "output"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: the example starts at q, k, v, as printed: no input, no projections" in out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (0 exact, 2 rounded)"


def test_a_masked_fill_page_is_checked_with_its_fill_in_the_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, MASKED)
    spec = extract_all(path)[0].spec
    assert (spec.mask_kind, spec.mask_fill) == ("causal", sp.Integer(-(10**9)))
    assert sorted(spec.claims) == ["head1.masked", "head1.scores", "head1.weights"]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 3 claims: 3 hold (1 exact, 2 rounded)"
    )


def test_printed_scores_without_values_are_checked_through_the_softmax(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, SCORES)
    one = extract_all(path)[0]
    assert (one.spec.stage, one.spec.mask_kind, one.spec.mask_fill) == ("scores", "causal", -sp.oo)
    assert sorted(one.spec.claims) == ["head1.masked", "head1.weights"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)"


def test_extract_prints_what_the_numbers_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, MASKED)
    assert main(["extract", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    inferred = [str(line) for line in extract_all(path)[0].inferred]
    assert inferred and err[: len(inferred)] == inferred


IDENTITY = """# Attention on "I am"

I → [1.0, 0.0]
am → [0.0, 1.0]

X = [[1.0, 0.0], [0.0, 1.0]]

W_Q, W_K and W_V are identity matrices here, so the projections leave X unchanged:

Q = K = V = [[1, 0], [0, 1]]

Divided by √2:

scores = [[0.7071, 0.0], [0.0, 0.7071]]

weights = [[0.67, 0.33], [0.33, 0.67]]
"""


def test_what_the_numbers_say_wins_over_named_weights_and_token_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Q printed equal to X (as 1 beside 1.0) is X: the identity, not a symbolic W_Q the text
    names; the token rows before X are its rows, not examples of one token each."""
    path = _page(tmp_path, IDENTITY)
    found = extract_all(path)
    assert len(found) == 1
    spec = found[0].spec
    assert spec.omitted == frozenset({"w_q", "w_k", "w_v"}) and not spec.symbolic
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 5 claims: 5 hold (3 exact, 2 rounded)"
    )


ONE_QUERY = """# Attention for one query

Q = [[1, 0], [0, 1], [1, 1]]

K = [[1, 0], [0, 1], [1, 1]]

V = [[1, 2], [3, 4], [5, 6]]

The scores of the second token:

scores_2 = [0, 1, 1]
"""
TWO_HEADS = """# Two attention heads

X = [[1, 0], [0, 1], [1, 1]]

The first head's scores: scores_1 = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]

One row of the second head's: scores_2 = [0, 1, 1]
"""


def test_a_subscript_on_one_printed_row_is_its_token_not_a_second_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, ONE_QUERY)
    spec = extract_all(path)[0].spec
    assert (spec.heads, sorted(spec.claims)) == (1, ["head1.scores[2]"])
    assert main(["check", str(path)]) == 0
    assert (
        capsys.readouterr().out.splitlines()[-1] == f"{path}: 1 claim: 1 holds (1 exact, 0 rounded)"
    )


def test_a_subscript_stays_a_head_where_a_whole_matrix_carries_one(tmp_path: Path) -> None:
    spec = extract_all(_page(tmp_path, TWO_HEADS))[0].spec
    assert spec.heads == 2


def test_q_and_k_of_different_widths_are_one_line_naming_what_was_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0, 0], [0, 1, 0]]\n\nV = [[1, 2], [3, 4]]\n"
    path = _page(tmp_path, f"# Attention\n\n{given}\nweights = [[0.5, 0.5], [0.5, 0.5]]\n")
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: {path}: the printed arrays do not fit together: found Q (2×2, line 3),"
        " K (2×3, line 5) and V (2×2, line 7) but a row of Q has 2 numbers and a row of K 3:"
        " no scores can be formed from them\n"
    )
