"""Head reshaping and rotary positions for array libraries with NumPy's API (``xp``)."""

import numpy as xp  # the generated code binds xp to numpy or jax.numpy


# prelude: the lines above are for linters only
def split_heads(x, heads):
    """(..., L, h d) -> (..., h, L, d)"""
    return x.reshape(*x.shape[:-1], heads, x.shape[-1] // heads).swapaxes(-2, -3)


def merge_heads(x):
    """(..., h, L, d) -> (..., L, h d)"""
    x = x.swapaxes(-2, -3)
    return x.reshape(*x.shape[:-2], x.shape[-2] * x.shape[-1])


def stack_heads(*matrices):
    return xp.stack(matrices, axis=-3)


def concat_columns(*matrices):
    rows = xp.broadcast_shapes(*(m.shape[:-1] for m in matrices))
    return xp.concatenate([xp.broadcast_to(m, (*rows, m.shape[-1])) for m in matrices], -1)


def rope(x, base, pairs, sign):
    """Rotary positions: row p's feature pairs turned by sign * p * base^(-2j/d).

    ``pairs``: "halves" pairs feature j with j + d/2, "interleaved" 2j with 2j + 1.
    """
    length, width = x.shape[-2], x.shape[-1]
    inverse = base ** (-2.0 * xp.arange(width // 2) / width)
    angles = xp.arange(length)[:, None] * inverse[None, :]
    cos, sin = xp.cos(angles).astype(x.dtype), (sign * xp.sin(angles)).astype(x.dtype)
    if pairs == "halves":
        first, second = x[..., : width // 2], x[..., width // 2 :]
        return xp.concatenate([first * cos - second * sin, second * cos + first * sin], -1)
    even, odd = x[..., 0::2], x[..., 1::2]
    turned = xp.stack([even * cos - odd * sin, even * sin + odd * cos], -1)
    return turned.reshape(x.shape)
