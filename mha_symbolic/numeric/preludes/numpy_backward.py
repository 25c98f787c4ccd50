"""The NumPy backward helpers that work in place."""

import numpy


# prelude: the lines above are for linters only
def softmax_backward(a, g):
    """A o (G - (A o G) 1 1^T): each row's softmax Jacobian diag(a) - a^T a applied to g."""
    out = a * g
    out -= a * out.sum(-1, keepdims=True)
    return out


def pad_columns(x, before, after):
    """[0 | X | 0]: zero columns before and after."""
    return numpy.pad(x, [(0, 0)] * (x.ndim - 1) + [(before, after)])
