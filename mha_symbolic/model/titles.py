"""English step titles (``Step.title``); worked solutions take theirs from the locale files."""

from __future__ import annotations

import re

_HEAD_NUMBER = re.compile(r"head\d+\.")

TITLES = {
    "x": "Input",
    "query": "Query input",
    "key": "Key input",
    "value": "Value input",
    "q": "Query projection",
    "k": "Key projection",
    "v": "Value projection",
    "head.x": "Input slice",
    "head.query": "Query input slice",
    "head.key": "Key input slice",
    "head.value": "Value input slice",
    "head.q": "Queries",
    "head.k": "Keys",
    "head.v": "Values",
    "head.q_rot": "Rotated queries",
    "head.k_rot": "Rotated keys",
    "head.scores": "Attention scores",
    "head.scaled": "Scaled scores",
    "head.masked": "Masked scores",
    "head.weights": "Attention weights",
    "head.output": "Head output",
    "concat": "Concatenated heads",
    "output": "Output",
    "loss": "Loss",
}
_GRADIENT_OF = {
    "output": "the output",
    "w_o": "the output weights",
    "b_o": "the output bias",
    "concat": "the concatenated heads",
    "head.output": "the head output",
    "head.v": "the values",
    "head.weights": "the attention weights",
    "head.scaled": "the scaled scores",
    "head.scores": "the scores",
    "head.q": "the queries",
    "head.k": "the keys",
    "head.q_rot": "the rotated queries",
    "head.k_rot": "the rotated keys",
    "head.x": "the input slice",
    "head.query": "the query input slice",
    "head.key": "the key input slice",
    "head.value": "the value input slice",
    "q": "the query projection",
    "k": "the key projection",
    "v": "the value projection",
    "x": "the input",
    "query": "the query input",
    "key": "the key input",
    "value": "the value input",
}
_WEIGHT = {"w_q": "query weights", "w_k": "key weights", "w_v": "value weights"}
_BIAS = {"b_q": "query bias", "b_k": "key bias", "b_v": "value bias"}


def generic_key(key: str) -> str:
    """The key without its head number (``grad.head2.q`` -> ``grad.head.q``)."""
    return _HEAD_NUMBER.sub("head.", key, count=1)


def _gradient_title(generic: str) -> str:
    if generic == "head.masked":
        return "Gradient through the softmax"
    if generic == "output":
        return "Gradient at the output"
    name = generic.removeprefix("head.")
    if name in _WEIGHT or name in _BIAS:
        return f"Gradient of the {_WEIGHT.get(name) or _BIAS[name]}"
    return f"Gradient of {_GRADIENT_OF[generic]}"


def step_title(key: str, head: int | None) -> str:
    """``head1.q`` -> "Queries, head 1"; ``grad.w_o`` -> "Gradient of the output weights"."""
    generic = generic_key(key)
    if generic.startswith("grad."):
        title = _gradient_title(generic.removeprefix("grad."))
    else:
        title = TITLES[generic]
    return title if head is None else f"{title}, head {head}"
