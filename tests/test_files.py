"""files.py: each file written whole or not at all, and folders built aside and moved in."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from mha_symbolic.errors import SpecError
from mha_symbolic.files import staged_folder, write_atomic, write_files


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _fail(number: int):
    def fail(*args, **kwargs):
        raise OSError(number, os.strerror(number))

    return fail


# ------------------------------------------------------------------ write_atomic
def test_write_atomic_writes_text_and_bytes(tmp_path):
    write_atomic(tmp_path / "a.txt", "é\n")
    write_atomic(tmp_path / "b.bin", b"\x00\xff")
    assert (tmp_path / "a.txt").read_bytes() == "é\n".encode()
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\xff"
    assert _names(tmp_path) == ["a.txt", "b.bin"]


def test_a_new_file_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own(tmp_path):
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.txt", "x")
        old = tmp_path / "old.txt"
        old.write_text("old")
        old.chmod(0o600)
        write_atomic(old, "new")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
    assert old.read_text() == "new"


@pytest.mark.parametrize(
    ("where", "number", "message"),
    [
        ("replace", errno.ENOSPC, "cannot write: No space left on device"),
        ("fsync", errno.EIO, "cannot write: Input/output error"),
    ],
)
def test_a_failed_write_keeps_the_old_file_and_no_temporary(
    tmp_path, monkeypatch, where, number, message
):
    target = tmp_path / "out.md"
    target.write_text("old")
    monkeypatch.setattr(os, where, _fail(number))
    with pytest.raises(SpecError) as error:
        write_atomic(target, "new")
    assert str(error.value) == f"{target}: {message}"
    assert target.read_text() == "old"
    assert _names(tmp_path) == ["out.md"]


def test_an_interrupted_write_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.md"
    target.write_text("old")

    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new")
    assert target.read_text() == "old"
    assert _names(tmp_path) == ["out.md"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "cannot write: the file name is empty"),
        ("folder", "{tmp}/folder: cannot write: it is a folder"),
        ("missing/out.md", "{tmp}/missing/out.md: cannot write: its folder does not exist"),
    ],
)
def test_write_atomic_refuses_impossible_targets(tmp_path, name, message):
    (tmp_path / "folder").mkdir()
    path = "" if name == "" else tmp_path / name
    with pytest.raises(SpecError) as error:
        write_atomic(path, "x")
    assert str(error.value) == message.format(tmp=tmp_path)
    assert _names(tmp_path) == ["folder"]
    assert _names(tmp_path / "folder") == []


# ------------------------------------------------------------------ write_files
def test_write_files_checks_every_target_before_writing(tmp_path):
    (tmp_path / "b.png").mkdir()
    with pytest.raises(SpecError) as error:
        write_files({tmp_path / "a.md": b"a", tmp_path / "b.png": b"b"})
    assert str(error.value) == f"{tmp_path / 'b.png'}: cannot write: it is a folder"
    assert _names(tmp_path) == ["b.png"]


def test_write_files_removes_what_it_created_when_a_later_file_fails(tmp_path, monkeypatch):
    kept = tmp_path / "kept.md"
    kept.write_text("old")
    real = os.replace

    def third_fails(src, dst):
        if str(dst).endswith("c.png"):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst)

    monkeypatch.setattr(os, "replace", third_fails)
    files = {kept: b"new", tmp_path / "b.png": b"b", tmp_path / "c.png": b"c"}
    with pytest.raises(SpecError):
        write_files(files)
    assert _names(tmp_path) == ["kept.md"]  # b.png removed again; kept.md whole (new)
    assert kept.read_bytes() == b"new"


# ------------------------------------------------------------------ staged_folder
def test_a_staged_folder_is_built_beside_and_moved_into_place(tmp_path):
    target = tmp_path / "bank"
    with staged_folder(target) as staging:
        assert staging.parent == tmp_path
        assert staging.name.startswith(".bank.") and staging.name.endswith(".tmp")
        (staging / "a.txt").write_text("a")
        assert not target.exists()
    assert _names(tmp_path) == ["bank"]
    assert (target / "a.txt").read_text() == "a"


@pytest.mark.parametrize("old", [[], ["bank.json", "variant-009"]])
def test_a_staged_folder_replaces_an_empty_or_earlier_folder(tmp_path, old):
    target = tmp_path / "bank"
    target.mkdir()
    for name in old:
        (target / name).write_text("old")
    with staged_folder(target) as staging:
        (staging / "bank.json").write_text("new")
    assert _names(tmp_path) == ["bank"]
    assert _names(target) == ["bank.json"]
    assert (target / "bank.json").read_text() == "new"


@pytest.mark.parametrize("failure", [ValueError("broken"), KeyboardInterrupt()])
def test_a_failed_staged_folder_is_removed_and_the_old_one_kept(tmp_path, failure):
    target = tmp_path / "bank"
    target.mkdir()
    (target / "bank.json").write_text("old")
    with pytest.raises(type(failure)), staged_folder(target) as staging:
        (staging / "bank.json").write_text("new")
        raise failure
    assert _names(tmp_path) == ["bank"]
    assert (target / "bank.json").read_text() == "old"


def test_a_failed_move_puts_the_old_folder_back(tmp_path, monkeypatch):
    target = tmp_path / "bank"
    target.mkdir()
    (target / "bank.json").write_text("old")
    real = os.replace

    def new_folder_fails(src, dst):
        if Path(dst) == target and ".old." not in str(src):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst)

    monkeypatch.setattr(os, "replace", new_folder_fails)
    with pytest.raises(SpecError) as error, staged_folder(target) as staging:
        (staging / "bank.json").write_text("new")
    assert str(error.value) == f"{target}: cannot replace: Input/output error"
    assert _names(tmp_path) == ["bank"]
    assert (target / "bank.json").read_text() == "old"
