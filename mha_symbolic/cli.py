"""The mha-symbolic command: argument parsing and file I/O only."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from mha_symbolic.errors import SpecError

EXIT_OK, EXIT_WRONG_CLAIM, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """Usage mistakes are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _add_spec_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", help="a spec TOML file")
    parser.add_argument("--example", metavar="NAME", help="a built-in example (see `examples`)")


def _count(text: str) -> int:
    """A whole number from 0 to 50 (decimal places, matrix sizes)."""
    if not text.isdigit() or int(text) > 50:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 50, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mha-symbolic", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    commands.add_parser("examples", help="list the built-in examples")

    derive = commands.add_parser("derive", help="derive every step exactly and render it")
    _add_spec_source(derive)
    derive.add_argument(
        "--format",
        choices=("md", "tex", "html", "pdf", "json"),
        help="output format (default: from -o's suffix, else md)",
    )
    derive.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    derive.add_argument(
        "--decimals", type=_count, default=2, metavar="N", help="decimal places (default 2)"
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
    derive.add_argument("--templates", metavar="DIR", help="use these templates instead")
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
    derive.add_argument("--plot-file", metavar="FILE", help="write the plot here (a .png)")

    check = commands.add_parser("check", help="check the numbers a document prints (claims)")
    _add_spec_source(check)
    check.add_argument(
        "--format", choices=("text", "md", "json"), default="text", help="report format"
    )

    _add_exercises(commands)

    bench = commands.add_parser("bench", help="time the exact derivation (and more)")
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
    exercises = commands.add_parser(
        "exercises", help="randomized variants with nice numbers: student sheets and answer keys"
    )
    _add_spec_source(exercises)
    exercises.add_argument(
        "--count", type=_whole(1, 100_000), required=True, metavar="N", help="variants"
    )
    exercises.add_argument(
        "--seed", type=_whole(0, 2**63), default=0, metavar="S", help="random seed (default 0)"
    )
    exercises.add_argument("-o", "--output", required=True, metavar="DIR", help="write here")
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
        "--decimals", type=_count, default=2, metavar="N", help="decimal places (default 2)"
    )
    exercises.add_argument("--lang", choices=("en", "bn"), default="en", help="language of prose")
    exercises.add_argument("--templates", metavar="DIR", help="use these templates instead")
    exercises.add_argument(
        "--verify", action="store_true", help="check every answer key's decimals (slower)"
    )
    exercises.add_argument("--quiet", action="store_true", help="no progress line")


def _one_source(args: argparse.Namespace) -> None:
    if args.spec and args.example:
        raise SpecError("give a spec file or --example NAME, not both")
    if not args.spec and not args.example:
        raise SpecError("give a spec file or --example NAME (see `mha-symbolic examples`)")


def load_spec(args: argparse.Namespace):
    from mha_symbolic.spec.attention import AttentionSpec

    _one_source(args)
    if args.example:
        return AttentionSpec.example(args.example)
    return AttentionSpec.from_toml(args.spec)


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"cannot write: {exc.strerror}", source=output) from None


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
        try:
            target.write_bytes(result.png)
        except OSError as exc:
            raise SpecError(f"cannot write: {exc.strerror}", source=str(target)) from None
        print(f"wrote {target}", file=sys.stderr)
    return result


def _check(args: argparse.Namespace) -> int:
    from mha_symbolic.check.judge import check

    report = check(load_spec(args))
    formats = {"text": report.to_text, "md": report.to_markdown, "json": report.to_json}
    text = formats[args.format]()
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK if report.ok else EXIT_WRONG_CLAIM


def _exercises(args: argparse.Namespace) -> int:
    from mha_symbolic.exercises.bank import load
    from mha_symbolic.exercises.writer import write_bank
    from mha_symbolic.progress import CountLine

    _one_source(args)
    spec = load(args.spec, args.example)
    progress = CountLine("exercises", args.count, enabled=not args.quiet)
    files = write_bank(
        args.output,
        spec,
        args.count,
        args.seed,
        args.format,
        source=args.spec or f"example {args.example}",
        lang=args.lang,
        decimals=args.decimals,
        templates=args.templates,
        verify=args.verify,
        workers=args.workers,
        progress=progress,
    )
    progress.close()
    if not args.quiet:
        print(f"wrote {args.count} variants ({len(files)} files) to {args.output}", file=sys.stderr)
    return EXIT_OK


def _bench(args: argparse.Namespace) -> int:
    from mha_symbolic import bench

    for line in bench.run(quick=args.quick, only=args.only):
        print(line, flush=True)
    return EXIT_OK


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
        return handlers[args.command]()
    except SpecError as error:
        print(f"mha-symbolic: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("mha-symbolic: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
