"""The command line's parser class: its help laid out for the terminal, usage mistakes as one
line, ``--version`` looked up when asked, and the shell files (completion, man page) made
from it."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any, NoReturn

from mha_symbolic.text import one_line

EXIT_BAD_INPUT = 2
MESSAGE_LIMIT = 400  # characters of an error message: one line on any terminal log


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Prose paragraphs fill the terminal's width; indented lines (examples) stay as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.split("\n\n"):
            if any(line.startswith(" ") for line in paragraph.splitlines()):
                paragraphs.append(super()._fill_text(paragraph, width, indent))
            else:
                paragraphs.append(textwrap.fill(" ".join(paragraph.split()), width))
        return "\n\n".join(paragraphs)


class Parser(argparse.ArgumentParser):
    """Usage mistakes are one line on stderr and exit code 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        line = one_line(f"{self.prog}: {message} (see {self.prog} --help)", MESSAGE_LIMIT)
        self.exit(EXIT_BAD_INPUT, line + "\n")


def _installed() -> str:
    from mha_symbolic import __version__

    return str(__version__)


class Version(argparse.Action):
    """``--version``, the version looked up only when asked: every other command starts
    without importlib.metadata."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS) -> None:
        help = "show program's version number and exit"
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> NoReturn:
        print(f"mha-symbolic {_installed()}")
        parser.exit()


def completion(parser: argparse.ArgumentParser, shell: str) -> str:
    """The ``shell``'s completion script for ``parser`` (commands, flags, choices, files)."""
    import shtab

    return str(shtab.complete(parser, shell))


def manpage(parser: argparse.ArgumentParser) -> str:
    """``parser``'s help as a manual page (roff)."""
    from argparse_manpage.manpage import Manpage

    page = Manpage(parser)
    page.description = "exact multi-head attention, step by step"  # the NAME line
    page.source, page.manual = f"mha-symbolic {_installed()}", "mha-symbolic manual"
    return str(page)
