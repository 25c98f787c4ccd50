"""The sandboxed Jinja2 environment every output is rendered in: a template (ours or a
``--templates`` folder's) cannot reach Python, and any error in it is one line naming the
template file and line instead of a traceback."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading
import time
import traceback
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment, SecurityError, safe_range

from mha_symbolic.errors import SpecError
from mha_symbolic.output_files import inside
from mha_symbolic.text import one_line

_SHOWN = 200  # characters of an error's own message quoted
MAX_POWER_BITS = 10_000  # ``a ** b`` in a template: results of at most this many bits
MAX_REPEAT = 1_000_000  # ``"a" * n`` in a template: at most this many items
# A --templates folder's template (not the shipped ones, which render any model's size):
MAX_SECONDS = 5.0  # seconds of processor time per render (a busy machine does not shorten it)
MAX_OUTPUT = 64 * 1024 * 1024  # characters per render
MAX_LIPSUM = 100  # paragraphs of lipsum()


def _where(exc: BaseException, fallback: str) -> str:
    """``FILE:LINE`` of the innermost template frame of ``exc`` (Jinja2 rewrites tracebacks
    so that frames of compiled templates carry the template's file and line)."""
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.lineno:
        return f"{exc.filename or exc.name or fallback}:{exc.lineno}"
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        if frame.filename.endswith(".j2") or (
            not frame.filename.endswith(".py") and os.path.isfile(frame.filename)
        ):
            return f"{frame.filename}:{frame.lineno}"
    return fallback


def _message(exc: BaseException) -> str:
    text = one_line(str(getattr(exc, "message", None) or exc), _SHOWN)
    if isinstance(exc, SecurityError):
        return f"template refused by the sandbox (templates cannot run code): {text}"
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return f"template syntax error: {text}"
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"template {one_line(str(exc.name), _SHOWN)!r} not found"
    if isinstance(exc, jinja2.UndefinedError):
        return f"template error: {text}"
    if isinstance(exc, UnicodeDecodeError):
        return f"cannot read template: not UTF-8 ({exc.reason} at byte {exc.start})"
    if isinstance(exc, OSError):
        return f"cannot read template: {exc.strerror or text}"
    if isinstance(exc, TemplateBound):
        return f"template stopped: {text}"
    if isinstance(exc, RecursionError):
        return "template error: templates include or call each other without end"
    return f"template error: {type(exc).__name__}: {text}"


def template_error(exc: BaseException, fallback: str) -> SpecError:
    """``exc``, raised while loading or rendering a template, as one line naming its file."""
    if isinstance(exc, TemplateBound):  # where a timer stops a loop is chance: the file only
        return SpecError(_message(exc), source=fallback)
    return SpecError(_message(exc), source=_where(exc, fallback))


class _Template(jinja2.Template):
    def render(self, *args: Any, **kwargs: Any) -> str:
        bounded = getattr(self.environment, "bounded", False)
        try:
            with _time_bound(bounded):
                if not bounded:
                    return super().render(*args, **kwargs)
                return _bounded_text(self.generate(*args, **kwargs))
        except SpecError:  # already one line (a locale entry, or an included template)
            raise
        except Exception as exc:  # anything a template can raise
            raise template_error(exc, self.filename or self.name or "<template>") from None


class TemplateBound(Exception):
    """A ``--templates`` template ran too long or wrote too much."""


def _bounded_text(pieces: Iterator[str]) -> str:
    out, size = [], 0
    for piece in pieces:
        check_deadline()
        size += len(piece)
        if size > MAX_OUTPUT:
            raise TemplateBound(f"the template wrote more than {MAX_OUTPUT} characters")
        out.append(piece)
    return "".join(out)


_DEADLINE = threading.local()  # .at: when this thread's bounded render must stop


def _too_long() -> TemplateBound:
    return TemplateBound(f"the template ran longer than {MAX_SECONDS:g} s (a loop too long?)")


def check_deadline() -> None:
    """Stop a bounded render past its time: called from the sandbox's hooks (calls, * and
    **, range, each piece of output), so a render in any thread stops."""
    at = getattr(_DEADLINE, "at", None)
    if at is not None and time.thread_time() > at:
        raise _too_long()


@contextlib.contextmanager
def _time_bound(bounded: bool) -> Iterator[None]:
    """At most ``MAX_SECONDS`` of processor time for a render when ``bounded``: checked at the
    sandbox's hooks, and in the main thread also by a profiling timer signal, which stops even a
    loop that calls nothing. Processor time, not the clock: on a loaded machine a template that
    is fine takes longer by the clock, and must not be stopped for it."""
    if not bounded:
        yield
        return
    previous_at = getattr(_DEADLINE, "at", None)
    _DEADLINE.at = time.thread_time() + MAX_SECONDS
    try:
        with _timer():
            yield
    finally:
        _DEADLINE.at = previous_at


@contextlib.contextmanager
def _timer() -> Iterator[None]:
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getitimer(signal.ITIMER_PROF)[0]:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise _too_long()

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, MAX_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _range(*args: Any) -> range:
    check_deadline()
    return safe_range(*args)


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Jinja2's placeholder text, at most ``MAX_LIPSUM`` paragraphs of at most 100 words."""
    from jinja2.utils import generate_lorem_ipsum

    if not all(isinstance(k, int) for k in (n, min, max)) or not 0 <= n <= MAX_LIPSUM:
        raise SecurityError(f"lipsum gives at most {MAX_LIPSUM} paragraphs")
    if not 1 <= min <= max <= 100:
        raise SecurityError("lipsum gives paragraphs of 1 to 100 words")
    return str(generate_lorem_ipsum(n, html, min, max))


MAX_TEMPLATE_BYTES = 4 * 1024 * 1024  # a template file larger than this is not read


class FolderLoader(jinja2.BaseLoader):
    """The templates of one folder: only regular files whose real path lies inside it (a
    link out of the folder, to /etc/passwd say, is refused; a link within it is followed)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.searchpath = [str(folder)]
        self._root = os.path.realpath(folder)

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        path = os.path.join(self.searchpath[0], *jinja2.loaders.split_template_path(template))
        real = os.path.realpath(path)
        if not os.path.lexists(path):
            raise jinja2.TemplateNotFound(template)
        if not inside(self._root, real):
            raise SpecError(
                f"template {one_line(template)!r} links out of the templates folder; "
                "templates are read from inside it only",
                source=path,
            )
        status = os.stat(real)
        if stat.S_ISDIR(status.st_mode):
            raise jinja2.TemplateNotFound(template)
        if not stat.S_ISREG(status.st_mode):
            raise SpecError(f"template {one_line(template)!r} is not a regular file", source=path)
        with open(real, "rb") as file:
            data = file.read(MAX_TEMPLATE_BYTES + 1)
        if len(data) > MAX_TEMPLATE_BYTES:
            raise SpecError(f"template is larger than {MAX_TEMPLATE_BYTES} bytes", source=path)
        return data.decode("utf-8"), path, lambda: os.path.getmtime(real) == status.st_mtime


class Sandbox(SandboxedEnvironment):
    """Jinja2's SandboxedEnvironment (no access to attributes such as ``__globals__``;
    ``str.format`` with safe fields only), with big powers and repetitions refused and errors
    turned into one-line :class:`SpecError`\\ s."""

    template_class = _Template
    intercepted_binops = frozenset({"*", "**"})
    bounded = False  # True for a --templates folder: time and output bounds

    def __init__(self, *args: Any, bounded: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounded = bounded
        self.globals.update(lipsum=_lipsum, range=_range)

    def call(self, context: Any, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        check_deadline()
        return super().call(context, obj, *args, **kwargs)

    def get_template(
        self,
        name: str | jinja2.Template,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        try:
            return super().get_template(name, parent, globals)
        except SpecError:
            raise
        except Exception as exc:
            if parent is not None:  # include or extends: the including template names its line
                raise
            raise template_error(exc, self._path(str(name))) from None

    def _path(self, name: str) -> str:
        folders = getattr(self.loader, "searchpath", None) or ["."]
        return os.path.join(folders[0], name)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        check_deadline()
        if operator == "**" and _big_power(left, right):
            raise SecurityError(f"{operator} gives a number over {MAX_POWER_BITS} bits")
        if operator == "*" and _long_repeat(left, right):
            raise SecurityError(f"* repeats a sequence more than {MAX_REPEAT} items long")
        return super().call_binop(context, operator, left, right)


def _big_power(base: Any, exponent: Any) -> bool:
    if not (isinstance(base, int) and isinstance(exponent, int)) or exponent <= 0:
        return False
    return abs(base) > 1 and abs(base).bit_length() * exponent > MAX_POWER_BITS


def _long_repeat(left: Any, right: Any) -> bool:
    for sequence, count in ((left, right), (right, left)):
        if isinstance(sequence, (str, list, tuple)) and isinstance(count, int):
            return len(sequence) * count > MAX_REPEAT
    return False
