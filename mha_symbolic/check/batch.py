"""A batch axis for checking: x (or query/key/value) of shape (batch, L, E), one derivation each.

Step keys take the batch element first, 1-based like the rest: ``b2.head1.weights[1,2]``. A
print of the whole batch, (batch, heads, L, L) or (batch, L, L), claimed under a key without
the batch (``weights`` or ``head1.weights``) is split into one claim per batch element.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from mha_symbolic.check import printed
from mha_symbolic.check.judge import check
from mha_symbolic.check.report import Report
from mha_symbolic.errors import SpecError
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.spec.attention import AttentionSpec

_INPUTS = ("x", "query", "key", "value")
_BATCH_KEY = re.compile(r"b(\d+)\.(.+)")


def batches(raw: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The spec of each batch element (inputs of depth 3 split; the rest shared)."""
    sizes = {name: len(raw[name]) for name in _INPUTS if name in raw and _depth(raw[name]) == 3}
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{name} has {size}" for name, size in sizes.items())
        raise SpecError(f"the batched inputs differ in batch size: {shown}")
    count = next(iter(sizes.values()), 1)
    return [
        {
            key: (value[n] if key in sizes else value)
            for key, value in raw.items()
            if key != "claims"
        }
        for n in range(count)
    ]


def check_batch(
    raw: Mapping[str, Any], claims: Mapping[str, Any] | None = None, **options: Any
) -> Report:
    """Judge claims about a batched spec: ``b{n}.<step key>`` or a print of the whole batch."""
    specs = batches(raw)
    table = dict(raw.get("claims", {}) if claims is None else claims)
    per_batch: list[dict[str, Any]] = [{} for _ in specs]
    for key, value in table.items():
        for n, claim in _route(key, value, len(specs)):
            per_batch[n - 1][claim[0]] = claim[1]
    verdicts = []
    for n, (spec, claimed) in enumerate(zip(specs, per_batch), start=1):
        if not claimed:
            continue
        report = check(derive(AttentionSpec.from_dict(spec)), claimed, **options)
        for verdict in report.claims:
            name = f"b{n}.{verdict.claim.key}"
            verdicts.append(replace(verdict, claim=replace(verdict.claim, key=name)))
    return Report(str(raw.get("title", "<batch>")), tuple(verdicts))


def _route(key: str, value: Any, count: int) -> list[tuple[int, tuple[str, Any]]]:
    """(batch element, (key in it, value)) of one claim."""
    match = _BATCH_KEY.fullmatch(key.strip())
    if match:
        n = int(match.group(1))
        if not 1 <= n <= count:
            raise SpecError(f"claim {key!r}: the batch has {count} elements, no b{n}")
        return [(n, (match.group(2), value))]
    if isinstance(value, str):
        body, is_print, _ = printed.unwrap(printed.clean(value).strip(), f"claim {key!r}")
        if is_print or printed.numbers_only(body):
            tree = printed.tree(body, f"claim {key!r}")
            if count > 1 and isinstance(tree, list) and len(tree) == count and _depth(tree) >= 3:
                return [(n, (key, _text(part))) for n, part in enumerate(tree, start=1)]
    if count == 1:
        return [(1, (key, value))]
    raise SpecError(f"claim {key!r}: name its batch element (b1.{key} .. b{count}.{key})")


def _text(tree: Any) -> str:
    """A nested print back as numpy prints it (entries apart by spaces, digits as printed)."""
    if isinstance(tree, list):
        return "[" + " ".join(_text(item) for item in tree) + "]"
    return str(tree)


def _depth(value: Any) -> int:
    return 1 + _depth(value[0]) if isinstance(value, (list, tuple)) and value else 0
