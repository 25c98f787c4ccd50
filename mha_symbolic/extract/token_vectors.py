"""Per-token vectors named by their token (``"The" = [..]``, ``- cat: [...]``, ``x_cat = [...]``,
a dict ``{"I": [...], "am": [...]}``): printed one after another with one width, they are the
rows of X in that order, the input the example starts at, when no matrix but weights is
printed before them. Named by words that are no role ("Q", "scores", "x"), never stacked."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.reading import Seen

# The token just before a vector: a word, quoted or not, then ":", "=", "→" or "->" (and the
# array's constructor, in code: ``'she': np.array([...])``).
_LABEL = re.compile(
    r"""(?:^|[\s,{(\[*`-])["'“‘]?([^\W\d][\w'’-]*)["'”’]?\**`?\s*(?::|=|→|->)\s*"""
    r"(?:(?:np|numpy|torch|jnp|tf)\.(?:array|tensor|constant|asarray)\(\s*)?$"
)
_EMBEDDING = re.compile(r"^(?:x|e|emb|embedding|h)_\{?([^\W\d]\w*?)\}?$", re.IGNORECASE)
_OPEN = ("unnamed", "x")  # how a token's vector is read: no role, or X by its dict's name


def token_vectors(seen: Sequence[Seen]) -> list[Seen]:
    """The arrays with the first run of token-named vectors replaced by X, their stack."""
    run = _first_run(seen)
    if run is None or any(_matrix(s) and s.item.start < run[0].item.start for s in seen):
        return list(seen)  # the input comes first: vectors after a printed matrix are results
    first = run[0]
    stack = replace(
        first,
        item=replace(first.item, rows=tuple(s.item.rows[0] for s in run), end=run[-1].item.end),
        role="x",
        head=None,
        name=", ".join(label for label, _ in _labelled(run)),
        names=("x:",),
        printed=tuple(label for label, _ in _labelled(run)),
    )
    return [stack if s is first else s for s in seen if s is first or not any(s is r for r in run)]


def _matrix(s: Seen) -> bool:
    """A print of several rows that is no weight (weights may stand before the tokens)."""
    return len(s.item.rows) > 1 and not s.role.startswith("w_")


def _first_run(seen: Sequence[Seen]) -> list[Seen] | None:
    """Two or more vectors in a row, each named by a different token, all of one width."""
    run: list[Seen] = []
    for s in seen:
        if _token(s) is not None and (not run or _continues(run, s)):
            run.append(s)
            continue
        if len(run) >= 2:
            return run
        run = [s] if _token(s) is not None else []
    return run if len(run) >= 2 else None


def _continues(run: list[Seen], s: Seen) -> bool:
    width = len(run[0].item.rows[0])
    labels = [label for label, _ in _labelled(run)]
    return len(s.item.rows[0]) == width and _token(s) not in labels


def _labelled(run: Sequence[Seen]) -> list[tuple[str, Seen]]:
    return [(_token(s) or "", s) for s in run]


def _token(s: Seen) -> str | None:
    """The token a one-row vector is named by, or None."""
    if s.role not in _OPEN or s.row is not None or s.head is not None or len(s.item.rows) != 1:
        return None
    found = _LABEL.search(s.item.statement)
    if found is None:
        return None
    label = found.group(1).strip("'’")
    embedded = _EMBEDDING.match(label)
    label = embedded.group(1) if embedded else label
    parts = label.split("_") if "_" in label.strip("_") else [label]  # large_scores: scores
    return None if any(resolve(part) is not None for part in (label, *parts)) else label
