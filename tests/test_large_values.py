"""d[key] at model scale: exact entries and rows made one at a time (``d["output"][i, j]``,
``d["output"][i, :]``), the very values the SymPy path gives; only the whole matrix as one
SymPy object is refused."""

from __future__ import annotations

from typing import Any

import flint
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError, derive
from mha_symbolic.exact.rows import LargeValue
from mha_symbolic.spec import bounds

SPEC = {
    "x": [[1, 0, 2, -1], [0, 1, "1/2", 0], [3, -2, 0, 1]],
    "heads": 2,
    "layout": "fused",
    "mask": "causal",
    "weights": {
        "w_q": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, -1]],
        "w_k": [[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 1, 1], [1, -1, 0, 0]],
        "w_v": [[1, 2, 0, 0], [0, 1, 0, 3], [1, 0, 1, 0], [0, 0, 2, 1]],
        "w_o": [["1/2", 0, 0, 1], [0, 1, 0, 0], [0, 0, "1/3", 0], [1, 0, 0, -1]],
        "b_o": [1, 0, "-1/2", 0],
    },
}


@pytest.fixture
def minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every derivation estimated to take minutes: what model scale gives."""
    monkeypatch.setattr(bounds, "LARGE_SECONDS", 1e-9)


def _both() -> tuple[Any, Any]:
    spec = AttentionSpec.from_dict(SPEC)
    return derive(spec), derive(spec, large=True)


@pytest.mark.usefixtures("minutes")
@pytest.mark.parametrize("key", ["output", "concat", "head2.weights", "head1.scaled", "q"])
def test_entries_and_rows_are_the_sympy_paths_values(key: str) -> None:
    lazy, whole = _both()
    assert lazy.refusal is not None and whole.refusal is None
    value, expected = lazy[key], whole[key]
    assert isinstance(value, LargeValue) and value.shape == expected.shape
    for i in range(expected.rows):
        assert value[i, :] == expected[i, :]
        for j in range(expected.cols):
            assert value[i, j] == expected[i, j]
    assert value[-1, -1] == expected[-1, -1] and value[1] == expected[1]
    assert value[:, 1] == expected[:, 1] and value[1:, :2] == expected[1:, :2]


@pytest.mark.usefixtures("minutes")
def test_an_entry_is_exact() -> None:
    lazy, _ = _both()
    # Query 1 attends key 1 alone (causal): each head's weights are [1, 0, 0], its output
    # V's first row [3, 2, 0, -1]; times W_O plus b_O: [3/2, 2, -1/2, 4].
    assert lazy["head1.weights"][0, :] == sp.ImmutableMatrix([[1, 0, 0]])
    assert lazy["concat"][0, :] == sp.ImmutableMatrix([[3, 2, 0, -1]])
    assert lazy["output"][0, :] == sp.ImmutableMatrix(
        [[sp.Rational(3, 2), 2, sp.Rational(-1, 2), 4]]
    )
    assert lazy["output"][0, 3] == 4


@pytest.mark.usefixtures("minutes")
@pytest.mark.parametrize(
    "ask",
    [list, lambda m: m[:, :], lambda m: m.tolist(), lambda m: m.evalf(), sp.ImmutableMatrix],
    ids=["iterate", "every entry", "tolist", "evalf", "ImmutableMatrix"],
)
def test_only_the_whole_matrix_is_refused_and_the_message_says_so(ask: Any) -> None:
    lazy, _ = _both()
    with pytest.raises(SpecError) as error:
        ask(lazy["output"])
    assert str(error.value) == (
        "<dict>: SymPy values of (L, E, h) = (3, 4, 2) would take about 1 minute; pass "
        "large=True to go ahead; only the whole matrix as one SymPy object takes that long: "
        "its entries and rows are made one at a time (d['output'][i, j], d['output'][i, :])"
    )


@pytest.mark.usefixtures("minutes")
def test_it_says_what_it_is_at_a_prompt() -> None:
    lazy, _ = _both()
    assert repr(lazy["head1.q"]) == (
        "<exact 3 x 2 value of step 'head1.q', made entry by entry: [i, j] an entry, [i, :] a row>"
    )
    assert lazy["output"].free_symbols == set() and len(lazy["output"]) == 12
    with pytest.raises(IndexError):
        lazy["output"][3, 0]


def test_a_model_sized_entry_lies_in_its_certified_ball() -> None:
    from mha_symbolic.bench.model_scale import rational_spec

    d = derive(rational_spec(64, 64, 8))
    assert d.refusal is not None  # its SymPy values would take minutes
    balls = d.enclose("output", 30)
    row = d["output"][5, :]
    assert row.shape == (1, 64)
    old, flint.ctx.dps = flint.ctx.dps, 80  # the decimal read at 80 digits, not at 16
    try:
        for j in (0, 17, 63):
            entry = d["output"][5, j]
            assert entry == row[0, j]
            assert balls[5][j].contains(flint.arb(str(sp.N(entry, 60))))
    finally:
        flint.ctx.dps = old
