"""The mha-symbolic command: argument parsing, files, signals and exit codes only."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from mha_symbolic import __version__
from mha_symbolic.errors import SpecError
from mha_symbolic.files import write_atomic
from mha_symbolic.text import MAX_DECIMALS, one_line

EXIT_OK, EXIT_WRONG_CLAIM, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + SIGINT, 128 + SIGTERM
MESSAGE_LIMIT = 400  # characters of an error message: one line on any terminal log
STDIN = "-"  # the spec (or claims) file name that reads standard input
MAX_STDIN = 16 * 1024 * 1024  # bytes of a spec read from standard input

DESCRIPTION = """\
Exact multi-head attention, step by step. mha-symbolic derives every step of a
transformer attention layer in exact arithmetic (e/(1+e), not 0.73), writes it as a
worked solution (Markdown, LaTeX, HTML, PDF, JSON), checks the numbers a textbook or
tutorial prints, and makes exercise sheets with answer keys.

A spec is a TOML file: the input x, the weights, the number of heads, the scale and the
mask (see the README); `-` reads it from standard input."""

EPILOG = """\
examples:
  mha-symbolic examples                                  list the built-in examples
  mha-symbolic derive --example two-tokens               the worked solution as Markdown
  mha-symbolic derive my-spec.toml -o solution.pdf       as a PDF
  mha-symbolic check --example one-token                 which printed numbers are wrong
  mha-symbolic exercises --example two-tokens --count 20 -o sheets
  cat my-spec.toml | mha-symbolic derive - --format tex

exit codes: 0 done, 1 `check` found a wrong claim, 2 bad input (one line on stderr)."""


class _Parser(argparse.ArgumentParser):
    """Usage mistakes are one line on stderr and exit code 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        line = one_line(f"{self.prog}: {message} (see {self.prog} --help)", MESSAGE_LIMIT)
        self.exit(EXIT_BAD_INPUT, line + "\n")


def _add_spec_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", help="a spec TOML file (- reads standard input)")
    parser.add_argument("--example", metavar="NAME", help="a built-in example (see `examples`)")


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


