"""A locale's TOML is parsed once per user and read back from the cache folder: the same
table fresh, warm, damaged, changed or with no cache folder at all."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import pytest

from mha_symbolic.language import locales
from mha_symbolic.user_cache import parsed

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TEXT = '[titles]\nx = "Input"\nwith_head = "{title}, head {head}"\n'
TABLE = {"titles": {"x": "Input", "with_head": "{title}, head {head}"}}


def _refused(text: str) -> dict[str, object]:
    raise AssertionError("parsed again")


def _stored(folder: Path) -> list[Path]:
    return sorted(folder.glob("mha-symbolic/locales/*.marshal"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def test_a_table_is_parsed_once_and_read_back(cache: Path) -> None:
    assert parsed(TEXT, tomllib.loads, "locales") == TABLE
    assert len(_stored(cache)) == 1
    assert parsed(TEXT, _refused, "locales") == TABLE


def test_a_changed_text_is_parsed_anew(cache: Path) -> None:
    parsed(TEXT, tomllib.loads, "locales")
    changed = TEXT.replace("Input", "Inputs")
    assert parsed(changed, tomllib.loads, "locales")["titles"]["x"] == "Inputs"
    with pytest.raises(AssertionError, match="parsed again"):
        parsed(TEXT + "\n", _refused, "locales")


def test_a_damaged_cache_file_is_parsed_again_and_written_anew(cache: Path) -> None:
    parsed(TEXT, tomllib.loads, "locales")
    (path,) = _stored(cache)
    for damage in (b"", b"\x00not marshal", path.read_bytes()[:-7]):
        path.write_bytes(damage)
        assert parsed(TEXT, tomllib.loads, "locales") == TABLE
        assert parsed(TEXT, _refused, "locales") == TABLE  # (written anew)


def test_no_cache_folder_is_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert parsed(TEXT, tomllib.loads, "locales") == TABLE
    with pytest.raises(AssertionError, match="parsed again"):
        parsed(TEXT, _refused, "locales")


def test_a_table_marshal_cannot_write_is_parsed_every_time(cache: Path) -> None:
    text = "day = 2026-11-28\n"
    assert parsed(text, tomllib.loads, "locales") == {"day": datetime.date(2026, 11, 28)}
    assert _stored(cache) == []


def test_the_shipped_locale_is_the_same_read_back(cache: Path) -> None:
    locales.load.cache_clear()
    fresh = locales.load("en")
    assert len(_stored(cache)) == 1
    locales.load.cache_clear()
    assert locales.load("en") == fresh
    path = locales.template_dir() / "locales" / "en.toml"
    assert fresh == tomllib.loads(path.read_text(encoding="utf-8"))
    locales.load.cache_clear()
