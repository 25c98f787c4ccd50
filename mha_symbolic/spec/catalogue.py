"""The built-in examples by name, title and description, read from their TOML files alone.

`mha-symbolic examples` lists them without building a spec (which needs SymPy), so it starts at
once; tests/test_start.py checks that the titles equal those of the built specs.
"""

from __future__ import annotations

from importlib import resources

from mha_symbolic.spec.input_files import parse_toml

DEFAULT_TITLE = "Multi-head attention"


def example_names() -> list[str]:
    folder = resources.files("mha_symbolic").joinpath("examples")
    return sorted(
        entry.name[: -len(".toml")] for entry in folder.iterdir() if entry.name.endswith(".toml")
    )


def example_text(name: str) -> str:
    return resources.files("mha_symbolic").joinpath("examples", f"{name}.toml").read_text("utf-8")


def catalogue() -> list[tuple[str, str, str]]:
    """(name, title, description) of every built-in example."""
    out = []
    for name in example_names():
        table = parse_toml(example_text(name), f"example {name}")
        out.append(
            (name, str(table.get("title", DEFAULT_TITLE)), str(table.get("description", "")))
        )
    return out
