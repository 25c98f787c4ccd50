"""The walkers dispatch on the node: an operation's meaning is in its module of
mha_symbolic.operations, and the exact, structured, backward, limit and code walkers ask it
(``BY_KIND[node.kind]``, ``BY_NODE[type(expr)]``, ``rules(...)``) instead of naming it."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from mha_symbolic import operations

PACKAGE = Path(__file__).resolve().parent.parent / "mha_symbolic"
WALKERS = (
    "exact/evaluate.py",
    "exact/backward.py",
    "exact/limits.py",
    "exact/values.py",
    "exact/structured.py",
    "exact/structured_grad.py",
    "model/rules.py",
    "model/rewrite.py",
    "model/program_facts.py",
    "numeric/lower.py",
    "numeric/codegen.py",
    "numeric/backprop.py",
    "numeric/lambdify.py",
)
OPERATION_MODULES = {
    f"mha_symbolic.operations.{path.stem}"
    for path in (PACKAGE / "operations").glob("*.py")
    if "\nOPERATION = " in path.read_text(encoding="utf-8")
}


def _names_kind(node: ast.AST) -> bool:
    """``x.kind`` or a name ``kind``: a node's kind."""
    return (isinstance(node, ast.Attribute) and node.attr == "kind") or (
        isinstance(node, ast.Name) and node.id == "kind"
    )


def _by_kind(node: ast.AST) -> str:
    """The name of a table keyed by kind (``BY_KIND``, ``operations.BY_KIND``, a walker's own
    ``by_kind``), or ""."""
    name = getattr(node, "attr", getattr(node, "id", ""))
    return name if isinstance(name, str) and "kind" in name.lower() else ""


def _looks_up(func: ast.AST) -> str:
    """The table of ``BY_KIND.get``, ``by_kind.get``: an operation (or a step) looked up by
    its kind; "" for any other call."""
    return _by_kind(func.value) if isinstance(func, ast.Attribute) and func.attr == "get" else ""


def _kinds_in(node: ast.AST, kinds: set[str]) -> list[str]:
    return [
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in kinds
    ]


def _kind_names(node: ast.AST, kinds: set[str]) -> list[str]:
    """The kinds a tuple, list or set of words names (``("scale", "mask", "softmax")``): all
    its items words, two or more of them operation kinds; [] for anything else, so a row of
    words that holds one kind among others (a table's ``("output", formula, shape)``) is not
    an operation list; or a table of rows naming two or more kinds (``((rule, "scale"), ...)``)."""
    if not isinstance(node, ast.Tuple | ast.List | ast.Set):
        return []
    rows = [item for item in node.elts if isinstance(item, ast.Tuple | ast.List)]
    if len(rows) == len(node.elts) >= 2:  # a table of rows, each paired with a kind
        named = [kind for row in rows for kind in _kinds_in(row, kinds)]
        return named if len(named) >= 2 else []
    if not all(
        isinstance(item, ast.Constant) and isinstance(item.value, str) for item in node.elts
    ):
        return []
    named = [item.value for item in node.elts if getattr(item, "value", None) in kinds]
    return named if len(named) >= 2 else []


