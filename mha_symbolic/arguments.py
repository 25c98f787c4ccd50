"""The command line's arguments: the parser, its help for users, and argument types."""

from __future__ import annotations

import argparse
import re
from typing import Any

from mha_symbolic.command_parser import Parser, Version
from mha_symbolic.language.locales import LANGUAGES
from mha_symbolic.sweep_command import SWEEP_FILE, add_arguments
from mha_symbolic.text import MAX_DECIMALS, one_line

DESCRIPTION = """\
Exact multi-head attention, step by step. mha-symbolic derives every step of a
transformer attention layer in exact arithmetic (e/(1+e), not 0.73), writes it as a
worked solution (Markdown, LaTeX, HTML, PDF, JSON), checks the numbers a textbook or
tutorial prints, and makes exercise sheets with answer keys.

A spec is a TOML file: the input x, the weights, the number of heads, the scale and the
mask (see the README); `-` reads it from standard input."""

EPILOG = """\
examples:
  mha-symbolic examples                             list the built-in examples
  mha-symbolic derive --example two-tokens          the worked solution
  mha-symbolic derive my-spec.toml -o solution.pdf  as a PDF
  mha-symbolic check --example one-token            the wrong printed numbers
  mha-symbolic exercises --example two-tokens --count 20 -o sheets
  cat my-spec.toml | mha-symbolic derive - --format tex

exit codes: 0 done, 1 `check` found a wrong claim, 2 bad input (one line on stderr)."""


def _add_spec_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", help="a spec TOML file (- reads standard input)")
    parser.add_argument("--example", metavar="NAME", help="a built-in example (see `examples`)")


def _add_large(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--large",
        action="store_true",
        help="go ahead with a derivation estimated to take minutes (refused by default)",
    )


def _add_force(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="let -o replace the input file itself")


def _add_lang(parser: argparse.ArgumentParser, about: str = "language of prose") -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help=about)


def _count(text: str) -> int:
    """A whole number from 0 to MAX_DECIMALS (decimal places, matrix sizes)."""
    if not text.isdigit() or int(text) > MAX_DECIMALS:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 0 to {MAX_DECIMALS}, got {one_line(text)!r}"
        )
    return int(text)


