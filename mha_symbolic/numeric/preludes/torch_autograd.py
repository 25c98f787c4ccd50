"""The torch backward pass by autograd: the forward pass on fresh leaves, one grad call."""

import torch


# prelude: the lines above are for linters only
def entry_sum(x):
    """1^T X 1 per example: (..., L, n) -> (...)"""
    return x.sum((-2, -1))


def half_squared_norm(x):
    """||X||^2 / 2 per example: (..., L, n) -> (...)"""
    return 0.5 * (x * x).sum((-2, -1))


def leaves(*tensors):
    """New leaves of the autograd graph, sharing memory with the arguments."""
    return [t.detach().requires_grad_() for t in tensors]


def gradients(loss, leaves):
    """The summed loss's gradients: per example for the inputs, summed over the batch for the
    weights (each example's loss depends only on its own inputs)."""
    return torch.autograd.grad(loss.sum(), leaves, allow_unused=True, materialize_grads=True)
