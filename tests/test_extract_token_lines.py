"""A line per token naming several of its vectors ('"dog": Query = [..], Key = [..], Value =
[..]'): the lines are the rows of Q, K and V, one example, not a one-token example per line;
and a value row printed again beside a weight is never taken for a weight times itself."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

_Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
_K = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
_V = np.array([[1.0, 2.0], [3.0, 0.0], [0.0, 1.0]])
_TOKENS = ("cat", "sat", "down")


def _weights() -> np.ndarray:
    scores = _Q @ _K.T / np.sqrt(2)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _vector(row: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:g}" for x in row) + "]"


def _matrix(rows: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in rows) + "]"


def _page(weights: np.ndarray) -> str:
    lines = [
        f'"{t}": Query = {_vector(q)}, Key = {_vector(k)}, Value = {_vector(v)}'
        for t, q, k, v in zip(_TOKENS, _Q, _K, _V, strict=True)
    ]
    return (
        "# Attention over three words\n\nEach word has its query, key and value:\n\n"
        + "\n\n".join(lines)
        + "\n\nScores divided by sqrt(d_k) = sqrt(2), then softmax by rows:\n\n"
        + f"Attention weights = {_matrix(weights)}\n"
    )


def _check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    code = main(["check", str(path), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_token_lines_are_the_rows_of_q_k_and_v(tmp_path: Path) -> None:
    path = tmp_path / "page.md"
    path.write_text(_page(_weights()), encoding="utf-8")
    (one,) = extract_all(str(path))
    spec = tomllib.loads(one.toml)
    assert (spec["q"], spec["k"], spec["v"]) == (_Q.tolist(), _K.tolist(), _V.tolist())
    assert "Query (cat, sat, down)" in one.toml


def test_weights_of_token_lines_are_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(tmp_path, _page(_weights()), capsys)
    (weights,) = [c for c in report["claims"] if c["key"] == "head1.weights"]
    assert code == 0 and all(e["verdict"] != "wrong" for e in weights["entries"])
    slipped = _weights()
    slipped[2, 1] += 0.01  # 0.2583 for 0.2483
    code, report = _check(tmp_path, _page(slipped), capsys)
    (weights,) = [c for c in report["claims"] if c["key"] == "head1.weights"]
    wrong = [e["index"] for e in weights["entries"] if e["verdict"] == "wrong"]
    assert code == 1 and wrong == [[3, 2]]


_SITTING = """# Three words by hand

"The": Query = [0.2, 0.5, 0.1], Key = [0.1, 0.3, 0.6], Value = [0.3, 0.2, 0.8]

"dog": Query = [0.4, 0.6, 0.2], Key = [0.2, 0.4, 0.7], Value = [0.5, 0.3, 0.9]

"sitting": Query = [0.3, 0.4, 0.1], Key = [0.4, 0.3, 0.5], Value = [0.6, 0.4, 0.9]

Weighted Sum (sitting, dog)≈0.6×[0.5,0.3,0.9] = [0.3, 0.18, 0.54]
"""


def test_a_value_printed_again_is_no_weighted_term_judged_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """[0.5, 0.3, 0.9] is dog's value again: within one unit of sitting's [0.6, 0.4, 0.9] in
    two entries, it was once claimed as a weight times that row and judged wrong."""
    path = tmp_path / "page.md"
    path.write_text(_SITTING, encoding="utf-8")
    code = main(["check", str(path)])
    out = capsys.readouterr().out
    assert code != 1 and "wrong" not in out


def test_a_page_of_q_k_v_and_no_result_says_where_its_example_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to check; the layout offered says Q, K and V are given, not "E = 0"."""
    path = tmp_path / "page.md"
    path.write_text(_page(_weights()).split("Scores divided")[0], encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(per_head, xW, 3 tokens, Q, K and V given, 1 head)" in err
