"""Writing outputs safely: each file atomically, a folder of files built aside and moved in."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from mha_symbolic.errors import SpecError

_TEMPORARY = ".tmp"  # suffix of every temporary file or folder, beside its target


def _mode(target: Path, default: int) -> int:
    """The permissions a new file (or folder) gets: the old file's, else ``default`` minus
    the umask (mkstemp and mkdtemp make them private)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return default & ~umask


def _cannot_write(path: Path, exc: OSError) -> SpecError:
    if exc.errno == errno.ENAMETOOLONG:
        return SpecError("cannot write: the file name is too long", source=str(path))
    if os.path.isdir(path):
        return SpecError("cannot write: it is a folder", source=str(path))
    if not os.path.isdir(path.parent):
        return SpecError("cannot write: its folder does not exist", source=str(path))
    return SpecError(f"cannot write: {exc.strerror or exc}", source=str(path))


Data = bytes | str | Iterable[str]  # an iterable of text is streamed, piece by piece


def _pieces(data: Data) -> Iterable[bytes]:
    if isinstance(data, bytes):
        return [data]
    if isinstance(data, str):
        return [data.encode("utf-8")]
    return (piece.encode("utf-8") for piece in data)


def write_atomic(path: str | Path, data: Data, sync_folder: bool = True) -> None:
    """Write ``data`` (text as UTF-8; an iterable of text pieces as they come) to ``path``
    all at once: into a temporary file in the same folder, flushed to disk, then renamed over
    ``path``. A failure at any point leaves the old file as it was and no temporary behind;
    an OSError becomes a one-line SpecError.

    A link is written through: its target is replaced atomically and the link stays. A
    special file (``/dev/stdout``, ``/dev/null``, a FIFO, a terminal) is written as a stream
    and never renamed over; a disk (block device) or socket is refused. ``sync_folder=False``:
    the rename is left for the caller to flush (once for the files of one folder).
    """
    target = _target(path)
    pieces = _pieces(data)
    if target is None:
        _write_stream(Path(path), pieces)
        return
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name[:_SHORT]}.", suffix=_TEMPORARY, dir=target.parent
        )
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            for piece in pieces:
                stream.write(piece)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _mode(target, 0o666))
        os.replace(temporary, target)
        if sync_folder:
            _sync_folder(target.parent)
    except BaseException as exc:  # also KeyboardInterrupt and SIGTERM: never leave a fragment
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise _cannot_write(target, exc) from None
        raise


_SHORT = 100  # characters of a target's name in its temporary's name (names end at 255 bytes)
_DESCRIPTORS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_DESCRIPTOR = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)")


