"""The NumPy backend's forward helpers: a stable row softmax that can fuse the product."""

# prelude: the lines above are for linters only
import numpy

xp = numpy


def softmax(*terms, right=None):
    """Row softmax of the sum of the terms (None terms skipped), times ``right`` if given.

    The row max is subtracted before exp. With ``right`` the division by the row sums comes
    after the product (L x d divisions, not L x L). The first term, a temporary, is overwritten.
    """
    x, *rest = [term for term in terms if term is not None]
    for term in rest:
        grows = numpy.broadcast_shapes(x.shape, term.shape) != x.shape
        x = x + term if grows else numpy.add(x, term, out=x)
    x -= x.max(axis=-1, keepdims=True)
    numpy.exp(x, out=x)
    total = x.sum(axis=-1, keepdims=True)
    if right is None:
        x /= total
        return x
    out = x @ right
    out /= total
    return out
