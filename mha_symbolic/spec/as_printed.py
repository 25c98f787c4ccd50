"""What a document prints about its weights that differs from what its arithmetic uses: weights
printed transposed (``printed_transposed = ["w_o"]``) and shapes stated otherwise than the
products use them (``printed_shapes = { w_q = [4, 2] }``). The spec holds the weights as the
arithmetic uses them; the solution says what the document printed, at the weights' step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.text import did_you_mean, one_line

WEIGHT_NAMES = ("w_q", "w_k", "w_v", "w_o")


def _known(key: str, name: str) -> None:
    if name not in WEIGHT_NAMES:
        raise SpecError(f"{key}: unknown weight '{name}'{did_you_mean(name, WEIGHT_NAMES)}")


def _given(values: Mapping[str, Any]) -> set[str]:
    """The weight names the normalized spec holds numbers for."""
    return {name for name in WEIGHT_NAMES if name in values["weights"]}


def printed_transposed(value: Any, values: Mapping[str, Any]) -> frozenset[str]:
    """``printed_transposed = ["w_o"]``: names of weights the spec gives (and not symbolic)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(
            f"printed_transposed must be a list of weight names, got {one_line(repr(value))}"
        )
    for name in value:
        _known("printed_transposed", name)
        if name in values["omitted"] or name in values["symbolic"] or name not in _given(values):
            raise SpecError(f"printed_transposed: '{name}' has no numbers in [weights]")
    return frozenset(value)


def printed_shapes(value: Any, values: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """``printed_shapes = { w_q = [4, 2] }``: the shape the document states for weights (numbers
    or symbols) whose products use another one (seed 002: (4, 2), then (8, 2) x (2, 2))."""
    if not isinstance(value, Mapping):
        raise SpecError(
            "printed_shapes must be a table of weight names and shapes, like "
            f"{{ w_q = [4, 2] }}, got {one_line(repr(value))}"
        )
    out = {}
    for name, shape in value.items():
        _known("printed_shapes", name)
        if name in values["omitted"] or name not in _given(values):
            raise SpecError(f"printed_shapes: '{name}' is not in [weights]")
        whole = isinstance(shape, list) and len(shape) == 2
        if not whole or not all(type(n) is int and n > 0 for n in shape):
            raise SpecError(
                f"printed_shapes.{name} must be [rows, columns], two positive whole numbers, "
                f"got {one_line(repr(shape))}"
            )
        held = tuple(values["weights"][name][0].shape)
        if tuple(shape) == held:
            raise SpecError(
                f"printed_shapes.{name}: ({shape[0]}, {shape[1]}) is the shape it has here; "
                "list only a shape the document states differently"
            )
        out[name] = (shape[0], shape[1])
    return out
