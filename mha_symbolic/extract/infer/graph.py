"""From relations to examples: the best explanation of each printed array, the connected
components (one worked example each), the role of every array in its component and the head
it belongs to, all read from how the numbers relate."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.intervals import Printed
from mha_symbolic.extract.infer.relations import Node, through_softmax
from mha_symbolic.extract.infer.role_tables import (
    AFTER_STEPS,
    ATTENTION,
    INPUTS,
    NO_STEP,
    RANK,
    SCORES,
    SHARED,
    compatible,
)
from mha_symbolic.extract.infer.state import Match, Search, believed, renamed
from mha_symbolic.extract.infer.uniform import zero_sizes

Scaling = tuple[float, str]  # a scale's factor, and how the search said it ("√3", "" for 1)


def rank(match: Match) -> tuple[int, int, int, int, int]:
    """Exact first, then a product the page writes out (A B = C), then fewest slips; then a
    print as computed over a print of its transpose (a product
    that holds both ways, by a symmetric W, is the one the page wrote); then what says most."""
    fit = match.fit
    slips = 0 if fit.exact else 1 if fit.written else 2 + len(fit.slips)
    return (
        slips,
        int(fit.transposed),
        RANK.get(match.node.kind, 5),
        match.node.hidden,
        -match.node.last,
    )


@dataclass
class Inference:
    """What the numbers say: each explained array's relation, its role and head."""

    search: Search
    chosen: dict[int, Match] = field(default_factory=dict)
    others: dict[int, list[Match]] = field(default_factory=dict)  # as good, said as alternatives
    roles: dict[int, str] = field(default_factory=dict)
    named: dict[int, str] = field(default_factory=dict)  # roles a name chose among relations
    strong: set[int] = field(default_factory=set)  # roles from an array's own relation
    heads: dict[int, int] = field(default_factory=dict)  # 1-based, per array of one head
    components: list[list[int]] = field(default_factory=list)  # attention examples only
    head_count: dict[int, int] = field(default_factory=dict)  # component number -> heads
    printed_later: dict[int, int] = field(default_factory=dict)  # first print -> explained one

    def component_of(self, index: int) -> int | None:
        return next((n for n, c in enumerate(self.components) if index in c), None)

    def first_print(self, index: int) -> int | None:
        """The first print of the numbers a "printed again" array shows (None: no reprint)."""
        seen = {index}
        match = self.chosen.get(index)
        while match is not None and match.node.kind == "same" and not match.fit.transposed:
            printed = match.node.operands[0].printed
            if printed is None or printed.index in seen:
                return None
            index = printed.index
            seen.add(index)
            match = self.chosen.get(index)
        return index if len(seen) > 1 else None

    def rounded_in(self, members: list[int]) -> bool:
        """Whether a relation of the component holds only with its printed operands rounded
        (the example's inputs are known to their printed digits, not exactly)."""
        return any(self.chosen[i].rounded for i in members if i in self.chosen)

    def scale_in(self, members: list[int]) -> Scaling | None:
        """The scale a component's relations apply to its scores: that of its last softmax over
        the most printed entries (a first try without the scale, then the right one; a whole
        matrix over one row fitted to its one digit), else of its first scaling."""
        found = [self.scaling(i) for i in members]
        weights = [
            (self.chosen[i].target.mid.size, n, said)
            for n, (i, said) in enumerate(zip(members, found))
            if said is not None and through_softmax(self.chosen[i].node)
        ]
        return max(weights)[2] if weights else next((s for s in found if s is not None), None)

    def scaling(self, index: int) -> Scaling | None:
        """The scale the chosen relation of an array applies to its scores, or None when the
        relation takes no scores (a product, a reprint)."""
        match = self.chosen.get(index)
        return self.node_scaling(match.node) if match is not None else None

    def node_scaling(self, node: Node) -> Scaling | None:
        """The scale a relation (or a part of one, a softmax not printed) applies."""
        said = applied_scale(node)
        return self._carried(said) if isinstance(said, Printed) else said

    def _carried(self, scores: Printed) -> Scaling:
        """The scale printed scores carry into a softmax or a mask: their own relation's
        (printed scaled scores), none for raw scores or scores given as printed."""
        seen: set[int] = set()
        index = scores.index
        while index not in seen and index in self.chosen:
            seen.add(index)
            node = self.chosen[index].node
            said = applied_scale(node) if node.kind != "same" else node.operands[0].printed
            if said is None or isinstance(said, tuple):
                return said or (1.0, "")
            index = said.index
        return (1.0, "")


