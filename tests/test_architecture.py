"""The package's shape: one-way imports (no cycle, counting imports inside functions), the
core free of the consumers, short modules and functions."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mha_symbolic"
CORE = ("spec", "operations", "model", "exact")
CONSUMERS = ("numeric", "solution", "check", "exercises", "extract")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "preludes" in path.parts and path.name != "__init__.py":
            continue  # source text of generated code, not modules of the package
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports, anywhere in the file."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {m for m in found if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, name, modules) for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    graph = _graph()
    assert len(graph) > 40
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_a_cycle_would_be_found() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_core_imports_no_consumer_and_no_rendering_library() -> None:
    graph = _graph()
    for name, imported in graph.items():
        layer = name.split(".")[1] if name.count(".") else ""
        if layer in CORE:
            bad = [m for m in imported if m.split(".")[1] in (*CONSUMERS, "api", "cli")]
            assert not bad, f"{name} imports {bad}"
    for name, path in _modules().items():
        if name.split(".")[1:2] and name.split(".")[1] in CORE:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            top = {
                a.name.split(".")[0]
                for n in tree.body
                if isinstance(n, ast.Import)
                for a in n.names
            }
            top |= {
                n.module.split(".")[0]
                for n in tree.body
                if isinstance(n, ast.ImportFrom) and n.module
            }
            assert not top & {"jinja2", "numpy", "matplotlib"}, name


def test_consumers_never_import_each_other() -> None:
    # exercises is an application of the others (sheets are solutions, answers are checked)
    allowed = {"exercises": {"solution", "check"}}
    for name, imported in _graph().items():
        layer = name.split(".")[1] if name.count(".") else ""
        if layer not in CONSUMERS:
            continue
        for other in imported:
            other_layer = other.split(".")[1] if other.count(".") else ""
            if other_layer in CONSUMERS and other_layer != layer:
                assert other_layer in allowed.get(layer, set()), f"{name} imports {other}"


def test_modules_and_functions_are_short() -> None:
    long_modules, long_functions = [], []
    for name, path in _modules().items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            long_modules.append(f"{name} ({text.count(chr(10))} lines)")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long_functions.append(f"{name}.{node.name} ({length} lines)")
    assert not long_modules, long_modules
    assert not long_functions, long_functions


def test_a_derivation_estimated_to_take_minutes_asks_for_large(monkeypatch, capsys) -> None:
    from mha_symbolic import AttentionSpec, SpecError, derive
    from mha_symbolic.cli import main
    from mha_symbolic.spec import bounds

    spec = AttentionSpec.example("two-tokens")
    monkeypatch.setattr(bounds, "LARGE_SECONDS", 1e-9)
    d = derive(spec)  # kept in its exact structure: quick at any size
    assert d.enclose("output", 5)[0][0].contains(0.5)
    assert str(d["output"][0, 0]) == "1/2"  # entries are made one at a time
    try:
        list(d["output"])  # the whole matrix as one SymPy object would take minutes
    except SpecError as error:
        assert str(error) == (
            "example two-tokens: SymPy values of (L, E, h) = (2, 2, 2) would take about "
            "1 minute; pass large=True to go ahead; only the whole matrix as one SymPy "
            "object takes that long: its entries and rows are made one at a time "
            "(d['output'][i, j], d['output'][i, :])"
        )
    else:
        raise AssertionError("no refusal")
    assert str(derive(spec, large=True)["output"][0, 0]) == "1/2"
    # The worked solution makes only the entries it shows: no refusal. JSON writes every
    # exact entry, so it asks for --large, or for the certified balls alone.
    assert main(["derive", "--example", "two-tokens", "--format", "md"]) == 0
    assert capsys.readouterr().out == derive(spec, large=True).to_markdown()
    assert main(["derive", "--example", "two-tokens", "--format", "json"]) == 2
    assert capsys.readouterr().err.endswith(
        "1 minute; pass --large to go ahead, or write certified balls alone "
        "(--enclose N --no-exact)\n"
    )
    args = ["derive", "--example", "two-tokens", "--format", "json", "--enclose", "5"]
    assert main([*args, "--no-exact"]) == 0
    assert '"latex": null' in capsys.readouterr().out
    assert main(["check", "--example", "two-tokens", "--large"]) == 0
