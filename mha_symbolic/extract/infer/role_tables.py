"""The tables the roles are read by: how much each relation is believed, which steps its result
can be whatever its name says, and which roles a head owns (rules apart from the walk in graph)."""

from __future__ import annotations

from mha_symbolic.extract.infer.relations import Node, through_softmax

# The more a relation says about attention, the more it is believed over another that holds.
RANK = {
    "softmax_rows": 0,
    "softmax_cols": 0,
    "mask": 0,
    "product_t": 1,
    "scale": 1,
    "product": 2,
    "concat": 2,
    "slice": 2,
    "same": -1,  # the same numbers printed again: the simplest account there is
    "sums": 0,
    "exp": 1,
    "exp_sums": 1,
    "kept": 0,
    "renormalised": 0,
    "dropout": 2,  # after a scale: a scaled print with zeros is no dropout of a softmax
}
# The steps after the softmax: the weights masked, renormalised, dropped out (by relation).
AFTER_STEPS = {"kept": "kept", "renormalised": "renormalised", "dropout": "dropped"}
AFTER = frozenset(AFTER_STEPS.values())
# Relations whose result is no step of attention (row sums of weights): never a claim.
NO_STEP = frozenset({"sums"})
ATTENTION = {"weights", "scores", "scaled", "masked", "head.output", "softmax_argument", *AFTER}
# The steps a relation's result can be, whatever its name says otherwise.
PRODUCTS = ("q", "k", "v", "scores", "output", "head.output", "concat")
COMPATIBLE = {
    "softmax_rows": ("weights",),
    "softmax_cols": ("weights",),
    "mask": ("masked", "softmax_argument"),
    "scale": ("scaled", "softmax_argument"),
    "product": PRODUCTS,
    "product_t": PRODUCTS,
    "concat": ("concat",),
    "exp": ("exp",),
    "exp_sums": ("exp_sums",),
    # Weights after the softmax: what a page still calls weights (or masked), never renamed.
    "kept": ("kept", "weights", "masked"),
    "renormalised": ("renormalised", "weights"),
    "dropout": ("dropped", "weights"),
    "slice": ("q", "k", "v", "head.output", "head.x"),
    "same": (
        "x",
        "q",
        "k",
        "v",
        "scores",
        "scaled",
        "softmax_argument",
        "weights",
        "head.output",
        "concat",
        "output",
        "w_q",
        "w_k",
        "w_v",
        "w_o",
    ),
}
INPUTS = ("x", "w_q", "w_k", "w_v", "w_o")
SCORES = ("scores", "scaled", "masked", "softmax_argument")  # one array at its stages
SHARED = {"x", "concat", "output", "w_o", "wide"}  # roles no single head owns


def compatible(node: Node, name: str | None) -> bool:
    """Whether a name may choose this relation: one of the steps its kind can be, and never
    scores, Q, K or V for the output that weights make of values (weights x V)."""
    if name in ("scores", "q", "k", "v") and through_softmax(node):
        return False
    return name in COMPATIBLE.get(node.kind, ())
