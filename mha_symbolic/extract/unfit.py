"""An example whose printed scores or weights attend over another number of keys than its
tokens give (a batch read as one long sequence; a decoder's one-token state read as the input
while the page's products run over two encoder states) does not fit the page's numbers: none of
its results is claimed, and the page's other readings are tried."""

from __future__ import annotations

from mha_symbolic.extract.draft import Draft
from mha_symbolic.language.extract_phrases import phrase

_SQUARE_STEPS = ("scores", "scaled", "masked", "weights")


def unfit(draft: Draft) -> None:
    """Printed scores or weights of another size than the example's tokens (a batch read as
    one long sequence, say): the example does not fit the page's numbers, so none of its
    results is claimed (a claim on it would be judged against another computation)."""
    for said in draft.placing:
        numbers = getattr(said, "numbers", {})
        if getattr(said, "key", "") != "placing.shape":
            continue
        step = str(numbers.get("key", "")).strip("`").rpartition(".")[2]
        shape, target = numbers.get("shape"), numbers.get("target")
        if step in _SQUARE_STEPS and _other_keys(shape, target):
            draft.claims, draft.assumed = [], []
            draft.notes.append(
                phrase("notes.unfit", where=numbers.get("where"), shape=shape, target=target)
            )
            return


def _other_keys(shape: object, target: object) -> bool:
    """Whether printed scores or weights attend over another number of keys than the
    example's (their columns), or are square of another size."""
    if not (isinstance(shape, tuple) and isinstance(target, tuple)):
        return False
    if len(shape) != 2 or len(target) != 2:
        return False
    return shape[1] != target[1] or (_square(shape) and _square(target) and shape != target)


def _square(shape: object) -> bool:
    return isinstance(shape, tuple) and len(shape) == 2 and shape[0] == shape[1]
