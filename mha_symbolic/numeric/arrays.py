"""What a compiled function needs from its array library: conversion, dtypes, masks, checks."""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp


class NumpyArrays:
    """What the call needs from an array library: conversion, dtypes, masks."""

    def __init__(self) -> None:
        import numpy

        self.xp: Any = numpy

    def asarray(self, value: Any, name: str) -> Any:
        try:
            array = self.xp.asarray(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} is not an array of numbers: {exc}") from None
        kind = getattr(array.dtype, "kind", "f")
        if kind == "c":  # numpy would drop the imaginary part with only a warning
            raise ValueError(f"{name} has complex dtype {array.dtype}; attention here is real")
        if kind not in "biuf":
            raise ValueError(f"{name} is not an array of numbers (dtype {array.dtype})")
        return array

    def float_dtype(self, array: Any) -> Any:
        floating = self.xp.issubdtype(array.dtype, self.xp.floating)
        return array.dtype if floating else self.xp.dtype("float64")

    def cast(self, array: Any, dtype: Any, like: Any = None) -> Any:
        return array if array.dtype == dtype else array.astype(dtype)

    def cache_key(self, dtype: Any, like: Any) -> Any:
        return dtype

    def from_exact(self, matrix: sp.MatrixBase, like: Any) -> Any:
        return self.xp.array([[float(entry) for entry in row] for row in matrix.tolist()])

    def causal(self, lq: int, lk: int, dtype: Any, like: Any) -> Any:
        return _causal_numpy(lq, lk, self.xp.dtype(dtype).str)

    def additive(self, mask: Any, dtype: Any, like: Any) -> Any:
        mask = self.asarray(mask, "mask")
        if mask.dtype == bool or self.xp.issubdtype(mask.dtype, self.xp.integer):
            return self.xp.where(self._allowed(mask), 0.0, -self.xp.inf).astype(dtype)
        self._finite_biases(bool(self.xp.isnan(mask).any()), bool(self.xp.isposinf(mask).any()))
        return self.cast(mask, dtype)

    @staticmethod
    def _finite_biases(nan: bool, positive_infinity: bool) -> None:
        """An additive mask adds 0 (attend), -inf (blocked) or a finite bias to each score."""
        if nan or positive_infinity:
            raise ValueError(
                f"mask holds {'NaN' if nan else '+inf'}; an additive mask holds 0, -inf "
                "(blocked) or finite biases"
            )

    def _allowed(self, mask: Any) -> Any:
        if mask.dtype != bool and not ((mask == 0) | (mask == 1)).all():
            raise ValueError("an integer mask holds 0 (blocked) or 1 (may attend) only")
        return mask != 0

    def reduce_to(self, array: Any, shape: tuple[int, ...]) -> Any:
        """A gradient summed over the axes its input was broadcast along."""
        extra = len(array.shape) - len(shape)
        axes = tuple(range(extra)) + tuple(
            extra + i for i, n in enumerate(shape) if n == 1 and array.shape[extra + i] != 1
        )
        return array.sum(axes, keepdims=True).reshape(shape) if axes else array

    def blocked_row(self, additive: Any) -> tuple[int, ...] | None:
        blocked = self.xp.isneginf(additive).all(axis=-1)
        if not blocked.any():
            return None
        return tuple(int(i) for i in self.xp.argwhere(blocked)[0])


@functools.lru_cache(maxsize=16)
def _causal_numpy(lq: int, lk: int, dtype: str) -> Any:
    import numpy

    allowed = numpy.tri(lq, lk, dtype=bool)
    mask = numpy.where(allowed, 0.0, -numpy.inf).astype(dtype)
    mask.flags.writeable = False
    return mask


class JaxArrays(NumpyArrays):
    def __init__(self) -> None:
        try:
            import jax.numpy
        except ImportError:
            raise ImportError("backend='jax' needs JAX: pip install 'mha-symbolic[jax]'") from None
        self.xp = jax.numpy

    def causal(self, lq: int, lk: int, dtype: Any, like: Any) -> Any:
        return self.xp.asarray(_causal_numpy(lq, lk, "<f8"), dtype=dtype)


class TorchArrays(NumpyArrays):
    def __init__(self) -> None:
        try:
            import torch
        except ImportError:
            raise ImportError(
                "backend='torch' needs torch: pip install 'mha-symbolic[torch]'"
            ) from None
        self.xp = torch

    def asarray(self, value: Any, name: str) -> Any:
        try:
            tensor = self.xp.as_tensor(value)
        except (TypeError, ValueError, RuntimeError) as exc:
            raise ValueError(f"{name} is not an array of numbers: {exc}") from None
        if tensor.is_complex():  # torch would drop the imaginary part with only a warning
            raise ValueError(f"{name} has complex dtype {tensor.dtype}; attention here is real")
        return tensor

    def float_dtype(self, array: Any) -> Any:
        return array.dtype if array.is_floating_point() else self.xp.float64

    def cast(self, array: Any, dtype: Any, like: Any = None) -> Any:
        device = array.device if like is None else like.device
        return array.to(dtype=dtype, device=device)

    def cache_key(self, dtype: Any, like: Any) -> Any:
        return (dtype, like.device)

    def from_exact(self, matrix: sp.MatrixBase, like: Any) -> Any:
        rows = [[float(entry) for entry in row] for row in matrix.tolist()]
        return self.xp.tensor(rows, dtype=self.xp.float64)

    def causal(self, lq: int, lk: int, dtype: Any, like: Any) -> Any:
        allowed = self.xp.ones(lq, lk, dtype=self.xp.bool, device=like.device).tril()
        return self.additive(allowed, dtype, like)

    def additive(self, mask: Any, dtype: Any, like: Any) -> Any:
        mask = self.asarray(mask, "mask").to(device=like.device)
        if mask.dtype == self.xp.bool or not mask.is_floating_point():
            zero = self.xp.zeros((), dtype=dtype, device=like.device)
            blocked = self.xp.full((), -float("inf"), dtype=dtype, device=like.device)
            return self.xp.where(self._allowed(mask), zero, blocked)
        self._finite_biases(bool(self.xp.isnan(mask).any()), bool(self.xp.isposinf(mask).any()))
        return mask.to(dtype=dtype)

    def blocked_row(self, additive: Any) -> tuple[int, ...] | None:
        blocked = self.xp.isneginf(additive).all(dim=-1)
        if not bool(blocked.any()):
            return None
        return tuple(int(i) for i in self.xp.argwhere(blocked)[0])


ARRAYS: dict[str, type[NumpyArrays]] = {
    "numpy": NumpyArrays,
    "torch": TorchArrays,
    "jax": JaxArrays,
}
