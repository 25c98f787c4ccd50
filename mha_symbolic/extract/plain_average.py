"""An example whose weights are a plain average over the keys its mask leaves (the running mean
``torch.tril(torch.ones(T, T))`` over its row sums, or the softmax of ``torch.zeros((T, T))``
under the mask): it starts at zero scores and the values, so that the weights, the masked
scores and the averages are all checked (rather than the printed weights given)."""

from __future__ import annotations

from collections.abc import Sequence

from mha_symbolic.extract.assemble import given_arrays, set_stage, symbolic_values
from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.reading import Seen
from mha_symbolic.language.extract_phrases import phrase


def zero_stage(draft: Draft, seen: Sequence[Seen], size: int) -> tuple[int, int] | None:
    """Scores of zero (``size`` x ``size``) and the printed V, or X averaged as it is (symbols
    v_i when the page prints neither: the weights are checked, what follows them is not);
    None unless the numbers found the average (``size`` 0)."""
    if not size:
        return None
    given = given_arrays(seen, ("v",))
    if "v" not in given and "x" in (inputs := given_arrays(seen, ("x",))):
        given = {"v": inputs["x"]}  # wei @ x: the averages are of X itself
    if "v" in given:
        keys = len(given["v"][min(given["v"])].item.rows)
        if keys != size or not set_stage(draft, given, ("v",)):
            return None
    else:
        symbolic_values(draft, [size])
    zeros = [["0"] * size for _ in range(size)]
    draft.set("scores", zeros, "the printed weights are a plain average: zero scores")
    draft.notes.append(phrase("notes.zero_scores", size=size))
    return (size, 0)