def infer(search: Search, names: Mapping[int, str]) -> Inference:
    """``names``: the role each array's name suggests (only ever a tie-break)."""
    found = Inference(search)
    explained = search.explained()
    for index, matches in search.matches.items():
        # Weights printed alike are not one printed twice, nor a named input another with slips
        if names.get(index) in INPUTS:
            matches = [m for m in matches if m.node.kind != "same" and not m.fit.slips]
        matches = _reprint_of_explained(matches, explained)
        if not matches:
            continue
        ordered = sorted(matches, key=rank)
        fewest = [m for m in ordered if rank(m)[0] == rank(ordered[0])[0]]
        # Every relation that holds is a candidate; a name picks among them, the rank if none.
        named = [
            m for m in fewest if compatible(m.node, names.get(index)) and not renamed(m, names)
        ]
        if named and named[0].node.kind not in AFTER_STEPS:  # renormalised: never weights
            found.named[index] = names[index]
        pool = named or fewest
        if names.get(index) and not named and believed(names[index], pool[0], _believed):
            continue  # a long unprinted chain against the name: the name is believed
        best = [m for m in pool if rank(m)[:4] == rank(pool[0])[:4]]
        best.sort(key=lambda m: -_agreeing(m, names))
        found.chosen[index] = best[0]
        found.others[index] = [m for m in best if m is not found.chosen[index]][:2]
    _other_columns(found)
    _assign_roles(found, names)
    _split(found)
    return found


def _other_columns(found: Inference) -> None:
    """A head's slice printed with the same numbers as another head's (X_2 = X_1 when X
    repeats its columns) is its own columns of the wide array, not a reprint of the other."""
    for index, match in list(found.chosen.items()):
        source = match.node.operands[0].printed if match.node.kind == "same" else None
        cut = found.chosen.get(source.index) if source is not None else None
        if cut is None or cut.node.kind != "slice":
            continue
        own = [
            m
            for m in found.search.matches.get(index, [])
            if m.node.kind == "slice" and m.fit.exact and m.node.factor != cut.node.factor
        ]
        if own:
            found.chosen[index] = own[0]


def _reprint_of_explained(matches: list[Match], explained: set[int]) -> list[Match]:
    """A reprint says what its first print is; when no relation explains that first print
    (weights renormalised by hand, then the same numbers from a softmax of masked scores),
    the reprint's own softmax is what the numbers are (a rounded print's: small integers
    alike are as often a coincidence, [1, 1] the row sums of any softmax)."""
    own = [m for m in matches if m.node.kind != "same" and not m.fit.slips]
    if not any(m.node.kind.startswith("softmax") and m.target.decimals for m in own):
        return matches
    first = [m.node.operands[0].printed for m in matches if m.node.kind == "same"]
    if any(p is not None and p.index in explained for p in first):
        return matches
    return own


def _believed(name: str, node: Node) -> bool:
    """Whether a name outweighs a chain of two or more unprinted steps: always, unless it calls
    Q, K or V what the printed arrays alone compute (a table headed "k:Paris"), or the chain
    ends in no step (a heading's "weights" over a row of ones, the rows' sums), or name and
    numbers both say scores and differ only in the stage (the scaled scores named "scores")."""
    if node.hidden < 2 or node.kind in NO_STEP or node.kind == "exp_sums":
        return False  # a sum of e^s is one step from the logits, as a row sum of weights is
    if name in SCORES and _role_of(node) in SCORES:
        return False
    return name not in ("q", "k", "v") or _unprinted_qkv(node)


def _unprinted_qkv(node: Node, top: bool = True) -> bool:
    """Whether a relation passes through a product the document does not print (an X W as Q,
    K or V, a head's output): a long chain of guesses, which a name against it outweighs."""
    if node.printed is not None:
        return False
    if not top and node.kind == "product":
        return True
    return any(_unprinted_qkv(o, False) for o in node.operands)


