"""The common call of a compiled NumPy function checked in a few microseconds: NumPy float
arrays of the shapes the spec needs, weights given as arrays or left to the spec's.

Everything a call's checks read from the spec (widths, the weights' shapes, which are
required) is worked out once here. A call that is anything else (lists, another dtype kind, a
mask, per-head weights, broadcast batch shapes, a wrong shape) goes the general way
(:meth:`AttentionFunction._arguments`), which converts what it can and names what is wrong:
the fast way never raises, so every message stays the general way's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mha_symbolic.numeric.arrays import _causal_numpy
from mha_symbolic.numeric.codegen import Argument

Checked = tuple[tuple[Any, Any, Any], Any, list[Any], list[float]]


class FastCall:
    """The checks of :meth:`AttentionFunction._arguments` for the usual call, precomputed."""

    def __init__(self, function: Any) -> None:
        import numpy

        spec = function.spec
        arguments: tuple[Argument, ...] = function.program.arguments
        self.usable = (
            function.backend == "numpy"
            and spec.has_inputs
            and not spec.parameters
            and spec.mask_kind in ("none", "causal")
            and all(argument.head is None for argument in arguments)
        )
        self.ndarray = numpy.ndarray
        self.causal = spec.mask_kind == "causal"
        self.widths = (spec.query.cols, spec.key.cols, spec.value.cols)
        self.names = frozenset(function.weight_names)
        self.required = tuple(function.required)
        # (keyword, the shape it must have, a bias (a vector is taken too), the argument)
        self.weights = tuple(
            (a.name, tuple(int(n) for n in a.symbol.shape), a.name.startswith("b_"), a)
            for a in arguments
        )
        self.default = function._default

    def __call__(
        self, query: Any, key: Any, value: Any, mask: Any, weights: Mapping[str, Any]
    ) -> Checked | None:
        """What the general checks return for this call, or None: go the general way."""
        if not self.usable or mask is not None or type(query) is not self.ndarray:
            return None
        dtype = query.dtype
        if dtype.kind != "f":
            return None
        key = query if key is None else key
        value = key if value is None else value
        inputs = (query, key, value)
        if not self._inputs_fit(inputs, dtype):
            return None
        args = self._weights(weights, dtype, query)
        if args is None:
            return None
        lengths = (query.shape[-2], key.shape[-2])
        additive = _causal_numpy(*lengths, dtype.str) if self.causal else None
        return inputs, additive, args, []

    def _inputs_fit(self, inputs: tuple[Any, Any, Any], dtype: Any) -> bool:
        """NumPy arrays of the query's dtype, rows of the spec's widths, one batch shape."""
        query, key, value = inputs
        if key is query and value is query:  # self-attention: one array to look at
            shape = query.shape
            return len(shape) >= 2 and shape[-1] == self.widths[0] and shape[-2] > 0
        batch = query.shape[:-2]
        for array, width in zip(inputs, self.widths):
            if type(array) is not self.ndarray or array.dtype != dtype:
                return False
            shape = array.shape
            if len(shape) < 2 or shape[-1] != width or shape[-2] == 0 or shape[:-2] != batch:
                return False
        return bool(key.shape[-2] == value.shape[-2])

    def _weights(self, given: Mapping[str, Any], dtype: Any, like: Any) -> list[Any] | None:
        if not self.names.issuperset(given):
            return None
        for name in self.required:
            if name not in given:
                return None
        out = []
        for name, need, bias, argument in self.weights:
            array = given.get(name, self)  # self: not given
            if array is self:
                out.append(self.default(argument, dtype, like))
                continue
            if type(array) is not self.ndarray:
                return None
            if array.dtype is not dtype:
                if array.dtype.kind != "f":
                    return None
                array = array.astype(dtype) if array.dtype != dtype else array
            if array.shape == need:
                out.append(array)
            elif bias and array.shape == need[1:]:
                out.append(array[None, :])
            else:
                return None
        return out
