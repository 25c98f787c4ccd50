"""An exact derivation with symbolic weights is refused when it has too many symbols, however
few the tokens: one token of width 384 against three 384 x 384 matrices of symbols (a
notebook's sentence embedding read as X, its seeded weights never printed) took minutes and
gigabytes before it was refused; small symbolic examples stay cheap."""

from __future__ import annotations

import pytest

from mha_symbolic import AttentionSpec, SpecError, derive
from mha_symbolic.spec import bounds


def _spec(width: int, tokens: int = 1) -> AttentionSpec:
    x = [[str((i * width + j) % 7 - 3) for j in range(width)] for i in range(tokens)]
    return AttentionSpec.from_dict(
        {
            "x": x,
            "weights": {"w_q": "symbolic", "w_k": "symbolic", "w_v": "symbolic"},
            "scale": "none",
        }
    )


def test_symbolic_weights_of_a_wide_input_are_refused_at_once() -> None:
    spec = _spec(384)
    assert bounds.derivation_cost(spec) > bounds.LARGE_SECONDS
    with pytest.raises(SpecError, match="would take about"):
        derive(spec)


def test_small_symbolic_examples_stay_cheap() -> None:
    assert bounds.derivation_cost(_spec(4, tokens=2)) < 1.0
    assert bounds.derivation_cost(AttentionSpec.example("eight-tokens-split")) < 1.0