def _path(text: str) -> str:
    """A file or folder name: not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file name, got {text!r}")
    return text


def _command(commands: Any, name: str, summary: str, about: str, *examples: str) -> Parser:
    """A subcommand: ``summary`` in the command list; its own help says what it does
    (``about``), with examples; --quiet, as every command has."""
    lines = [f"  mha-symbolic {name} {e}" for e in examples]
    epilog = "examples:\n" + "\n".join(lines) if lines else None
    parser: Parser = commands.add_parser(name, help=summary, description=about, epilog=epilog)
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="no progress or notes on stderr (errors still)"
    )
    return parser


def _add_no_pager(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-pager",
        action="store_true",
        help="never page long output to a terminal (default: $PAGER, else less, as git does)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="mha-symbolic", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action=Version)
    commands = parser.add_subparsers(
        dest="command", required=True, parser_class=Parser, metavar="COMMAND"
    )

    _command(
        commands,
        "examples",
        "list the built-in examples",
        "List the built-in examples (from worked documents) by name and title.",
    )
    _add_derive(commands)
    _add_check(commands)
    _add_exercises(commands)
    _add_bench(commands)
    _add_extract(commands)
    _add_verify(commands)
    _add_serve(commands)
    _add_shell(commands)
    return parser


SHELLS = ("bash", "zsh", "tcsh")


def _add_shell(commands: Any) -> None:
    """completion and manpage: files for the shell and man, made from this parser."""
    shell = _command(
        commands,
        "completion",
        "print the shell completion script",
        "Print a completion script for the shell. Save it where the shell reads completions:"
        " for bash ~/.local/share/bash-completion/completions/mha-symbolic, for zsh a folder"
        " on $fpath such as ~/.zfunc.",
        "bash > mha-symbolic.bash",
        "zsh > ~/.zfunc/_mha-symbolic",
    )
    shell.add_argument("shell", choices=SHELLS, help="the shell")
    _command(
        commands,
        "manpage",
        "print the manual page (roff)",
        "Print the manual page, made from this help, as roff for man.",
        "> ~/.local/share/man/man1/mha-symbolic.1",
    )


def _add_json(derive: argparse.ArgumentParser) -> None:
    derive.add_argument(
        "--enclose",
        type=_count,
        metavar="DIGITS",
        help="json: every entry also as a certified arb ball, radius below 10^-DIGITS",
    )
    derive.add_argument(
        "--no-exact",
        dest="exact",
        action="store_false",
        help="json: leave out the exact LaTeX (balls and decimals only; for model scale)",
    )


def _add_derive(commands: Any) -> None:
    derive = _command(
        commands,
        "derive",
        "derive every step exactly and write the worked solution",
        "Derive every step of the attention exactly and write it as a worked solution.",
        "--example two-tokens",
        "my-spec.toml --format tex -o solution.tex --decimals 4",
        "my-spec.toml -o solution.pdf --gradients",
        "- --format json < my-spec.toml",
    )
    _add_spec_source(derive)
    _add_large(derive)
    derive.add_argument(
        "--format",
        choices=("text", "md", "tex", "html", "pdf", "json"),
        help="output format (default: from -o's suffix; else text on a terminal, md in a pipe); "
        "text is as wide as the terminal ($COLUMNS), 100 columns in a file",
    )
    derive.add_argument(
        "-o", "--output", type=_path, metavar="FILE", help="write here instead of stdout"
    )
    _add_force(derive)
    derive.add_argument(
        "--decimals",
        type=_count,
        metavar="N",
        help=f"decimal places, 0 to {MAX_DECIMALS} (default: the spec's decimals, else 2)",
    )
    derive.add_argument(
        "--detail", choices=("matrix", "token"), default="matrix", help="token: per-token sums"
    )
    _add_lang(derive)
    _add_no_pager(derive)
    derive.add_argument(
        "--max-size",
        type=_count,
        default=8,
        metavar="N",
        help="elide matrices with more than N rows or columns (default 8)",
    )
    derive.add_argument(
        "--templates", type=_path, metavar="DIR", help="use these templates instead (sandboxed)"
    )
    _add_json(derive)
    derive.add_argument(
        "--gradients",
        action="store_true",
        help="also backpropagate the loss ([loss] table, else the sum of the output): grad.* steps",
    )
    derive.add_argument(
        "--limit",
        metavar="NAME=POINT",
        help="every step's exact limit as a declared parameter goes to POINT (tau=0+, tau=oo)",
    )
    _add_plot_options(derive)


def _add_plot_options(derive: argparse.ArgumentParser) -> None:
    derive.add_argument(
        "--plot",
        metavar="NAME=START:STOP",
        help="plot step entries against a parameter (tau=0.1:10); PNG beside -o, in html/pdf",
    )
    derive.add_argument(
        "--plot-keys",
        nargs="+",
        metavar="KEY",
        help="entries to plot: head1.weights (all), head1.weights[2] (a row), head1.output[1,2]"
        " (default: every head's weights)",
    )
    derive.add_argument(
        "--plot-file", type=_path, metavar="FILE", help="write the plot here (a .png)"
    )


def _add_check(commands: Any) -> None:
    check = _command(
        commands,
        "check",
        "check the numbers a document prints",
        "Check the numbers a document prints (the spec's [claims]) against the exact values: "
        "each is exact, rounded, or wrong with its likely mistake.",
        "--example one-token",
        "my-spec.toml --format json",
        "--example two-tokens --claim 'head1.weights[1,1]=0.73'",
        "my-spec.toml --claims - < printed.toml",
    )
    _add_spec_source(check)
    _add_large(check)
    check.add_argument(
        "--format",
        choices=("text", "table", "md", "json"),
        default="text",
        help="report format: text (a block per claim, as wide as the terminal), table (a row "
        "per claim)",
    )
    check.add_argument(
        "--claim",
        action="append",
        metavar="KEY=VALUE",
        help="check this claim instead of the spec's own (repeatable)",
    )
    check.add_argument(
        "--claims",
        type=_path,
        metavar="FILE",
        help="check these claims instead: a TOML file of KEY = VALUE lines (or a [claims] "
        "table); - reads standard input",
    )
    _add_check_precision(check)
    _add_no_pager(check)


def _add_check_precision(check: Any) -> None:
    """The check's printed-precision options and its readable report."""
    check.add_argument(
        "--inputs",
        choices=("exact", "printed"),
        help="printed: each input decimal stands for the interval its digits do "
        "(default: the spec's inputs key, else exact)",
    )
    check.add_argument(
        "--dtype",
        choices=("exact", "float64", "float32"),
        help="allow the rounding of a computation in this type (default: the spec's dtype)",
    )
    check.add_argument("--why", action="store_true", help="the text report, whatever --format says")
    _add_lang(
        check,
        "the report's words, and a document's mapping and notes (step keys, the document's "
        "names, maths and JSON keys stay as they are)",
    )


def _add_bench(commands: Any) -> None:
    bench = _command(
        commands,
        "bench",
        "time the derivation and the compiled functions",
        "Time the exact derivation, the compiled functions, the exercise bank and exact "
        "attention at model scale (scale: a GPT-2-small layer enclosed to 50 digits), and the "
        "page's server time for an edit (page), and whole commands in a fresh process "
        "(commands).",
        "--quick",
        "--only compile",
    )
    bench.add_argument("--quick", action="store_true", help="small shapes only")
    bench.add_argument(
        "--only",
        choices=("derive", "compile", "grad", "exercises", "scale", "page", "commands"),
        metavar="SECTION",
        help="run one section: derive, compile, grad, exercises, scale, page or commands"
        " (default: all)",
    )
    bench.add_argument(
        "--full-context",
        action="store_true",
        help="scale: also a GPT-2 layer at its full context, 1024 causal tokens, derived and"
        " enclosed to 50 digits against its 30 s / 4 GB target (about a minute; left out"
        " without it)",
    )


