"""The relation search's shortcuts give what the plain computations give: the fit test (one
pass, masks compared only when masked, no errstate when finite), softmax and even scores of
finite scores, and the causal pattern made once. Each is compared with the plain numpy
computation written out here, on random prints with masks, transposes and slips."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed, printed_array
from mha_symbolic.extract.items import Item


def _print(index: int, mid: np.ndarray, decimals: int) -> Printed:
    rows = tuple(tuple("-inf" if v == -np.inf else f"{v:.{decimals}f}" for v in r) for r in mid)
    item = Item(rows, 0, 1, 0, "list", "x = ", "")
    found = printed_array(index, item)
    assert found is not None
    return found


def _plain_entries(node: rel.Node, target: Printed) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        near = np.abs(node.mid - target.mid) <= node.slack + target.rad
    return near | (node.masked & target.masked)


def _plain_fit(node: rel.Node, target: Printed, slips: bool) -> tuple[rel.Fit | None, bool]:
    """The fit and mostly tests as two separate passes over every orientation."""
    vector = 1 in target.shape
    compared: dict[bool, np.ndarray] = {}
    for transposed in (False, True):
        shown = target.transposed if transposed else target
        square = shown.shape[0] == shown.shape[1]
        if node.mid.shape != shown.mid.shape or (transposed and (vector or square)):
            continue
        if (node.masked != shown.masked).any():
            continue
        ok = compared[transposed] = _plain_entries(node, shown)
        wrong = ok.size - int(np.count_nonzero(ok))
        nonzero = (shown.mid != 0) & np.isfinite(shown.mid)
        telling = int(np.count_nonzero(ok & nonzero)) > wrong
        few = ok.size >= 4 and wrong <= min(5, max(1, ok.size // 5))
        if wrong == 0:
            return rel.Fit(True, (), transposed), False
        if slips and few and telling:
            bad = tuple((int(i), int(j)) for i, j in zip(*np.nonzero(~ok), strict=True))
            return rel.Fit(True, bad, transposed), False
    for transposed in (False, True):
        shown = target.transposed if transposed else target
        if node.mid.shape == shown.mid.shape and (node.masked == shown.masked).all():
            ok = compared.get(transposed)
            ok = _plain_entries(node, shown) if ok is None else ok
            return None, bool(2 * np.count_nonzero(ok) >= ok.size)
    return None, False


@st.composite
def _cases(draw: st.DrawFn) -> tuple[rel.Node, Printed, bool]:
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    mid = rng.normal(size=(rows, cols)).round(draw(st.integers(0, 3)))
    masked = rng.random((rows, cols)) < draw(st.sampled_from([0.0, 0.3]))
    value = np.where(masked, -np.inf, mid)
    node = rel.Node(value, np.where(masked, 0.0, 1e-3), "product")
    shown = value.T if draw(st.booleans()) else value
    if draw(st.booleans()):  # a slip or two, or another mask
        shown = shown.copy()
        shown[rng.integers(shown.shape[0]), rng.integers(shown.shape[1])] = draw(
            st.sampled_from([7.5, -np.inf, 0.0])
        )
    if draw(st.booleans()):  # another array of the shape
        shown = np.where(np.isinf(shown), shown, rng.normal(size=shown.shape))
    return node, _print(3, shown, 2), draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(_cases())
def test_the_fit_test_is_the_plain_two_pass_test(case: tuple[rel.Node, Printed, bool]) -> None:
    node, target, slips = case
    assert rel.fit_or_mostly(node, target, slips) == _plain_fit(node, target, slips)
    if node.mid.shape == target.mid.shape:
        assert np.array_equal(rel.entries_fit(node, target), _plain_entries(node, target))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.sampled_from([0.0, 1e-3, 30.0]))
def test_softmax_and_even_of_finite_scores_take_no_shortcut_of_value(
    seed: int, by_rows: bool, spread: float
) -> None:
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(1, 5, size=2)
    mid = rng.normal(size=(rows, cols)) * spread
    scores = rel.Node(mid, np.full((rows, cols), 1e-4), "scale")
    plain = mid if by_rows else mid.T
    top = np.max(np.where(np.isfinite(plain), plain, -np.inf), axis=1, keepdims=True)
    centre = np.exp(plain - top)
    value = centre / centre.sum(axis=1, keepdims=True)
    soft = rel.softmax(scores, by_rows)
    assert np.array_equal(soft.mid, value if by_rows else value.T)
    assert rel.even(scores, by_rows) == bool((plain == plain.max(axis=1, keepdims=True)).all())


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 3), (2, 4), (4, 2)])
def test_the_causal_pattern_is_shared_and_read_only(rows: int, cols: int) -> None:
    allowed = rel.causal(rows, cols)
    assert allowed is rel.causal(rows, cols)
    assert np.array_equal(allowed, np.tril(np.ones((rows, cols), dtype=bool), k=cols - rows))
    with pytest.raises(ValueError, match="read-only"):
        allowed[0, 0] = False
