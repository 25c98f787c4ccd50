"""The sandboxed Jinja2 environment every output is rendered in: a template (ours or a
``--templates`` folder's) cannot reach Python, and any error in it is one line naming the
template file and line instead of a traceback."""

from __future__ import annotations

import os
import traceback
from collections.abc import MutableMapping
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from mha_symbolic.errors import SpecError
from mha_symbolic.text import one_line

_SHOWN = 200  # characters of an error's own message quoted
MAX_POWER_BITS = 10_000  # ``a ** b`` in a template: results of at most this many bits
MAX_REPEAT = 1_000_000  # ``"a" * n`` in a template: at most this many items


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
    if isinstance(exc, RecursionError):
        return "template error: templates include or call each other without end"
    return f"template error: {type(exc).__name__}: {text}"


def template_error(exc: BaseException, fallback: str) -> SpecError:
    """``exc``, raised while loading or rendering a template, as one line naming its file."""
    return SpecError(_message(exc), source=_where(exc, fallback))


class _Template(jinja2.Template):
    def render(self, *args: Any, **kwargs: Any) -> str:
        try:
            return super().render(*args, **kwargs)
        except SpecError:  # already one line (a locale entry, or an included template)
            raise
        except Exception as exc:  # anything a template can raise
            raise template_error(exc, self.filename or self.name or "<template>") from None


class Sandbox(SandboxedEnvironment):
    """Jinja2's SandboxedEnvironment (no access to attributes such as ``__globals__``;
    ``str.format`` with safe fields only), with big powers and repetitions refused and errors
    turned into one-line :class:`SpecError`\\ s."""

    template_class = _Template
    intercepted_binops = frozenset({"*", "**"})

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
