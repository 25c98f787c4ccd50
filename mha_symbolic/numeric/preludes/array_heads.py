"""Head reshaping for array libraries with NumPy's API (``xp``)."""

import numpy as xp  # the generated code binds xp to numpy or jax.numpy


# prelude: the lines above are for linters only
def split_heads(x, heads):
    """(..., L, h d) -> (..., h, L, d)"""
    shape = x.shape  # one tuple for reshape: unpacking it shows at tiny shapes
    return x.reshape((*shape[:-1], heads, shape[-1] // heads)).swapaxes(-2, -3)


def merge_heads(x):
    """(..., h, L, d) -> (..., L, h d)"""
    x = x.swapaxes(-2, -3)
    shape = x.shape
    return x.reshape((*shape[:-2], shape[-2] * shape[-1]))


def stack_heads(*matrices):
    return xp.stack(matrices, axis=-3)


def concat_columns(*matrices):
    rows = xp.broadcast_shapes(*(m.shape[:-1] for m in matrices))
    return xp.concatenate([xp.broadcast_to(m, (*rows, m.shape[-1])) for m in matrices], -1)