def applied_scale(node: Node) -> Scaling | Printed | None:
    """The scale of the first softmax, mask or scaling of a relation: its factor and how the
    search said it ("√3", a printed constant, "" for none: softmax of computed Q Kᵀ), or the
    printed scores it takes (whose own relation says), or None without one."""
    if node.kind.startswith("softmax") or node.kind in ("mask", "scale"):
        below = node
        while below.kind.startswith("softmax") or below.kind in ("mask", "row"):
            below = below.operands[0]
        if below.kind == "scale":
            return (below.factor, below.detail)
        return below.printed if below.printed is not None else (1.0, "")
    return next((m for o in node.operands if (m := applied_scale(o)) is not None), None)


def _agreeing(match: Match, names: Mapping[int, str]) -> int:
    """How many arrays of a relation it names as their names do (a tie-break only)."""
    role = _role_of(match.node) or names.get(match.target.index)
    if role is None:
        return 0
    roles = {match.target.index: role}
    _down(match.node, role, roles, top=True)
    return sum(names.get(index) == said for index, said in roles.items())


def _role_of(node: Node, named: str | None = None, found: Inference | None = None) -> str | None:
    """The step a computed value is, from its relation alone (or the name that chose it)."""
    if named is not None:
        return named
    if node.kind.startswith("softmax"):
        return "weights"
    if node.kind in ("exp", "exp_sums"):
        return node.kind  # the softmax's numerators and denominators
    if node.kind in AFTER_STEPS:
        return AFTER_STEPS[node.kind]
    if node.kind in ("product", "product_t") and _is_weights(node.operands[0], found):
        return "head.output"  # A V, or A Vᵀ (a transpose too many, a mistake to locate)
    if node.kind in ("product_t", "scale", "mask", "concat"):
        return {"product_t": "scores", "scale": "scaled", "mask": "masked"}.get(node.kind, "concat")
    return None


def _is_weights(node: Node, found: Inference | None = None) -> bool:
    """Softmax weights, computed or printed; or weights masked and renormalised, or dropped
    out (computed, or printed and so explained by the relations ``found``)."""
    if node.kind.startswith("softmax") or node.kind in ("renormalised", "dropout"):
        return True
    printed = node.printed
    chosen = found.chosen.get(printed.index) if found and printed else None
    if chosen is not None and chosen.node.kind in ("renormalised", "dropout"):
        return True
    return printed is not None and (
        rel.is_distribution(printed) or rel.is_distribution(printed, by_rows=False)
    )


def _assign_roles(found: Inference, names: Mapping[int, str]) -> None:
    """Roles in rounds: each relation names its result and its operands; a product's result is
    named by its use (Q in Q Kᵀ, V in A V), and then its operands (X, W_Q)."""
    for index, match in found.chosen.items():
        if found.named.get(index) == "concat" and _projected(found, match.node):
            del found.named[index]
    # Matrices first: a row's relation (x_1 W = k_1) never renames the matrices it uses.
    ordered = sorted(found.chosen.items(), key=lambda item: item[1].target.shape[0] == 1)
    taken = _soft_maxed(found)
    for index, match in ordered:
        own = _role_of(match.node, found.named.get(index), found)
        own = own or ("output" if _projected(found, match.node) else None)
        if own is not None and (match.target.shape[0] > 1 or _row_step(match, own, names, taken)):
            found.roles[index] = own
            found.strong.add(index)
    for _ in range(4):
        proposed: dict[int, str] = {}
        for index, match in ordered:
            if match.target.shape[0] == 1:
                # A row's relation names the row only when it is a softmax or a weighted sum.
                if _row_step(match, _role_of(match.node), names, taken):
                    proposed.setdefault(index, str(_role_of(match.node)))
                    if match.node.kind == "scale":  # what the scaled row scales: scores
                        _down(match.node, "scaled", proposed, top=True)
                continue
            role = _role_of(match.node, found.named.get(index), found)
            role = role or found.roles.get(index) or _used_as(found, index)
            role = role or ("output" if _projected(found, match.node) else None)
            if role is None and names.get(index) in ("q", "k", "v", "output", "head.output"):
                role = names[index]
            if role is not None:
                proposed.setdefault(index, role)
                _down(match.node, role, proposed, top=True, found=found)
        for index, role in proposed.items():
            found.roles.setdefault(index, role)


