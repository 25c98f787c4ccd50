"""The torch backward helpers (used when the rules are printed rather than autograd)."""

import torch


# prelude: the lines above are for linters only
def pad_columns(x, before, after):
    """[0 | X | 0]: zero columns before and after."""
    return torch.nn.functional.pad(x, (before, after))
