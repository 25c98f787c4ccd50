"""The mha-symbolic command: argument parsing, files, signals and exit codes only."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mha_symbolic.arguments import as_flags, build_parser
from mha_symbolic.command_parser import EXIT_BAD_INPUT, MESSAGE_LIMIT, completion, manpage
from mha_symbolic.console import manners, show
from mha_symbolic.console import note as _note
from mha_symbolic.errors import SpecError
from mha_symbolic.interrupts import Terminated, signals_raise
from mha_symbolic.output_files import make_folder, not_the_input, write_atomic, write_files
from mha_symbolic.process import loading, started
from mha_symbolic.sweep_command import verify_command
from mha_symbolic.text import one_line
from mha_symbolic.web.command import serve

EXIT_OK, EXIT_WRONG_CLAIM = 0, 1
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + SIGINT, 128 + SIGTERM
STDIN = "-"  # the spec (or claims) file name that reads standard input


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


def load_specs(args: argparse.Namespace, claims: dict[str, Any] | None = None) -> list[Any]:
    """The spec, or one per batch element when an input has shape (batch, L, E)."""
    from mha_symbolic.spec.attention import AttentionSpec

    _one_source(args)
    if args.example:
        return [AttentionSpec.example(args.example)]
    from mha_symbolic.check.batch import batch_specs, is_batched  # (an example is one spec)
    from mha_symbolic.spec.input_files import parse_toml, read_text

    source = "<stdin>" if args.spec == STDIN else str(args.spec)
    raw = _stdin_table() if args.spec == STDIN else parse_toml(read_text(args.spec, source), source)
    if is_batched(raw):
        return batch_specs(raw, source, claims)
    return [AttentionSpec.from_dict(raw, source=source)]


def _stdin_table() -> dict[str, Any]:
    """The spec TOML on standard input, read as a table (floats kept as exact decimals)."""
    from mha_symbolic.spec.input_files import parse_toml

    return parse_toml(_read_text(STDIN), "<stdin>")


def _write(text: str, output: str | None) -> None:
    if output is None:
        show(text)
        return
    write_atomic(output, text)


def _examples() -> int:
    from mha_symbolic.spec.catalogue import catalogue

    for name, title, _ in catalogue():
        print(f"{name:<20} {title}")
    return EXIT_OK


def _derive(args: argparse.Namespace) -> int:
    with loading():
        from mha_symbolic.solution.render import infer_format, render, write
        from mha_symbolic.solution.view import Options

    if (args.plot_keys or args.plot_file) and not args.plot:
        flag = "--plot-keys" if args.plot_keys else "--plot-file"
        raise SpecError(f"{flag} goes with --plot NAME=START:STOP, which is not given")
    options = Options(
        decimals=Options.decimals if args.decimals is None else args.decimals,
        detail=args.detail,
        lang=args.lang,
        max_size=args.max_size,
        templates=args.templates,
        enclose=args.enclose,
        exact=args.exact,
    )
    for target in (args.output, args.plot_file):
        not_the_input(target, args.spec, args.force)
    specs = load_specs(args)
    fmt = args.format or (infer_format(args.output) if args.output else _screen_format())
    if fmt != "json" and (args.enclose is not None or not args.exact):
        flag = "--enclose" if args.enclose is not None else "--no-exact"
        raise SpecError(f"{flag} is for --format json, not {fmt}")
    if fmt == "text" and args.output is None:  # a file is 100 columns wide, whoever writes it
        from mha_symbolic.solution.terminal import terminal_width

        options = replace(options, columns=terminal_width())
    if len(specs) > 1:
        return _derive_batch(args, specs, options, fmt)
    d, options = _derive_one(args, specs[0], options)
    if args.output is None:
        if fmt == "pdf":
            raise SpecError("--format pdf writes a file: give -o FILE.pdf")
        if fmt == "json":  # streamed, row by row
            from mha_symbolic.solution.json_out import chunks

            for piece in chunks(d, options):
                sys.stdout.write(piece)
            return EXIT_OK
        _write(render(d, fmt, options), None)
        return EXIT_OK
    for path in write(d, args.output, fmt, options):
        _note(f"wrote {path}")
    return EXIT_OK


def _derive_one(args: argparse.Namespace, spec: Any, options: Any) -> tuple[Any, Any]:
    """One spec derived (with progress), its --plot and --limit, and its claims as marks."""
    from mha_symbolic.exact.evaluate import derive
    from mha_symbolic.progress import StepLine
    from mha_symbolic.spec.step_decimals import with_spec_decimals

    progress = StepLine(enabled=not args.quiet)
    try:
        d = derive(spec, True if args.gradients else None, progress=progress, large=args.large)
    finally:
        progress.close()
    if args.decimals is None:  # the spec's own decimals, unless --decimals says otherwise
        options = with_spec_decimals(options, spec)
    if args.plot:
        options = replace(options, plots=(_plot(args, d),))
    if args.limit:  # the claims are about the values, not their limits: no marks
        from mha_symbolic.exact.limits import parse_limit

        d = d.limit(*parse_limit(args.limit))
    elif spec.claims:  # mark, in place, each printed number that does not hold
        from mha_symbolic.check.judge import check

        options = replace(options, marks=check(d).marks())
    return d, options


_BATCH_HEADING = {
    "md": "# Batch element {n} of {count}\n\n",
    "text": "Batch element {n} of {count}\n",
}


def _derive_batch(args: argparse.Namespace, specs: list[Any], options: Any, fmt: str) -> int:
    """A batch: each element's solution under its own heading (md, text, json on stdout), or
    one file per element (FILE-b1.md, ...)."""
    import json

    from mha_symbolic.solution.render import render, write

    count = len(specs)
    if args.plot:
        raise SpecError(f"--plot takes one sequence, and this spec is a batch of {count}")
    if args.output is None and fmt not in (*_BATCH_HEADING, "json"):
        raise SpecError(f"a batch of {count} in {fmt} is one file per element: give -o FILE")
    parts = []
    for n, spec in enumerate(specs, start=1):
        d, own = _derive_one(args, spec, options)
        if args.output is not None:
            target = Path(args.output)
            for path in write(d, str(target.with_stem(f"{target.stem}-b{n}")), fmt, own):
                _note(f"wrote {path}")
        elif fmt == "json":
            parts.append(json.loads(render(d, "json", own)))
        else:
            parts.append(_BATCH_HEADING[fmt].format(n=n, count=count) + render(d, fmt, own))
    if args.output is None:
        text = json.dumps({"batch": parts}, ensure_ascii=False, indent=2) + "\n"
        _write(text if fmt == "json" else "\n".join(parts), None)
    return EXIT_OK


def _screen_format() -> str:
    """Plain text on a terminal (LaTeX is unreadable there), Markdown into a pipe or file."""
    return "text" if sys.stdout.isatty() else "md"


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
        _note(f"wrote {target}")
    return result


def _check(args: argparse.Namespace) -> int:
    with loading():
        from mha_symbolic.check.judge import check

    if args.spec == STDIN and args.claims == STDIN:
        raise SpecError("the spec and --claims cannot both be - (standard input)")
    claims = _claims(args)
    specs = load_specs(args, claims)
    options = {"large": args.large, "inputs": args.inputs, "dtype": args.dtype}
    if len(specs) > 1:  # a batch: each element's claims were routed to it
        from mha_symbolic.check.batch import check_specs

        report = check_specs(specs, specs[0].source, **options)
    else:
        report = check(specs[0], claims, **options)
    text = _report_text(report, "text" if args.why else args.format, args.lang)
    show(text if text.endswith("\n") else text + "\n")
    return EXIT_OK if report.ok else EXIT_WRONG_CLAIM


def _report_text(report: Any, fmt: str, lang: str) -> str:
    """text: a block per claim within the terminal's width; table: a row per claim (wide);
    in ``lang``."""
    from mha_symbolic.solution.terminal import terminal_width

    formats = {"text": lambda lang: report.readable(lang, terminal_width())}
    formats["table"] = report.to_text
    formats.update(md=report.to_markdown, json=report.to_json)
    return str(formats[fmt](lang))


def _claims(args: argparse.Namespace) -> dict[str, Any] | None:
    """The claims of --claims FILE and --claim KEY=VALUE, or None for the spec's own."""
    from mha_symbolic.spec.input_files import parse_toml

    if args.claims is None and not args.claim:
        return None
    table: dict[str, Any] = {}
    if args.claims is not None:
        source = "<stdin>" if args.claims == STDIN else args.claims
        raw = parse_toml(_read_text(args.claims), source)
        inner = raw.get("claims")
        table.update(inner if isinstance(inner, dict) else raw)
    for given in args.claim or []:
        key, equals, value = given.partition("=")
        if not equals or not key.strip():
            raise SpecError(f"--claim: write KEY=VALUE, got {given!r}")
        table[key.strip()] = value.strip()
    return table


DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt", ".tex", ".ipynb", ".html", ".htm")


def _is_document(name: str | None) -> bool:
    return bool(name) and Path(str(name)).suffix.lower() in DOCUMENT_SUFFIXES


def _extract(args: argparse.Namespace) -> int:
    """``extract DOC [-o PATH]``: the draft spec(s); exit 2 when nothing is left to check."""
    from mha_symbolic.extract import extract_all
    from mha_symbolic.language.extract_phrases import voice

    args.output = None if args.output == "-" else args.output  # "-o -": stdout, not a file
    not_the_input(args.output, args.document, args.force)
    found = extract_all(args.document)
    say = voice(args.lang)
    if len(found) > 1 and args.output is None:
        raise SpecError(
            f"{args.document}: {len(found)} worked examples; give -o FOLDER for one spec each"
        )
    if len(found) == 1 and not _is_folder(args.output):
        _write(found[0].toml, args.output)
        targets = [args.output or "stdout"]
    else:  # -o FOLDER/ or an existing folder: one spec each in it, even for one example
        count = len(found)
        purpose = (
            f"{args.document} has {count} worked examples, one spec each"
            if count > 1
            else "the name asks for a folder to write the spec into"
        )
        folder = make_folder(args.output, purpose)
        stem = Path(args.document).stem
        names = [f"{stem}-{i}.toml" for i in range(1, count + 1)] if count > 1 else [f"{stem}.toml"]
        targets = [str(folder / name) for name in names]
        write_files({Path(target): one.toml for target, one in zip(targets, found)})
    for target, one in zip(targets, found):
        for line in one.inferred:  # what the numbers say, as check DOC prints it
            _note(say.say(line))
        for note in one.notes:
            _note(f"{say('code', text=args.document)}: {say.say(note)}")
        if args.output is not None:
            _note(f"wrote {target}")
    for finding in _findings(args.document, found):
        _note(f"{say('code', text=args.document)}: {say.say(finding.phrase)}")
    _nothing_to_check(args.document, found)  # said, yet the spec written is usable: exit 0
    return EXIT_OK


