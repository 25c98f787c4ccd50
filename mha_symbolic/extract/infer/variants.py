"""One component, several computations: a page that prints the softmax of the raw scores and
then of the scaled ones ("without scaling", "with scaling"), or the weights and then the weights
of the masked scores, prints two examples over the same inputs. Each setting (scale and mask)
its relations apply becomes its own component: the arrays computed with it, what they are
computed from, and what is computed from them; one spec cannot hold two scales or two masks."""

from __future__ import annotations

from collections.abc import Iterable

from mha_symbolic.extract.infer.graph import Inference
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.role_tables import NO_STEP

Setting = tuple[float, str]  # the scale's factor (rounded) and the mask ("" for none)
_SCORES = ("scaled", "softmax_argument", "masked")


def split_variants(inference: Inference) -> list[int]:
    """Components whose steps apply two or more settings, one component per setting (in the
    order the page first prints each); head counts carried over. Returns, per component, the
    number of the one it was cut from."""
    components: list[list[int]] = []
    counts: dict[int, int] = {}
    parents: list[int] = []
    for number, members in enumerate(inference.components):
        for part in _variants(inference, members):
            counts[len(components)] = inference.head_count.get(number, 1)
            components.append(part)
            parents.append(number)
    inference.components = components
    inference.head_count = counts
    return parents


def _variants(inference: Inference, members: list[int]) -> list[list[int]]:
    settings = {i: s for i in members if (s := setting(inference, i)) is not None}
    taken = {
        _argument(inference.chosen[i].node)
        for i in settings
        if inference.chosen[i].node.kind != "scale"
    }
    settings = {  # a scaling counts when it scales the scores a softmax of the page takes
        i: s
        for i, s in settings.items()
        if inference.chosen[i].node.kind != "scale"
        or _argument(inference.chosen[i].node.operands[0]) in taken - {None}
        or (inference.chosen[i].node.operands[0].printed is None and _matrix(inference, i))
    }
    order = list(dict.fromkeys(settings[i] for i in sorted(settings)))
    if len(order) != 2:
        return [members]  # one setting; or three and more, which rows of numbers fit by chance
    out = []
    for chosen in order:
        own = {i for i, s in settings.items() if s == chosen}
        part = _upstream(inference, own) | _downstream(inference, members, own, settings)
        out.append(sorted(part & set(members)))
    placed = set().union(*map(set, out))
    out[0] = sorted({*out[0], *(i for i in members if i not in placed)})
    return out


def setting(inference: Inference, index: int) -> Setting | None:
    """The scale and mask a step of attention applies (weights, scaled or masked scores);
    None for the other relations (products, reprints, row sums, a head output halved)."""
    match = inference.chosen.get(index)
    if match is None or match.node.kind in NO_STEP or match.node.kind == "same":
        return None
    role = inference.roles.get(index)
    weights = match.node.kind.startswith("softmax") and role == "weights"
    if not (weights or role in _SCORES or _of_scores(inference, match.node)):
        return _through_softmax(inference, match.node)
    below = match.node
    while below.kind in ("scale", "mask", "row") or below.kind.startswith("softmax"):
        below = below.operands[0]
    if below.printed is None and below.kind == "product":
        return None  # Q K with the transpose forgotten: a slip of the one example, no setting
    scale = inference.scaling(index)
    if scale is None or (scale[0] != 1.0 and not scale[1]):
        return None  # a factor no width, constant or usual scale of the page says
    return (round(scale[0], 9), _mask_in(inference, index))


def _through_softmax(inference: Inference, node: Node) -> Setting | None:
    """The setting of the weights a weighted sum takes when they are not printed (an output
    without the mask beside the masked one): that softmax's scale and mask."""
    if node.kind != "product" or not node.operands:
        return None
    weights = node.operands[0]
    if weights.printed is not None or not weights.kind.startswith("softmax"):
        return None
    scale = inference.node_scaling(weights)
    if scale is None or (scale[0] != 1.0 and not scale[1]):
        return None
    mask = _mask_of(weights)
    if mask is not None:
        return (round(scale[0], 9), mask.detail or "printed")
    below = _argument(weights)
    return (round(scale[0], 9), "" if below is None else _mask_in(inference, below))


def _mask_in(inference: Inference, index: int) -> str:
    """The mask an array's relation applies, or the printed scores it takes carry
    ("causal", "printed", "" for none)."""
    seen: set[int] = set()
    while index not in seen and index in inference.chosen:
        seen.add(index)
        node = inference.chosen[index].node
        mask = _mask_of(node)
        if mask is not None:
            return mask.detail or "printed"
        below = node.operands[0] if node.operands else node
        while below.kind in ("scale", "mask", "row") or below.kind.startswith("softmax"):
            below = below.operands[0]
        if below.printed is None or node.kind in ("product", "product_t"):
            return ""
        index = below.printed.index
    return ""


def _matrix(inference: Inference, index: int) -> bool:
    return inference.chosen[index].target.shape[0] > 1


def _argument(node: Node) -> int | None:
    """The printed scores under a softmax, a mask or a scaling (None when computed)."""
    while node.kind in ("scale", "mask", "row") or node.kind.startswith("softmax"):
        node = node.operands[0]
    return node.printed.index if node.printed is not None else None


def _of_scores(inference: Inference, node: Node) -> bool:
    """A scaling of scores (printed as scores, or Q Kᵀ): scaled scores, whatever the shape
    (a row's relation names no step by itself); a row only when given as printed."""
    if node.kind != "scale":
        return False
    below = node.operands[0]
    if below.printed is None:
        return below.kind == "product_t"
    if below.shape[0] == 1 and below.printed.index in inference.chosen:
        return False  # a computed row divided by a number: as often a coincidence as a step
    return inference.roles.get(below.printed.index) in ("scores", "softmax_argument")


def _mask_of(node: Node) -> Node | None:
    if node.kind == "mask":
        return node
    if node.printed is not None or node.kind == "product":
        return None  # a weighted sum's mask is its weights'
    return next((m for o in node.operands if (m := _mask_of(o)) is not None), None)


def _upstream(inference: Inference, start: Iterable[int]) -> set[int]:
    """The arrays and everything their relations are computed from."""
    out: set[int] = set()
    todo = list(start)
    while todo:
        index = todo.pop()
        if index in out:
            continue
        out.add(index)
        match = inference.chosen.get(index)
        if match is not None:
            todo.extend(p.index for p in match.node.leaves)
    return out


def _downstream(
    inference: Inference, members: list[int], own: set[int], settings: dict[int, Setting]
) -> set[int]:
    """What is computed from these arrays without a setting of its own (a weighted sum of
    printed weights, a reprint, the row sums), with what else it is computed from."""
    reached = set(own)
    grew = True
    while grew:
        grew = False
        for index in members:
            match = inference.chosen.get(index)
            if index in reached or index in settings or match is None:
                continue
            if any(p.index in reached for p in match.node.leaves):
                reached |= _upstream(inference, [index])
                grew = True
    return reached