def _row_step(
    match: Match, role: str | None, names: Mapping[int, str], taken: frozenset[int] = frozenset()
) -> bool:
    """Whether a row's relation names the row: a softmax or a weighted sum; the numerators
    of a row a printed softmax takes; a scaling only of a row its name calls scores, into a
    row no name calls another step, or into the row a printed softmax takes (``taken``),
    printed to two decimals or more (rows of small numbers are multiples of each other by
    chance: token rows [1, 0] and [2, 0], weights [0.5, 0.5] and scores [1, 1]; equal numbers
    are any multiple of equal numbers)."""
    if role in ("weights", "head.output"):
        return True
    operand = match.node.operands[0].printed if match.node.operands else None
    if operand is None or rel.even(match.node.operands[0]):
        return False
    if role == "scaled" and match.target.index in taken and match.target.decimals > 1:
        return True
    if role == "exp" and operand.index in taken:
        return True  # e^z of the row a printed softmax takes: its numerators
    said = names.get(operand.index)
    own = names.get(match.target.index, "scaled")
    return role == "scaled" and said in SCORES and own in ("scaled", "softmax_argument")


def _projected(found: Inference, node: Node) -> bool:
    """Whether a product multiplies the heads' concatenation (computed, or a print that the
    numbers or its role show is one) by a matrix: the output projection W_O, whose result is
    the output whatever a name calls it ("MultiHead(X)" is often named as the heads joined)."""
    if node.kind != "product":
        return False
    joined = node.operands[0]
    if joined.printed is None:
        return joined.kind == "concat"
    chosen = found.chosen.get(joined.printed.index)
    return (chosen is not None and chosen.node.kind == "concat") or found.roles.get(
        joined.printed.index
    ) == "concat"


def _soft_maxed(found: Inference) -> frozenset[int]:
    """The printed arrays a chosen softmax takes as its argument, as printed."""
    return frozenset(
        m.node.operands[0].printed.index
        for m in found.chosen.values()
        if m.node.kind.startswith("softmax") and m.node.operands[0].printed is not None
    )


def _used_as(found: Inference, index: int) -> str | None:
    """The role another relation of matrices gives this array as its operand."""
    for match in found.chosen.values():
        if match.target.shape[0] == 1:
            continue
        roles: dict[int, str] = {}
        role = _role_of(match.node, found.named.get(match.target.index), found)
        role = role or found.roles.get(match.target.index)
        if role is not None:
            _down(match.node, role, roles, top=True, found=found)
        if index in roles:
            return roles[index]
    return None


def _down(
    node: Node, role: str, roles: dict[int, str], top: bool = False, found: Inference | None = None
) -> None:
    """Give the operands of ``node`` (whose role is ``role``) their roles."""
    if node.printed is not None and not top:
        roles.setdefault(node.printed.index, role)
        return
    kind, ops = node.kind, node.operands
    if kind in ("row", "same"):  # a reprint is the value it prints again: the same role
        _down(ops[0], role, roles)
    elif kind.startswith("softmax"):
        _down(ops[0], "softmax_argument", roles)
    elif kind in ("kept", "dropout"):
        _down(ops[0], "weights", roles)
    elif kind == "renormalised":
        _down(ops[0], "kept", roles)
    elif kind == "mask":
        _down(ops[0], "scaled" if ops[0].kind == "scale" else "scores", roles)
    elif kind == "scale":
        _down(ops[0], "scores", roles)
    elif kind in ("product", "product_t") and role in ("scores", "softmax_argument", "scaled"):
        _down(ops[0], "q", roles)
        _down(ops[1], "k", roles)
    elif kind in ("product", "product_t"):
        _product_down(ops, role, roles, found)
    elif kind == "concat":
        for part in ops:
            _down(part, "head.output", roles)
    elif kind == "slice":
        _down(ops[0], "concat" if role == "head.output" else "wide", roles)