def _findings(document: str, found: list[Any]) -> tuple[Any, ...]:
    """Shapes and conventions the document contradicts (see check/findings.py)."""
    from mha_symbolic.check.findings import findings

    return findings([one.spec for one in found], _read_text(document))


def _is_folder(output: str | None) -> bool:
    """``-o specs/`` (a trailing slash) or ``-o specs`` when specs is a folder."""
    return output is not None and (output.endswith(("/", os.sep)) or Path(output).is_dir())


def _nothing_to_check(document: str, found: list[Any]) -> int:
    if any(one.checkable for one in found):
        return 0
    weights = "symbolic weights" if found[0].spec.symbolic else "its weights"
    _error(
        f"{document}: nothing to check: the document prints no results; the spec offers the "
        f"layout it describes ({found[0].layout}) with {weights}"
    )
    return EXIT_BAD_INPUT


def _check_document(args: argparse.Namespace) -> int:
    """``check DOC``: the mapping read from the document, then the usual report per example."""
    from mha_symbolic.check.findings import findings_json
    from mha_symbolic.extract import extract_all
    from mha_symbolic.extract.example_groups import header, numbered
    from mha_symbolic.language.extract_phrases import voice
    from mha_symbolic.solution.terminal import terminal_width, wrap

    if args.example or args.claim or args.claims:
        raise SpecError("check DOC reads its claims from the document: no --example or --claim")
    found = extract_all(args.spec, reprints=True)
    noticed = _findings(args.spec, found)
    fill = (lambda line: wrap(line, 4, terminal_width())) if args.format == "text" else str
    for finding in noticed:  # before the reports: a document's own contradictions
        line = voice(args.lang).say(finding.phrase)
        _note(line) if args.format == "json" else print(fill(line))
    if not any(one.checkable for one in found):
        if noticed and args.format == "json":  # stdout stays one JSON document: the findings
            show(findings_json(args.spec, noticed, voice(args.lang)))
        return EXIT_WRONG_CLAIM if noticed else _nothing_to_check(args.spec, found)
    found = [one for one in found if one.checkable]  # a reading with no claim is no report
    worst, words, out = (EXIT_WRONG_CLAIM if noticed else EXIT_OK), voice(args.lang), []
    for number, one in enumerate(found, start=1):
        # JSON stays one parseable document on stdout; the mapping then goes to stderr.
        said = [words.say(line) for line in (*one.inferred, *one.mapping)]
        if len(found) > 1:  # a page of several examples: a header line each
            said.insert(0, words.say(header(number, len(found))))
        said += [words("note", text=words.say(note)) for note in one.notes]
        if args.format == "json":
            for line in said:
                _note(line)
        else:
            out += [fill(line) + "\n" for line in said]
        report = _document_report(one, args.large)
        text = _report_text(report, args.format, args.lang)
        if args.format == "json" and len(found) > 1:
            text = numbered(text, number, len(found), one.spec.title)
        out.append(text if text.endswith("\n") else text + "\n")
        worst = worst if report.ok else EXIT_WRONG_CLAIM
    show("".join(out))
    return worst


