"""Whole commands as a user runs them: a fresh process each, its CPU and wall time, the
contenders interleaved (each repeat runs every command in turn)."""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from mha_symbolic.bench.timing import Timing, too_wide

TARGET = 0.5  # s CPU: `derive --example pytorch-style -o x.md`, issue 29 item 4


def _commands(folder: Path) -> dict[str, list[str]]:
    python = [sys.executable]
    return {
        "python -c 'import sympy' (its floor)": [*python, "-c", "import sympy"],
        "mha-symbolic --version": [*python, "-m", "mha_symbolic", "--version"],
        "mha-symbolic derive --example pytorch-style -o x.md": [
            *python,
            *("-m", "mha_symbolic", "derive", "--example", "pytorch-style", "-q"),
            *("-o", str(folder / "x.md")),
        ],
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(commands: dict[str, list[str]], repeats: int) -> dict[str, tuple[Timing, Timing]]:
    """Each command's (CPU, wall) seconds: medians of ``repeats`` runs taken in turn."""
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    wall: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, argv in commands.items():
            before, start = _children_cpu(), time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(_children_cpu() - before)
    return {name: (_timing(cpu[name]), _timing(wall[name])) for name in commands}


def _timing(values: list[float]) -> Timing:
    return Timing(statistics.median(values), min(values), max(values))


def bench_commands(quick: bool = False) -> Iterator[str]:
    """The median CPU and wall seconds of whole commands, started afresh each time."""
    repeats = 3 if quick else 7
    yield (
        f"whole commands, a fresh process each (median seconds of {repeats} interleaved runs; "
        f"target for derive: {TARGET} s CPU)"
    )
    if sys.dont_write_bytecode:
        yield "  (PYTHONDONTWRITEBYTECODE is set: modules with no cached .pyc compile every start)"
    yield f"{'command':<52}  {'CPU':>6}  {'wall':>6}"
    with tempfile.TemporaryDirectory() as folder:
        commands = _commands(Path(folder))
        subprocess.run(commands[next(reversed(commands))], check=True, stdout=subprocess.DEVNULL)
        timings = _timed(commands, repeats)
    for name, (cpu, wall) in timings.items():
        note = too_wide({"CPU": cpu})
        if name.startswith("mha-symbolic derive"):
            note += f"  (target {TARGET} s: {'met' if cpu.median <= TARGET else 'not met'})"
        yield f"{name:<52}  {cpu.median:6.3f}  {wall.median:6.3f}{note}"
