"""An HTML page of test cases ("Input: Q = ..., K = ..., V = ..." then "Output: ..." in
<pre><code> blocks, several cases per page): each case is an example of its own, and the
label "Input:" before "Q =" is a label, not a name of Q (which would make Q the input X)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all

PAGE = """<html><body>
<h1>Implement self-attention</h1>
<p>Write a function that returns softmax(Q K^T / sqrt(d_k)) V.</p>
<h3>Example 1:</h3>
<pre><code>Input: Q = [[1,0],[0,1]], K = [[1,0],[0,1]], V = [[1,2],[3,4]]
Output: [[1.6605,2.6605],[2.3395,3.3395]]</code></pre>
<h3>Example 2:</h3>
<pre><code>Input: Q = [[1,1]], K = [[1,0],[0,1],[1,1]], V = [[1,0],[0,1],[1,1]]
Output: [[0.7517,0.7517]]</code></pre>
<h3>Example 3:</h3>
<pre><code>Input: Q = [[0,1]], K = [[2,0],[0,2]], V = [[1,1],[2,2]]
Output: [[1.8016,1.8016]]</code></pre>
</body></html>
"""


def test_each_test_case_is_an_example_with_q_k_v_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cases.html"
    path.write_text(PAGE, encoding="utf-8")
    found = extract_all(path)
    assert [(one.spec.stage, one.spec.q[0].shape) for one in found if one.spec.q] == [
        ("qkv", (2, 2)),
        ("qkv", (1, 2)),
        ("qkv", (1, 2)),
    ]
    assert main(["check", str(path)]) == 1  # case 3 prints 1.8016 for 1.8044
    totals = [line for line in capsys.readouterr().out.splitlines() if line.startswith(str(path))]
    assert [line.removeprefix(f"{path}: ") for line in totals] == [
        "1 claim: 1 holds (0 exact, 1 rounded)",
        "2 claims: 2 hold (1 exact, 1 rounded)",
        "2 claims: 1 holds (1 exact, 0 rounded), 1 wrong",
    ]
