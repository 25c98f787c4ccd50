"""A batch axis for checking: x (or query/key/value) of shape (batch, L, E), one derivation each.

Step keys take the batch element first, 1-based like the rest: ``b2.head1.weights[1,2]``. A
print of the whole batch, (batch, heads, L, L) or (batch, L, L), claimed under a key without
the batch (``weights`` or ``head1.weights``) is split into one claim per batch element.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mha_symbolic.check import printouts
from mha_symbolic.errors import SpecError
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.spec.attention import AttentionSpec

if TYPE_CHECKING:  # the checker is imported by the functions that check
    from mha_symbolic.check.report import Report

_INPUTS = ("x", "query", "key", "value", "v")  # v: the values given with the weights
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


def is_batched(raw: Mapping[str, Any]) -> bool:
    """Whether a spec table gives an input of shape (batch, L, E)."""
    return any(name in raw and _depth(raw[name]) == 3 for name in _INPUTS)


def batch_specs(
    raw: Mapping[str, Any], source: str, claims: Mapping[str, Any] | None = None
) -> list[AttentionSpec]:
    """One spec per batch element of a batched spec table, each with its own claims
    (``b{n}.<key>``, or a print of the whole batch, routed to the element it is about)."""
    tables = batches(raw)
    lengths = {len(table[name]) for table in tables for name in ("x", "query") if name in table}
    if len(lengths) > 1:
        shown = ", ".join(
            f"b{n} has {len(t.get('x', t.get('query', [])))}" for n, t in enumerate(tables, 1)
        )
        raise SpecError(f"the batch elements differ in length: {shown}", source=source)
    _same_widths(tables, source)
    per_batch = _routed(dict(raw.get("claims", {}) if claims is None else claims), len(tables))
    specs = []
    for n, (table, claimed) in enumerate(zip(tables, per_batch), start=1):
        try:
            specs.append(AttentionSpec.from_dict({**table, "claims": claimed}, source=source))
        except SpecError as error:
            detail = f"batch element {n} (b{n}): {error.detail}"
            raise SpecError(detail, source=error.source or source) from None
    return specs


def _same_widths(tables: list[dict[str, Any]], source: str) -> None:
    """Every element's rows as wide as the first element's, as a tensor's slices are."""
    for name in _INPUTS:
        widths = [_width(table.get(name)) for table in tables]
        if len({w for w in widths if w is not None}) > 1:
            shown = ", ".join(f"b{n} has {w}" for n, w in enumerate(widths, 1) if w is not None)
            raise SpecError(
                f"the batch elements of {name} differ in width (E): {shown}", source=source
            )


def _width(matrix: Any) -> int | None:
    """Entries in the first row of a matrix given as rows; None for anything else."""
    if isinstance(matrix, list) and matrix and isinstance(matrix[0], list):
        return len(matrix[0])
    return None


def _routed(table: Mapping[str, Any], count: int) -> list[dict[str, Any]]:
    per_batch: list[dict[str, Any]] = [{} for _ in range(count)]
    for key, value in table.items():
        for n, claim in _route(key, value, count):
            per_batch[n - 1][claim[0]] = claim[1]
    return per_batch


def check_batch(
    raw: Mapping[str, Any], claims: Mapping[str, Any] | None = None, **options: Any
) -> Report:
    """Judge claims about a batched spec: ``b{n}.<step key>`` or a print of the whole batch."""
    from mha_symbolic.check.judge import check  # not at the top: derive needs only batch_specs
    from mha_symbolic.check.report import Report

    specs = batches(raw)
    per_batch = _routed(dict(raw.get("claims", {}) if claims is None else claims), len(specs))
    verdicts = []
    for n, (spec, claimed) in enumerate(zip(specs, per_batch), start=1):
        if not claimed:
            continue
        report = check(derive(AttentionSpec.from_dict(spec)), claimed, **options)
        verdicts += _numbered(report, n)
    return Report(str(raw.get("title", "<batch>")), tuple(verdicts))


def check_specs(specs: list[AttentionSpec], source: str, **options: Any) -> Report:
    """Judge each batch element's own claims (see :func:`batch_specs`), keys as ``b{n}.``."""
    from mha_symbolic.check.judge import check
    from mha_symbolic.check.report import Report

    verdicts = []
    for n, spec in enumerate(specs, start=1):
        if spec.claims:
            verdicts += _numbered(check(spec, **options), n)
    return Report(source, tuple(verdicts))


def _numbered(report: Report, n: int) -> list[Any]:
    return [
        replace(verdict, claim=replace(verdict.claim, key=f"b{n}.{verdict.claim.key}"))
        for verdict in report.claims
    ]


def _route(key: str, value: Any, count: int) -> list[tuple[int, tuple[str, Any]]]:
    """(batch element, (key in it, value)) of one claim."""
    match = _BATCH_KEY.fullmatch(key.strip())
    if match:
        n = int(match.group(1))
        if not 1 <= n <= count:
            raise SpecError(f"claim {key!r}: the batch has {count} elements, no b{n}")
        return [(n, (match.group(2), value))]
    if isinstance(value, str):
        body, is_print, _ = printouts.unwrap(printouts.clean(value).strip(), f"claim {key!r}")
        if is_print or printouts.numbers_only(body):
            tree = printouts.tree(body, f"claim {key!r}")
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
