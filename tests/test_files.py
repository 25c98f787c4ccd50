"""Writing outputs: each file whole or not at all (output_files.py, and -o through the command),
exercise banks built beside their folder and moved in, and no temporary left by an error or a
signal."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mha_symbolic import output_files
from mha_symbolic.cli import main
from mha_symbolic.errors import SpecError
from mha_symbolic.exercises import bank, bank_writer
from mha_symbolic.output_files import staged_folder, write_atomic, write_files
from tests.cpu_bound import WALL_FACTOR

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

E = "two-tokens"
SHIPPED = Path(__file__).resolve().parent.parent / "templates"
TIMEOUT = 60  # seconds: a generous bound for a signalled command to clean up and exit


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


def test_write_files_flushes_each_folder_once_after_its_files(tmp_path, monkeypatch):
    """A document and its two heatmaps: three files flushed, their folder once (not three
    times: each flush of a folder took 4 ms here), after every rename."""
    (tmp_path / "sub").mkdir()
    synced: list[tuple[str, list[str]]] = []
    files = {tmp_path / "x.md": b"x", tmp_path / "x-head1.svg": b"1", tmp_path / "sub/y": b"y"}

    def sync(folder):
        synced.append((folder.name, sorted(p.name for p in folder.iterdir())))

    monkeypatch.setattr(output_files, "_sync_folder", sync)
    write_files(files)
    assert synced == [(tmp_path.name, ["sub", "x-head1.svg", "x.md"]), ("sub", ["y"])]


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


# ------------------------------------------------------------------ -o through the command
def test_a_failed_write_leaves_the_old_file(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")

    def full(src, dst):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full)
    assert main(["derive", "--example", E, "-o", str(out)]) == 2
    assert (
        capsys.readouterr().err == f"mha-symbolic: {out}: cannot write: No space left on device\n"
    )
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary left


def test_a_failed_image_removes_the_document_it_created(tmp_path, capsys, monkeypatch):
    real = os.replace

    def no_images(src, dst):
        if str(dst).endswith(".svg"):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst)

    monkeypatch.setattr(os, "replace", no_images)
    assert main(["derive", "--example", E, "-o", str(tmp_path / "out.md")]) == 2
    image = tmp_path / "out-head1.svg"
    assert capsys.readouterr().err == f"mha-symbolic: {image}: cannot write: Input/output error\n"
    assert list(tmp_path.iterdir()) == []


def test_o_replaces_an_existing_file(tmp_path, capsys):
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")
    assert main(["derive", "--example", E, "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["title"] == "Two tokens, two heads"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


# ------------------------------------------------------------------ exercise banks
def test_exercises_on_a_title_with_control_characters_reads_back(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    text = (SHIPPED.parent / "mha_symbolic" / "examples" / f"{E}.toml").read_text("utf-8")
    title = 'title = "Two\\u007F tokens \\u001b[31m\\n"'
    spec.write_text(re.sub(r"^title = .*$", lambda _: title, text, flags=re.M), "utf-8")
    argv = ["exercises", str(spec), "--count", "2", "--workers", "1", "-o", str(tmp_path / "b")]
    assert main(argv) == 0
    for index in (1, 2):
        variant = tmp_path / "b" / f"variant-{index:03d}" / "spec.toml"
        assert tomllib.loads(variant.read_text("utf-8"))["title"] == "Two\x7f tokens \x1b[31m\n"
        assert main(["derive", str(variant), "--format", "json"]) == 0
    capsys.readouterr()


def test_a_bank_is_written_as_it_goes_beside_its_folder(tmp_path):
    target = tmp_path / "bank"
    seen: list[list[str]] = []

    def progress(done: int) -> None:  # the variants made so far are already on disk
        (staging,) = [p for p in tmp_path.iterdir() if p.name.startswith(".bank.")]
        seen.append(sorted(p.name for p in staging.iterdir()))
        assert not target.exists()

    bank_writer.write_bank(target, bank.load(example=E), 3, 1, workers=1, progress=progress)
    assert seen == [
        ["variant-001"],
        ["variant-001", "variant-002"],
        [f"variant-00{i}" for i in (1, 2, 3)],
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bank"]
    assert sorted(p.name for p in target.iterdir()) == [
        "bank.json",
        "variant-001",
        "variant-002",
        "variant-003",
    ]


def test_an_earlier_bank_is_replaced_whole(tmp_path, capsys):
    out = tmp_path / "bank"
    assert (
        main(["exercises", "--example", E, "--count", "3", "--workers", "1", "-o", str(out)]) == 0
    )
    assert (
        main(["exercises", "--example", E, "--count", "1", "--workers", "1", "-o", str(out)]) == 0
    )
    assert sorted(p.name for p in out.iterdir()) == ["bank.json", "variant-001"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bank"]
    capsys.readouterr()


def test_a_failed_bank_leaves_no_temporary_folder(tmp_path, capsys):
    templates = tmp_path / "t"
    shutil.copytree(SHIPPED, templates)
    (templates / "answers.md.j2").write_text("{{ nope }}\n", encoding="utf-8")
    out = tmp_path / "bank"
    argv = ["exercises", "--example", E, "--count", "2", "--workers", "1", "-o", str(out)]
    assert main([*argv, "--templates", str(templates)]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: {templates}/answers.md.j2:1: template error: 'nope' is undefined\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t"]


@pytest.mark.parametrize(
    ("sig", "code", "word", "workers"),
    [
        (signal.SIGTERM, 143, "terminated", "1"),
        (signal.SIGTERM, 143, "terminated", "2"),
        (signal.SIGINT, 130, "interrupted", "1"),
    ],
)
def test_a_signal_during_exercises_leaves_no_temporary_folder(tmp_path, sig, code, word, workers):
    argv = ["exercises", "--example", E, "--count", "100000", "--workers", workers]
    child = subprocess.Popen(
        [sys.executable, "-m", "mha_symbolic", *argv, "-o", str(tmp_path / "bank")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + TIMEOUT * WALL_FACTOR  # the clock: the last guard
        while not list(tmp_path.glob(".bank.*/variant-002")):  # work under way, on disk
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        child.send_signal(sig)
        _, err = child.communicate(timeout=TIMEOUT * WALL_FACTOR)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == code
    assert err.decode().splitlines()[-1] == f"mha-symbolic: {word}"
    assert list(tmp_path.iterdir()) == []