def _command(commands: Any, name: str, summary: str, about: str, *examples: str) -> _Parser:
    """A subcommand: ``summary`` in the command list; its own help says what it does
    (``about``), with examples."""
    epilog = "examples:\n" + "\n".join(f"  mha-symbolic {name} {e}" for e in examples)
    parser: _Parser = commands.add_parser(name, help=summary, description=about, epilog=epilog)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mha-symbolic", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"mha-symbolic {__version__}")
    commands = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )

    commands.add_parser(
        "examples",
        help="list the built-in examples",
        description="List the built-in examples (from worked documents) by name and title.",
    )

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
    derive.add_argument(
        "--format",
        choices=("md", "tex", "html", "pdf", "json"),
        help="output format (default: from -o's suffix, else md)",
    )
    derive.add_argument(
        "-o", "--output", type=_path, metavar="FILE", help="write here instead of stdout"
    )
    derive.add_argument(
        "--decimals",
        type=_count,
        default=2,
        metavar="N",
        help=f"decimal places, 0 to {MAX_DECIMALS} (default 2)",
    )
    derive.add_argument(
        "--detail", choices=("matrix", "token"), default="matrix", help="token: per-token sums"
    )
    derive.add_argument("--lang", choices=("en", "bn"), default="en", help="language of prose")
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
    check.add_argument(
        "--format", choices=("text", "md", "json"), default="text", help="report format"
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

    _add_exercises(commands)

    bench = _command(
        commands,
        "bench",
        "time the derivation and the compiled functions",
        "Time the exact derivation, the compiled functions and the exercise bank.",
        "--quick",
        "--only compile",
    )
    bench.add_argument("--quick", action="store_true", help="small shapes only")
    bench.add_argument(
        "--only",
        choices=("derive", "compile", "grad", "exercises"),
        help="run one section (default: all)",
    )
    return parser


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
    exercises.add_argument("--lang", choices=("en", "bn"), default="en", help="language of prose")
    exercises.add_argument(
        "--templates", type=_path, metavar="DIR", help="use these templates instead (sandboxed)"
    )
    exercises.add_argument(
        "--verify", action="store_true", help="check every answer key's decimals (slower)"
    )
    exercises.add_argument("--quiet", action="store_true", help="no progress line")


def _one_source(args: argparse.Namespace) -> None:
    if args.spec and args.example:
        raise SpecError("give a spec file or --example NAME, not both")
    if not args.spec and not args.example:
        raise SpecError("give a spec file or --example NAME (see `mha-symbolic examples`)")


def load_spec(args: argparse.Namespace) -> Any:
    from mha_symbolic.spec.attention import AttentionSpec

    _one_source(args)
    if args.example:
        return AttentionSpec.example(args.example)
    if args.spec == STDIN:
        return AttentionSpec.from_dict(_stdin_table(), source="<stdin>")
    return AttentionSpec.from_toml(args.spec)


def _stdin_table() -> dict[str, Any]:
    """The spec TOML on standard input, read as a table (floats kept as exact decimals)."""
    from mha_symbolic.spec.attention import _parse_toml

    return _parse_toml(_read_text(STDIN), "<stdin>")


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    write_atomic(output, text)


def _examples() -> int:
    from mha_symbolic.spec.attention import examples

    for name, title, _ in examples():
        print(f"{name:<20} {title}")
    return EXIT_OK


def _derive(args: argparse.Namespace) -> int:
    from mha_symbolic.exact.derivation import derive
    from mha_symbolic.progress import StepLine
    from mha_symbolic.solution.render import infer_format, render, write
    from mha_symbolic.solution.view import Options

    options = Options(
        decimals=args.decimals,
        detail=args.detail,
        lang=args.lang,
        max_size=args.max_size,
        templates=args.templates,
    )
    spec = load_spec(args)
    progress = StepLine()
    try:
        d = derive(spec, gradients=True if args.gradients else None, progress=progress)
    finally:
        progress.close()
    if args.plot:
        options = replace(options, plots=(_plot(args, d),))
    if args.limit:  # the claims are about the values, not their limits: no marks
        from mha_symbolic.exact.limits import parse_limit

        d = d.limit(*parse_limit(args.limit))
    elif spec.claims:  # mark, in place, each printed number that does not hold
        from mha_symbolic.check.judge import check

        options = replace(options, marks=check(d).marks())
    fmt = args.format or (infer_format(args.output) if args.output else "md")
    if args.output is None:
        if fmt == "pdf":
            raise SpecError("--format pdf writes a file: give -o FILE.pdf")
        _write(render(d, fmt, options), None)
        return EXIT_OK
    for path in write(d, args.output, fmt, options):
        print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def _plot(args: argparse.Namespace, d: Any) -> Any:
    """The --plot figure; its PNG goes to --plot-file or beside -o as STEM-NAME.png."""
    from mha_symbolic.solution.plot import figure, parse_range

    if args.plot_file is None and args.output is None:
        raise SpecError("--plot writes a PNG: give -o FILE or --plot-file FILE.png")
    name = parse_range(args.plot)[0]
    if args.plot_file is None:
        target = Path(args.output).with_name(f"{Path(args.output).stem}-{name}.png")
    else:
        target = Path(args.plot_file)
    base = Path(args.output).parent if args.output else Path.cwd()
    src = os.path.relpath(target.resolve(), base.resolve())
    result = figure(d, args.plot, src, args.plot_keys, args.lang)
    if args.output is None:  # no document file to write it beside
        write_atomic(target, result.png)
        print(f"wrote {target}", file=sys.stderr)
    return result


def _check(args: argparse.Namespace) -> int:
    from mha_symbolic.check.judge import check

    if args.spec == STDIN and args.claims == STDIN:
        raise SpecError("the spec and --claims cannot both be - (standard input)")
    report = check(load_spec(args), _claims(args))
    formats = {"text": report.to_text, "md": report.to_markdown, "json": report.to_json}
    text = formats[args.format]()
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK if report.ok else EXIT_WRONG_CLAIM


def _claims(args: argparse.Namespace) -> dict[str, Any] | None:
    """The claims of --claims FILE and --claim KEY=VALUE, or None for the spec's own."""
    from mha_symbolic.spec.attention import _parse_toml

    if args.claims is None and not args.claim:
        return None
    table: dict[str, Any] = {}
    if args.claims is not None:
        source = "<stdin>" if args.claims == STDIN else args.claims
        raw = _parse_toml(_read_text(args.claims), source)
        inner = raw.get("claims")
        table.update(inner if isinstance(inner, dict) else raw)
    for given in args.claim or []:
        key, equals, value = given.partition("=")
        if not equals or not key.strip():
            raise SpecError(f"--claim: write KEY=VALUE, got {given!r}")
        table[key.strip()] = value.strip()
    return table


def _read_text(name: str) -> str:
    """The UTF-8 text of a regular file, or of standard input for ``-``, at most MAX_STDIN."""
    if name == STDIN:
        data = sys.stdin.buffer.read(MAX_STDIN + 1)
    else:
        path = Path(name)
        if not path.is_file():
            what = "no such file" if not path.exists() else "not a regular file"
            raise SpecError(what, source=name)
        try:
            with path.open("rb") as stream:
                data = stream.read(MAX_STDIN + 1)
        except OSError as exc:
            raise SpecError(f"cannot read: {exc.strerror}", source=name) from None
    source = "<stdin>" if name == STDIN else name
    if len(data) > MAX_STDIN:
        raise SpecError(f"more than {MAX_STDIN} bytes; this is not a spec or claims", source=source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise SpecError(reason, source=source) from None


def _exercises(args: argparse.Namespace) -> int:
    from mha_symbolic.exercises.bank import load
    from mha_symbolic.exercises.writer import write_bank
    from mha_symbolic.progress import CountLine
    from mha_symbolic.spec.attention import AttentionSpec

    _one_source(args)
    if args.spec == STDIN:
        spec = _stdin_table()
        AttentionSpec.from_dict(spec, source="<stdin>")  # checked before any work
    else:
        spec = load(args.spec, args.example)
    progress = CountLine("exercises", args.count, enabled=not args.quiet)
    try:
        files = write_bank(
            args.output,
            spec,
            args.count,
            args.seed,
            args.format,
            source="<stdin>" if args.spec == STDIN else args.spec or f"example {args.example}",
            lang=args.lang,
            decimals=args.decimals,
            templates=args.templates,
            verify=args.verify,
            workers=args.workers,
            progress=progress,
        )
    finally:
        progress.close()
    if not args.quiet:
        print(f"wrote {args.count} variants ({len(files)} files) to {args.output}", file=sys.stderr)
    return EXIT_OK


def _bench(args: argparse.Namespace) -> int:
    from mha_symbolic import bench

    for line in bench.run(quick=args.quick, only=args.only):
        print(line, flush=True)
    return EXIT_OK


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C, so every cleanup (temporary files and
    folders) runs before the process ends."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While a command runs, SIGTERM raises :class:`Terminated` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _error(message: str) -> None:
    """The one place errors reach the terminal: control characters escaped (no ANSI escape
    or newline from user text), cut to one line."""
    print(f"mha-symbolic: {one_line(message, MESSAGE_LIMIT)}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handlers = {
        "examples": lambda: _examples(),
        "derive": lambda: _derive(args),
        "check": lambda: _check(args),
        "exercises": lambda: _exercises(args),
        "bench": lambda: _bench(args),
    }
    try:
        with _sigterm_raises():
            return handlers[args.command]()
    except SpecError as error:
        _error(str(error))
        return EXIT_BAD_INPUT
    except Terminated:
        _error("terminated")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # stdout closed early (| head): nothing more to say
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