def _product_down(
    ops: tuple[Node, ...], role: str, roles: dict[int, str], found: Inference | None = None
) -> None:
    if _is_weights(ops[0], found) or role == "head.output":
        _down(ops[0], "weights", roles)
        _down(ops[1], "v", roles)
    elif role in ("q", "k", "v"):
        _down(ops[0], "x", roles)
        _down(ops[1], f"w_{role}", roles)
    elif role == "output":
        _down(ops[0], "concat", roles)
        _down(ops[1], "w_o", roles)


def _split(found: Inference) -> None:
    """Components (not of reprints alone) of explained arrays; heads linked by what none shares."""
    parent: dict[int, int] = {}

    def root(i: int) -> int:
        while parent.setdefault(i, i) != i:
            i = parent[i]
        return i

    heads: dict[int, int] = {}

    def head_root(i: int) -> int:
        while heads.setdefault(i, i) != i:
            i = heads[i]
        return i

    plain: dict[int, int] = {}  # the size of a plain average -> an array computed from it
    for index, match in found.chosen.items():
        cut = match.node.kind == "slice"  # a head's columns of all heads' Q: no link of heads
        for leaf in match.node.leaves:
            parent[root(leaf.index)] = root(index)
            if not (cut or _shared(found, leaf.index) or _shared(found, index)):
                heads[head_root(leaf.index)] = head_root(index)
        for size in zero_sizes(match.node):  # no printed leaf: linked by the average itself
            other = plain.setdefault(size, index)
            parent[root(other)] = root(index)
            heads[head_root(other)] = head_root(index)
    groups: dict[int, list[int]] = {}
    for index in parent:
        groups.setdefault(root(index), []).append(index)
    for members in sorted(groups.values(), key=min):
        made = [i for i in members if i in found.chosen and found.chosen[i].node.kind != "same"]
        if made and any(
            found.roles.get(i) in ATTENTION or _softmax_output(found, i) for i in members
        ):
            found.components.append(sorted(members))
            _number_heads(found, sorted(members), head_root)


def _softmax_output(found: Inference, index: int) -> bool:
    """An array named the output whose relation goes through a softmax (softmax(Q Kᵀ) V
    with no projection after it): attention, although no step of it is printed."""
    match = found.chosen.get(index)
    if found.roles.get(index) != "output" or match is None:
        return False
    pending = [match.node]
    while pending:
        node = pending.pop()
        if node.kind.startswith("softmax"):
            return True
        pending.extend(node.operands)
    return False


def _shared(found: Inference, index: int) -> bool:
    return found.roles.get(index) in SHARED or found.roles.get(index) is None


def _number_heads(found: Inference, members: list[int], head_root: object) -> None:
    """Head i is the i-th group of arrays of one head: by its place in the concatenation when
    one is printed or computed, else in the order the document prints them."""
    assert callable(head_root)
    order: list[int] = []
    chains = [i for i in members if found.roles.get(i) in ATTENTION]
    rows = {p.index: p.shape[0] for p in found.search.arrays}
    matrices = [i for i in chains if rows[i] > 1]
    for index in matrices or chains:
        if head_root(index) not in order:
            order.append(head_root(index))
    order = _concat_order(found, members, head_root) or order
    number = len(found.components) - 1
    found.head_count[number] = max(1, len(order))
    if len(order) < 2:
        return
    for index in members:
        if not _shared(found, index) and head_root(index) in order:
            found.heads[index] = order.index(head_root(index)) + 1


def _concat_order(found: Inference, members: list[int], head_root: object) -> list[int]:
    """The heads in the order the concatenation joins them; [] when two of its parts are of
    one head (a relation between the heads' outputs, a coincidence, links them)."""
    assert callable(head_root)
    for index in members:
        node = found.chosen[index].node if index in found.chosen else None
        if node is not None and node.kind == "concat":
            parts = [_first_printed(found, p) for p in node.operands]
            if all(p is not None for p in parts):
                order = [head_root(p.index) for p in parts if p is not None]
                return order if len(set(order)) == len(order) else []
    return []


def _first_printed(found: Inference, node: Node) -> Printed | None:
    """The printed array of one head a head's output is, or is computed from."""
    if node.printed is not None:
        return node.printed
    return next((p for p in node.leaves if not _shared(found, p.index)), None)
