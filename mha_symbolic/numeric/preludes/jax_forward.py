"""The JAX backend's forward helpers."""

# prelude: the lines above are for linters only
import jax  # noqa: F401 (the softmax helper calls jax.nn)
import jax.numpy as jnp

xp = jnp
