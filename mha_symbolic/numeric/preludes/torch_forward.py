"""The torch backend's forward helpers (attention itself is scaled_dot_product_attention)."""

# prelude: the lines above are for linters only
import torch
from torch.nn.functional import scaled_dot_product_attention  # noqa: F401 (generated code calls it)

xp = torch


def split_heads(x, heads):
    """(..., L, h d) -> (..., h, L, d)"""
    return x.unflatten(-1, (heads, -1)).transpose(-2, -3)


def merge_heads(x):
    """(..., h, L, d) -> (..., L, h d)"""
    return x.transpose(-2, -3).flatten(-2)


def stack_heads(*matrices):
    return torch.stack(matrices, dim=-3)


def concat_columns(*matrices):
    rows = torch.broadcast_shapes(*(m.shape[:-1] for m in matrices))
    return torch.cat([m.expand(*rows, m.shape[-1]) for m in matrices], dim=-1)
