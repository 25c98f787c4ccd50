"""The common call of a compiled NumPy function checked in a few microseconds: NumPy float
arrays of the shapes the spec needs, weights given as arrays or left to the spec's.

Everything a call's checks read from the spec (widths, the weights' shapes, which are
required) is worked out once here. A call that is anything else (lists, another dtype kind, a
mask, per-head weights, broadcast batch shapes, a wrong shape) goes the general way
(:meth:`AttentionFunction._arguments`), which converts what it can and names what is wrong:
the fast way never raises, so every message stays the general way's.

At tiny shapes the whole call takes about 25 us, so each attribute read and each temporary
list here shows (the issue's budget for all the checks is 5 us): the arguments come back as
one flat list, ready for the generated function, and the defaults are kept by dtype.
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
        self._defaults: dict[tuple[str, Any], Any] = {}  # (keyword, dtype): the spec's array

    def __call__(
        self, query: Any, key: Any, value: Any, mask: Any, weights: Mapping[str, Any]
    ) -> Checked | None:
        """What the general checks return for this call, or None: go the general way."""
        flat = self.arguments(query, key, value, mask, weights)
        if flat is None:
            return None
        return (flat[0], flat[1], flat[2]), flat[3], flat[4:], []

    def arguments(
        self, query: Any, key: Any, value: Any, mask: Any, weights: Mapping[str, Any]
    ) -> list[Any] | None:
        """The generated function's arguments in order (inputs, additive mask, weights), as
        the general checks make them, or None: go the general way."""
        if mask is not None or type(query) is not self.ndarray or not self.usable:
            return None
        dtype = query.dtype
        if dtype.kind != "f":
            return None
        if key is None and value is None:  # self-attention: one array to look at
            shape = query.shape
            if len(shape) < 2 or shape[-1] != self.widths[0] or shape[-2] == 0:
                return None
            flat: list[Any] = [query, query, query, None]
        else:
            key = query if key is None else key
            value = key if value is None else value
            if not self._inputs_fit((query, key, value), dtype):
                return None
            flat = [query, key, value, None]
        if self.causal:
            flat[3] = _causal_numpy(query.shape[-2], flat[1].shape[-2], dtype.str)
        if weights or self.required:
            return flat if self._weights(weights, dtype, query, flat) else None
        for name, _, _, argument in self.weights:  # the spec's own weights: made once a dtype
            flat.append(self._default_of(name, argument, dtype, query))
        return flat

    def _inputs_fit(self, inputs: tuple[Any, Any, Any], dtype: Any) -> bool:
        """NumPy arrays of the query's dtype, rows of the spec's widths, one batch shape."""
        batch = inputs[0].shape[:-2]
        for array, width in zip(inputs, self.widths):
            if type(array) is not self.ndarray or array.dtype != dtype:
                return False
            shape = array.shape
            if len(shape) < 2 or shape[-1] != width or shape[-2] == 0 or shape[:-2] != batch:
                return False
        return bool(inputs[1].shape[-2] == inputs[2].shape[-2])

    def _weights(self, given: Mapping[str, Any], dtype: Any, like: Any, out: list[Any]) -> bool:
        """``out`` with every weight appended (given ones checked, the rest the spec's);
        False: go the general way."""
        if not self.names.issuperset(given):
            return False
        for name in self.required:
            if name not in given:
                return False
        ndarray = self.ndarray
        for name, need, bias, argument in self.weights:
            array = given.get(name, self)  # self: not given (None is given, and refused)
            if array is self:
                out.append(self._default_of(name, argument, dtype, like))
                continue
            if type(array) is not ndarray:
                return False
            if array.dtype is not dtype:
                if array.dtype.kind != "f":
                    return False
                array = array.astype(dtype) if array.dtype != dtype else array
            if array.shape == need:
                out.append(array)
            elif bias and array.shape == need[1:]:
                out.append(array[None, :])
            else:
                return False
        return True

    def _default_of(self, name: str, argument: Argument, dtype: Any, like: Any) -> Any:
        made = self._defaults.get((name, dtype))
        if made is None:
            made = self._defaults[name, dtype] = self.default(argument, dtype, like)
        return made
