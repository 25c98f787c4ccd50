"""An edit on the page reuses what earlier edits computed (remembered products, softmax rows,
lines at the chosen numbers, shared subterms): each answer must be the one a fresh process
gives for the same spec text, with and without the claims' marks."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import pytest

from mha_symbolic.bench.page import edited
from mha_symbolic.web.work import solve

FRESH = (
    "import json, sys\n"
    "from mha_symbolic.web.work import solve\n"
    "request = json.load(sys.stdin)\n"
    "print(json.dumps(solve(request), sort_keys=True))\n"
)


def _fresh(request: dict[str, object]) -> dict[str, object]:
    """``solve(request)`` in a new Python process: nothing remembered from another edit."""
    done = subprocess.run(
        [sys.executable, "-c", FRESH],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return dict(json.loads(done.stdout))


@pytest.mark.parametrize("name", ["eight-tokens-split", "temperature"])
def test_each_edit_is_answered_as_a_fresh_process_answers_it(name: str) -> None:
    text = resources.files("mha_symbolic").joinpath("examples", f"{name}.toml").read_text()
    answers = {}
    for value, marks in ((3, False), (5, False), (3, True), (3, False)):  # back to 3: reused
        request = {"toml": edited(text, value), "marks": marks}
        answers[value, marks] = json.loads(json.dumps(solve(request), sort_keys=True))
    assert answers[5, False]["ok"] and answers[3, True]["ok"]
    for value, marks in ((5, False), (3, True), (3, False)):
        request = {"toml": edited(text, value), "marks": marks}
        assert answers[value, marks] == _fresh(request), (value, marks)