def _whole(low: int, high: int) -> Any:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def read(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {high}, got {text!r}"
            )
        return int(text)

    return read


def _add_exercises(commands: Any) -> None:
    exercises = _command(
        commands,
        "exercises",
        "exercise sheets and answer keys with nice numbers",
        "Make randomized variants of a spec with nice numbers: a student sheet and an answer "
        "key per variant, written into a new folder (an earlier bank there is replaced).",
        "--example two-tokens --count 20 -o sheets",
        "my-spec.toml --count 100 --format pdf -o bank --seed 7",
    )
    _add_spec_source(exercises)
    exercises.add_argument(
        "--count", type=_whole(1, 100_000), required=True, metavar="N", help="variants"
    )
    exercises.add_argument(
        "--seed", type=_whole(0, 2**63), default=0, metavar="S", help="random seed (default 0)"
    )
    exercises.add_argument(
        "-o", "--output", type=_path, required=True, metavar="DIR", help="write here"
    )
    exercises.add_argument(
        "--format",
        choices=("md", "tex", "pdf"),
        default="md",
        help="md (default), tex, or pdf (bank.pdf)",
    )
    exercises.add_argument(
        "--workers",
        type=_whole(1, 1024),
        metavar="K",
        help="worker processes (default: the number of CPUs)",
    )
    exercises.add_argument(
        "--decimals",
        type=_count,
        default=2,
        metavar="N",
        help=f"decimal places, 0 to {MAX_DECIMALS} (default 2)",
    )
    _add_lang(exercises)
    exercises.add_argument(
        "--templates", type=_path, metavar="DIR", help="use these templates instead (sandboxed)"
    )
    exercises.add_argument(
        "--verify", action="store_true", help="check every answer key's decimals (slower)"
    )


def _add_verify(commands: Any) -> None:
    verify = _command(
        commands,
        "verify",
        "a kernel's worst ulps over a sweep of configurations, on Dask",
        "Run verify for every configuration of a sweep file, one Dask task each, and print "
        "each configuration's worst errors in ulps against exact values certified to 50 "
        "digits. " + SWEEP_FILE,
        "--sweep sweep.toml",
        "--sweep sweep.toml --scheduler tcp://10.0.0.5:8786 --format json",
    )
    add_arguments(verify, _whole, _path)


def _add_serve(commands: Any) -> None:
    serve = _command(
        commands,
        "serve",
        "the interactive page: edit a spec, watch the exact steps change",
        "Serve the interactive page on this machine: a spec editor with the built-in "
        "examples, the worked solution updated as you type, heatmaps, and a tab that checks "
        "a pasted document. Needs the web extra: pip install 'mha-symbolic[web]'.",
        "--open",
        "--port 8080 --host 0.0.0.0   (open to other machines)",
    )
    serve.add_argument(
        "--port", type=_whole(0, 65535), default=8000, metavar="N", help="port (default 8000)"
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="H",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument(
        "--workers",
        type=_whole(1, 64),
        default=2,
        metavar="K",
        help="worker processes deriving at once (default 2)",
    )
    serve.add_argument(
        "--time-limit",
        type=_whole(1, 3600),
        default=20,
        metavar="S",
        help="seconds one derivation may take before it is stopped (default 20)",
    )


def _add_extract(commands: Any) -> None:
    extract = _command(
        commands,
        "extract",
        "read a document's matrices and printed numbers into a draft spec",
        "Read a worked example (Markdown, text, LaTeX, a Jupyter notebook or HTML) into a draft "
        "spec: its input, weights, heads, layout, convention and scale, and the numbers it "
        "prints as [claims] (or [assumed]), each with a comment saying where it came from. "
        "`mha-symbolic check DOC` checks a document directly. Exit 2 when nothing checkable "
        "remains (the spec is still written).",
        "tutorial.md -o spec.toml",
        "notebook.ipynb -o specs/   (one spec per worked example)",
    )
    extract.add_argument("document", type=_path, help="a .md, .txt, .tex, .ipynb or .html file")
    extract.add_argument(
        "-o",
        "--output",
        type=_path,
        metavar="PATH",
        help="write the spec here (a folder when the page has several examples); - or none: stdout",
    )
    _add_force(extract)
    _add_lang(extract, "the notes' words (names, spec keys and the spec's TOML stay as they are)")


# The library's messages name Python parameters; the command line names its flags.
FLAGS = {
    "count": "--count",
    "decimals": "--decimals",
    "fmt": "--format",
    "limit": "--limit",
    "max_size": "--max-size",
    "plot": "--plot",
    "plot_keys": "--plot-keys",
    "scheduler": "--scheduler",
    "templates": "--templates",
    "large=True": "--large",
}
_PARAMETER = re.compile(r"(^|: |give |pass )(" + "|".join(FLAGS) + r")(?=:| must| '| to|$)")


def as_flags(message: str) -> str:
    """``max_size must be at least 2`` -> ``--max-size must be at least 2``."""
    return _PARAMETER.sub(lambda m: m.group(1) + FLAGS[m.group(2)], message)
