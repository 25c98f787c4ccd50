"""The decimals a symbolic step shows at the chosen numbers, read from arb balls of its entries,
are the very lines its exact values at those numbers give; where the balls cannot tell (a short
decimal, an integer), the exact values decide."""

from __future__ import annotations

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution import chosen, latex
from mha_symbolic.solution.chosen import at_chosen, chosen_values
from mha_symbolic.solution.subterms import Subterms


def _lines(name: str) -> list[str | None]:
    d = derive(AttentionSpec.example(name))
    values, settings = chosen_values(d), latex.Settings()
    return [at_chosen(step, values, settings, Subterms()) for step in d.steps]


@pytest.mark.parametrize("name", ["eight-tokens-split", "temperature"])
def test_every_step_reads_at_the_chosen_numbers_as_its_exact_values_do(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_balls = _lines(name)
    monkeypatch.setattr(chosen, "_approx_from_balls", lambda *args: None)
    assert from_balls == _lines(name)
    assert any(line and r"\approx" in line for line in from_balls)


def test_the_weights_come_from_balls_and_a_short_decimal_from_the_exact_values() -> None:
    d = derive(AttentionSpec.example("eight-tokens-split"))
    values, settings = chosen_values(d), latex.Settings()
    weights = chosen._approx_from_balls(d.step("head1.weights"), values, settings, Subterms())
    assert weights is not None
    assert weights.startswith(r"\begin{bmatrix} 0.07 & 0.15 & 0.03 & 0.24 & 0.05 & ")
    # Q at 3 x the identity is 3 x X's first two columns: short decimals, exact as printed
    assert chosen._approx_from_balls(d.step("head1.q"), values, settings, Subterms()) is None
    assert at_chosen(d.step("head1.q"), values, settings).startswith(  # type: ignore[union-attr]
        r"Q_{1} = \begin{bmatrix} 0.6 & 1.5 \\"
    )


def test_equal_weights_at_the_chosen_numbers_are_exact_halves_not_decimals() -> None:
    # each query is (1, 1), each key x_j W_K: the logits differ in W_K, not at the identity
    weights = {"w_q": [[1, 1], [1, 1]], "w_k": "symbolic"}
    d = derive(AttentionSpec(x=[[1, 0], [0, 1]], heads=1, weights=weights))
    values = chosen_values(d)
    step = d.step("head1.weights")
    assert chosen._approx_from_balls(step, values, latex.Settings(), Subterms()) is None
    line = at_chosen(step, values, latex.Settings())
    assert line == r"A_{1} = \begin{bmatrix} 0.5 & 0.5 \\ 0.5 & 0.5 \end{bmatrix}"
    assert d["head1.weights"].free_symbols
