"""Writing an exercise bank: variants made (in worker processes) and written as they come,
into a folder built beside the target and moved into place when the bank is complete."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.exercises.bank import (
    FORMATS,
    HALVES,
    INTEGERS,
    MAX_COUNT,
    MAX_DRAWS,
    MAX_SPAN,
    MAX_WIDTH,
    MIN_WIDTH,
    UNITS,
    WIDE_DRAWS,
    ExerciseOptions,
    _environment,
    _plain,
    _words,
    make_variant,
    split_document,
    variant_dir,
)
from mha_symbolic.output_files import staged_folder
from mha_symbolic.spec.input_files import parse_toml

if sys.version_info >= (3, 11):
    pass
else:  # pragma: no cover - Python 3.10
    pass

INDEX = "bank.json"  # a folder holding it is a bank, which a new bank may replace


def generate(
    spec: Mapping[str, Any],
    count: int,
    seed: int,
    options: ExerciseOptions,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Iterator[dict[str, bytes]]:
    """Variants 1..count in order, spread over ``workers`` processes; ``progress`` is told
    each count once its variant has been taken (written) by the caller."""
    indices = range(1, count + 1)
    if workers <= 1 or count == 1:
        for index in indices:
            yield make_variant(spec, seed, index, options)
            if progress:
                progress(index)
        return
    chunk = max(1, min(16, count // (workers * 4)))
    # forkserver (spawn where there is none): forking a process that runs threads (torch,
    # JAX) can deadlock the child.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        try:
            results = pool.map(
                make_variant, repeat(spec), repeat(seed), indices, repeat(options), chunksize=chunk
            )
            for done, files in enumerate(results, start=1):
                yield files
                if progress:
                    progress(done)
        except BaseException:  # an error, Ctrl-C or SIGTERM: drop the variants not yet begun
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def bank_index(
    source: str,
    seed: int,
    options: ExerciseOptions,
    variants: Sequence[Mapping[str, bytes]],
    written: Sequence[str] = (),
) -> str:
    """bank.json: the rule, per variant its seed, index, files and spec to re-derive it, and
    every file the bank wrote (``files``: what a later bank in its folder may remove)."""
    entries = []
    for index, files in enumerate(variants, start=1):
        folder = variant_dir(index)
        spec = parse_toml(files[f"{folder}/spec.toml"].decode("utf-8"), f"{folder}/spec.toml")
        entries.append(
            {"index": index, "seed": seed, "dir": folder, "files": sorted(files), "spec": spec}
        )
    document = {
        "source": source,
        "seed": seed,
        "count": len(variants),
        "format": options.fmt,
        "lang": options.lang,
        "decimals": options.decimals,
        "niceness": {
            "integers": [_plain(n) for n in INTEGERS],
            "halves": [_plain(n) for n in HALVES],
            "units": [_plain(n) for n in UNITS],
            "wide_draws": WIDE_DRAWS,
            "min_width": MIN_WIDTH,
            "max_width": MAX_WIDTH,
            "max_span": MAX_SPAN,
            "max_draws": MAX_DRAWS,
        },
        "variants": entries,
        "files": sorted({*written, INDEX}),
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def bank_tex(
    source: str, seed: int, options: ExerciseOptions, variants: Sequence[Mapping[str, bytes]]
) -> str:
    """One LaTeX document: every student sheet, then every answer key, each on new pages."""
    sheets, answers = [], []
    preamble = ""
    for index, files in enumerate(variants, start=1):
        folder = variant_dir(index)
        preamble, body = split_document(files[f"{folder}/sheet.tex"].decode("utf-8"))
        sheets.append(body)
        answers.append(split_document(files[f"{folder}/answers.tex"].decode("utf-8"))[1])
    env = _environment("tex", options.templates)
    return env.get_template("bank.tex.j2").render(
        preamble=preamble,
        sheets=sheets,
        answers=answers,
        count=len(variants),
        seed=seed,
        source=source,
        words=_words(options),
    )


def engine(options: ExerciseOptions) -> str:
    return "xelatex" if options.lang == "bn" else "pdflatex"


def _options(
    fmt: str, lang: str, decimals: int, templates: str | None, verify: bool
) -> ExerciseOptions:
    """The options of each variant, after checking what the bank's format needs."""
    from mha_symbolic.solution import pdf

    if fmt not in FORMATS:
        raise SpecError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    font = None
    if fmt != "md" and lang == "bn":
        font = pdf.bengali_font()
        if font is None and fmt == "pdf":
            raise SpecError(pdf.FONT_INSTALL)
        font = font or pdf.DEFAULT_BENGALI_FONT
    options = ExerciseOptions(
        "md" if fmt == "md" else "tex", lang, decimals, templates, font, verify
    )
    if fmt == "pdf":
        pdf.require(engine(options))
    return options


