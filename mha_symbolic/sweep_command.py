"""``mha-symbolic verify --sweep FILE``: a kernel verified over a grid of configurations on
Dask (the ``cluster`` extra), with progress, as a table or JSON."""

from __future__ import annotations

import argparse
from typing import Any

from mha_symbolic.errors import SpecError

EXIT_OK = 0
SWEEP_FILE = """\
A sweep file is TOML: the kernel ("scaled_dot_product_attention", "MultiheadAttention" or
"package.module:function"), shapes = [{ L = 4, E = 8, heads = 2 }, ...], and optionally
dtypes (float32 by default), masks (none, causal, padding: MultiheadAttention only) and seeds;
every combination is one configuration. Without --scheduler a LocalCluster of --workers
processes (one thread each) runs it. Needs the cluster extra: pip install
'mha-symbolic[cluster]'."""


def add_arguments(verify: argparse.ArgumentParser, whole: Any, path: Any) -> None:
    """The verify command's flags (``whole`` and ``path`` are the parser's argument types)."""
    verify.add_argument(
        "--sweep", type=path, required=True, metavar="FILE", help="the sweep file (TOML)"
    )
    verify.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="run on this Dask cluster (default: a LocalCluster on this machine)",
    )
    verify.add_argument(
        "--workers",
        type=whole(1, 64),
        metavar="K",
        help="the LocalCluster's worker processes (default 2)",
    )
    verify.add_argument(
        "--format", choices=("text", "json"), default="text", help="a table (text) or JSON"
    )
    verify.add_argument("-o", "--output", type=path, metavar="FILE", help="write here")


def verify_command(args: argparse.Namespace) -> int:
    """The sweep's table or JSON on stdout (or -o FILE); bad input is a SpecError."""
    from mha_symbolic.console import note, show
    from mha_symbolic.output_files import not_the_input, write_atomic
    from mha_symbolic.progress import CountLine
    from mha_symbolic.sweep import prepare, require_dask, sweep
    from mha_symbolic.sweep_grid import KERNELS, read_grid

    if args.scheduler is not None and args.workers is not None:
        raise SpecError("--workers is the LocalCluster's; an existing cluster has its own")
    not_the_input(args.output, args.sweep, False)
    plan = read_grid(args.sweep)
    if plan.kernel is None:
        raise SpecError(f"kernel: missing; give {KERNELS}", source=args.sweep)
    try:
        require_dask()
    except ImportError as error:
        raise SpecError(str(error)) from None
    try:
        kernel, plan = prepare(plan.kernel, plan)
    except SpecError as error:
        raise error.located(args.sweep) from None
    progress = CountLine(
        "verify", len(plan.configs), enabled=not args.quiet, unit=" configurations"
    )
    try:
        result = sweep(kernel, plan, scheduler=args.scheduler, workers=args.workers or 2,
                       progress=progress)  # fmt: skip
    finally:
        progress.close()
    text = result.to_json() if args.format == "json" else str(result)
    if args.output is None:
        show(text)
    else:
        write_atomic(args.output, text)
        note(f"wrote {args.output}")
    return EXIT_OK
