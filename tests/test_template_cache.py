"""The shipped templates' compiled bytecode is kept in the user's cache folder: the solution
is the same with the cache fresh, warm, damaged or impossible to write."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.render import render


def _cached(folder: Path) -> list[Path]:
    return sorted(folder.glob("mha-symbolic/templates-*/*.cache"))


def test_a_warm_or_damaged_cache_gives_the_same_solution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fresh = render(d, "md")
    written = _cached(tmp_path)
    assert written  # the Markdown templates, compiled once
    assert render(d, "md") == fresh
    for path in written:
        path.write_bytes(b"j2 not bytecode")
    assert render(d, "md") == fresh
    assert all(path.read_bytes() != b"j2 not bytecode" for path in written)  # written anew


def test_each_format_has_its_own_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    render(d, "md")
    render(d, "html")  # escapes its text: its bytecode is not the Markdown one
    assert len(list(tmp_path.glob("mha-symbolic/templates-*"))) == 2


def test_a_cache_folder_that_cannot_be_made_is_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    expected = render(d, "md")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert render(d, "md") == expected