def write_bank(
    folder: str | Path,
    spec: Mapping[str, Any],
    count: int,
    seed: int,
    fmt: str = "md",
    *,
    source: str = "<spec>",
    lang: str = "en",
    decimals: int = 2,
    templates: str | None = None,
    verify: bool = False,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """Write ``count`` variants of ``spec`` into ``folder``; returns the files written.

    Each variant's files are written as soon as it is made, into a temporary folder beside
    ``folder`` that becomes ``folder`` once the bank is complete (and is removed if it is
    not). ``folder`` may be new, empty, or an earlier bank (holding bank.json), which is
    replaced as a whole.
    """
    from mha_symbolic.solution import pdf

    if not 1 <= count <= MAX_COUNT:
        raise SpecError(f"count must be from 1 to {MAX_COUNT}, got {count}")
    options = _options(fmt, lang, decimals, templates, verify)
    target = _prepare(folder)
    names: list[str] = []
    variants: list[dict[str, bytes]] = []
    with staged_folder(target) as staging:
        for files in generate(spec, count, seed, options, workers or os.cpu_count() or 1, progress):
            names += _write_all(staging, files, target)
            variants.append(files)
        extra: dict[str, bytes] = {}
        if fmt != "md":
            tex = bank_tex(source, seed, options, variants)
            extra["bank.tex"] = tex.encode("utf-8")
            if fmt == "pdf":
                extra["bank.pdf"] = pdf.compile_tex(
                    tex, {}, engine(options), bounded=bool(options.templates)
                )
        index = bank_index(source, seed, options, variants, [*names, *extra])
        extra[INDEX] = index.encode("utf-8")
        names += _write_all(staging, extra, target)
    return [Path(folder) / name for name in names]


def _prepare(folder: str | Path) -> Path:
    """The bank's folder, checked before any work: new, empty, or an earlier bank holding
    only the files it listed (it is replaced whole; anything else there is never removed)."""
    if str(folder) == "":
        raise SpecError("the bank's folder name is empty")
    target = Path(os.path.abspath(folder))
    if target.is_symlink():
        raise SpecError("is a link; give the bank's folder itself", source=str(folder))
    if target.exists() and not target.is_dir():
        raise SpecError("is a file, not a folder", source=str(folder))
    if not target.parent.is_dir():
        raise SpecError("its parent folder does not exist", source=str(folder))
    if target.is_dir() and any(target.iterdir()):
        _replaceable(target, str(folder))
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise SpecError("cannot write into its parent folder", source=str(folder))
    return target


def _replaceable(target: Path, folder: str) -> None:
    """Refuse a folder that is not an earlier bank, or holds what its bank did not write,
    or holds the current folder (replacing it would pull the folder from under the shell)."""
    if not (target / INDEX).is_file():
        raise SpecError(
            f"is a folder with other files in it; give a new or empty folder (an earlier bank, "
            f"with its {INDEX}, is replaced)",
            source=folder,
        )
    others = sorted(set(_present(target)) - _listed(target))
    if others:
        shown = ", ".join(others[:3]) + (", …" if len(others) > 3 else "")
        raise SpecError(
            f"holds files the earlier bank did not write ({shown}); a bank replaces its "
            "whole folder: move them, or give a new or empty folder",
            source=folder,
        )
    cwd = Path.cwd()
    if cwd == target or target in cwd.parents:
        raise SpecError(
            "is (or holds) the current folder; a bank replaces its whole folder: "
            "run the command from outside it",
            source=folder,
        )


def _present(target: Path) -> list[str]:
    """Every file, link and folder under ``target`` (links not followed), relative, with /."""
    out = []
    for root, folders, files in os.walk(target):
        for name in [*folders, *files]:
            out.append(Path(root, name).relative_to(target).as_posix())
    return out


def _written(index: Any) -> list[Any]:
    if "files" in index:
        return list(index["files"])
    names = [f for v in index.get("variants", []) for f in v.get("files", [])]
    if index.get("format") in ("tex", "pdf"):
        names += ["bank.tex", "bank.pdf"] if index["format"] == "pdf" else ["bank.tex"]
    return names


_BANK_NAME = re.compile(r"bank\.(json|tex|pdf)|variant-\d{3,}/[\w.-]+")


def _listed(target: Path) -> set[str]:
    """What the earlier bank wrote, as its bank.json lists it (``files``; before that list,
    each variant's files), with their variant folders; names a bank cannot write are not
    taken (a bank.json edited to list ../thesis.tex removes nothing)."""
    try:
        index = json.loads((target / INDEX).read_text(encoding="utf-8"))
        names = [str(n) for n in _written(index)]
    except (OSError, ValueError, AttributeError, TypeError):
        names = []
    names.append(INDEX)
    files = {n for n in names if _BANK_NAME.fullmatch(n)}
    return files | {n.split("/")[0] for n in files if "/" in n}


def _write_all(staging: Path, files: Mapping[str, bytes], target: Path) -> list[str]:
    """Write ``files`` (paths relative to the bank) into ``staging``; errors name the file
    as it will be named in ``target``."""
    for name, data in files.items():
        try:
            (staging / name).parent.mkdir(exist_ok=True)
            (staging / name).write_bytes(data)
        except OSError as exc:
            raise SpecError(f"cannot write: {exc.strerror}", source=str(target / name)) from None
    return list(files)
