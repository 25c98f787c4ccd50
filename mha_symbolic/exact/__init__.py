"""Exact evaluation of the model: Derivation and Steps, gradients, limits."""
