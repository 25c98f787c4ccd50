"""Rows labelled by words, one a line under a header of the same words (a table of the weights
retold in text, rounded to two decimals): the lines are ONE matrix, its labels the words, and
that matrix is the weights printed again, each row judged; not a vector per line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import Seen, read
from mha_symbolic.extract.word_rows import word_rows

_WORDS = ("cats", "chase", "mice", "daily")
_SCORES = np.array(
    [
        [0.9, -np.inf, -np.inf, -np.inf],
        [0.2, 1.1, -np.inf, -np.inf],
        [-0.3, 0.4, 0.8, -np.inf],
        [0.6, -0.2, 0.0, 1.2],
    ]
)  # causally masked: the future is -inf


def _weights() -> np.ndarray:
    scaled = _SCORES / np.sqrt(2.0)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _matrix(rows: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in rows) + "]"


def _table(rows: np.ndarray) -> str:
    header = "       " + "  ".join(f"{w:6}" for w in _WORDS)
    lines = [f"{w:6} [" + "  ".join(f"{x:.2f}" for x in r) + "]" for w, r in zip(_WORDS, rows)]
    return "```\n" + "\n".join([header, *lines]) + "\n```\n"


def _page() -> str:
    return (
        "# Attention over four words\n\n"
        f"Scores = {_matrix(_SCORES)}\n\n"
        "Divided by sqrt(2), then softmax by rows:\n\n"
        f"Attention weights = {_matrix(_weights())}\n\n"
        "Rounded, with the words as labels (keys across, queries down):\n\n"
        f"{_table(_weights())}"
    )


def _word_rows(page: str) -> list[Seen]:
    document = read_document(page)
    return word_rows(read(document).seen, [line.text for line in document.lines])


def test_word_labelled_lines_are_one_matrix_labelled_by_the_words() -> None:
    """The table under its header, and the first rows retold later under the same words."""
    first = "\n".join(
        f"{w}: [" + ", ".join(f"{x:.2f}" for x in r) + "]" for w, r in zip(_WORDS[:2], _weights())
    )
    tables = [
        s for s in _word_rows(f"{_page()}\nThe first two rows:\n\n{first}\n") if s.item.labels
    ]
    assert [s.item.labels for s in tables] == [_WORDS, _WORDS[:2]]
    expected = tuple(tuple(f"{x:.2f}" for x in r) for r in _weights())
    assert tables[0].item.rows == expected and tables[1].item.rows == expected[:2]


def test_quoted_tokens_are_one_matrix_though_a_word_comes_again() -> None:
    vectors = np.round(_weights()[:3], 2)
    lines = [
        f'- "{w}": [' + ", ".join(f"{x:.2f}" for x in r) + "]"
        for w, r in zip(("the", "cat", "the"), vectors)
    ]
    page = "# Outputs\n\nThe layer returns:\n\n" + "\n".join(lines) + "\n"
    tables = [s for s in _word_rows(page) if s.item.labels]
    assert len(tables) == 1 and tables[0].item.labels == ("the", "cat", "the")


def test_rows_named_by_steps_are_no_table() -> None:
    """ "shifted:", "exponentials:" over a softmax worked by hand are steps, not tokens: no
    header lists them, so each line stays a vector of its own."""
    shifted = _SCORES[3] - _SCORES[3].max()
    page = (
        "# By hand\n\nA row worked out:\n\n"
        f"shifted: [{', '.join(f'{x:.2f}' for x in shifted)}]\n"
        f"exponentials: [{', '.join(f'{x:.4f}' for x in np.exp(shifted))}]\n"
    )
    seen = _word_rows(page)
    assert [len(s.item.rows) for s in seen] == [1, 1]


def _reports(text: str) -> list[dict]:
    """The JSON reports printed one after another (an example printed again has its own)."""
    decoder, out, at = json.JSONDecoder(), [], 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        value, at = decoder.raw_decode(text, at)
        out.append(value)
    return out


def test_the_rounded_table_is_judged_as_the_weights_printed_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each rounded row judged right, once (not again as a print of its own line)."""
    path = tmp_path / "page.md"
    path.write_text(_page(), encoding="utf-8")
    code = main(["check", str(path), "--format", "json"])
    judged = [
        (tuple(e["claimed"] for e in claim["entries"]), {e["verdict"] for e in claim["entries"]})
        for report in _reports(capsys.readouterr().out)
        for claim in report["claims"]
    ]
    assert code == 0
    for row in _weights():
        printed = tuple(f"{x:.2f}" for x in row)
        verdicts = [v for entries, v in judged if entries == printed]
        assert len(verdicts) == 1 and verdicts[0] <= {"exact", "rounded", "within"}