def is_stream(path: str | Path) -> bool:
    """Whether ``path`` names an open descriptor or a special file (written as a stream)."""
    try:
        return _descriptor(path) is not None or _special(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def not_the_input(output: str | None, source: str | None, force: bool) -> None:
    """Refuse an ``output`` that is the input file ``source`` itself (by another spelling, a
    link or a hard link too) unless ``force``; ``-`` (standard input) is never a file here."""
    if force or not output or not source or source == "-":
        return
    try:
        same = os.path.samefile(output, source)
    except (OSError, ValueError):  # either missing (or unreadable): not the same file
        return
    if same:
        raise SpecError(
            "-o names the input file itself; give another file, or --force to replace it",
            source=output,
        )


def inside(folder: str | Path, path: str | Path) -> bool:
    """Whether ``path``'s real path (links resolved) lies inside ``folder``'s."""
    root, real = os.path.realpath(folder), os.path.realpath(path)
    return os.path.commonpath([root, real]) == root


def check_file_name(path: str | Path) -> None:
    """Refuse a file name that is empty or ends with / (a folder's name), before
    ``Path(path)`` drops the slash."""
    if str(path) == "":  # Path("") would be the current folder
        raise SpecError("cannot write: the file name is empty")
    if str(path).endswith(("/", os.sep)):
        reason = (
            "it is a folder" if os.path.isdir(path) else "the name ends with /, as a folder's does"
        )
        raise SpecError(f"cannot write: {reason}", source=str(path))


def _special(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _descriptor(path: str | Path) -> int | None:
    name = os.path.normpath(os.path.abspath(path))
    if name in _DESCRIPTORS:
        return _DESCRIPTORS[name]
    match = _DESCRIPTOR.fullmatch(name)
    return int(match.group(1)) if match else None


def _target(path: str | Path) -> Path | None:
    """The regular file to replace (a link's target), or None for a stream; refused: an
    empty name, a name ending in / (a folder's), a folder, a disk, a socket."""
    check_file_name(path)
    if _descriptor(path) is not None:
        return None
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise _cannot_write(Path(path), exc) from None
    if stat.S_ISDIR(mode):
        raise SpecError("cannot write: it is a folder", source=str(path))
    if _special(mode):
        return None
    if not stat.S_ISREG(mode):
        kind = "a disk (block device)" if stat.S_ISBLK(mode) else "a socket"
        raise SpecError(f"cannot write: it is {kind}", source=str(path))
    return target


def _write_stream(path: Path, pieces: Iterable[bytes]) -> None:
    """Write to an open descriptor (``/dev/stdout``) or a special file, piece by piece."""
    number = _descriptor(path)
    try:
        if number is not None:
            sys.stdout.flush()
            sys.stderr.flush()
            _write_all(number, pieces)
            return
        # Non-blocking open: a FIFO that no process reads fails at once instead of hanging.
        handle = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        try:
            os.set_blocking(handle, True)
            _write_all(handle, pieces)
        finally:
            os.close(handle)
    except OSError as exc:
        if exc.errno == errno.ENXIO and _is_fifo(path):
            raise SpecError("cannot write: no process reads this FIFO", source=str(path)) from None
        raise SpecError(f"cannot write: {exc.strerror or exc}", source=str(path)) from None


def _is_fifo(path: Path) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _write_all(handle: int, pieces: Iterable[bytes]) -> None:
    for piece in pieces:
        view = memoryview(piece)
        while view:
            view = view[os.write(handle, view) :]


def write_files(files: Mapping[Path, Data]) -> list[Path]:
    """Write several files (a document and its images): every target is checked before the
    first is written, each is written atomically, and if one fails the files this call
    created are removed again (files it replaced hold their new, complete contents)."""
    folders: dict[Path, None] = {}  # each flushed once, after its files (4 ms a flush here)
    for path in files:
        target = _target(path)
        if target is not None and not os.path.isdir(target.parent):
            raise SpecError("cannot write: its folder does not exist", source=str(path))
        if target is not None:
            folders[target.parent] = None
    created: list[Path] = []
    try:
        for path, data in files.items():
            new = not os.path.lexists(path)
            write_atomic(path, data, sync_folder=False)
            if new:
                created.append(Path(path))
        for folder in folders:
            _sync_folder(folder)
    except BaseException:
        for path in created:
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    return [Path(path) for path in files]


def make_folder(path: str | Path, purpose: str) -> Path:
    """The folder ``path``, made with its parents when missing; a file in its place or a
    folder that cannot be made is a one-line SpecError (``purpose`` says what it is for)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise SpecError(f"is a file, not a folder; {purpose}", source=str(path))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SpecError(
            f"cannot create the folder: {exc.strerror or exc}", source=str(path)
        ) from None
    return folder


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to disk, where the system allows it."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(handle)
    finally:
        os.close(handle)


@contextlib.contextmanager
def staged_folder(target: str | Path) -> Iterator[Path]:
    """A new temporary folder beside ``target``, moved into place as ``target`` when the
    ``with`` block ends, and removed instead when it fails (an exception, KeyboardInterrupt,
    or SIGTERM once :func:`mha_symbolic.cli.main` turns it into an exception).

    ``target`` may be missing, an empty folder, or a folder to be replaced as a whole (the
    caller decides which folders may be replaced).
    """
    target = Path(target)
    try:
        staging = Path(
            tempfile.mkdtemp(prefix=f".{target.name}.", suffix=_TEMPORARY, dir=target.parent)
        )
    except OSError as exc:
        raise SpecError(f"cannot create: {exc.strerror or exc}", source=str(target)) from None
    try:
        os.chmod(staging, _mode(target, 0o777))
        yield staging
        _move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _move_into_place(staging: Path, target: Path) -> None:
    """Rename ``staging`` to ``target``; an old non-empty ``target`` is moved aside first and
    removed only once the new folder is in place (put back if that fails)."""
    try:
        os.replace(staging, target)  # target missing or an empty folder
        return
    except OSError as exc:
        if not target.is_dir() or not any(target.iterdir()):
            raise SpecError(f"cannot create: {exc.strerror or exc}", source=str(target)) from None
    aside = tempfile.mkdtemp(prefix=f".{target.name}.old.", suffix=_TEMPORARY, dir=target.parent)
    try:
        os.replace(target, aside)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.rmdir(aside)
        raise SpecError(f"cannot replace: {exc.strerror or exc}", source=str(target)) from None
    try:
        os.replace(staging, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):  # the old folder back; if that fails, it stays aside
            os.replace(aside, target)
        if isinstance(exc, OSError):
            raise SpecError(f"cannot replace: {exc.strerror or exc}", source=str(target)) from None
        raise
    shutil.rmtree(aside, ignore_errors=True)
