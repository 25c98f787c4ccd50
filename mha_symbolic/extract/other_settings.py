"""A page about the softmax shows it at two settings: the scores soft-maxed as they are, then
divided by √d_k and soft-maxed again. The numbers find one of them (a relation holds); the
other's weights, printed right after the scores of their own setting, are that setting's
(not a wrong print of the example's weights)."""

from __future__ import annotations

import numpy as np

from mha_symbolic.extract.infer import Inference
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.softmax_arguments import PROJECTED


def other_setting(seen: list[Seen], groups: list[list[int]], inference: Inference) -> set[int]:
    """On a softmax page (nothing projected), the weights only a name makes (no relation ties
    them to an example) printed right after a print of their shape that is not what the
    example's softmax takes (the scores before the scale when the softmax takes them scaled):
    another setting's. Weights printed after the example's own logits, or after scores the
    numbers find scaled or masked, stay its (a slip to judge)."""
    if any(s.role in PROJECTED or s.role == "x" for s in seen):
        return set()  # a page that projects: its weights' prints are its examples'
    arrays = {p.index: p for p in inference.search.arrays}
    taken = _softmax_arguments(inference)
    out = set()
    for n, group in enumerate(groups):
        if seen[group[0]].role != "weights" or n in inference.roles or n in inference.chosen:
            continue  # a role the numbers give (the scores a softmax takes, whatever its name)
        before = arrays.get(n - 1)
        if n not in arrays or before is None or before.shape != arrays[n].shape:
            continue
        if _weights(inference, before.index) or seen[groups[n - 1][0]].role == "weights":
            continue  # after other weights (a row soft-maxed unscaled): no scores of its own
        arguments = taken.get(arrays[n].shape, [])
        scaled = before.index in inference.chosen and _scaling(inference, before.index)
        if arguments and not scaled and not any(_same(before, a) for a in arguments):
            out.add(n)
    return out


def _weights(inference: Inference, index: int) -> bool:
    match = inference.chosen.get(index)
    return match is not None and match.node.kind.startswith("softmax")


def _scaling(inference: Inference, index: int) -> bool:
    """Whether the numbers explain a print as scores scaled or masked (a softmax's logits),
    or as a print again of such scores."""
    first = inference.first_print(index)
    match = inference.chosen.get(index if first is None else first)
    return match is not None and match.node.kind in ("scale", "mask")


def _softmax_arguments(inference: Inference) -> dict[tuple[int, int], list[np.ndarray]]:
    """The logits each found softmax takes, by the shape of its weights."""
    out: dict[tuple[int, int], list[np.ndarray]] = {}
    for match in inference.chosen.values():
        node = match.node
        if node.kind.startswith("softmax") and node.operands:
            out.setdefault(node.shape, []).append(node.operands[0].mid)
    return out


def _same(printed: Printed, logits: np.ndarray) -> bool:
    """Whether a print is those logits, to its printed digits."""
    if printed.mid.shape != logits.shape:
        return False
    with np.errstate(invalid="ignore"):
        near = np.abs(printed.mid - logits) <= printed.rad + 1e-9 * np.abs(logits)
    return bool((near | (np.isinf(printed.mid) & (printed.mid == logits))).all())
