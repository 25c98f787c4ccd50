"""compile(spec): a fast batched attention function generated from the symbolic form."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, overload

import sympy as sp

from mha_symbolic.numeric import backprop, codegen
from mha_symbolic.numeric.arrays import ARRAYS
from mha_symbolic.numeric.fast_call import Checked, FastCall
from mha_symbolic.spec.attention import AttentionSpec


@overload
def compile(
    spec: AttentionSpec, backend: str = ..., gradients: Literal[False] = ...
) -> AttentionFunction: ...


@overload
def compile(spec: AttentionSpec, backend: str, gradients: Literal[True]) -> GradientFunction: ...


@overload
def compile(
    spec: AttentionSpec, backend: str = ..., *, gradients: Literal[True]
) -> GradientFunction: ...


def compile(
    spec: AttentionSpec, backend: str = "numpy", gradients: bool = False
) -> AttentionFunction:
    """The spec's attention as a batched ``numpy``, ``torch`` or ``jax`` function.

    The code is printed from the structural expression of :func:`codegen.program` (see
    ``f.source`` and ``f.expr``); :class:`AttentionFunction` documents the call. With
    ``gradients=True`` the function is the backward pass (:class:`GradientFunction`): the
    loss and its gradients, printed from :func:`backprop.program` (torch: its forward pass and
    loss, differentiated by one ``torch.autograd.grad`` call in the generated code).
    """
    if backend not in codegen.BACKENDS:
        raise ValueError(
            f"unknown backend {backend!r}; choose one of {', '.join(codegen.BACKENDS)}"
        )
    _require(backend)
    if gradients:
        return GradientFunction(backprop.program(spec), backend)
    return AttentionFunction(codegen.program(spec), backend)


# The array library each optional backend imports, and the extra that installs it.
OPTIONAL = {"torch": "torch", "jax": "jax"}


def _require(backend: str) -> None:
    """One line saying how to install a missing backend, before any code is generated."""
    if backend not in OPTIONAL:
        return
    try:
        importlib.import_module(OPTIONAL[backend])
    except ImportError:
        raise ImportError(
            f"the {backend} backend needs {OPTIONAL[backend]}, which is not installed: "
            f'pip install "mha-symbolic[{backend}]"'
        ) from None


class AttentionFunction:
    """``f(query, key=None, value=None, *, mask=None, **weights)``: multi-head attention.

    - Inputs have shape ``(..., L, E)``: any leading batch axes (broadcast between query,
      key and value), any sequence length. ``key`` defaults to ``query``, ``value`` to ``key``.
      The result has the query's floating dtype (float32 in, float32 out; integers give
      float64); weights and masks are cast to it.
    - Weights are keyword arguments named as in the spec (``w_q``, ``w_k``, ``w_v``, ``w_o``,
      ``b_q``, ...), in the spec's own form and convention: one matrix for ``fused``, a list of
      one matrix per head (or an array ``(h, rows, cols)``) for ``per_head`` and ``split``;
      a bias is a vector. They default to the spec's values; a weight the spec gives as
      ``"symbolic"`` must be passed (see :attr:`required`). With ``kv_heads < heads``
      (grouped-query attention) ``w_k``/``w_v`` are given as the spec stores them: each key/value
      head's weights repeated for every query head of its group.
    - A spec that starts past the inputs (``q``/``k``/``v``, ``scores`` or
      ``attention_weights`` with ``v``) takes its given stages the same way: keyword arguments
      ``q``, ``k``, ``v``, ``scores``, ``attention_weights`` (a list of one matrix per head), the
      spec's by default; ``f()`` then needs no input and computes in float64.
    - With ``mask_fill`` (say -1e9) a blocked score is replaced by it, as ``masked_fill``
      does: a row blocking every key gets equal weights rather than an error.
    - ``mask``: ``None`` uses the spec's mask (none, causal, or its 0/1 matrix); ``"none"``
      disables it; ``"causal"`` lets query i attend keys j <= i (top-left aligned, like
      torch's ``is_causal``); a boolean (or 0/1 integer) array marks with True/1 the keys a
      query may attend (like ``scaled_dot_product_attention``, the opposite of
      ``nn.MultiheadAttention``'s ``attn_mask``); a floating array is added to the scaled
      scores (0 attends, ``-inf`` blocks). Its shape is ``(..., L_q, L_k)`` or broadcasts to
      it, one mask for all heads: ``(B, 1, L_k)`` is a key-padding mask.
    - A mask that blocks every key of some query row raises ``ValueError`` naming the row:
      softmax over no keys is undefined, so the function never returns NaN for it.
    - The row max is subtracted before ``exp``: logits of +-1e4 give finite, exact results.

    Bad arguments raise ``ValueError`` with one line naming the argument and the shapes.
    """

    def __init__(self, program: codegen.Program, backend: str) -> None:
        self.program = program
        self.spec = program.spec
        self.backend = backend
        self.source = self._generate()
        namespace: dict[str, Any] = {"math": math}  # a parametric scale may call math.sqrt
        exec(compile_source(self.source, backend), namespace)
        self._function: Callable[..., Any] = namespace[self._entry]
        self._arrays = ARRAYS[backend]()
        self._defaults: dict[tuple[str, Any], Any] = {}
        names = dict.fromkeys(a.name for a in program.arguments)
        self.weight_names: tuple[str, ...] = tuple(names)
        # Weights without numeric defaults: given as "symbolic" (or with symbols) in the spec.
        self.required: tuple[str, ...] = tuple(
            name for name in names if _has_symbols(self._matrices(name))
        )
        self._fast = FastCall(self)  # the usual call's checks, worked out once

    _entry = "attention"  # the generated function

    def _generate(self) -> str:
        return codegen.source(self.program, self.backend)

    @property
    def expr(self) -> sp.Basic:
        """The output as one structural SymPy expression (``f.program`` has the steps)."""
        return self.program.expr

    @property
    def signature(self) -> str:
        """How to call it: ``f(query, key=None, value=None, *, mask=None, w_q=..., tau)``;
        weights with a default from the spec end in ``=...``, required ones do not."""
        weights = [name if name in self.required else f"{name}=..." for name in self.weight_names]
        parameters = list(self.spec.parameters)
        keywords = ", ".join(["mask=None", *weights, *parameters])
        if not self.spec.has_inputs:  # it starts at the given Q, K, V, scores or weights
            return f"f(*, {keywords})"
        return f"f(query, key=None, value=None, *, {keywords})"

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.spec.title!r} backend={self.backend}: {self.signature}>"
        )

    def _matrices(self, name: str) -> Sequence[sp.MatrixBase]:
        """An argument's matrices in the spec: a weight, or a given stage (q, scores, ...)."""
        return self.spec.weights[name] if name in self.spec.weights else getattr(self.spec, name)

    def __call__(
        self,
        query: Any = None,
        key: Any = None,
        value: Any = None,
        *,
        mask: Any = None,
        **weights: Any,
    ) -> Any:
        flat = self._fast.arguments(query, key, value, mask, weights)  # the usual call, at once
        if flat is not None:
            return self._function(*flat)
        inputs, additive, args, numbers = self._arguments(query, key, value, mask, weights)
        return self._function(*inputs, additive, *args, *numbers)

    def _checked(
        self, query: Any, key: Any, value: Any, mask: Any, weights: dict[str, Any]
    ) -> Checked:
        """The arguments checked: the usual call in microseconds (:mod:`.fast_call`), any
        other the general way."""
        fast = self._fast(query, key, value, mask, weights)
        return fast if fast is not None else self._arguments(query, key, value, mask, weights)

    def _arguments(
        self, query: Any, key: Any, value: Any, mask: Any, weights: dict[str, Any]
    ) -> Checked:
        """(query, key, value), the additive mask, the weights and the parameters, checked."""
        arrays = self._arrays
        if query is None:  # an example that starts at Q, K and V (or later): no input
            if self.spec.has_inputs:
                raise ValueError("query is needed: the spec computes attention of its inputs")
            query, key, value = (arrays.from_exact(m, None) for m in self._lengths())
        query = arrays.asarray(query, "query")
        dtype = arrays.float_dtype(query)
        query = arrays.cast(query, dtype)
        key = query if key is None else arrays.cast(arrays.asarray(key, "key"), dtype)
        value = key if value is None else arrays.cast(arrays.asarray(value, "value"), dtype)
        lq, lk = self._check_inputs(query, key, value)
        additive = self._mask(mask, lq, lk, dtype, query)
        numbers = self._parameters(weights)
        args = self._weights(weights, dtype, query)
        return (query, key, value), additive, args, numbers

    def _lengths(self) -> tuple[sp.MatrixBase, ...]:
        """Zero-width stand-ins for the inputs of a spec without them: they carry L_q, L_k."""
        return (self.spec.query, self.spec.key, self.spec.value)

    def _parameters(self, given: dict[str, Any]) -> list[float]:
        """The spec's declared parameters (``tau=0.5``), taken out of the keyword arguments."""
        numbers = []
        for name in self.spec.parameters:
            if name not in given:
                raise ValueError(f"{name} is a parameter of the spec; pass {name}= a number")
            numbers.append(float(given.pop(name)))
        return numbers

    # ------------------------------------------------------------------ checks
    def _check_inputs(self, query: Any, key: Any, value: Any) -> tuple[int, int]:
        for name, array in (("query", query), ("key", key), ("value", value)):
            width = getattr(self.spec, name).cols
            shape = tuple(array.shape)
            if len(shape) < 2 or shape[-1] != width:
                raise ValueError(
                    f"{name} has shape {shape} but the spec needs (..., L, {width}): "
                    f"rows of {width} features"
                )
            if shape[-2] == 0:
                raise ValueError(
                    f"{name} has shape {shape}: an empty sequence (0 tokens); attention needs "
                    "at least one token"
                )
        if key.shape[-2] != value.shape[-2]:
            raise ValueError(
                f"key has {key.shape[-2]} rows (shape {tuple(key.shape)}) but value has "
                f"{value.shape[-2]} (shape {tuple(value.shape)}); each key needs one value"
            )
        _broadcast("query, key and value", [tuple(a.shape[:-2]) for a in (query, key, value)])
        return int(query.shape[-2]), int(key.shape[-2])

    def _mask(self, mask: Any, lq: int, lk: int, dtype: Any, like: Any) -> Any:
        """The additive mask (0 attends, -inf blocks) for the generated code, or None."""
        given = self.spec_mask(lq, lk) if mask is None else mask
        if given is None or (isinstance(given, str) and given == "none"):
            return None
        if isinstance(given, str):
            if given != "causal":
                raise ValueError(f"mask {given!r} is unknown; give 'causal', 'none' or an array")
            additive = self._arrays.causal(lq, lk, dtype, like)
        else:
            additive = self._arrays.additive(given, dtype, like)
        shape = tuple(additive.shape)
        if len(shape) < 2 or any(n not in (1, m) for n, m in zip(shape[-2:], (lq, lk))):
            raise ValueError(
                f"mask has shape {shape} but the scores have shape (..., {lq}, {lk}) "
                "(queries x keys)"
            )
        blocked = self._arrays.blocked_row(additive)
        if blocked is not None and self.spec.mask_fill == -sp.oo:  # masked_fill: equal weights
            where = f" (batch index {blocked[:-1]})" if len(blocked) > 1 else ""
            raise ValueError(
                f"mask blocks every key in query row {blocked[-1] + 1}{where}; softmax over "
                "no keys is undefined (allow at least one key per row)"
            )
        if self.program.head_axis and len(shape) > 2:
            additive = additive[..., None, :, :]
        return additive

    def spec_mask(self, lq: int, lk: int) -> Any:
        """The spec's own mask for these lengths: None, "causal" or its 0/1 matrix."""
        spec = self.spec
        if spec.mask_kind == "none":
            return None
        if spec.mask_kind == "causal":
            return "causal"
        assert spec.mask is not None
        if (spec.mask.rows, spec.mask.cols) != (lq, lk):
            raise ValueError(
                f"the spec's mask has shape {(spec.mask.rows, spec.mask.cols)} but the scores "
                f"have shape (..., {lq}, {lk}); pass mask= for other lengths"
            )
        return self._arrays.from_exact(spec.mask, None) != 0

    def _weights(self, given: Mapping[str, Any], dtype: Any, like: Any) -> list[Any]:
        unknown = sorted(set(given) - set(self.weight_names))
        if unknown:
            raise ValueError(
                f"unknown weight {unknown[0]!r}; this spec takes {', '.join(self.weight_names)}"
            )
        missing = [name for name in self.required if name not in given]
        if missing:
            raise ValueError(
                f"{missing[0]} is symbolic in the spec; pass {missing[0]}= "
                f"{self._expected(missing[0])}"
            )
        return [
            self._given(argument, given[argument.name], dtype, like)
            if argument.name in given
            else self._default(argument, dtype, like)
            for argument in self.program.arguments
        ]

    def _expected(self, name: str) -> str:
        shapes = [(m.rows, m.cols) for m in self._matrices(name)]
        if all(a.head is None for a in self.program.arguments if a.name == name):
            return f"an array of shape {shapes[0]}"
        return f"{len(shapes)} arrays of shapes {', '.join(map(str, shapes))} (one per head)"

    def _given(self, argument: codegen.Argument, value: Any, dtype: Any, like: Any) -> Any:
        arrays = self._arrays
        if argument.head is not None:
            heads = len(self._matrices(argument.name))
            if len(value) != heads:
                raise ValueError(
                    f"{argument.name} has {len(value)} matrices but the spec has {heads} heads"
                )
            value = value[argument.head]
        array = arrays.cast(arrays.asarray(value, argument.label), dtype, like)
        need = tuple(argument.symbol.shape)
        shape = tuple(array.shape)
        if argument.name.startswith("b_") and shape == need[1:]:
            return array[None, :]
        if shape != need:
            raise ValueError(f"{argument.label} has shape {shape} but the spec's is {need}")
        return array

    def _default(self, argument: codegen.Argument, dtype: Any, like: Any) -> Any:
        """The spec's value of the argument as an array of this dtype (and device), cached."""
        key = (argument.code, self._arrays.cache_key(dtype, like))
        if key not in self._defaults:
            exact = self._matrices(argument.name)[argument.head or 0]
            array = self._arrays.from_exact(exact, like)
            self._defaults[key] = self._arrays.cast(array, dtype, like)
        return self._defaults[key]


class GradientFunction(AttentionFunction):
    """``g(query, key=None, value=None, *, mask=None, target=None, **weights)``: the loss and
    its gradients, from a backward pass generated and printed like the forward one.

    The arguments are those of :class:`AttentionFunction` (batch axes, dtype, weights,
    masks, parameters), plus ``target`` when the spec's [loss] is ``mse``: the target T, shape
    ``(..., L_q, n)`` (default: the spec's). It returns a dict:

    - ``"loss"``: each example's loss, the sum of the output's entries or 1/2 ||O - T||^2, in
      the batch shape (a scalar without batch axes);
    - the inputs' gradients, per example, each in its input's shape: ``"x"`` for ``g(x)``
      (the shares of query, key and value added up), else ``"query"``, ``"key"`` (with the
      value's share when ``value`` is omitted) and ``"value"``;
    - every weight's gradient under its keyword (``"w_q"``, ``"b_o"``, ...), summed over the
      batch (the gradient of the summed loss), in the form the weight is given: a matrix as
      given (its convention kept), a bias as a vector, and a list with one per head for
      ``per_head`` and ``split`` weights. Weights the spec omits (identity) get none, as in
      ``derive(spec, gradients=True)``.

    Blocked positions of the mask get exactly 0 gradient; a fully blocked row raises
    ``ValueError``, as in the forward pass. The torch backend's code runs the forward pass on
    fresh leaves and ``torch.autograd.grad`` (grad enabled inside, so it works under
    ``torch.no_grad()``; the caller's tensors get no ``.grad`` and the results none).
    """

    _entry = "attention_gradients"

    def __init__(self, program: backprop.GradientProgram, backend: str) -> None:
        self.gradient_program = program
        super().__init__(program.forward, backend)

    def _generate(self) -> str:
        return backprop.source(self.gradient_program, self.backend)

    def __call__(
        self,
        query: Any = None,
        key: Any = None,
        value: Any = None,
        *,
        mask: Any = None,
        target: Any = None,
        **weights: Any,
    ) -> dict[str, Any]:
        inputs, additive, args, numbers = self._checked(query, key, value, mask, weights)
        targets = self._target(target, inputs)
        loss, *grads = self._function(*inputs, additive, *args, *targets, *numbers)
        out = {"loss": loss}
        if self.spec.has_inputs:  # a spec without inputs has only its given stages' gradients
            out.update(self._input_gradients(inputs, grads[:3], key is None, value is None))
        for gradient, array in zip(self.gradient_program.gradients[3:], grads[3:]):
            array = array[0] if gradient.name.startswith("b_") else array
            if gradient.head is None:
                out[gradient.name] = array
            else:
                out.setdefault(gradient.name, []).append(array)
        return out

    def _input_gradients(
        self, inputs: tuple[Any, Any, Any], grads: list[Any], no_key: bool, no_value: bool
    ) -> dict[str, Any]:
        """The inputs' gradients: each share in its input's shape, added up where one input
        served as another (``x`` when key and value default to the query)."""
        shares = dict(zip(codegen.INPUTS, grads))
        for name, array in zip(codegen.INPUTS, inputs):
            shares[name] = self._arrays.reduce_to(shares[name], tuple(array.shape))
        if no_value:
            shares["key"] = shares["key"] + shares.pop("value")
        if no_key:
            shares["query"] = shares["query"] + shares.pop("key")
        return {"x": shares["query"]} if no_key and no_value else shares

    def _target(self, target: Any, inputs: tuple[Any, Any, Any]) -> list[Any]:
        """[T] for the mse loss (given or the spec's), [] for the sum."""
        symbol = self.gradient_program.target
        if symbol is None:
            if target is not None:
                raise ValueError("target is only for the mse loss; the spec's loss is the sum")
            return []
        arrays, query = self._arrays, inputs[0]
        dtype = query.dtype
        lq, cols = int(query.shape[-2]), int(symbol.shape[1])
        if target is None:
            loss = self.spec.loss
            assert loss is not None and loss.target is not None
            if loss.target.rows != lq:
                raise ValueError(
                    f"the spec's target has shape {(loss.target.rows, cols)} but the output has "
                    f"shape (..., {lq}, {cols}); pass target= for other lengths"
                )
            return [self._default_target(dtype, query)]
        array = arrays.cast(arrays.asarray(target, "target"), dtype, query)
        shape = tuple(array.shape)
        if len(shape) < 2 or shape[-2:] != (lq, cols):
            raise ValueError(
                f"target has shape {shape} but the output has shape (..., {lq}, {cols})"
            )
        batch = _broadcast("query, key and value", [tuple(a.shape[:-2]) for a in inputs])
        if _broadcast("the inputs and target", [batch, shape[:-2]]) != batch:
            raise ValueError(
                f"target has batch shape {shape[:-2]} but the inputs have {batch}; "
                "give one target per example or one for all"
            )
        return [array]

    def _default_target(self, dtype: Any, like: Any) -> Any:
        key = ("target", self._arrays.cache_key(dtype, like))
        if key not in self._defaults:
            loss = self.spec.loss
            assert loss is not None and loss.target is not None
            array = self._arrays.from_exact(loss.target, like)
            self._defaults[key] = self._arrays.cast(array, dtype, like)
        return self._defaults[key]


def compile_source(source: str, backend: str) -> Any:
    """The generated source as a code object (named after the backend, for tracebacks)."""
    import builtins

    return builtins.compile(source, f"<mha_symbolic {backend}>", "exec")


def _has_symbols(matrices: Sequence[sp.MatrixBase]) -> bool:
    return any(m.free_symbols for m in matrices)


def _broadcast(what: str, shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """The broadcast of batch shapes, or one ValueError line naming them."""
    size = max(map(len, shapes))
    out = []
    for axis in range(-size, 0):
        sizes = {s[axis] for s in shapes if len(s) >= -axis} - {1}
        if len(sizes) > 1:
            listed = ", ".join(map(str, shapes))
            raise ValueError(f"the batch shapes of {what} do not broadcast: {listed}")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)
