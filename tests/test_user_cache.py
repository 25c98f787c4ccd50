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
    assert parsed(TEXT, tomllib.loads, "locales", "en.toml") == TABLE
    assert len(_stored(cache)) == 1
    assert parsed(TEXT, _refused, "locales", "en.toml") == TABLE


def test_a_changed_text_is_parsed_anew_in_place_of_the_old(cache: Path) -> None:
    parsed(TEXT, tomllib.loads, "locales", "en.toml")
    changed = TEXT.replace("Input", "Inputs")
    assert parsed(changed, tomllib.loads, "locales", "en.toml")["titles"]["x"] == "Inputs"
    assert len(_stored(cache)) == 1  # one file a locale, however often it is edited
    with pytest.raises(AssertionError, match="parsed again"):
        parsed(TEXT, _refused, "locales", "en.toml")
    parsed(TEXT, tomllib.loads, "locales", "bn.toml")
    assert len(_stored(cache)) == 2


def test_a_damaged_cache_file_is_parsed_again_and_written_anew(cache: Path) -> None:
    parsed(TEXT, tomllib.loads, "locales", "en.toml")
    (path,) = _stored(cache)
    for damage in (b"", b"\x00not marshal", path.read_bytes()[:-7]):
        path.write_bytes(damage)
        assert parsed(TEXT, tomllib.loads, "locales", "en.toml") == TABLE
        assert parsed(TEXT, _refused, "locales", "en.toml") == TABLE  # (written anew)


def test_no_cache_folder_is_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert parsed(TEXT, tomllib.loads, "locales", "en.toml") == TABLE
    with pytest.raises(AssertionError, match="parsed again"):
        parsed(TEXT, _refused, "locales", "en.toml")


def test_a_table_marshal_cannot_write_is_parsed_every_time(cache: Path) -> None:
    text = "day = 2026-11-28\n"
    assert parsed(text, tomllib.loads, "locales", "en.toml") == {"day": datetime.date(2026, 11, 28)}
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


def test_a_locale_of_the_users_own_templates_is_never_kept(cache: Path, tmp_path: Path) -> None:
    """A user's template folder is edited and tried: its locale is parsed each time, and the
    cache holds the shipped locales only (one file each)."""
    own = tmp_path / "mine"
    (own / "locales").mkdir(parents=True)
    shipped = locales.template_dir() / "locales" / "en.toml"
    text = shipped.read_text(encoding="utf-8").replace('"Queries"', '"My queries"', 1)
    (own / "locales" / "en.toml").write_text(text, encoding="utf-8")
    locales.load.cache_clear()
    assert locales.load("en", str(own)) == tomllib.loads(text)
    assert _stored(cache) == []
    locales.load.cache_clear()
