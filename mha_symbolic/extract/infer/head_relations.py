"""Head slices (columns of a wider printed array), the concatenation of head outputs and the
output projection after it: the part of the relation search that puts heads together."""

from __future__ import annotations

from mha_symbolic.extract.infer import relations as rel
from mha_symbolic.extract.infer.relations import Node
from mha_symbolic.extract.infer.search_state import Search


def heads(found: Search, nodes: list[Node], outputs: list[Node]) -> None:
    """Head slices (columns of a wider array), and the concatenation of head outputs with the
    output projection after it when the concatenation itself is not printed."""
    for wide in nodes:
        for part in nodes:
            rows, cols = part.shape
            if part is wide or rows != wide.shape[0] or cols >= wide.shape[1]:
                continue
            if wide.shape[1] % cols or part.last < wide.last or not found.spend():
                continue
            for first in range(0, wide.shape[1], cols):
                found.test(rel.columns(wide, first, cols), slips=False)
    # Printed head outputs stand for themselves (in print order); unprinted ones as computed.
    printed = sorted(
        {
            m.target.index: m.target
            for ms in found.matches.values()
            for m in ms
            if m.node in outputs
        }.values(),
        key=lambda p: p.index,
    )
    heads = _distinct(
        [*(found.node(p) for p in printed), *(o for o in outputs if o.printed is None)]
    )
    for count in (2, 3, 4, 8):
        groups = _head_groups(heads, count)
        for group in groups[:20]:
            if not found.spend():
                return
            joined = rel.concat(group)
            found.test(joined)
            for w in nodes:
                symmetric = w.shape[0] == w.shape[1] and (w.mid == w.mid.T).all()
                for transposed in (False, True) if not symmetric else (False,):
                    found.test(rel.product(joined, w, transposed))


def _distinct(nodes: list[Node]) -> list[Node]:
    out: list[Node] = []
    for node in nodes:
        if not any(n is node for n in out):
            out.append(node)
    return out


def _head_groups(heads: list[Node], count: int) -> list[list[Node]]:
    """Consecutive head outputs of one shape whose weights come from different scores."""
    out = []
    for start in range(len(heads) - count + 1):
        group = heads[start : start + count]
        if len({h.shape for h in group}) == 1 and len({id(h) for h in group}) == count:
            out.append(group)
    return out
