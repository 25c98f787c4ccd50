"""How the command talks to the terminal: notes on stderr (none with --quiet), and long
output through a pager, as git does: ``PAGER`` (``less`` by default, with ``LESS=FRX`` unless
``LESS`` is set), only when standard output is a terminal and the text does not fit it."""

from __future__ import annotations

import contextlib
import contextvars
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from mha_symbolic.command_parser import MESSAGE_LIMIT
from mha_symbolic.text import one_line

DEFAULT = "less"
LESS = "FRX"  # quit when it fits one screen, show colours as they are, leave the text on screen


@dataclass(frozen=True)
class Manners:
    """How a command talks: ``quiet`` (no notes or progress on stderr), and ``pager``: whether
    long output to a terminal may go through the pager."""

    quiet: bool = False
    pager: bool = False


_MANNERS: contextvars.ContextVar[Manners] = contextvars.ContextVar("manners")


@contextlib.contextmanager
def manners(quiet: bool, pager: bool) -> Iterator[None]:
    """While a command runs, :func:`note` and :func:`show` behave so."""
    token = _MANNERS.set(Manners(quiet, pager))
    try:
        yield
    finally:
        _MANNERS.reset(token)


def _now() -> Manners:
    return _MANNERS.get(Manners())


def note(message: str) -> None:
    """A line on stderr that may hold user text (a path): escaped like an error; none with
    --quiet."""
    if not _now().quiet:
        print(one_line(message, MESSAGE_LIMIT), file=sys.stderr)


def show(text: str) -> None:
    """``text`` on stdout, through the pager when it is long for the terminal."""
    if not (_now().pager and page(text)):
        sys.stdout.write(text)


def fits(text: str, size: os.terminal_size) -> bool:
    """Whether ``text`` fits one screen: fewer lines than the terminal has (the prompt takes
    one) and no line wider than it."""
    lines = text.splitlines()
    return len(lines) < size.lines and all(len(line) <= size.columns for line in lines)


def command() -> list[str] | None:
    """The pager to run, or None: ``PAGER`` empty, ``cat``, unreadable, or a program that is
    not there."""
    try:
        words = shlex.split(os.environ.get("PAGER", DEFAULT))
    except ValueError:  # an unclosed quote: not a command to run
        return None
    if not words or words == ["cat"] or shutil.which(words[0]) is None:
        return None
    return words


def page(text: str) -> bool:
    """Show ``text`` through the pager when standard output is a terminal it does not fit;
    whether it did (else the caller writes ``text`` itself)."""
    try:
        terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
    words = command() if terminal else None
    if words is None or fits(text, shutil.get_terminal_size()):
        return False
    sys.stdout.flush()
    env = {**os.environ, "LESS": os.environ.get("LESS", LESS)}
    try:
        pager = subprocess.Popen(words, stdin=subprocess.PIPE, env=env)
    except OSError:
        return False
    _feed(pager, text.encode(sys.stdout.encoding or "utf-8", "replace"))
    return True


def _feed(pager: subprocess.Popen[bytes], data: bytes) -> None:
    """Write ``data`` to the pager and wait until the reader quits it; Ctrl-C is the
    pager's (less uses it to stop a search), not ours, meanwhile."""
    assert pager.stdin is not None
    try:
        with _ctrl_c_ignored():
            with contextlib.suppress(BrokenPipeError):  # quit before the end: nothing lost
                pager.stdin.write(data)
                pager.stdin.close()
            pager.wait()
    except BaseException:  # SIGTERM while paging: no pager left behind
        pager.kill()
        pager.wait()
        raise


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
