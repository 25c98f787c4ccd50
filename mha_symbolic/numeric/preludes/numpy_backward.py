"""The NumPy backward helpers that work in place."""

import numpy


# prelude: the lines above are for linters only
def pad_columns(x, before, after):
    """[0 | X | 0]: zero columns before and after."""
    return numpy.pad(x, [(0, 0)] * (x.ndim - 1) + [(before, after)])
