"""The compiled NumPy function's usual call checked at once (numeric/fast_call.py): the same
result as the general checks, and every other call left to them (their messages unchanged)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mha_symbolic import AttentionSpec, compile


def _spec(mask: str = "none", bias: bool = True) -> AttentionSpec:
    rng = np.random.default_rng(2)
    weights: dict[str, Any] = {n: rng.integers(-4, 5, (4, 4)) / 4 for n in ("w_q", "w_k", "w_v")}
    weights["w_o"] = rng.integers(-4, 5, (4, 4)) / 4
    if bias:
        weights["b_q"] = [0.5, -0.25, 0, 1]
    return AttentionSpec(
        x=[[0] * 4], heads=2, layout="fused", convention="xWT", mask=mask, weights=weights
    )


def _general(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The function called through the general checks only."""
    mask = kwargs.pop("mask", None)
    query, key, value = [*args, None, None, None][:3]
    inputs, additive, weights, numbers = f._arguments(query, key, value, mask, kwargs)
    return f._function(*inputs, additive, *weights, *numbers)


def _as32(weights: dict[str, Any]) -> dict[str, Any]:
    return {name: array.astype(np.float32) for name, array in weights.items()}


CALLS = [
    ("float64 self-attention", "none", lambda x, w: ((x,), {})),
    ("float32, weights given", "none", lambda x, w: ((x.astype(np.float32),), _as32(w))),
    ("float64 weights cast", "none", lambda x, w: ((x.astype(np.float32),), w)),
    ("causal", "causal", lambda x, w: ((x,), {"w_q": w["w_q"]})),
    ("cross-attention", "none", lambda x, w: ((x, x[:, :2], x[:, 1:3]), {})),
    ("bias as a vector", "none", lambda x, w: ((x,), {"b_q": np.array([1.0, 0, 0, -1])})),
    ("bias as a row", "none", lambda x, w: ((x,), {"b_q": np.array([[1.0, 0, 0, -1]])})),
]


@pytest.mark.parametrize(("what", "mask", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_the_usual_call_is_checked_at_once_and_gives_the_same_output(
    what: str, mask: str, call: Any
) -> None:
    f = compile(_spec(mask))
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 5, 4))
    w = {n: rng.normal(size=(4, 4)) for n in ("w_q", "w_k", "w_v", "w_o")}
    args, weights = call(x, w)
    query, key, value = [*args, None, None][:3]
    assert f._fast(query, key, value, None, weights) is not None  # it took the fast way
    got = f(*args, **weights)
    want = _general(f, *args, **weights)
    assert got.dtype == want.dtype == args[0].dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((np.zeros((2, 4)).tolist(),), {}),  # a list: converted the general way
        ((np.zeros((2, 4), dtype=int),), {}),  # integers give float64
        ((np.zeros((2, 4)),), {"mask": "causal"}),
        ((np.zeros((2, 4)),), {"w_q": np.zeros((4, 4)).tolist()}),
        ((np.zeros((2, 3)),), {}),  # a wrong width: the general message
        ((np.zeros((1, 2, 4)), np.zeros((3, 2, 4))), {}),  # batches that broadcast
        ((np.zeros((2, 4)),), {"w_x": np.zeros((4, 4))}),
    ],
)
def test_any_other_call_goes_the_general_way(args: tuple[Any, ...], kwargs: dict) -> None:
    f = compile(_spec())
    mask = kwargs.pop("mask", None)
    query, key, value = [*args, None, None][:3]
    assert f._fast(query, key, value, mask, kwargs) is None


def test_a_wrong_width_keeps_its_message() -> None:
    f = compile(_spec())
    with pytest.raises(ValueError) as error:
        f(np.zeros((2, 3)))
    assert str(error.value) == (
        "query has shape (2, 3) but the spec needs (..., L, 4): rows of 4 features"
    )


def test_a_weight_of_the_wrong_shape_keeps_its_message() -> None:
    f = compile(_spec())
    with pytest.raises(ValueError) as error:
        f(np.zeros((2, 4)), w_q=np.zeros((4, 3)))
    assert str(error.value) == "w_q has shape (4, 3) but the spec's is (4, 4)"
