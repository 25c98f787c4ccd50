"""Checking a wrong claim makes only the values its diagnosis reads: a likely mistake's program
is walked as far as the claimed step, the document's numbers are recomputed only for a claim
with earlier printed steps (the page's marks come after each edit)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.exact.evaluate import Evaluator


def _counting(monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[str]]:
    follow = importlib.import_module("mha_symbolic.check.follow")
    mistakes = importlib.import_module("mha_symbolic.check.mistakes")
    recomputed, walked = [], []
    real = follow.recomputed

    def counted(*args: Any) -> Any:
        recomputed.append(args)
        return real(*args)

    class Counting(Evaluator):
        def compute(self, node: Any) -> Any:
            walked.append(node.key)
            return super().compute(node)

    monkeypatch.setattr(follow, "recomputed", counted)
    monkeypatch.setattr(mistakes, "Evaluator", Counting)
    return recomputed, walked


def _x_misprinted() -> tuple[Any, list[list[sp.Expr]]]:
    d = derive(AttentionSpec.example("two-tokens"))
    x = d["x"].tolist()
    x[0][0] += 1
    return d, x


def test_a_wrong_input_is_not_recomputed_and_no_mistake_is_walked_past_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recomputed, walked = _counting(monkeypatch)
    d, x = _x_misprinted()
    report = check(d, {"x": x})
    assert [c.verdict for c in report.claims] == ["wrong"]
    assert recomputed == []
    assert walked == ["x", "x"]  # K read for V and Q for K: each variant's x, nothing after


def test_a_claim_after_a_misprinted_input_is_recomputed_from_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recomputed, _ = _counting(monkeypatch)
    d, x = _x_misprinted()
    x_printed = sp.ImmutableMatrix(x)
    q = x_printed * sp.ImmutableMatrix(d.spec.weights["w_q"][0])
    report = check(d, {"x": x, "head1.q": q.tolist()})
    assert [c.verdict for c in report.claims] == ["wrong", "wrong"]
    assert len(recomputed) == 1
    assert str(report.claims[1].explanation).startswith(
        "Follows correctly from the document's own x; entry (1, 1): the projection is 1,"
    )
