"""The backward pass's helpers for every backend (``xp``: numpy, torch or jax.numpy)."""

import numpy as xp  # the generated code binds xp to its array library

# prelude: the lines above are for linters only
ones_like = xp.ones_like


def column_sums(x):
    """1^T X: (..., L, n) -> (..., 1, n)"""
    return x.sum(-2, keepdims=True)


def batch_sum(x):
    """The sum over the leading (batch) axes: (..., r, c) -> (r, c)"""
    return x.reshape(-1, *x.shape[-2:]).sum(0)


def entry_sum(x):
    """1^T X 1 per example: (..., L, n) -> (...)"""
    return x.sum((-2, -1))


def half_squared_norm(x):
    """||X||^2 / 2 per example: (..., L, n) -> (...)"""
    return 0.5 * (x * x).sum((-2, -1))
