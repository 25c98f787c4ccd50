"""The names a statement gives the array it ends: the chain of names just before it
("Q = X W_Q = [...]"), a factor of a product by its place ("X \\times W_Q"), and a note after
a name that is not its value."""

from __future__ import annotations

import re

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.call_names import not_its_name
from mha_symbolic.extract.items import Item

RELATION = re.compile(r"=|≈|\\approx|\\simeq|→|\\rightarrow|\\to\b|:(?!\d)|\\Rightarrow|⇒")
# "Input: Q = [[...]]": a label, then a name's own statement (as if on a line of its own).
_LABEL_BEFORE_NAME = re.compile(r":[^\S\n]*(?=[A-Za-z_][\w^{}']*[^\S\n]*=(?!=))")
_TIMES = re.compile(r"\s*(?:\\times|×|@|\*|\\cdot)\s*")
_TIMES_END = re.compile(r"(?:\\times|×|@|\*|\\cdot)\s*$")

Named = list[tuple[str, int | None, str]]


def operand_name(item: Item) -> Named | None:
    """In "Q_1 = X_1 \\times W_{Q1} \\rightarrow (8, 2) \\times (2, 2) = (8, 2)" the shapes
    before the last "=" are those of the formula's factors, in order."""
    if not (_TIMES.match(item.after) or _TIMES_END.search(item.statement)):
        return None
    segments = RELATION.split(item.statement)
    if len(segments) < 3:
        return None
    factors = _TIMES.split(segments[-2])
    position = len(_TIMES.findall(segments[-1]))
    if position >= len(factors):
        return None
    role = resolve(cleaned(factors[position]))
    return [(role.role, role.head, role.name)] if role else None


def annotation(statement: str) -> bool:
    """ "Q = X  [3, 4]": the list after a name that is not its value (a shape, a note)."""
    last = RELATION.split(statement)[-1].strip()
    return bool(last) and resolve(cleaned(last)) is not None


def names(statement: str) -> Named | None:
    """Roles named by the statement: the chain just before the item, else its first name."""
    segments = RELATION.split(_LABEL_BEFORE_NAME.sub(":\n", statement))
    if len(segments) < 2 or not_its_name(segments[-1]):
        return None
    chain: Named = []
    for segment in reversed(segments[:-1]):
        cut = re.split(r",|\band\b|\]|\)(?!\})", segment)[-1]  # W_V^{(1)}: a head
        role = resolve(cleaned(cut))
        if role is None:
            break
        chain.insert(0, (role.role, role.head, role.name))
        if cut != segment or "\n" in segment or segment.lstrip().startswith("{"):
            break  # "Input:\nQ = [...]": a label line, then a statement of its own; a JSON key
    if chain:
        return chain
    for segment in segments[_own_start(segments) : -1]:
        role = resolve(cleaned(segment))
        if role is not None:
            return [(role.role, role.head, role.name)]
    return None


def _own_start(segments: list[str]) -> int:
    """The first segment of the item's own statement: after the last matrix printed before it
    on the lines the statement spans ("Q = XW^Q = \\begin{bmatrix}...\\end{bmatrix},\\quad
    K = XW^K = ": K's name is K, not the Q that opens the statement)."""
    ends = [n for n, segment in enumerate(segments[:-1]) if _then_another(segment)]
    return ends[-1] if ends else 0


def _then_another(segment: str) -> bool:
    """A matrix's end followed by more than space: another statement starts after it (", K"),
    where a bare end is a step of one chain ("= \\begin{bmatrix}...\\end{bmatrix} =")."""
    if "\\end{" not in segment:
        return False
    rest = segment[segment.rindex("\\end{") :]
    return bool(rest[rest.find("}") + 1 :].strip())


def cleaned(segment: str) -> str:
    text = re.sub(r"^[\s*•+\-$#>|]*|[\s$|]*$", "", segment.split("\n")[-1] or segment)
    text = re.sub(r"^\{\s*\"([^\"]+)\"$", r"\1", text)  # a JSON key: {"scores": [1, 2, 3]}
    return re.sub(r"\s*\([^()]*[A-Za-z]{3,}[^()]*\)", "", text)