def operation_references(source: str) -> list[str]:
    """``line what`` of each place the source names a specific operation: an import from its
    module, its node class, its kind compared with a node's kind, looked up by name, keying
    a table of the walker's own, or listed among other kinds (``kind in inline``, its kinds
    written elsewhere)."""
    kinds = set(operations.BY_KIND)
    classes = {cls.__name__ for cls in operations.NODES}
    found = []
    compared: set[int] = set()  # the lists a comparison with a node's kind reports already
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if _kind_names(node, kinds) and id(node) not in compared:
            found.append(f"{line} kinds {tuple(_kind_names(node, kinds))!r}")
        elif isinstance(node, ast.ImportFrom) and node.module in OPERATION_MODULES:
            found.append(f"{line} import {node.module}")
        elif isinstance(node, ast.Name) and node.id in classes:
            found.append(f"{line} {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in classes:
            found.append(f"{line} {node.attr}")
        elif isinstance(node, ast.Compare) and any(
            _names_kind(part) for part in (node.left, *node.comparators)
        ):
            found += [f"{line} kind {kind!r}" for kind in _kinds_in(node, kinds)]
            compared.update(id(part) for part in node.comparators)
        elif isinstance(node, ast.Dict):  # a table of its own keyed by kind
            keys = [k for k in node.keys if k is not None]
            found += [f"{line} key {kind!r}" for k in keys for kind in _kinds_in(k, kinds)]
        elif isinstance(node, ast.Subscript) and _by_kind(node.value):
            table = _by_kind(node.value)
            found += [f"{line} {table}[{kind!r}]" for kind in _kinds_in(node.slice, kinds)]
        elif isinstance(node, ast.Call) and _looks_up(node.func):
            table = _looks_up(node.func)
            found += [f"{line} {table}.get({kind!r})" for kind in _kinds_in(node, kinds)]
    return sorted(found, key=lambda item: int(item.split()[0]))


def test_the_walkers_name_no_operation() -> None:
    found = {
        path: operation_references((PACKAGE / path).read_text(encoding="utf-8")) for path in WALKERS
    }
    assert {path: refs for path, refs in found.items() if refs} == {}


def test_the_spec_reader_reads_each_operation_through_its_module() -> None:
    """The scale, the mask and the [weights] table are read as their operations' fields, ALiBi
    and RoPE as their settings: the spec reader imports and names none of them."""
    source = (PACKAGE / "spec" / "attention.py").read_text(encoding="utf-8")
    assert operation_references(source) == []
    assert "mha_symbolic.operations." not in source
    read = {op.kind: op.read_at for op in operations.OPERATIONS if op.fields is not None}
    assert read == {"scale": "settings", "mask": "inputs", "project": "weights"}


# The presentation (solution/, check/) walks the derivation's steps and asks the model
# (Facts: its operations' facts, roles, captions and factored forms), even of the steps every
# attention has (the output, the heads joined, a head's output). A branch on an operation
# fails here: give the operation a fact, a role or a caption rule.
PRESENTATION = ("solution", "check")
PRESENTATION_REMAINS: dict[str, dict[str, int]] = {}


def test_the_presentation_names_no_operation_beyond_the_steps_every_attention_has() -> None:
    found = {}
    for folder in PRESENTATION:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            refs = operation_references(path.read_text(encoding="utf-8"))
            if refs:
                what = Counter(ref.split(" ", 1)[1] for ref in refs)
                found[str(path.relative_to(PACKAGE))] = dict(what)
    assert found == PRESENTATION_REMAINS


def test_a_reference_to_an_operation_would_be_found() -> None:
    source = (
        "from mha_symbolic.operations.softmax import RowSoftmax\n"
        "if node.kind == 'softmax':\n"
        "    x = isinstance(expr, RowSoftmax)\n"
        "y = kind in ('attend', 'input')\n"
        "z = operations.BY_KIND['rope']\n"
        "w = operations.BY_KIND.get('mask')\n"
        "v = softmax.RowSoftmax\n"
        "rules = {'scores': scores, 'x': x}\n"
        "ok = node.key == 'output' or role == 'mask' or BY_KIND.get(node.kind)\n"
        "steps = {s.kind: s for s in steps}\n"
        "u = by_kind['scores'], steps_by_kind.get('attend'), BY_KIND['softmax']\n"
        "inline = ('scale', 'mask', 'softmax')\n"
        "t = kind in {'project', 'output'}\n"
        "for k in ['step', 'operation', 'output']: pass\n"
        "row = ('output', 'O = A V', '(L, E)')\n"
        "words = ('step', 'operation', 'shapes', 'here')\n"
        "MISTAKES = ((unscaled, 'scale'), (ignored, 'mask'))\n"
        "pairs = ((a, 'b'), (c, 'output'))\n"
    )
    assert operation_references(source) == [
        "1 import mha_symbolic.operations.softmax",
        "2 kind 'softmax'",
        "3 RowSoftmax",
        "4 kind 'attend'",
        "5 BY_KIND['rope']",
        "6 BY_KIND.get('mask')",
        "7 RowSoftmax",
        "8 key 'scores'",
        "11 by_kind['scores']",
        "11 steps_by_kind.get('attend')",
        "11 BY_KIND['softmax']",
        "12 kinds ('scale', 'mask', 'softmax')",
        "13 kind 'project'",
        "13 kind 'output'",
        "17 kinds ('scale', 'mask')",
    ]


def test_every_node_kind_an_operation_owns_is_found_by_its_module() -> None:
    assert {op.kind for op in operations.OPERATIONS} >= {
        "project",
        "rope",
        "scores",
        "scale",
        "alibi",
        "mask",
        "softmax",
        "attend",
        "concat",
        "output",
    }
    assert len(OPERATION_MODULES) == len(operations.OPERATIONS)


def test_every_fact_an_operation_answers_is_typed_for_its_callers() -> None:
    """``Facts.scale`` and the others are declared with their types (operations.Answers), so
    mypy checks what the presentation does with them; a rule that names its return type
    names the same one."""
    declared = operations.Answers.__annotations__
    assert sorted(declared) == sorted(operations.FACTS)
    named = {
        name: rule.__annotations__["return"]
        for name, rule in operations.FACTS.items()
        if "return" in getattr(rule, "__annotations__", {})
    }
    assert named == {name: declared[name] for name in named}
    assert sorted(named) == ["convention", "dropout", "layout", "mask", "renormalised", "scale"]


def test_the_likely_mistakes_are_the_operations_rewrites_found_by_name() -> None:
    from mha_symbolic.model import rewrite

    assert sorted(rewrite.REWRITES) == [
        "column_softmax",
        "dropout_unscaled",
        "not_renormalised",
        "scaled_by",
        "stream_for",
        "transposed_square_weights",
        "unmasked",
        "without_output_projection",
    ]
    assert rewrite.column_softmax is operations.BY_KIND["softmax"].rewrites["column_softmax"]
    with pytest.raises(AttributeError) as raised:
        rewrite.row_softmax  # noqa: B018
    assert str(raised.value) == "module 'mha_symbolic.model.rewrite' has no attribute 'row_softmax'"


def test_a_step_named_under_any_accent_names_its_gradient() -> None:
    """An operation picks its step's symbol (ALiBi's \\hat{S}, a new one's \\check{S}); the
    backward pass names its gradient without knowing the accent."""
    from mha_symbolic.exact.backward import bar_label

    names = [r"S_{1}", r"\mathrm{head}_{1}", r"\tilde{S}_{1}", r"\check{S}_{2}"]
    assert [bar_label(name) for name in names] == [
        r"\bar{S}_{1}",
        r"\overline{\mathrm{head}}_{1}",
        r"\bar{\tilde{S}}_{1}",
        r"\bar{\check{S}}_{2}",
    ]


def test_a_module_that_imports_the_operations_base_imports_first() -> None:
    """model.nodes builds on operation.Unary; importing it first finds every operation."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import mha_symbolic.model.nodes"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
