"""A page with several examples, or the same step printed more than once: every example the
numbers find is checked with its own spec, and a step printed again is judged again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sympy as sp

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all

TWO_SETTINGS = """### Scaling the scores

#### Without scaling

* Scores into the softmax: `[1, 2, 3]`
* Softmax gives `[0.09, 0.24, 0.67]`

#### With scaling ($d_k = 4$)

* Scores become `[1/2, 2/2, 3/2] = [0.5, 1.0, 1.5]`
* Softmax = `[0.19, 0.31, 0.50]`
"""
MASKED_AGAIN = """# Self-attention, then with a causal mask

X = [[1, 0], [0, 1], [1, 1]]

Q = K = V = X, so the scores are X X^T:

S = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]

divided by sqrt(2):

[[0.7071, 0.0000, 0.7071],
 [0.0000, 0.7071, 0.7071],
 [0.7071, 0.7071, 1.4142]]

softmax:

[[0.4011, 0.1978, 0.4011],
 [0.1978, 0.4011, 0.4011],
 [0.2483, 0.2483, 0.5035]]

masked_fill(mask, -1e9) after dividing by sqrt(2):

[[ 7.0711e-01, -1.0000e+09, -1.0000e+09],
 [ 0.0000e+00,  7.0711e-01, -1.0000e+09],
 [ 7.0711e-01,  7.0711e-01,  1.4142e+00]]

softmax:

[[1.0000, 0.0000, 0.0000],
 [0.3302, 0.6698, 0.0000],
 [0.2483, 0.2483, 0.5035]]
"""
ROUNDED_AGAIN = """# One query's weights, printed twice

scores = [2, 1, 0]

weights = softmax(scores) = [0.6652, 0.2447, 0.0900]

Rounded for the slide: [0.67, 0.24, 0.09]
"""


def _page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_scores_softmaxed_as_they_are_and_scaled_are_two_examples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, TWO_SETTINGS)
    found = extract_all(path)
    assert [one.spec.scale for one in found] == ["none", sp.Rational(1, 2)]
    assert [sorted(one.spec.claims) for one in found] == [
        ["head1.scores[1]", "head1.weights[1]"],
        ["head1.scaled[1]", "head1.weights[1]"],
    ]
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "  [3]      claimed 0.50, exact 0.5065: wrong\n" in out
    assert f"{path}: 2 claims: 2 hold (1 exact, 1 rounded)\n" in out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 1 holds (1 exact, 0 rounded), 1 wrong"


def test_weights_printed_again_after_a_mask_are_judged_against_the_masked_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, MASKED_AGAIN)
    found = extract_all(path)
    assert [(one.spec.mask_kind, one.spec.mask_fill) for one in found] == [
        ("none", -sp.oo),
        ("causal", sp.Integer(-(10**9))),
    ]
    assert [sorted(one.spec.claims) for one in found] == [
        ["head1.scaled", "head1.scores", "head1.weights"],
        ["head1.masked", "head1.weights"],
    ]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith(str(path))] == [
        f"{path}: 3 claims: 3 hold (1 exact, 2 rounded)",
        f"{path}: 2 claims: 2 hold (0 exact, 2 rounded)",
    ]


def test_a_step_printed_again_at_other_digits_is_judged_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, ROUNDED_AGAIN)
    first, again = extract_all(path)
    assert first.spec.claims["head1.weights[1]"] is not None
    assert again.draft.title == "One query's weights, printed twice (printed again)"
    assert [c.value for c in again.draft.claims] == ["[0.67, 0.24, 0.09]"]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note: the steps printed again at line 7, each judged against the same example" in out
    assert out.splitlines()[-1] == f"{path}: 1 claim: 1 holds (0 exact, 1 rounded)"


def test_a_print_most_of_whose_numbers_differ_is_not_judged_again(tmp_path: Path) -> None:
    text = ROUNDED_AGAIN.replace("[0.67, 0.24, 0.09]", "[0.10, 0.20, 0.70]")
    assert len(extract_all(_page(tmp_path, text))) == 1


def test_each_example_has_a_header_line_and_its_number_in_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, TWO_SETTINGS)
    main(["check", str(path)])
    headers = [line for line in capsys.readouterr().out.splitlines() if line.startswith("==")]
    assert headers == [
        "== example 1 of 2 ==",
        "== example 2 of 2 ==",
    ]
    main(["check", str(path), "--format", "json"])
    decoder, text, at, reports = json.JSONDecoder(), capsys.readouterr().out, 0, []
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        report, at = decoder.raw_decode(text, at)
        reports.append(report)
    assert [r["example"] for r in reports] == [
        {"number": 1, "of": 2, "title": "Scaling the scores (example 1 of 2)"},
        {"number": 2, "of": 2, "title": "Scaling the scores (example 2 of 2)"},
    ]
    assert [[c["key"] for c in r["claims"]] for r in reports] == [
        ["head1.weights[1]", "head1.scores[1]"],
        ["head1.weights[1]", "head1.scaled[1]"],
    ]
