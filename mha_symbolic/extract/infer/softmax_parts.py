"""The softmax worked in parts and printed: e^s of the logits a softmax takes (``exp_scores``)
and their row sums (the denominators), searched as relations of the printed logits, so that a
page's printed numerators and sums are checked as the softmax's own (``head1.exp``,
``head1.sums``) whatever they are called."""

from __future__ import annotations

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.graph import Inference
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.state import Search

_MAX_LOGIT = 50.0  # e^50: beyond it a page prints no numerator worth a relation


def exp_parts(found: Search, logits: Node) -> None:
    """exp of printed logits and its row sums, tested against the arrays printed after them."""
    rows, cols = logits.shape
    if logits.printed is None or cols < 2 or (abs(logits.mid) > _MAX_LOGIT).any():
        return
    if not (found.wanted((rows, cols), logits.last) or found.wanted((rows, 1), logits.last)):
        return
    if not found.spend(2):
        return
    numerators = rel.exp(logits)
    found.test(numerators)
    sums = rel.row_sums(numerators)
    found.test(Node(sums.mid, sums.rad, "exp_sums", (numerators,)), slips=False)


def unclaimed_parts(inference: Inference) -> None:
    """e^s and sums of logits no chosen softmax takes as printed (the raw scores' when the
    softmax takes the scaled ones): another computation than the example's, left alone."""
    taken = {
        m.node.operands[0].printed.index
        for m in inference.chosen.values()
        if m.node.kind.startswith("softmax") and m.node.operands[0].printed is not None
    }
    for index, match in inference.chosen.items():
        node = match.node
        if node.kind not in ("exp", "exp_sums"):
            continue
        logits = (node if node.kind == "exp" else node.operands[0]).operands[0].printed
        if (logits is None or logits.index not in taken) and index in inference.roles:
            del inference.roles[index]
