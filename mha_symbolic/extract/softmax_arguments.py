"""What a softmax takes when no relation gives it: the scores, given as printed, unless a
name makes it an input (X, Q, K, V) that the numbers do not overrule."""

from __future__ import annotations

from mha_symbolic.extract.infer import Inference
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Node

PROJECTED = {"w_q", "w_k", "w_v", "q", "k", "v"}


def given_scores(inference: Inference, names: dict[int, str]) -> set[int]:
    """What a softmax takes (through a scale or a mask) when no relation gives it and no
    name makes it an input (X, Q; "weights" is what a softmax call names its argument): the
    scores, given as printed (a softmax of a printed vector, a page with no Q and K; the ``x``
    of a softmax function's documented example, or a ``z`` read as a head's output, when
    nothing is projected). Returns the prints it made the scores."""
    given: set[int] = set()
    for match in list(inference.chosen.values()):
        if not match.node.kind.startswith("softmax"):
            continue
        printed, through = _unexplained(inference, match.node.operands[0])
        if printed is None:
            continue
        named = names.get(printed.index, "scores")
        if named not in ("scores", "softmax_argument", "weights") and not (
            (named == "x" and not through and _logits(printed, names))
            or (named in _QKV and not through and _square(printed))
            or (named in _RESULTS and not set(names.values()) & PROJECTED)
        ):
            continue  # under a printed scaled step, a K that Q = I makes the scores is K
        if inference.roles.get(printed.index, "softmax_argument") in ("softmax_argument", "scores"):
            inference.roles[printed.index] = "scores"
            inference.strong.add(printed.index)
            given.add(printed.index)
    return given


_QKV = ("q", "k", "v")
# a result's name on a page that projects nothing (z, the usual name of a softmax's logits,
# is also the usual name of a head's output): the numbers say a softmax takes it
_RESULTS = ("head.output", "output", "scaled", "masked")
_STEPS = ("scale", "mask", "row", "same")


def _unexplained(inference: Inference, below: Node) -> tuple[Printed | None, bool]:
    """The print under a softmax's scale and mask that no relation gives: through computed
    steps, and through printed ones that a scale or a mask of another print explains (the
    scaled scores printed between the scores and their softmax), or that print another
    again (the scores printed once more before they are scaled); and whether it was reached
    through such a printed step."""
    through = False
    while True:
        while below.kind in _STEPS and below.printed is None:
            below = below.operands[0]
        printed = below.printed
        if printed is None or printed.index not in inference.chosen:
            return printed, through
        below = inference.chosen[printed.index].node
        if below.kind not in _STEPS:
            return None, through
        through = True


def _square(printed: Printed) -> bool:
    """Whether a print a softmax takes is square: tokens by tokens, scores whatever a label
    says ("Values:" over the scores, a comment "# scoring the query vectors"); Q, K and V are
    tokens by features, and no softmax takes them."""
    rows, columns = printed.mid.shape
    return rows == columns >= 2


def _logits(printed: Printed, names: dict[int, str]) -> bool:
    """Whether an ``x`` a softmax takes is its logits (a softmax function's documented
    example): nothing is projected, and X Xᵀ is not X itself (X = I: Q = K = V = X)."""
    if set(names.values()) & PROJECTED:
        return False
    x = [[float(e) for e in row] for row in printed.mid]
    return not as_identity(x, x)


def as_identity(x: list[list[float]], scores: list[list[float]] | None) -> bool:
    """Whether most printed scores are X Xᵀ, unscaled or divided by √E (to 2 %)."""
    if scores is None or len(scores) != len(x) or any(len(r) != len(x) for r in scores):
        return False
    gram = [[sum(a * b for a, b in zip(r, c)) for c in x] for r in x]
    for scale in (1.0, len(x[0]) ** 0.5):
        close = sum(
            abs(g / scale - s) <= 0.02 * max(1.0, abs(s))
            for grow, srow in zip(gram, scores)
            for g, s in zip(grow, srow)
        )
        if 2 * close > len(x) ** 2:
            return True
    return False


def printed_floats(rows: object) -> list[list[float]] | None:
    """Printed rows as floats (a Unicode minus read), or None when they are not numbers."""
    if not isinstance(rows, (list, tuple)) or not rows:
        return None
    try:
        return [[float(str(e).replace("\u2212", "-")) for e in row] for row in rows]
    except (TypeError, ValueError):
        return None
