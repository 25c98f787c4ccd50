"""Numeric evaluation of the model: printed NumPy/torch/JAX code, lambdify."""
