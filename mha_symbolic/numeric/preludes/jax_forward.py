"""The JAX backend's forward helpers."""

# prelude: the lines above are for linters only
import jax
import jax.numpy as jnp

xp = jnp


def softmax(*terms, right=None):
    """Row softmax of the sum of the terms (None terms skipped), times ``right`` if given."""
    logits, *rest = [term for term in terms if term is not None]
    for term in rest:
        logits = logits + term
    weights = jax.nn.softmax(logits, axis=-1)  # subtracts the row max first
    return weights if right is None else weights @ right