def _document_report(one: Any, large: bool) -> Any:
    """The report of one example of a document; a batch's, each element judged on its own."""
    from mha_symbolic.check.batch import batch_specs, check_specs
    from mha_symbolic.check.judge import check

    if one.batch is None:
        return check(one.spec, large=large)
    return check_specs(batch_specs(one.batch, one.spec.source), one.spec.source, large=large)


def _read_text(name: str) -> str:
    """The UTF-8 text of a regular file or of standard input (``spec.input_files``)."""
    from mha_symbolic.spec.input_files import read_stdin, read_text

    return read_stdin() if name == STDIN else read_text(name, name)


def _exercises(args: argparse.Namespace) -> int:
    from mha_symbolic.exercises.bank import load
    from mha_symbolic.exercises.bank_writer import write_bank
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
    _note(f"wrote {args.count} variants ({len(files)} files) to {args.output}")
    return EXIT_OK


def _print(text: str) -> int:
    sys.stdout.write(text)
    return EXIT_OK


def _bench(args: argparse.Namespace) -> int:
    from mha_symbolic import bench

    for line in bench.run(args.quick, args.only, args.full_context):
        print(line, flush=True)
    return EXIT_OK


def _error(message: str) -> None:
    """The one place errors reach the terminal: control characters escaped (no ANSI escape
    or newline from user text), cut to one line."""
    print(f"mha-symbolic: {one_line(message, MESSAGE_LIMIT)}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    started(own_process=argv is None)
    args = build_parser().parse_args(argv)
    with manners(quiet=args.quiet, pager=not getattr(args, "no_pager", True)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    handlers = {
        "examples": lambda: _examples(),
        "derive": lambda: _derive(args),
        "check": lambda: _check_document(args) if _is_document(args.spec) else _check(args),
        "exercises": lambda: _exercises(args),
        "bench": lambda: _bench(args),
        "extract": lambda: _extract(args),
        "verify": lambda: verify_command(args),
        "serve": lambda: serve(args),
        "completion": lambda: _print(completion(build_parser(), args.shell)),
        "manpage": lambda: _print(manpage(build_parser())),
    }
    try:
        with signals_raise():
            return handlers[args.command]()
    except SpecError as error:
        _error(as_flags(str(error)))
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
